import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encode, negotiate } from './negotiation';
import { acceptsOpenApiV2Protobuf, OPENAPI_V2_PROTOBUF, openApiV2Protobuf } from './openapi-v2-protobuf';

/**
 * R322 — the HTTP caching of the OpenAPI documents, as kube-openapi's handlers answer
 * (pkg/handler3 `HandleDiscovery`, `HandleGroupVersion`; pkg/handler `ServeHTTP` for v2; both end
 * in Go's `http.ServeContent`):
 *
 * - every document carries an `Etag`: the quoted upper-case hex SHA-512 of its JSON (`computeETag`),
 *   the same for v2's protobuf form as for its JSON ("because of the Vary header");
 * - a group/version document and `/openapi/v2` say `Vary: Accept`;
 * - a group/version document asked for with `?hash=` — the `serverRelativeURL` the `/openapi/v3`
 *   root lists, whose hash *is* that ETag — is `Cache-Control: public, immutable` with `Expires`
 *   a year after the request; a stale hash is a 301 to the current URL;
 * - a request whose `If-None-Match` names the ETag (or `*`) is a 304 with no body.
 *
 * This is what lets a client skip the documents: client-go's disk HTTP cache (kubectl's
 * `~/.kube/cache/http`, the forked gregjones/httpcache) reuses a hashed document without asking
 * while `Expires` is ahead, and revalidates the root and v2 with `If-None-Match`. Without these
 * headers every `kubectl apply` and `explain` downloaded each document again.
 * Not modelled: `Last-Modified` and `If-Modified-Since` (the time the document was built, a
 * wall-clock time; clients send `If-None-Match`, which takes precedence), byte ranges.
 */

/** The ETag kube-openapi gives a document: the upper-case hex SHA-512 of its bytes, unquoted. */
export function computeETag(json: string | Buffer): string {
  return createHash('sha512').update(json).digest('hex').toUpperCase();
}

interface Encoded {
  readonly json: Buffer;
  readonly etag: string;
}

/** Each document's JSON and ETag, made once: the documents are immutable once built (openapi.ts). */
const encoded = new WeakMap<object, Encoded>();

function encodedOf(doc: object): Encoded {
  let e = encoded.get(doc);
  if (!e) {
    const json = Buffer.from(JSON.stringify(doc));
    e = { json, etag: computeETag(json) };
    encoded.set(doc, e);
  }
  return e;
}

/** Whether `If-None-Match` names the ETag (weak comparison, as ServeContent's checkIfNoneMatch). */
function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === `"${etag}"`;
  });
}

/** One year after now, as Go's `time.Now().AddDate(1, 0, 0)` in an HTTP date. */
function aYearFromNow(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toUTCString();
}

/**
 * Answers a GET or HEAD of an OpenAPI document (`path` without the query): `/openapi/v3`,
 * `/openapi/v3/{group-version}` or `/openapi/v2`.
 */
export function writeOpenApiDocument(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  doc: object,
): void {
  const { json, etag } = encodedOf(doc);
  const headers: OutgoingHttpHeaders = {};
  const groupVersion = path.startsWith('/openapi/v3/');
  if (groupVersion || path === '/openapi/v2') headers.Vary = 'Accept';
  headers.Etag = `"${etag}"`;
  const hash = groupVersion ? url.searchParams.get('hash') : null;
  if (hash) {
    if (hash !== etag) {
      const location = `${path}?hash=${etag}`;
      const body = `<a href="${location}">Moved Permanently</a>.\n\n`;
      res.writeHead(301, { ...headers, Location: location, 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(body);
    }
    headers['Cache-Control'] = 'public, immutable';
    headers.Expires = aYearFromNow();
  }
  if (noneMatchHits(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  // kube-openapi's v2 handler: gnostic's protobuf form (R100), JSON, or (as before) YAML.
  if (path === '/openapi/v2') {
    if (acceptsOpenApiV2Protobuf(req.headers.accept))
      return writeBytes(res, headers, OPENAPI_V2_PROTOBUF, openApiV2Protobuf(doc));
    const media = negotiate(req.headers.accept, []);
    if (media.type !== 'application/json') {
      const { body, contentType } = encode(media, doc);
      return writeBytes(res, headers, contentType, typeof body === 'string' ? Buffer.from(body) : body);
    }
  }
  writeBytes(res, headers, 'application/json', json);
}

function writeBytes(res: ServerResponse, headers: OutgoingHttpHeaders, contentType: string, bytes: Buffer): void {
  res.writeHead(200, { 'Content-Type': contentType, ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
}

import { toYaml } from '../yaml-output';
import { encodeProtobuf, PROTOBUF } from './protobuf';
import { notAcceptable } from './status';

/**
 * Content negotiation (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation):
 * which serialization the client accepts, and whether it asks for a conversion of the object
 * (`as=Table;g=meta.k8s.io;v=v1` for server-side printing, `as=PartialObjectMetadata`, or
 * `as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2` for aggregated discovery).
 */
export interface MediaType {
  /** application/json, application/yaml, or protobuf (resource endpoints only, without a conversion). */
  readonly type: 'application/json' | 'application/yaml' | typeof PROTOBUF;
  /** The `as` conversion asked for, with its group and version. */
  readonly as?: { readonly kind: string; readonly group: string; readonly version: string };
}

/** What the server can encode. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF];

interface AcceptEntry {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** The Accept header's entries, highest q first (equal q in the client's order), q=0 left out. */
export function parseAccept(header: string | undefined): AcceptEntry[] {
  if (!header || header.trim() === '') return [{ type: '*/*', params: {}, q: 1 }];
  const entries = header.split(',').map((part, index) => {
    const [type, ...rest] = part.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    delete params.q;
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index };
  });
  // Highest q first; equal q keeps the client's order.
  return entries.filter((e) => e.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
}

/**
 * The first Accept entry the server can produce among the conversions `allowed` for this
 * endpoint ("Table", "PartialObjectMetadata", "APIGroupDiscoveryList", …); an entry asking for
 * another conversion is skipped, as upstream's negotiation skips unsupported `as` targets.
 * Protobuf is chosen only where `protobuf` says the endpoint's objects have messages (resource
 * requests; discovery and OpenAPI are answered in JSON), and never with a conversion.
 */
export function negotiate(
  accept: string | undefined,
  allowed: readonly { kind: string; group: string; versions: readonly string[] }[],
  protobuf = false,
): MediaType {
  for (const e of parseAccept(accept)) {
    const type = e.type === '*/*' || e.type === 'application/*' ? 'application/json' : e.type;
    if (type === PROTOBUF && protobuf && e.params.as === undefined) return { type };
    if (type !== 'application/json' && type !== 'application/yaml') continue;
    const as = e.params.as;
    if (as === undefined) return { type };
    const target = allowed.find(
      (a) => a.kind === as && a.group === (e.params.g ?? '') && a.versions.includes(e.params.v ?? ''),
    );
    if (target) return { type, as: { kind: as, group: target.group, version: e.params.v! } };
  }
  throw notAcceptable(SERVED_MEDIA_TYPES);
}

/**
 * The body and Content-Type of a response object in the negotiated serialization. An object with
 * no protobuf message (none here among those served) goes out as JSON, which clients asking for
 * protobuf also accept.
 */
export function encode(media: MediaType, obj: unknown): { body: string | Buffer; contentType: string } {
  if (media.type === PROTOBUF) {
    const body = encodeProtobuf(obj as Record<string, unknown>);
    if (body) return { body, contentType: PROTOBUF };
    return { body: JSON.stringify(obj), contentType: 'application/json' };
  }
  return {
    body: media.type === 'application/yaml' ? toYaml(obj) : JSON.stringify(obj),
    contentType: contentTypeOf(media),
  };
}

/** The Content-Type of an answer in the negotiated serialization. */
export function contentTypeOf(media: MediaType): string {
  if (media.type === 'application/yaml' || media.type === PROTOBUF) return media.type;
  // Aggregated discovery names its form in the Content-Type: clients check it to know what they got.
  return media.as?.group === 'apidiscovery.k8s.io'
    ? `application/json;g=apidiscovery.k8s.io;v=${media.as.version};as=${media.as.kind}`
    : 'application/json';
}

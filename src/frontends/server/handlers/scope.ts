import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiResponse, ApiServer, ClientIdentity } from '../../../apiserver/apiserver';
import { StatusError, unprocessable } from '../../../apimachinery/errors';
import type { KubeObject } from '../../../apimachinery/object';
import type { Cluster } from '../../../cluster/cluster';
import { encode, negotiate, type MediaType } from '../negotiation';
import { mediaTypeOf } from '../body';
import { PROTOBUF } from '../protobuf';
import { notAcceptable, unsupportedMediaType } from '../status';
import type { WatchStream } from '../activity';
import type { RequestInfo } from '../request-info';
import { toServed, type ServedResource } from '../../../apiserver/resources';
import type { HttpsWebhookCaller } from '../webhook-client';
import { addWarnings } from '../field-validation';
import { customResourcePrinter } from '../custom-resource-table';
import type { Printer } from '../../../apiserver/printers/printer';

/**
 * Everything a verb handler needs about one resource request (upstream: handlers.RequestScope
 * plus the request): the cluster, the parsed request, the served resource and the caller.
 */
export interface RequestScope {
  readonly cluster: Cluster;
  readonly api: ApiServer;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly info: RequestInfo;
  readonly resource: ServedResource;
  readonly client: ClientIdentity;
  /** Reads the request body (bounded by the body limit). */
  readonly body: () => Promise<Buffer>;
  /** The admission webhooks' caller: a mutating request runs through `webhooks.admitted`. */
  readonly webhooks: HttpsWebhookCaller;
  /** Called when a watch opens and when it closes, for the activity tracker. */
  readonly watchOpened: () => WatchStream;
}

/** The conversions a GET may ask for (handlers/response.go transformResponseObject: an object to a Table or its metadata). */
export const GET_CONVERSIONS = [
  { kind: 'Table', group: 'meta.k8s.io', versions: ['v1'] },
  { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', versions: ['v1'] },
] as const;

/** The conversions a LIST may ask for (a list to a Table or to the list of its items' metadata). */
export const LIST_CONVERSIONS = [
  { kind: 'Table', group: 'meta.k8s.io', versions: ['v1'] },
  { kind: 'PartialObjectMetadataList', group: 'meta.k8s.io', versions: ['v1'] },
] as const;

export function query(scope: RequestScope, name: string): string | undefined {
  return scope.url.searchParams.get(name) ?? undefined;
}

/** The query as a plain record (first value of each parameter). */
export function queryRecord(scope: RequestScope): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of scope.url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}

/** The value of an ApiResponse, or its Status thrown as the error the handler answers with. */
/** A mutating request through the webhooks' caller (webhooks.admitted), its admission warnings as Warning headers, unwrapped. */
export async function admit<T>(scope: RequestScope, run: () => ApiResponse<T>): Promise<{ code: number; object: T }> {
  const r = await scope.webhooks.admitted(run);
  if (r.warnings) addWarnings(scope.res, r.warnings);
  return unwrap(r);
}

export function unwrap<T>(r: ApiResponse<T>): { code: number; object: T } {
  if (!r.ok) throw new StatusError({ ...r.status, code: r.code });
  return { code: r.code, object: r.object };
}

/** A custom resource's Table printer (its CRD version's printer columns), as a toTable option. */
export function customPrinter(scope: RequestScope): { printer?: Printer } {
  const custom = scope.resource.custom;
  return custom ? { printer: customResourcePrinter(custom.version.printerColumns) } : {};
}

export function served(scope: RequestScope, obj: KubeObject): KubeObject {
  return toServed(scope.resource, obj);
}

/** Writes one object in the negotiated serialization. */
export function writeObject(res: ServerResponse, code: number, media: MediaType, obj: unknown): void {
  const { body, contentType } = encode(media, obj);
  // Encoded to bytes once: Content-Length and the write then need no second pass over the text.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  res.end(bytes);
}

/** Writes a mutating verb's answer: the served object as JSON, YAML or protobuf (no conversions for writes). */
export function writeResult(scope: RequestScope, code: number, obj: unknown): void {
  writeObject(scope.res, code, negotiateFor(scope, []), obj);
}

/** The media types custom resources are served in (the crdHandler's serializers: no protobuf). */
const CUSTOM_RESOURCE_MEDIA_TYPES = ['application/json', 'application/yaml'];

/**
 * The negotiated answer's media type: protobuf for the built-in kinds, never for custom resources
 * (a client that accepts nothing else gets the 406 naming JSON and YAML).
 */
export function negotiateFor(scope: RequestScope, conversions: Parameters<typeof negotiate>[1]): MediaType {
  if (!scope.resource.custom) return negotiate(scope.req.headers.accept, conversions, true);
  try {
    return negotiate(scope.req.headers.accept, conversions, false);
  } catch (e) {
    if (e instanceof StatusError && e.code === 406) throw notAcceptable(CUSTOM_RESOURCE_MEDIA_TYPES);
    throw e;
  }
}

/** A custom resource's request body in protobuf: 415, naming the types it is decoded from. */
export function refuseProtobufBody(scope: RequestScope): void {
  if (scope.resource.custom && mediaTypeOf(scope.req.headers['content-type']) === PROTOBUF)
    throw unsupportedMediaType(CUSTOM_RESOURCE_MEDIA_TYPES);
}

/** ?dryRun=All (metav1.CreateOptions/UpdateOptions/PatchOptions dryRun, validated as ValidateDryRun). */
export function dryRunOf(scope: RequestScope): boolean {
  const values = scope.url.searchParams.getAll('dryRun');
  const bad = values.filter((v) => v !== 'All');
  if (bad.length > 0) {
    throw unprocessable(
      `${optionsKind(scope)}.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${JSON.stringify(values)}: supported values: "All"`,
    );
  }
  return values.length > 0;
}

/**
 * ?fieldManager (metav1 ValidateFieldManager): at most 128 printable characters; absent, the
 * manager is named after the User-Agent's product (handlers/rest.go managerOrUserAgent:
 * `kubectl/v1.33.9 (…)` → `kubectl`).
 */
export function fieldManagerOf(scope: RequestScope): string {
  const given = query(scope, 'fieldManager');
  if (given !== undefined) {
    if (given.length > 128)
      throw unprocessable(
        `${optionsKind(scope)}.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`,
      );
    if (/[^\x20-\x7e]/.test(given))
      throw unprocessable(
        `${optionsKind(scope)}.meta.k8s.io "" is invalid: fieldManager: Invalid value: ${JSON.stringify(given)}: FieldManager must be made of printable characters`,
      );
    return given;
  }
  const agent = scope.req.headers['user-agent'] ?? '';
  return agent.split('/')[0].slice(0, 128) || 'unknown';
}

function optionsKind(scope: RequestScope): string {
  switch (scope.info.verb) {
    case 'create':
      return 'CreateOptions';
    case 'update':
      return 'UpdateOptions';
    default:
      return 'PatchOptions';
  }
}

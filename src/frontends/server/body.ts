import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, type StatusError } from '../../apimachinery/errors';
import { decodeProtobufBody, PROTOBUF } from './protobuf';
import { requestEntityTooLarge, unsupportedMediaType } from './status';

/**
 * kube-apiserver's request body limit (genericapiserver Config.MaxRequestBodyBytes, 3 MiB by
 * default); handlers/rest.go limitedReadBody answers a larger body with 413.
 */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    // Keep draining so the client sees the 413 rather than a reset connection.
    if (size > limit) tooLarge = true;
    else chunks.push(buf);
  }
  if (tooLarge) throw requestEntityTooLarge(limit);
  return Buffer.concat(chunks);
}

/** The media type of a Content-Type header, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Body types create and update decode (the serializers of the scheme's codec factory). */
const OBJECT_BODY_TYPES = ['application/json', 'application/yaml'];

/**
 * Decodes an object body (create, update, DeleteOptions, Eviction) from JSON or YAML, or from
 * protobuf for the kinds src/frontends/server/protobuf.ts knows. A body that does not parse, or is not an
 * object, is a 400 BadRequest naming the decoder's complaint (serializer/json: "couldn't get
 * version/kind; json parse error: …", yaml: "error converting YAML to JSON: …").
 */
export function decodeObjectBody(body: Buffer, contentType: string | undefined): Record<string, unknown> {
  const type = mediaTypeOf(contentType) || 'application/json';
  if (type === PROTOBUF) return decodeProtobufBody(body);
  if (!OBJECT_BODY_TYPES.includes(type)) throw unsupportedMediaType([...OBJECT_BODY_TYPES, PROTOBUF]);
  const value = type === 'application/yaml' ? decodeYaml(body) : decodeJson(body);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  return value as Record<string, unknown>;
}

export function decodeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

function decodeYaml(body: Buffer): unknown {
  try {
    return parseYaml(body.toString('utf8'));
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: yaml: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** serializer/versioning: a body of another kind (or group version) cannot be decoded into the endpoint's kind. */
export function unrecognizedKind(expected: string, kind: unknown, apiVersion: unknown): StatusError {
  return badRequest(
    `the object provided is unrecognized (must be of type ${expected}): ${String(kind)} in version "${String(apiVersion)}" cannot be handled as a ${expected}`,
  );
}

/** handlers/create.go and update.go: rest.EnsureObjectNamespaceMatchesRequestNamespace refuses a body naming another namespace. */
export function namespaceMismatch(): StatusError {
  return badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

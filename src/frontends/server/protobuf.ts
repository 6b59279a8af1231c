import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MapField, Root, Writer, type Field, type Message, type Type } from 'protobufjs/light';
import { badRequest } from '../../apimachinery/errors';
import { unsupportedMediaType } from './status';

/**
 * R77 — bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), as
 * client-go's typed clients send and ask for them (`kubectl create namespace`, `create secret`,
 * `drain --disable-eviction`, `auth can-i`, and every informer built on a typed client). A body is
 * the magic `k8s\0` and a runtime.Unknown (apimachinery runtime/serializer/protobuf): the TypeMeta,
 * then the object's own message in `raw`.
 *
 * The messages are upstream's own, read from protobuf-descriptors.json, which
 * scripts/protobuf-descriptors.ts generates from k8s.io/api's and k8s.io/apimachinery's
 * generated.proto and types.go: field numbers and types from the first, and from the Go struct tags
 * the JSON facts the .proto lacks (JSON names, `omitempty`, `,inline` embedding). A message decodes
 * to the JSON form the JSON serializer would have read, and the JSON form encodes back, with the
 * types whose protobuf form is not their JSON form (Time, MicroTime, Quantity, IntOrString,
 * FieldsV1, RawExtension) converted as their Marshal/Unmarshal methods do.
 */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const MAGIC = Buffer.from('k8s\0', 'latin1');

type Json = Record<string, unknown>;
type FieldOptions = { omitempty?: boolean; inline?: boolean; json?: string };

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/**
 * The descriptors, read on the first protobuf body: building them takes ≈ 0.15–0.2 s of CPU, which
 * a process that serves only JSON (most of the test processes that run the real kubectl, which
 * asks for JSON) need not pay at start-up.
 */
let loaded: { root: Root; unknown: Type; listMeta: Type } | undefined;
function descriptors(): { root: Root; unknown: Type; listMeta: Type } {
  if (loaded) return loaded;
  const root = Root.fromJSON(JSON.parse(readFileSync(join(__dirname, 'protobuf-descriptors.json'), 'utf8')));
  root.resolveAll();
  loaded = {
    root,
    unknown: root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown'),
    listMeta: root.lookupType(`${META}.ListMeta`),
  };
  return loaded;
}
/** Kinds of meta.k8s.io/v1 that every group version registers (metav1.AddToGroupVersion). */
const META_KINDS = new Set([
  'DeleteOptions',
  'Status',
  'WatchEvent',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
]);

/** The message of an apiVersion/kind: `apps/v1` ReplicaSet → k8s.io.api.apps.v1.ReplicaSet (groups named by their first label). */
export function messageFor(apiVersion: string, kind: string): Type | undefined {
  const { root } = descriptors();
  if (META_KINDS.has(kind)) return root.lookupType(`${META}.${kind}`);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? 'core' : apiVersion.slice(0, slash).split('.')[0];
  const version = apiVersion.slice(slash + 1);
  try {
    return root.lookupType(`k8s.io.api.${group}.${version}.${kind}`);
  } catch {
    return undefined;
  }
}

// ---- protobuf → JSON ----

function number(v: unknown): number {
  return typeof v === 'number' ? v : Number(String(v));
}

function rfc3339(seconds: number, micros?: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micros === undefined ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
}

/** A Go zero value, as `omitempty` leaves out of the JSON form. */
const isZero = (v: unknown) => v === '' || v === false || v === 0;

/** The JSON form of one decoded message of `type`; `undefined` for a value JSON leaves out (a zero Time is null). */
function messageToJson(type: Type, msg: Message): unknown {
  const m = msg as unknown as Record<string, unknown>;
  switch (type.fullName) {
    case `.${META}.Time`:
      return m.seconds === undefined && m.nanos === undefined ? undefined : rfc3339(number(m.seconds ?? 0));
    case `.${META}.MicroTime`:
      return m.seconds === undefined && m.nanos === undefined
        ? undefined
        : rfc3339(number(m.seconds ?? 0), Math.floor(number(m.nanos ?? 0) / 1000));
    case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
      return m.string ?? '';
    case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return number(m.type ?? 0) === 1 ? (m.strVal ?? '') : number(m.intVal ?? 0);
    case `.${META}.FieldsV1`:
    case '.k8s.io.apimachinery.pkg.runtime.RawExtension': {
      const raw = (m.Raw ?? m.raw) as Uint8Array | undefined;
      return raw && raw.length > 0 ? JSON.parse(Buffer.from(raw).toString('utf8')) : undefined;
    }
  }
  if ((type.options as { list?: boolean } | undefined)?.list) return ((m.items as unknown[]) ?? []).slice();
  const out: Json = {};
  for (const field of type.fieldsArray) {
    if (!Object.prototype.hasOwnProperty.call(m, field.name)) continue;
    const value = m[field.name];
    const options = (field.options ?? {}) as FieldOptions;
    if (options.inline) {
      Object.assign(out, messageToJson(field.resolvedType as Type, value as Message));
      continue;
    }
    const json = fieldToJson(field, value);
    if (json === undefined || (options.omitempty && isZero(json))) continue;
    out[options.json ?? field.name] = json;
  }
  return out;
}

function valueToJson(field: Field, value: unknown): unknown {
  if (field.resolvedType) return messageToJson(field.resolvedType as Type, value as Message);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (field.type === 'int64' || field.type === 'uint64' || field.type === 'sint64' || field.type === 'fixed64')
    return number(value);
  return value;
}

function fieldToJson(field: Field, value: unknown): unknown {
  if (field instanceof MapField) {
    const entries = Object.entries(value as Json);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([k, v]) => [k, valueToJson(field, v)]));
  }
  if (field.repeated) {
    const items = value as unknown[];
    return items.length === 0 ? undefined : items.map((v) => valueToJson(field, v));
  }
  return valueToJson(field, value);
}

// ---- JSON → protobuf ----

function parseTime(value: unknown, where: string): { seconds: number; nanos: number } {
  const ms = Date.parse(String(value));
  if (typeof value !== 'string' || Number.isNaN(ms))
    throw badRequest(`${where}: parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse`);
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: Number(fraction.slice(0, 9).padEnd(9, '0')) };
}

/** The plain object protobufjs's fromObject takes for the JSON form `value` of a `type` message. */
function messageFromJson(type: Type, value: unknown, where: string): unknown {
  switch (type.fullName) {
    case `.${META}.Time`:
      return { seconds: parseTime(value, where).seconds };
    case `.${META}.MicroTime`:
      return parseTime(value, where);
    case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { string: String(value) };
    case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return typeof value === 'number' ? { type: 0, intVal: value } : { type: 1, strVal: String(value) };
    case `.${META}.FieldsV1`:
      return { Raw: Buffer.from(JSON.stringify(value)) };
    case '.k8s.io.apimachinery.pkg.runtime.RawExtension':
      return { raw: Buffer.from(JSON.stringify(value)) };
  }
  if ((type.options as { list?: boolean } | undefined)?.list) return { items: value };
  if (value === null || typeof value !== 'object') return {};
  const json = value as Json;
  const out: Json = {};
  for (const field of type.fieldsArray) {
    const options = (field.options ?? {}) as FieldOptions;
    if (options.inline) {
      out[field.name] = messageFromJson(field.resolvedType as Type, json, where);
      continue;
    }
    const v = json[options.json ?? field.name];
    if (v === undefined || v === null) continue;
    const child = `${where}.${options.json ?? field.name}`;
    const one = (x: unknown) => (field.resolvedType ? messageFromJson(field.resolvedType as Type, x, child) : x);
    if (field instanceof MapField)
      out[field.name] = Object.fromEntries(Object.entries(v as Json).map(([k, x]) => [k, one(x)]));
    else if (field.repeated) out[field.name] = (v as unknown[]).map(one);
    else out[field.name] = one(v);
  }
  return out;
}

/** The protobuf bytes of one object's own message (no envelope). */
export function encodeMessage(type: Type, obj: unknown): Uint8Array {
  return type.encode(type.fromObject(messageFromJson(type, obj, type.name) as Json)).finish();
}

/** An object (its JSON form, with apiVersion and kind) as a protobuf body: magic, then a runtime.Unknown. */
export function encodeProtobuf(
  obj: Json,
  type: Type | undefined = messageFor(String(obj.apiVersion ?? ''), String(obj.kind ?? '')),
): Buffer | undefined {
  if (!type) return undefined;
  return envelope(String(obj.apiVersion ?? ''), String(obj.kind ?? ''), encodeMessage(type, obj));
}

/** k8s\0 and a runtime.Unknown around an object's own message. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const { unknown: unknownType } = descriptors();
  const unknown = unknownType
    .encode(unknownType.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }))
    .finish();
  return Buffer.concat([MAGIC, unknown]);
}

/**
 * What a `<Kind>List` body holds around its items: `head` (magic, runtime.Unknown's typeMeta,
 * the tag and length of its raw list, the list's ListMeta), then each item as a length-delimited
 * field 2, then `tail` (the Unknown's contentEncoding and contentType); `length` is the whole
 * body's. Every list message is `metadata` (field 1, ListMeta) then repeated `items` (field 2), so
 * the items' messages, encoded once each (caching-object.ts), are written as they are: a LIST
 * streams its body from these (list-encoding.ts writeProtobufList).
 */
export function protobufListFrame(
  list: { apiVersion: string; kind: string; metadata: Json },
  items: readonly Uint8Array[],
): { head: Buffer; tail: Uint8Array; length: number } {
  // The same bytes as envelope(…, Writer of the list) — magic, runtime.Unknown's typeMeta (1),
  // raw (2), contentEncoding (3) and contentType (4), fields in number order as protobufjs writes
  // them — but sized first: building the list in a Writer, then the Unknown around it, then the
  // magic in front copied a list of 10 000 pods three times.
  const { listMeta, unknown: unknownType } = descriptors();
  const meta = encodeMessage(listMeta, list.metadata);
  let rawLength = lengthDelimitedSize(meta.length);
  for (let i = 0; i < items.length; i++) rawLength += lengthDelimitedSize(items[i].length);
  const typeMeta = unknownType
    .encode(unknownType.fromObject({ typeMeta: { apiVersion: list.apiVersion, kind: list.kind } }))
    .finish();
  const tail = unknownType.encode(unknownType.fromObject({ contentEncoding: '', contentType: '' })).finish();
  const headLength =
    MAGIC.length + typeMeta.length + lengthDelimitedSize(rawLength) - rawLength + lengthDelimitedSize(meta.length);
  const head = Buffer.allocUnsafe(headLength);
  head.set(MAGIC, 0);
  let at = MAGIC.length;
  head.set(typeMeta, at);
  at += typeMeta.length;
  at = writeLengthDelimited(head, at, 2, rawLength);
  at = writeLengthDelimited(head, at, 1, meta.length);
  head.set(meta, at);
  return { head, tail, length: MAGIC.length + typeMeta.length + lengthDelimitedSize(rawLength) + tail.length };
}

/** The bytes of a length-delimited field of `length` bytes with a one-byte tag (fields 1–15). */
function lengthDelimitedSize(length: number): number {
  let size = 2;
  for (let v = length >>> 7; v > 0; v >>>= 7) size++;
  return size + length;
}

/** Writes the tag of length-delimited field `field` (1–15) and the varint `length`; returns where its bytes go. */
function writeLengthDelimited(out: Buffer, at: number, field: number, length: number): number {
  out[at++] = (field << 3) | 2;
  let v = length;
  while (v > 127) {
    out[at++] = (v & 127) | 128;
    v >>>= 7;
  }
  out[at++] = v;
  return at;
}

/**
 * One event of a protobuf watch stream (handlers/watch.go with the protobuf stream serializer): a
 * 4-byte big-endian length (the length-delimited framer) and a meta/v1 WatchEvent, unwrapped,
 * whose `object` holds the object's whole protobuf body (`encoded`, magic and envelope included).
 */
export function protobufWatchFrame(type: string, encoded: Uint8Array): Buffer {
  const raw = Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(encoded)
    .finish();
  const event = Writer.create()
    .uint32((1 << 3) | 2)
    .string(type)
    .uint32((2 << 3) | 2)
    .bytes(raw)
    .finish();
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}

/** The content type of a protobuf watch stream. */
export const PROTOBUF_WATCH = `${PROTOBUF};stream=watch`;

/** Whether a kind has a protobuf form here. */
export function hasProtobuf(apiVersion: string, kind: string): boolean {
  return messageFor(apiVersion, kind) !== undefined;
}

/**
 * Decodes a protobuf body into the JSON form of its object (apiVersion and kind from its TypeMeta).
 * A body without the magic or that does not parse is 400, as the protobuf serializer's errors are;
 * a kind with no message here is 415, naming what the server takes.
 */
export function decodeProtobufBody(body: Buffer): Json {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest(
      `provided data does not appear to be a protobuf message, expected prefix ${JSON.stringify(MAGIC.toString('latin1'))}`,
    );
  }
  const unknown = parse(descriptors().unknown, body.subarray(MAGIC.length)) as {
    typeMeta?: { apiVersion?: string; kind?: string };
    raw?: Uint8Array;
  };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const type = messageFor(apiVersion, kind);
  if (!type) {
    throw unsupportedMediaType([
      'application/json',
      'application/yaml',
      `${PROTOBUF} (for the built-in kinds served here; ${apiVersion}/${kind} was sent)`,
    ]);
  }
  return { apiVersion, kind, ...(messageToJson(type, parseMessage(type, unknown.raw ?? new Uint8Array())) as Json) };
}

function parseMessage(type: Type, bytes: Uint8Array): Message {
  try {
    return type.decode(bytes);
  } catch (e) {
    throw badRequest(`unable to decode ${type.name} from protobuf: ${(e as Error).message}`);
  }
}

function parse(type: Type, bytes: Uint8Array): Record<string, unknown> {
  return type.toObject(parseMessage(type, bytes), { longs: Number, arrays: false, defaults: false });
}

import type { KubeObject } from '../../apimachinery/object';
import { encodeMessage, encodeProtobuf, messageFor } from './protobuf';
import { groupVersionString, toServed, type ServedResource } from '../../apiserver/resources';
import { partialObjectMetadata } from './table';

/**
 * Each stored object version serialized to JSON once per served form, then reused by every LIST,
 * GET and watch event that sends it. This is the idea of kube-apiserver's watch cache, whose
 * cachingObject (staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go) keeps the
 * serializations of an event's object so that each is computed exactly once for all watchers;
 * here LIST and GET reuse them too. Stored versions are frozen (etcd.ts), so an encoding never
 * goes stale, and a WeakMap keyed by the stored version lets it go with the version. An object
 * that is not frozen (never one from the store) is encoded every time.
 */
interface Encodings {
  /** The served object with apiVersion and kind: a GET answer, a watch event's object. */
  readonly object: WeakMap<KubeObject, Buffer>;
  /** A list item: the served object without apiVersion and kind. */
  readonly item: WeakMap<KubeObject, Buffer>;
  /** The served object's own protobuf message (a list item's bytes). */
  readonly message: WeakMap<KubeObject, Uint8Array>;
  /** The served object's whole protobuf body (magic, envelope): a GET answer, a watch event's object. */
  readonly protobuf: WeakMap<KubeObject, Uint8Array>;
}

/** Per served resource: events.k8s.io/v1 serves the same stored Events in another form than v1. */
const encodings = new WeakMap<ServedResource, Encodings>();

function cacheOf(r: ServedResource): Encodings {
  let c = encodings.get(r);
  if (!c)
    encodings.set(
      r,
      (c = { object: new WeakMap(), item: new WeakMap(), message: new WeakMap(), protobuf: new WeakMap() }),
    );
  return c;
}

function cached<B extends Uint8Array>(cache: WeakMap<KubeObject, B>, stored: KubeObject, encode: () => B): B {
  let bytes = cache.get(stored);
  if (bytes) return bytes;
  bytes = encode();
  if (Object.isFrozen(stored)) cache.set(stored, bytes);
  return bytes;
}

const json = (obj: unknown) => Buffer.from(JSON.stringify(obj));

/** The JSON of `stored` as `r` serves it, apiVersion and kind set (bytes of JSON.stringify(toServed(r, stored))). */
export function encodedObject(r: ServedResource, stored: KubeObject): Buffer {
  return cached(cacheOf(r).object, stored, () => json(toServed(r, stored)));
}

/**
 * The JSON of each of `stored` as an item of `r`'s list: without apiVersion and kind, as upstream
 * encodes the items of typed lists (bytes of JSON.stringify(listItem(r, o))). The served
 * resource's caches are looked up once for the whole LIST.
 */
export function encodedItems(r: ServedResource, stored: readonly KubeObject[]): Buffer[] {
  const cache = cacheOf(r).item;
  return stored.map((o) => cached(cache, o, () => json(listItem(r, o))));
}

/** encodedItems of one object. */
export function encodedItem(r: ServedResource, stored: KubeObject): Buffer {
  return encodedItems(r, [stored])[0];
}

/** The stored versions' PartialObjectMetadata JSON (the same for every served form: metadata is not converted). */
const partialMetadata = new WeakMap<KubeObject, Buffer>();

/** The JSON of `stored` as PartialObjectMetadata: a Table row's default object. */
export function encodedPartialMetadata(stored: KubeObject): Buffer {
  return cached(partialMetadata, stored, () => json(partialObjectMetadata(stored)));
}

/** The protobuf message of each of `stored` as `r` serves it (a protobuf LIST's items). */
export function encodedMessages(r: ServedResource, stored: readonly KubeObject[]): Uint8Array[] {
  const cache = cacheOf(r).message;
  const type = messageFor(groupVersionString(r.group, r.version), r.kind)!;
  return stored.map((o) => cached(cache, o, () => encodeMessage(type, toServed(r, o))));
}

/** The protobuf body of `stored` as `r` serves it (a GET answer, a watch event's object). */
export function encodedProtobuf(r: ServedResource, stored: KubeObject): Uint8Array {
  return cached(
    cacheOf(r).protobuf,
    stored,
    () => encodeProtobuf(toServed(r, stored) as unknown as Record<string, unknown>)!,
  );
}

/** The served form of `stored` as a list item: without apiVersion and kind. */
export function listItem(r: ServedResource, stored: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = toServed(r, stored);
  return rest;
}

import type { KubeObject } from '../apiserver/object';
import { toServed, type ServedResource } from './resources';

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
}

/** Per served resource: events.k8s.io/v1 serves the same stored Events in another form than v1. */
const encodings = new WeakMap<ServedResource, Encodings>();

function cacheOf(r: ServedResource): Encodings {
  let c = encodings.get(r);
  if (!c) encodings.set(r, (c = { object: new WeakMap(), item: new WeakMap() }));
  return c;
}

function cached(cache: WeakMap<KubeObject, Buffer>, stored: KubeObject, encode: () => unknown): Buffer {
  let json = cache.get(stored);
  if (json) return json;
  json = Buffer.from(JSON.stringify(encode()));
  if (Object.isFrozen(stored)) cache.set(stored, json);
  return json;
}

/** The JSON of `stored` as `r` serves it, apiVersion and kind set (bytes of JSON.stringify(toServed(r, stored))). */
export function encodedObject(r: ServedResource, stored: KubeObject): Buffer {
  return cached(cacheOf(r).object, stored, () => toServed(r, stored));
}

/**
 * The JSON of `stored` as an item of `r`'s list: without apiVersion and kind, as upstream encodes
 * the items of typed lists (bytes of JSON.stringify(listItem(r, stored))).
 */
export function encodedItem(r: ServedResource, stored: KubeObject): Buffer {
  return cached(cacheOf(r).item, stored, () => listItem(r, stored));
}

/** The served form of `stored` as a list item: without apiVersion and kind. */
export function listItem(r: ServedResource, stored: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = toServed(r, stored);
  return rest;
}

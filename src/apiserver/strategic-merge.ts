/**
 * R74 — strategic merge patch (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
 * StrategicMergePatch) for the kinds the simulation stores. Like a JSON merge patch, except that
 * lists the Go types tag `patchStrategy:"merge"` are merged: lists of objects element by element
 * on their `patchMergeKey` (containers by name, conditions by type, …), lists of strings as sets
 * (finalizers). Directives: `$patch: replace|delete|merge` (maps and list elements, and a
 * `{"$patch":"replace"}` element replacing a whole list), `$retainKeys`,
 * `$deleteFromPrimitiveList/<list>` and `$setElementOrder/<list>`.
 */

/** How one list merges: by a key field, as a set of primitives, or (absent) replaced whole. */
type ListMeta = { key: string } | { primitive: true };

/**
 * The merge lists of core/v1, apps/v1 and meta/v1 types (their patchStrategy/patchMergeKey
 * struct tags), by the dotted field path (list indices dropped) they end the path with.
 */
const MERGE_LISTS: readonly [string, ListMeta][] = [
  ['metadata.finalizers', { primitive: true }],
  ['metadata.ownerReferences', { key: 'uid' }],
  ['spec.containers', { key: 'name' }],
  ['spec.initContainers', { key: 'name' }],
  ['spec.ephemeralContainers', { key: 'name' }],
  ['containers.ports', { key: 'containerPort' }],
  ['containers.env', { key: 'name' }],
  ['containers.volumeMounts', { key: 'mountPath' }],
  ['containers.volumeDevices', { key: 'devicePath' }],
  ['initContainers.ports', { key: 'containerPort' }],
  ['initContainers.env', { key: 'name' }],
  ['initContainers.volumeMounts', { key: 'mountPath' }],
  ['initContainers.volumeDevices', { key: 'devicePath' }],
  ['ephemeralContainers.env', { key: 'name' }],
  ['ephemeralContainers.volumeMounts', { key: 'mountPath' }],
  ['spec.volumes', { key: 'name' }],
  ['spec.imagePullSecrets', { key: 'name' }],
  ['spec.hostAliases', { key: 'ip' }],
  ['spec.topologySpreadConstraints', { key: 'topologyKey' }],
  ['spec.resourceClaims', { key: 'name' }],
  ['spec.podCIDRs', { primitive: true }],
  ['status.conditions', { key: 'type' }],
  ['status.podIPs', { key: 'ip' }],
  ['status.hostIPs', { key: 'ip' }],
  ['status.addresses', { key: 'type' }],
  ['status.resourceClaimStatuses', { key: 'name' }],
];

const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** A strategic merge patch that cannot be applied (mergepatch errors), with upstream's wording. */
export class StrategicMergeError extends Error {
  override readonly name = 'StrategicMergeError';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function listMeta(path: string): ListMeta | undefined {
  return MERGE_LISTS.find(([suffix]) => path === suffix || path.endsWith(`.${suffix}`))?.[1];
}

/** Applies `patch` to `original` (neither is modified) and returns the patched document. */
export function strategicMergePatch<T>(original: T, patch: unknown): T {
  if (!isMap(patch))
    throw new StrategicMergeError(
      `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`,
    );
  return mergeMap(isMap(original) ? (original as JsonMap) : {}, patch, '') as T;
}

function mergeMap(original: JsonMap, patch: JsonMap, path: string): JsonMap {
  const directive = patch.$patch;
  if (directive === 'replace') return stripDirectives(patch);
  if (directive !== undefined && directive !== 'merge' && directive !== 'delete')
    throw new StrategicMergeError(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  const result: JsonMap = { ...original };
  const retain = patch.$retainKeys;
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new StrategicMergeError(`invalid retainKeys list: ${JSON.stringify(retain)}`);
    for (const k of Object.keys(result)) if (!retain.includes(k)) delete result[k];
  }
  for (const [key, value] of Object.entries(patch)) {
    if (
      key === '$patch' ||
      key === '$retainKeys' ||
      key.startsWith(SET_ELEMENT_ORDER) ||
      key.startsWith(DELETE_FROM_PRIMITIVE_LIST)
    )
      continue;
    const childPath = path ? `${path}.${key}` : key;
    if (value === null) {
      delete result[key];
    } else if (isMap(value)) {
      if (value.$patch === 'delete') delete result[key];
      else result[key] = mergeMap(isMap(result[key]) ? (result[key] as JsonMap) : {}, value, childPath);
    } else if (Array.isArray(value)) {
      result[key] = mergeList(Array.isArray(result[key]) ? (result[key] as Json[]) : [], value, childPath);
    } else {
      result[key] = value;
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(value)) result[field] = current.filter((v) => !value.includes(v));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(SET_ELEMENT_ORDER)) {
      const field = key.slice(SET_ELEMENT_ORDER.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(value))
        result[field] = orderBy(current, value, listMeta(path ? `${path}.${field}` : field));
    }
  }
  return result;
}

function mergeList(original: Json[], patch: Json[], path: string): Json[] {
  const meta = listMeta(path);
  if (!meta) return patch.map((v) => (isMap(v) ? stripDirectives(v) : v));
  if ('primitive' in meta) {
    const out = [...original];
    for (const v of patch) if (!out.includes(v)) out.push(v);
    return out;
  }
  if (patch.some((v) => isMap(v) && v.$patch === 'replace')) {
    return patch.filter((v) => !(isMap(v) && v.$patch === 'replace')).map((v) => (isMap(v) ? stripDirectives(v) : v));
  }
  const out = [...original];
  const sameKey = (a: Json, k: Json) => isMap(a) && a[meta.key] === k;
  for (const element of patch) {
    if (!isMap(element))
      throw new StrategicMergeError(
        `merging an object in json but data type is not map, instead is: ${typeof element}`,
      );
    const k = element[meta.key];
    if (k === undefined)
      throw new StrategicMergeError(`map: ${goMap(element)} does not contain declared merge key: ${meta.key}`);
    if (element.$patch === 'delete') {
      for (let i = out.length - 1; i >= 0; i--) if (sameKey(out[i], k)) out.splice(i, 1);
      continue;
    }
    const i = out.findIndex((o) => sameKey(o, k));
    if (i >= 0) out[i] = mergeMap(out[i] as JsonMap, element, path);
    else out.push(mergeMap({}, element, path));
  }
  return out;
}

/** $setElementOrder: the listed elements first, in the given order, then the others as they were. */
function orderBy(list: Json[], order: Json[], meta: ListMeta | undefined): Json[] {
  const keyOf = (v: Json) => (meta && 'key' in meta && isMap(v) ? v[meta.key] : isMap(v) ? JSON.stringify(v) : v);
  const orderKeys = order.map((o) => (meta && 'key' in meta && isMap(o) ? o[meta.key] : o));
  const listed = orderKeys.flatMap((k) => list.filter((v) => keyOf(v) === k));
  return [...listed, ...list.filter((v) => !listed.includes(v))];
}

function stripDirectives(m: JsonMap): JsonMap {
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(m)) {
    if (
      k === '$patch' ||
      k === '$retainKeys' ||
      k.startsWith(SET_ELEMENT_ORDER) ||
      k.startsWith(DELETE_FROM_PRIMITIVE_LIST)
    )
      continue;
    out[k] = isMap(v) ? stripDirectives(v) : Array.isArray(v) ? v.map((e) => (isMap(e) ? stripDirectives(e) : e)) : v;
  }
  return out;
}

/** Go's %v of a map, as the merge-key error prints it: map[k:v …] with sorted keys. */
function goMap(m: JsonMap): string {
  return `map[${Object.keys(m)
    .sort()
    .map((k) => `${k}:${isMap(m[k]) ? goMap(m[k] as JsonMap) : String(m[k])}`)
    .join(' ')}]`;
}

/** ObjectMeta collections tagged `omitempty`: an empty one is not stored (and pods are stored as protobuf). */
const OMIT_EMPTY_META = new Set(['finalizers', 'ownerReferences', 'labels', 'annotations']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where a value sits: the object itself, its metadata (where empty lists are dropped), or below. */
type Place = 'root' | 'metadata' | 'inner';

/**
 * What storage keeps of an object (the encoder's view): no undefined members, no empty metadata
 * lists or maps. Every subtree equal to the same subtree of `prev` (the stored version) is
 * replaced by `prev`'s, so an unchanged object comes back as `prev` itself — that identity is the
 * "re-encoded bytes equal the stored bytes" no-op test of R53 — and versions share their unchanged
 * parts (spec, most of status) in the revision history instead of copying them. Every part built
 * here below the object and its metadata is frozen as it is built (its children already are), so
 * storing a version never walks it again to freeze it; those two levels are left open for etcd,
 * which stamps the resourceVersion into them and then freezes them (instead of copying both).
 */
export function encodeForStorage(next: unknown, prev: unknown): unknown {
  return encode(next, prev, 'root');
}

function encode(next: unknown, prev: unknown, place: Place): unknown {
  if (next === prev) return prev;
  if (Array.isArray(next)) return encodeArray(next, Array.isArray(prev) ? prev : undefined);
  if (isPlainObject(next)) return encodeObject(next, isPlainObject(prev) ? prev : undefined, place);
  return next;
}

/**
 * An array: `prev` itself when every item encodes to prev's item; a copy is only allocated from
 * the first item that differs (most of a stored version equals the version before it). The copy
 * starts as a slice of `next`, every item then overwritten, so its backing store has exactly its
 * length: an array grown by push keeps room for about 16 more items, and stored versions are kept
 * for the whole run (more for the garbage collector to copy).
 */
function encodeArray(next: readonly unknown[], prev: readonly unknown[] | undefined): unknown {
  if (prev !== undefined && prev.length > next.length) return encodeShorter(next, prev);
  let items: unknown[] | undefined = prev && prev.length === next.length ? undefined : next.slice();
  for (let i = 0; i < next.length; i++) {
    const enc = encode(next[i], prev?.[i], 'inner');
    if (items === undefined) {
      if (enc === prev![i]) continue;
      items = next.slice();
      for (let j = 0; j < i; j++) items[j] = prev![j];
    }
    items[i] = enc;
  }
  return items === undefined ? prev : Object.freeze(items);
}

/** How far encodeShorter looks ahead for the stored item an item was (each look a comparison that usually fails at its first member). */
const LOOK_AHEAD = 8;

/**
 * An array that lost items (an EndpointSlice that lost an endpoint, out of 100): the items after
 * the first one removed have moved up, and compared index by index each would be encoded afresh
 * against its stored neighbour. Each item is matched instead with the first stored item not yet
 * matched that it would encode to (looking at most LOOK_AHEAD places and as many as were
 * removed further on), and is then that stored item; an item that matches none is encoded
 * against the stored item at the current place. The array's contents are the same as index by
 * index; only more of the stored version is shared.
 */
function encodeShorter(next: readonly unknown[], prev: readonly unknown[]): unknown {
  const items = next.slice();
  let removed = prev.length - next.length;
  let j = 0;
  for (let i = 0; i < next.length; i++) {
    const last = Math.min(j + Math.min(removed, LOOK_AHEAD), prev.length - 1);
    let k = j;
    while (k <= last && !encodesTo(next[i], prev[k])) k++;
    if (k <= last) {
      items[i] = prev[k];
      removed -= k - j;
      j = k + 1;
    } else {
      items[i] = encode(next[i], prev[j], 'inner');
      j += 1;
    }
  }
  return Object.freeze(items);
}

/**
 * Whether `encode(next, prev, 'inner')` would answer `prev` itself, without building anything:
 * the same scalar, or an array of the same length, or an object with the same members (undefined
 * ones left out), each part of it in turn.
 */
function encodesTo(next: unknown, prev: unknown): boolean {
  if (next === prev) return true;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev) || prev.length !== next.length) return false;
    for (let i = 0; i < next.length; i++) if (!encodesTo(next[i], prev[i])) return false;
    return true;
  }
  if (!isPlainObject(next) || !isPlainObject(prev)) return false;
  let count = 0;
  for (const key in next) {
    const v = next[key];
    if (v === undefined) continue;
    if (!encodesTo(v, prev[key])) return false;
    count += 1;
  }
  return count === memberCount(prev);
}

/**
 * An object, the same way: `prev` when nothing differs, else a frozen object in `next`'s key order.
 * (for-in walks, not Object.keys: this runs for every object of every write, and the walk needs
 * no key array. Encoded objects and request bodies are plain JSON: no inherited enumerable keys.)
 */
function encodeObject(next: Record<string, unknown>, prev: Record<string, unknown> | undefined, place: Place): unknown {
  let out: Record<string, unknown> | undefined = prev ? undefined : {};
  let count = 0;
  for (const key in next) {
    const v = next[key];
    if (omitted(v, key, place)) continue;
    const enc = encode(v, prev?.[key], place === 'root' && key === 'metadata' ? 'metadata' : 'inner');
    count += 1;
    if (out === undefined && enc !== prev![key]) out = copyKept(next, key, prev!, place);
    if (out !== undefined) out[key] = enc;
  }
  if (out === undefined && count === memberCount(prev!)) return prev;
  const built = out ?? copyKept(next, undefined, prev!, place);
  return place === 'inner' ? Object.freeze(built) : built;
}

/** Members not stored: undefined ones, and empty omitempty collections of the metadata. */
function omitted(v: unknown, key: string, place: Place): boolean {
  if (v === undefined) return true;
  return (
    place === 'metadata' &&
    OMIT_EMPTY_META.has(key) &&
    typeof v === 'object' &&
    v !== null &&
    memberCount(v as Record<string, unknown>) === 0
  );
}

/** How many members an object (or items an array) has. */
function memberCount(obj: Record<string, unknown>): number {
  let n = 0;
  for (const _ in obj) n += 1;
  return n;
}

/** The stored members of `next` before `end` (all of them without one), each already found equal to prev's (so prev's is taken). */
function copyKept(
  next: Record<string, unknown>,
  end: string | undefined,
  prev: Record<string, unknown>,
  place: Place,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in next) {
    if (key === end) break;
    if (!omitted(next[key], key, place)) out[key] = prev[key];
  }
  return out;
}

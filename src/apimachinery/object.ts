import type { ObjectMeta } from './types';

/** Any API object as the generic store sees it: typed metadata, everything else opaque. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/**
 * A deep copy of a JSON value (an API object, a request body). Plain recursion: several times
 * quicker than structuredClone for the small objects of the hot path. Members set to undefined
 * are kept (as structuredClone keeps them); only plain objects, arrays and scalars are expected.
 */
export function clone<T>(obj: T): T {
  if (typeof obj !== 'object' || obj === null) return obj;
  // map, not push: the copy gets a backing store of exactly its length.
  if (Array.isArray(obj)) return obj.map(clone) as T;
  // for-in, not Object.keys: the same own keys in the same order for a JSON object (no
  // inherited enumerable members), without a key array per object copied.
  const out: Record<string, unknown> = {};
  for (const key in obj) out[key] = clone((obj as Record<string, unknown>)[key]);
  return out as T;
}

/**
 * A copy of a stored (frozen) object that the registry's update functions may change: they only
 * assign fields of the object and of its metadata, so nested parts are shared, not copied.
 */
export function copyForUpdate<T extends { metadata: object }>(obj: T): T {
  return { ...obj, metadata: { ...obj.metadata } };
}

/**
 * metav1.Time as stored: RFC 3339 with whole seconds (metav1.Time marshals without fractions, R54).
 */
export function toTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = formatted.get(second);
  if (text === undefined) {
    if (formatted.size >= 64) formatted.clear();
    text = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    formatted.set(second, text);
  }
  return text;
}

// The seconds formatted lately: a burst of work stamps a few distinct seconds (now, now + grace)
// over and over, alternating, so one remembered second is not enough. Bounded, so it cannot grow.
const formatted = new Map<number, string>();

export function fromTime(t: string): number {
  return Date.parse(t);
}

/** Deep equality of two JSON values (what "the re-serialised object equals the stored bytes" means, R53). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Arrays of one length compare by index: a for-in walk would visit string keys ("0", "1", …),
  // several times slower. Other lengths take the walk below (undefined items count as absent there).
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length === y.length) {
      for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], y[i])) return false;
      return true;
    }
    // Other lengths: unequal unless undefined items make up the difference — the walk below would
    // compare every item first (an EndpointSlice that lost one of 100 endpoints, at every write).
    if (definedItems(a) !== definedItems(y)) return false;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Members set to undefined count as absent (they are not serialised); no arrays allocated.
  let defined = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    defined += 1;
    if (!jsonEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (y[k] !== undefined) defined -= 1;
  return defined === 0;
}

/** How many items of an array are not undefined (what the walk of jsonEqual counts; holes read as undefined). */
function definedItems(list: readonly unknown[]): number {
  let n = 0;
  for (let i = 0; i < list.length; i++) if (list[i] !== undefined) n += 1;
  return n;
}

/** ObjectMeta collections tagged `omitempty`: an empty one is not stored (and pods are stored as protobuf). */
const OMIT_EMPTY_META = new Set(['finalizers', 'ownerReferences', 'labels', 'annotations']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What storage keeps of an object (the encoder's view): no undefined members, no empty metadata
 * lists or maps. Every subtree equal to the same subtree of `prev` (the stored version) is
 * replaced by `prev`'s, so an unchanged object comes back as `prev` itself — that identity is the
 * "re-encoded bytes equal the stored bytes" no-op test of R53 — and versions share their unchanged
 * parts (spec, most of status) in the revision history instead of copying them.
 */
export function encodeForStorage(next: unknown, prev: unknown, path = ''): unknown {
  if (next === prev) return prev;
  if (Array.isArray(next)) {
    const p = Array.isArray(prev) ? prev : undefined;
    const items = next.map((v, i) => encodeForStorage(v, p?.[i], `${path}/*`));
    return p && p.length === items.length && items.every((v, i) => v === p[i]) ? p : items;
  }
  if (isPlainObject(next)) {
    const p = isPlainObject(prev) ? prev : undefined;
    const out: Record<string, unknown> = {};
    let same = p !== undefined;
    let count = 0;
    for (const key of Object.keys(next)) {
      const v = next[key];
      if (v === undefined) continue;
      if (path === '/metadata' && OMIT_EMPTY_META.has(key) && typeof v === 'object' && v !== null && Object.keys(v).length === 0) continue;
      const enc = encodeForStorage(v, p?.[key], `${path}/${key}`);
      out[key] = enc;
      count += 1;
      if (!p || enc !== p[key]) same = false;
    }
    return same && p && count === Object.keys(p).length ? p : out;
  }
  return next;
}

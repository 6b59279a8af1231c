import { elementKey, FieldSet, pathString, type Json, type Path, type PathElement } from './fieldpath';
import type { OpenApiSchema, SmdSchema, SmdType } from './schema';

/**
 * R114, R115 — typed values: the walks structured-merge-diff's `typed` package makes over an object with its
 * schema (typed/tofieldset.go, compare.go, merge.go, remove.go), in this project's words.
 */

type JsonMap = { [k: string]: Json };

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type a value is walked as: untyped values take the shape they have (maps granular, lists atomic). */
function shapeOf(schema: SmdSchema, node: OpenApiSchema | undefined, v: Json | undefined): SmdType {
  const t = schema.type(node);
  if (t.kind !== 'untyped') return t;
  if (isMap(v)) return { kind: 'map', element: {}, atomic: false };
  if (Array.isArray(v)) return { kind: 'list', element: {}, relationship: 'atomic', keys: [] };
  return { kind: 'scalar' };
}

function fieldSchema(t: Extract<SmdType, { kind: 'map' }>, key: string): OpenApiSchema | undefined {
  return t.fields?.[key] ?? t.element;
}

/** A path element that cannot be built for a list item (a missing key, a set item that is not a scalar). */
export class SmdError extends Error {
  override readonly name = 'SmdError';
}

/**
 * listItemToPathElement: an associative list's item by its key fields (a missing key takes its
 * schema default, as `protocol: TCP` of container ports), a set's item by its value, an atomic
 * list's item by index.
 */
export function itemElement(
  schema: SmdSchema,
  t: Extract<SmdType, { kind: 'list' }>,
  item: Json,
  index: number,
  at: string,
): PathElement {
  if (t.relationship === 'associative') {
    if (!isMap(item))
      throw new SmdError(`${at}: element ${index}: associative list with keys may not have non-map elements`);
    const element = schema.deref(t.element);
    const key: [string, Json][] = [];
    for (const k of t.keys) {
      let v = item[k];
      if (v === undefined) {
        const d = element.properties?.[k] ? schema.deref(element.properties[k]).default : undefined;
        if (d === undefined)
          throw new SmdError(
            `${at}: element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
          );
        v = d as Json;
      }
      key.push([k, v]);
    }
    key.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { key };
  }
  if (t.relationship === 'set') {
    if (isMap(item) || Array.isArray(item))
      throw new SmdError(`${at}: element ${index}: expected only scalar items in a set`);
    return { value: item };
  }
  return { index };
}

/**
 * TypedValue.ToFieldSet: every leaf, list item and granular-map entry the value sets. With
 * `validate` (ObjectToTyped of an applied configuration, typed/validate.go) a field its struct
 * does not declare, and two items of one key, are errors in structured-merge-diff's words.
 */
export function toFieldSet(schema: SmdSchema, root: OpenApiSchema, value: Json, validate = false): FieldSet {
  const set = new FieldSet();
  const errors: string[] = [];
  const walk = (v: Json, node: OpenApiSchema | undefined, path: PathElement[]): void => {
    const t = shapeOf(schema, node, v);
    if (t.kind === 'list') {
      if (t.relationship === 'atomic' || !Array.isArray(v)) return set.insert(path);
      const seen = new Set<string>();
      v.forEach((item, i) => {
        const pe = itemElement(schema, t, item, i, pathString(path));
        const key = elementKey(pe);
        if (validate && seen.has(key))
          errors.push(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
        seen.add(key);
        walk(item, t.element, [...path, pe]);
        set.insert([...path, pe]);
      });
      return;
    }
    if (t.kind === 'map') {
      if (t.atomic || !isMap(v)) return set.insert(path);
      for (const key of Object.keys(v)) {
        const child = v[key];
        const childPath = [...path, { field: key }];
        if (validate && t.fields && !t.element && !t.fields[key]) {
          errors.push(`${pathString(childPath)}: field not declared in schema`);
          continue;
        }
        walk(child, fieldSchema(t, key), childPath);
        if (child === null || (isMap(child) && Object.keys(child).length === 0) || !t.fields?.[key])
          set.insert(childPath);
      }
      return;
    }
    set.insert(path);
  };
  walk(value, root, []);
  // ValidationErrors.Error: one error alone, several as an indented list.
  if (errors.length === 1) throw new SmdError(errors[0]);
  if (errors.length > 1) throw new SmdError(`errors:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  return set;
}

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/**
 * TypedValue.Compare: the leaves (scalars, atomic lists and maps, empty maps and lists) added,
 * changed or removed between `lhs` and `rhs`, and every non-leaf node that appears or disappears
 * as a whole (a new list item, a map that was absent).
 */
export function compare(
  schema: SmdSchema,
  root: OpenApiSchema,
  lhs: Json | undefined,
  rhs: Json | undefined,
): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const leaf = (l: Json | undefined, r: Json | undefined, path: Path) => {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!jsonEquals(l, r)) c.modified.insert(path);
  };
  const walk = (
    l: Json | undefined,
    r: Json | undefined,
    node: OpenApiSchema | undefined,
    path: PathElement[],
  ): void => {
    const t = shapeOf(schema, node, r ?? l);
    let isLeaf = true;
    // A null side is there but empty (a Go nil slice or map of a field without omitempty).
    const absent = (v: Json | undefined) => v === undefined || v === null;
    if (t.kind === 'map' && !t.atomic && (absent(l) || isMap(l)) && (absent(r) || isMap(r))) {
      const lm = isMap(l) ? l : undefined;
      const rm = isMap(r) ? r : undefined;
      const empty = (!lm || Object.keys(lm).length === 0) && (!rm || Object.keys(rm).length === 0);
      if (!empty) {
        isLeaf = false;
        const keys = new Set([...Object.keys(lm ?? {}), ...Object.keys(rm ?? {})]);
        for (const k of keys) walk(lm?.[k], rm?.[k], fieldSchema(t, k), [...path, { field: k }]);
      }
    } else if (
      t.kind === 'list' &&
      t.relationship !== 'atomic' &&
      (absent(l) || Array.isArray(l)) &&
      (absent(r) || Array.isArray(r))
    ) {
      const ll = Array.isArray(l) ? l : [];
      const rl = Array.isArray(r) ? r : [];
      if (ll.length > 0 || rl.length > 0) {
        isLeaf = false;
        const at = pathString(path);
        const left = indexItems(schema, t, ll, at);
        const right = indexItems(schema, t, rl, at);
        for (const [k, { pe, value }] of left) walk(value, right.get(k)?.value, t.element, [...path, pe]);
        for (const [k, { pe, value }] of right) if (!left.has(k)) walk(undefined, value, t.element, [...path, pe]);
      }
    }
    if (isLeaf) return leaf(l, r, path);
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  };
  walk(lhs, rhs, root, []);
  return c;
}

/** The items of a non-atomic list by their element key (the first of duplicates; AllowDuplicates keeps converting). */
function indexItems(
  schema: SmdSchema,
  t: Extract<SmdType, { kind: 'list' }>,
  list: readonly Json[],
  at: string,
): Map<string, { pe: PathElement; value: Json }> {
  const out = new Map<string, { pe: PathElement; value: Json }>();
  list.forEach((item, i) => {
    const pe = itemElement(schema, t, item, i, at);
    const k = JSON.stringify(pe);
    if (!out.has(k)) out.set(k, { pe, value: item });
  });
  return out;
}

/**
 * TypedValue.Merge: `rhs` (an applied configuration) over `lhs` (the live object). Leaves and
 * atomic parts come from rhs; maps merge by key; associative lists and sets merge by item, in
 * rhs's order with lhs's own items kept where they stood (merge.go visitListItems). A null in rhs
 * removes the field (the typed object drops it).
 */
export function merge(
  schema: SmdSchema,
  root: OpenApiSchema,
  lhs: Json | undefined,
  rhs: Json | undefined,
): Json | undefined {
  const walk = (
    l: Json | undefined,
    r: Json | undefined,
    node: OpenApiSchema | undefined,
    at: string,
  ): Json | undefined => {
    if (r === undefined) return l;
    if (l === undefined || r === null) return r === null ? undefined : dropNulls(r);
    const t = shapeOf(schema, node, r);
    if (t.kind === 'map' && !t.atomic && isMap(l) && isMap(r)) {
      const out: JsonMap = { ...l };
      for (const k of Object.keys(r)) {
        const v = walk(l[k], r[k], fieldSchema(t, k), `${at}.${k}`);
        if (v === undefined) delete out[k];
        else out[k] = v;
      }
      return out;
    }
    if (t.kind === 'list' && t.relationship !== 'atomic' && Array.isArray(l) && Array.isArray(r))
      return mergeList(t, l, r, at, walk);
    return dropNulls(r);
  };
  return walk(lhs, rhs, root, '');

  function mergeList(
    t: Extract<SmdType, { kind: 'list' }>,
    l: Json[],
    r: Json[],
    at: string,
    walk: (l: Json | undefined, r: Json | undefined, node: OpenApiSchema | undefined, at: string) => Json | undefined,
  ): Json[] {
    // merge.go visitListItems: rhs's order for the items it holds, lhs-only items where they stood.
    const leftMap = indexItems(schema, t, l, at);
    const right = indexItems(schema, t, r, at);
    const lk = [...leftMap.keys()];
    const rk = [...right.keys()];
    const shared = rk.filter((k) => leftMap.has(k));
    let nextShared: string | undefined = shared.shift();
    const merged = new Set<string>();
    const out: Json[] = [];
    const mergeItem = (k: string) => {
      merged.add(k);
      const v = walk(leftMap.get(k)?.value, right.get(k)?.value, t.element, at);
      if (v !== undefined) out.push(v);
    };
    for (let li = 0, ri = 0; li < lk.length || ri < rk.length; ) {
      if (li < lk.length && ri < rk.length) {
        if (lk[li] === rk[ri]) {
          mergeItem(lk[li]);
          li++;
          ri++;
          nextShared = shared.shift();
          continue;
        }
        // A shared item that is not the next one rhs places: it comes when rhs reaches it.
        if (right.has(lk[li]) && nextShared !== undefined && nextShared !== lk[li]) {
          li++;
          continue;
        }
      }
      if (li < lk.length) {
        if (!right.has(lk[li])) {
          out.push(leftMap.get(lk[li])!.value);
          li++;
          continue;
        }
        if (merged.has(lk[li])) li++;
      }
      if (ri < rk.length) {
        const k = rk[ri];
        mergeItem(k);
        ri++;
        if (nextShared === k) nextShared = shared.shift();
      }
    }
    return out;
  }
}

function dropNulls(v: Json): Json {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (!isMap(v)) return v;
  const out: JsonMap = {};
  for (const k of Object.keys(v)) if (v[k] !== null) out[k] = dropNulls(v[k]);
  return out;
}

/**
 * Removes from `value` what `set` holds (TypedValue.RemoveItems): a member goes with everything
 * below it; a child is walked into.
 */
export function removeItems(schema: SmdSchema, root: OpenApiSchema, value: Json, set: FieldSet): Json {
  const walk = (v: Json, node: OpenApiSchema | undefined, s: FieldSet, at: string): Json => {
    const t = shapeOf(schema, node, v);
    if (t.kind === 'map' && isMap(v)) {
      const out: JsonMap = {};
      for (const k of Object.keys(v)) {
        const pe = { field: k };
        if (s.hasMember(pe)) continue;
        const child = s.child(pe);
        out[k] = child ? walk(v[k], fieldSchema(t, k), child, `${at}.${k}`) : v[k];
      }
      return out;
    }
    if (t.kind === 'list' && Array.isArray(v)) {
      const out: Json[] = [];
      v.forEach((item, i) => {
        const pe = itemElement(schema, t, item, i, at);
        if (s.hasMember(pe)) return;
        const child = s.child(pe);
        out.push(child ? walk(item, t.element, child, at) : item);
      });
      return out;
    }
    return v;
  };
  return walk(value, root, set, '');
}

/**
 * What an applier stops applying leaves the object (merge/update.go prune, with
 * EnsureNamedFieldsAreMembers, addBackOwnedItems and addBackDanglingItems): each field of the
 * manager's previous applied set that no manager owns now — itself or something below it — is
 * removed with what it holds (owning a map does not keep its entries: an applied `labels: {}`
 * lets the labels the applier dropped go). A struct field the previous set only passed through
 * counts as owned by it, so a struct the applier alone kept goes too; what nobody owned stays.
 */
export function prune(
  schema: SmdSchema,
  root: OpenApiSchema,
  merged: Json,
  lastSet: FieldSet,
  ownedNow: FieldSet,
): Json {
  const walk = (
    v: Json,
    node: OpenApiSchema | undefined,
    last: FieldSet,
    owned: FieldSet | undefined,
    at: string,
  ): Json => {
    const t = shapeOf(schema, node, v);
    const keep = (pe: PathElement) =>
      !!owned && (owned.hasMember(pe) || (owned.child(pe) !== undefined && !owned.child(pe)!.isEmpty()));
    if (t.kind === 'map' && isMap(v)) {
      const out: JsonMap = {};
      for (const k of Object.keys(v)) {
        const pe = { field: k };
        const lastChild = last.child(pe);
        const named = !!t.fields?.[k];
        if ((last.hasMember(pe) || (named && lastChild)) && !keep(pe)) continue;
        out[k] = lastChild ? walk(v[k], fieldSchema(t, k), lastChild, owned?.child(pe), `${at}.${k}`) : v[k];
      }
      return out;
    }
    if (t.kind === 'list' && Array.isArray(v) && t.relationship !== 'atomic') {
      const out: Json[] = [];
      v.forEach((item, i) => {
        const pe = itemElement(schema, t, item, i, at);
        if (last.hasMember(pe) && !keep(pe)) return;
        const lastChild = last.child(pe);
        out.push(lastChild ? walk(item, t.element, lastChild, owned?.child(pe), at) : item);
      });
      return out;
    }
    return v;
  };
  return walk(merged, root, lastSet, ownedNow, '');
}

export function jsonEquals(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bl = b as Json[];
    return a.length === bl.length && a.every((x, i) => jsonEquals(x, bl[i]));
  }
  const am = a as JsonMap;
  const bm = b as JsonMap;
  const ak = Object.keys(am);
  return ak.length === Object.keys(bm).length && ak.every((k) => k in bm && jsonEquals(am[k], bm[k]));
}

/**
 * R115 — field paths and sets of them, as structured-merge-diff's `fieldpath` package defines them
 * (sigs.k8s.io/structured-merge-diff fieldpath/element.go, set.go, serialize.go): the unit of
 * ownership in server-side apply. A path walks an object from its root through
 *
 * - struct and map members by name (`.spec`, serialized `f:spec`),
 * - items of an associative list by their key fields (`[name="app"]`, `k:{"name":"app"}`),
 * - items of a set by their value (`[="x"]`, `v:"x"`),
 * - items of an atomic-in-place list by index (`[0]`, `i:0`; only where no other form applies).
 *
 * A set is a trie: each node has the path elements that are members (owned themselves) and the
 * children it descends into; a path can be both (an owned list item whose fields are owned too,
 * serialized with a `.` entry). `fieldsV1` of a managedFields entry is this trie as JSON, its
 * entries in upstream's order (PathElement.Compare).
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export type PathElement =
  | { readonly field: string }
  | { readonly key: readonly (readonly [string, Json])[] }
  | { readonly value: Json }
  | { readonly index: number };

export type Path = readonly PathElement[];

/** The fieldsV1 spelling of one element (serialize-pe.go): `f:name`, `k:{"a":1}`, `v:"x"`, `i:0`. */
export function elementKey(pe: PathElement): string {
  if ('field' in pe) return `f:${pe.field}`;
  if ('key' in pe) return `k:${goJson(Object.fromEntries(pe.key))}`;
  if ('value' in pe) return `v:${goJson(pe.value)}`;
  return `i:${pe.index}`;
}

/** Parses an element of fieldsV1 (DeserializePathElement). */
export function parseElementKey(s: string): PathElement {
  const body = s.slice(2);
  switch (s.slice(0, 2)) {
    case 'f:':
      return { field: body };
    case 'k:': {
      const obj = JSON.parse(body) as Record<string, Json>;
      return {
        key: Object.keys(obj)
          .sort()
          .map((k) => [k, obj[k]] as const),
      };
    }
    case 'v:':
      return { value: JSON.parse(body) as Json };
    case 'i:':
      return { index: Number(body) };
    default:
      throw new Error(`unknown path element type: ${JSON.stringify(s)}`);
  }
}

/** Path.String (path.go): `.spec.containers[name="app"].image`, `[="x"]`, `[0]`. */
export function pathString(path: Path): string {
  return path
    .map((pe) => {
      if ('field' in pe) return `.${pe.field}`;
      if ('key' in pe) return `[${pe.key.map(([k, v]) => `${k}=${goJson(v)}`).join(',')}]`;
      if ('value' in pe) return `[=${goJson(pe.value)}]`;
      return `[${pe.index}]`;
    })
    .join('');
}

/** JSON as Go's encoding/json writes it: compact, object keys sorted. */
export function goJson(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goJson(v[k])}`)
    .join(',')}}`;
}

const KIND_RANK = (pe: PathElement) => ('field' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3);

/** PathElement.Compare: field names, then keys, then values, then indices; each in its own order. */
export function compareElements(a: PathElement, b: PathElement): number {
  const ra = KIND_RANK(a);
  const rb = KIND_RANK(b);
  if (ra !== rb) return ra - rb;
  if ('field' in a && 'field' in b) return a.field < b.field ? -1 : a.field > b.field ? 1 : 0;
  if ('key' in a && 'key' in b) {
    for (let i = 0; i < Math.min(a.key.length, b.key.length); i++) {
      const [ka, va] = a.key[i];
      const [kb, vb] = b.key[i];
      if (ka !== kb) return ka < kb ? -1 : 1;
      const c = compareValues(va, vb);
      if (c !== 0) return c;
    }
    return a.key.length - b.key.length;
  }
  if ('value' in a && 'value' in b) return compareValues(a.value, b.value);
  return (a as { index: number }).index - (b as { index: number }).index;
}

/** value.Compare's total order, as far as keys and set items need it: by type, then by value. */
function compareValues(a: Json, b: Json): number {
  const rank = (v: Json) =>
    v === null
      ? 0
      : typeof v === 'number'
        ? 1
        : typeof v === 'string'
          ? 2
          : typeof v === 'boolean'
            ? 3
            : Array.isArray(v)
              ? 4
              : 5;
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean')
    return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  const ja = goJson(a);
  const jb = goJson(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** fieldpath.Set: members and children by their element key. */
export class FieldSet {
  private readonly members = new Map<string, PathElement>();
  private readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.childFor(path[i]);
    node.members.set(elementKey(path[path.length - 1]), path[path.length - 1]);
  }

  private childFor(pe: PathElement): FieldSet {
    const key = elementKey(pe);
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = { pe, set: new FieldSet() }));
    return c.set;
  }

  has(path: Path): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(elementKey(path[i]))?.set;
    return !!node && path.length > 0 && node.members.has(elementKey(path[path.length - 1]));
  }

  /** The set below one element (empty when there is none). */
  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(elementKey(pe))?.set;
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(elementKey(pe));
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.isEmpty()) return false;
    return true;
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const s of [this, o]) {
      for (const [k, pe] of s.members) out.members.set(k, pe);
      for (const [k, c] of s.children) {
        const mine = out.children.get(k);
        out.children.set(k, { pe: c.pe, set: mine ? mine.set.union(c.set) : c.set.union(new FieldSet()) });
      }
    }
    return out;
  }

  /** Members not in `o`'s members, children minus `o`'s children (Set.Difference). */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!o.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const theirs = o.children.get(k);
      const rest = theirs ? c.set.difference(theirs.set) : c.set.union(new FieldSet());
      if (!rest.isEmpty()) out.children.set(k, { pe: c.pe, set: rest });
    }
    return out;
  }

  /** As difference, but a member of `o` also removes everything below it (Set.RecursiveDifference). */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!o.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (o.members.has(k)) continue;
      const theirs = o.children.get(k);
      const rest = theirs ? c.set.recursiveDifference(theirs.set) : c.set.union(new FieldSet());
      if (!rest.isEmpty()) out.children.set(k, { pe: c.pe, set: rest });
    }
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (o.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const theirs = o.children.get(k);
      if (!theirs) continue;
      const both = c.set.intersection(theirs.set);
      if (!both.isEmpty()) out.children.set(k, { pe: c.pe, set: both });
    }
    return out;
  }

  /** Every member path, in upstream's order (Set.Iterate). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const { pe, member, child } of this.entries()) {
      if (member) out.push([...prefix, pe]);
      if (child) out.push(...child.paths([...prefix, pe]));
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    return this.difference(o).isEmpty() && o.difference(this).isEmpty();
  }

  /** The sorted union of members and children (emitContentsV1's walk). */
  private entries(): { pe: PathElement; member: boolean; child?: FieldSet }[] {
    const keys = new Set([...this.members.keys(), ...this.children.keys()]);
    return [...keys]
      .map((k) => ({
        pe: this.members.get(k) ?? this.children.get(k)!.pe,
        member: this.members.has(k),
        child: this.children.get(k)?.set,
      }))
      .sort((a, b) => compareElements(a.pe, b.pe));
  }

  /** The fieldsV1 JSON object (Set.ToJSON): `{}` for a member, `.` for a member that has children too. */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.size > 0 || this.children.size > 0)) out['.'] = {};
    for (const { pe, member, child } of this.entries()) out[elementKey(pe)] = child ? child.emit(member) : {};
    return out;
  }

  /** Set.FromJSON. */
  static fromFieldsV1(json: unknown): FieldSet {
    const s = new FieldSet();
    s.read(json);
    return s;
  }

  private read(json: unknown): boolean {
    let self = false;
    if (json === null || typeof json !== 'object') return self;
    for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
      if (k === '.') {
        self = true;
        continue;
      }
      const pe = parseElementKey(k);
      const entries = v && typeof v === 'object' ? Object.keys(v) : [];
      if (entries.length === 0) {
        this.members.set(k, pe);
        continue;
      }
      const child = new FieldSet();
      if (child.read(v)) this.members.set(k, pe);
      if (child.members.size > 0 || child.children.size > 0) this.children.set(k, { pe, set: child });
    }
    return self;
  }
}

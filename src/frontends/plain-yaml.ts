import { Document, stringify } from 'yaml';

/**
 * toYaml's common case written directly: an API object (nested plain objects and arrays of short
 * one-line strings, numbers, booleans and nulls) as the `yaml` package writes it with toYaml's
 * options (block style, indent 2, sequences indented under their key, lines folded at 80
 * columns), byte for byte. The package builds a document node for every value first; for the
 * objects the report and kubectl print (each scenario's final pods, `-o yaml`) that was most of
 * the cost. A scalar written otherwise (a long message folded over lines, a string with quotes or
 * line breaks) is asked of the package alone, at the same place (`byPackage`). Anything else — a
 * key that needs quotes, a class instance, an undefined list item — returns undefined and the
 * caller lets the package write the whole object (yaml-output.ts). plain-yaml.test.ts holds this
 * to the package's output.
 */
export function plainYaml(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: string[] = [];
  if (!writeMap(value, '', out, [])) return undefined;
  return out.length === 0 ? '{}\n' : `${out.join('\n')}\n`;
}

/** Where a value sits: the keys from the document's root, `null` for an item of a sequence. */
type Path = (string | null)[];

const OPTIONS = { aliasDuplicateObjects: false } as const;

/**
 * A scalar as the package writes it at `path`: the document holding only this value at that
 * place, less the same document holding a plain `x` there. A scalar's text depends only on its
 * place (its indentation and its key's length), never on its neighbours.
 */
function byPackage(path: Path, v: string | number): string | undefined {
  const at = (leaf: unknown): unknown =>
    path.reduceRight<unknown>((inner, step) => (step === null ? [inner] : { [step]: inner }), leaf);
  const probe = stringify(at('x'), OPTIONS);
  const whole = stringify(at(v), OPTIONS);
  const before = probe.slice(0, -2);
  if (!probe.endsWith('x\n') || !whole.startsWith(before) || !whole.endsWith('\n')) return undefined;
  return whole.slice(before.length, -1);
}

/** A string the package may write without quotes: its own test (stringifyString.js plainString), ASCII only here. */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** One line of printable ASCII: nothing to escape, nothing to write as a block. */
const PRINTABLE = /^[\x20-\x7e]+$/;
/** A document marker at the start: the package writes such a string as a block. */
const DOCUMENT_MARKER = /^(?:%|---|\.\.\.)/;
/** What a plain string would be read back as if not a string (null, true, 12, 0x1f, 1e3, .inf): the package quotes it. */
const OTHER_TYPES: readonly RegExp[] = new Document().schema.tags.flatMap((tag) =>
  tag.default && tag.tag !== 'tag:yaml.org,2002:str' && 'test' in tag && tag.test instanceof RegExp ? [tag.test] : [],
);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function plainAllowed(s: string): boolean {
  return PRINTABLE.test(s) && !NOT_PLAIN.test(s) && !DOCUMENT_MARKER.test(s) && !OTHER_TYPES.some((t) => t.test(s));
}

/**
 * A scalar at `indent` columns (the package's indent for it: one step deeper than its key, or
 * than its sequence's dash). A line the package would fold (longer than 81 − indent, and more
 * than 21) is not written here.
 */
function scalar(v: unknown, indent: number, path: Path): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? JSON.stringify(v) : byPackage(path, v);
  if (typeof v !== 'string') return undefined;
  if (v === '') return '""';
  const width = Math.max(21, 81 - indent);
  if (plainAllowed(v)) return v.length <= width ? v : byPackage(path, v);
  // Double quotes with nothing escaped inside (the package's choice when there is no quote in it).
  // (A document marker is written plain below the top level, or as a block: the package's choice.)
  if (!PRINTABLE.test(v) || /["'\\]/.test(v) || DOCUMENT_MARKER.test(v)) return byPackage(path, v);
  return v.length + 2 <= width ? `"${v}"` : byPackage(path, v);
}

/** A map's pairs as lines at `indent`; false: something here is left to the package. */
function writeMap(map: Record<string, unknown>, indent: string, out: string[], path: Path): boolean {
  for (const key of Object.keys(map)) {
    const v = map[key];
    if (v === undefined) continue; // the package leaves such a pair out, as JSON does
    if (key.length > 1024 || !plainAllowed(key)) return false;
    path.push(key);
    const written = writeValue(`${indent}${key}:`, v, `${indent}  `, out, path);
    path.pop();
    if (!written) return false;
  }
  return true;
}

/**
 * `head` (a key and its colon, or a dash) followed by the value: a scalar or an empty collection
 * on the same line, a map or a sequence on the lines below at `inner`.
 */
function writeValue(head: string, v: unknown, inner: string, out: string[], path: Path): boolean {
  if (Array.isArray(v) || (typeof v === 'object' && v !== null)) {
    if (!Array.isArray(v) && !isPlainObject(v)) return false;
    if (Array.isArray(v) ? v.length === 0 : isEmpty(v)) {
      out.push(`${head} ${Array.isArray(v) ? '[]' : '{}'}`);
      return true;
    }
    out.push(head);
    return Array.isArray(v) ? writeSeq(v, inner, out, path) : writeMap(v, inner, out, path);
  }
  const s = scalar(v, inner.length, path);
  if (s === undefined) return false;
  out.push(`${head} ${s}`);
  return true;
}

/**
 * A sequence's items at `indent`, each after `- `: a map's first pair, or a nested sequence's
 * first item, shares the dash's line, the rest line up two columns in.
 */
function writeSeq(seq: readonly unknown[], indent: string, out: string[], path: Path): boolean {
  const inner = `${indent}  `;
  path.push(null);
  const written = seq.every((item) => writeItem(item, indent, inner, out, path));
  path.pop();
  return written;
}

/** One item of a sequence, after its dash at `indent`. */
function writeItem(item: unknown, indent: string, inner: string, out: string[], path: Path): boolean {
  if (Array.isArray(item) || isPlainObject(item)) {
    if (Array.isArray(item) ? item.length === 0 : isEmpty(item)) {
      out.push(`${indent}- ${Array.isArray(item) ? '[]' : '{}'}`);
      return true;
    }
    const nested: string[] = [];
    if (!(Array.isArray(item) ? writeSeq(item, inner, nested, path) : writeMap(item, inner, nested, path)))
      return false;
    // The first line moves up beside the dash.
    out.push(`${indent}- ${nested[0].slice(inner.length)}`, ...nested.slice(1));
    return true;
  }
  if (item === undefined) return false;
  const s = scalar(item, inner.length, path);
  if (s === undefined) return false;
  out.push(`${indent}- ${s}`);
  return true;
}

/** A map the package writes as `{}`: no pair, or only undefined values (left out). */
function isEmpty(map: Record<string, unknown>): boolean {
  return Object.values(map).every((x) => x === undefined);
}

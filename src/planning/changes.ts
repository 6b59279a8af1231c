import { jsonEqual, toTime } from '../apimachinery/object';
import { formatOffset, showValue, timestampOffset } from '../foundation/timeline/time';
import { DurationError, parseWholeSecondsAfterT0 } from '../foundation/duration';
import { widest } from '../foundation/widest';

/** Marks a field that is not there (a cell `<absent>`). */
export const ABSENT = Symbol('absent');
/** Matches any value, present or not (a cell `<any>`). */
export const ANY = Symbol('any');

export type FieldValue = unknown | typeof ABSENT;

export interface FieldChange {
  path: string;
  from: FieldValue;
  to: FieldValue;
}

/** Fields left out of change lists unless a row names them. */
const BOOKKEEPING = ['/metadata/resourceVersion', '/metadata/managedFields'];

function escapeToken(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Leaf-level changes between two objects; arrays count as one value (finalizers: ["a"] → []). */
export function fieldChanges(before: unknown, after: unknown, path = ''): FieldChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) =>
      fieldChanges(k in before ? before[k] : ABSENT, k in after ? after[k] : ABSENT, `${path}/${escapeToken(k)}`),
    );
  }
  if (before === ABSENT && after === ABSENT) return [];
  if (before !== ABSENT && after !== ABSENT && jsonEqual(before, after)) return [];
  return [{ path: path || '/', from: before, to: after }];
}

/**
 * Reads a path cell: a JSON Pointer such as `/metadata/deletionTimestamp`. A dotted path
 * (`metadata.deletionTimestamp`) or one without the leading slash is an error naming the pointer
 * that was probably meant.
 */
export function parsePath(cell: string): string {
  const p = cell.trim();
  if (p.startsWith('/')) return p;
  const meant = `/${p.replace(/^\.+/, '').split('.').join('/')}`;
  throw new CellError(`bad path "${p}": expected a JSON Pointer starting with "/" (did you mean ${meant}?)`);
}

/** The value at a JSON Pointer, or ABSENT. */
export function valueAt(obj: unknown, pointer: string): FieldValue {
  if (pointer === '' || pointer === '/') return obj;
  let cur: unknown = obj;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(key) && Number(key) < cur.length) cur = cur[Number(key)];
    else if (isObject(cur) && key in cur) cur = cur[key];
    else return ABSENT;
  }
  return cur;
}

/** A value or path cell that cannot be read, with what was expected. */
export class CellError extends Error {}

/**
 * Reads a table cell: `<absent>`, `<any>`, `T+30s` (the RFC 3339 second Kubernetes would write,
 * counted from T+0; `T+1m30s` works too), otherwise JSON — or, if it is not JSON, the text itself
 * as a string. A misspelt placeholder (`<absnt>`) or time (`T+30`) is an error, not a string.
 */
export function parseCell(cell: string, t0: number): FieldValue | typeof ANY {
  const c = cell.trim();
  if (c === '<absent>') return ABSENT;
  if (c === '<any>') return ANY;
  if (/^<[^<>]*>$/.test(c))
    throw new CellError(`unknown placeholder "${c}" in a value cell: expected <absent>, <any>, T+Ns or a JSON value`);
  if (c.startsWith('T+')) {
    try {
      return toTime(t0 + parseWholeSecondsAfterT0(c));
    } catch (e) {
      if (!(e instanceof DurationError)) throw e;
      throw new CellError(
        `bad time "${c}" in a value cell: expected T+Ns (e.g. T+0s, T+30s, T+1m30s), whole seconds after T+0: ${e.message}`,
      );
    }
  }
  try {
    return JSON.parse(c);
  } catch {
    return c;
  }
}

/** A value for a message: `<absent>`, `<any>`, JSON, and a timestamp's offset from T+0 when `t0` is given. */
export function show(v: FieldValue | typeof ANY, t0?: number): string {
  if (v === ABSENT) return '<absent>';
  if (v === ANY) return '<any>';
  return t0 === undefined ? JSON.stringify(v) : showValue(v, t0);
}

/** A value as a table cell that reads back to it: a whole second at or after T+0 as `T+30s`, others as JSON. */
function cell(v: FieldValue, t0: number): string {
  const offset = timestampOffset(v, t0);
  return offset !== undefined && offset >= 0 && offset % 1000 === 0 && toTime(t0 + offset) === v
    ? formatOffset(offset)
    : show(v);
}

function sameValue(expected: FieldValue | typeof ANY, actual: FieldValue): boolean {
  if (expected === ANY) return true;
  if (expected === ABSENT || actual === ABSENT) return expected === actual;
  return jsonEqual(expected, actual);
}

export interface ChangeRow {
  path: string;
  from: string;
  to: string;
}

/**
 * Checks a `| path | from | to |` table against what changed between two object states: every
 * row must hold (a row covers its path and everything below it), and every changed field must be
 * covered by a row. Returns undefined on success, or a message listing the actual changes.
 */
export function checkChanges(
  before: unknown,
  after: unknown,
  rows: readonly ChangeRow[],
  t0: number,
): string | undefined {
  const problems: string[] = [];
  for (const row of rows) {
    const from = valueAt(before, row.path);
    const to = valueAt(after, row.path);
    const eFrom = parseCell(row.from, t0);
    const eTo = parseCell(row.to, t0);
    if (!sameValue(eFrom, from) || !sameValue(eTo, to)) {
      problems.push(
        `${row.path}: expected ${show(eFrom, t0)} → ${show(eTo, t0)}, but it went ${show(from, t0)} → ${show(to, t0)}`,
      );
    }
  }
  const covered = (p: string) => rows.some((r) => p === r.path || p.startsWith(`${r.path}/`) || r.path === '/');
  const changes = fieldChanges(before, after);
  for (const c of changes) {
    if (covered(c.path) || BOOKKEEPING.some((b) => c.path === b || c.path.startsWith(`${b}/`))) continue;
    problems.push(`${c.path} changed (${show(c.from, t0)} → ${show(c.to, t0)}) but is not listed`);
  }
  if (problems.length === 0) return undefined;
  return `${problems.join('\n')}\n\nThe actual changes:\n${formatChangeTable(changes, t0)}`;
}

/** The changes as a ready-to-paste Gherkin table; times as `T+30s` cells, with T+0's absolute time below. */
export function formatChangeTable(changes: readonly FieldChange[], t0: number): string {
  const visible = changes.filter((c) => !BOOKKEEPING.includes(c.path));
  if (visible.length === 0) return '  (no field changed)';
  const rows = [['path', 'from', 'to'], ...visible.map((c) => [c.path, cell(c.from, t0), cell(c.to, t0)])];
  const widths = rows[0]!.map((_, i) => widest(rows, (r) => r[i]!.length, 0));
  const table = rows.map((r) => `  | ${r.map((text, i) => text.padEnd(widths[i]!)).join(' | ')} |`).join('\n');
  return rows.some((r) => r.some((text) => text.startsWith('T+'))) ? `${table}\n  (T+0s is ${toTime(t0)})` : table;
}

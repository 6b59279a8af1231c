/**
 * Every event text the simulation can write to the timeline, read from the code (for the step
 * catalogue, docs/steps.md): each `timeline.record(component, text, source)` call and each
 * request the apiserver records (`this.mutate(…, text, source, …)`) in src/, with its text as
 * written there — a value filled in at run time shown as a placeholder (`pods/NAME`, `CONTAINER`,
 * `…`) — and the upstream function its source names. Nothing here is kept by hand: a component
 * or an event added to the code appears in the catalogue at the next `npm run steps:doc`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMPONENTS } from '../src/foundation/timeline/event';

export interface EventSite {
  readonly component: string;
  /** The text with placeholders, e.g. `SIGTERM CONTAINER pods/NAME`; `(built at run time)` when the code passes a computed value. */
  readonly text: string;
  /** The upstream file and function, as the event's source names them (placeholders for run-time parts). */
  readonly source: string;
  /** The file, `src/components/kubelet/runtime.ts` (no line: the catalogue would go stale at every edit above it). */
  readonly where: string;
}

/** One argument of a call as written: its source text. */
type Arg = string;

/** Reads the comma-separated top-level arguments of the call whose `(` is at `open`; strings, templates and brackets nest. */
export function callArguments(code: string, open: number): Arg[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < code.length; i++) {
    const c = code[i]!;
    if (c === "'" || c === '"') i = skipString(code, i, c);
    else if (c === '`') i = skipTemplate(code, i);
    else if (c === '/' && code[i + 1] === '/') i = code.indexOf('\n', i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        args.push(code.slice(start, i).trim());
        return args.filter((a) => a !== '');
      }
    } else if (c === ',' && depth === 1) {
      args.push(code.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

function skipString(code: string, i: number, quote: string): number {
  for (let j = i + 1; j < code.length; j++) {
    if (code[j] === '\\') j++;
    else if (code[j] === quote) return j;
  }
  return code.length;
}

/** The index of a template literal's closing backquote; `${…}` may hold strings and templates of its own. */
function skipTemplate(code: string, i: number): number {
  for (let j = i + 1; j < code.length; j++) {
    if (code[j] === '\\') j++;
    else if (code[j] === '`') return j;
    else if (code[j] === '$' && code[j + 1] === '{') j = skipExpression(code, j + 1);
  }
  return code.length;
}

function skipExpression(code: string, open: number): number {
  let depth = 0;
  for (let j = open; j < code.length; j++) {
    const c = code[j]!;
    if (c === "'" || c === '"') j = skipString(code, j, c);
    else if (c === '`') j = skipTemplate(code, j);
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j;
  }
  return code.length;
}

/** The parts of a template literal: literal text and `${…}` expressions, in order. */
function templateParts(literal: string): ({ text: string } | { expr: string })[] {
  const parts: ({ text: string } | { expr: string })[] = [];
  let text = '';
  for (let j = 1; j < literal.length - 1; j++) {
    if (literal[j] === '\\') text += literal[++j];
    else if (literal[j] === '$' && literal[j + 1] === '{') {
      const end = skipExpression(literal, j + 1);
      parts.push({ text }, { expr: literal.slice(j + 2, end).trim() });
      text = '';
      j = end;
    } else text += literal[j];
  }
  parts.push({ text });
  return parts.filter((p) => !('text' in p) || p.text !== '');
}

/** Well-known values by the name the code gives them. */
const NAMED: Readonly<Record<string, string>> = {
  podRef: 'pods/NAME',
  name: 'NAME',
  nodeName: 'NODE',
  container: 'CONTAINER',
  'c.name': 'CONTAINER',
  'v.name': 'VOLUME',
  reason: 'REASON',
  message: 'MESSAGE',
  sig: 'SIGTERM or SIGKILL',
  'u.op': 'ADD, UPDATE, DELETE or REMOVE',
  shown: 'GRACE_PERIOD',
  source: '(named by the caller)',
  // The attach/detach controller's volume (a PersistentVolume's name) and its forced-detach suffix.
  'a.volume.pv': 'VOLUME',
  'volume.pv': 'VOLUME',
  'entry.volume.pv': 'VOLUME',
  multiAttachDetail:
    "Volume is already exclusively attached to one node and can't be attached to another, or Volume is already used by pod(s) …",
  forced: '[ (forced: not unmounted after 6m) or (forced: node out of service)]',
};

/** A run-time value as a placeholder: `s.podRef` → `pods/NAME`, `gracePeriod` → `GRACE_PERIOD`, anything computed → `…`. */
export function placeholder(expr: string): string {
  const e = expr.replace(/^this\./, '').replace(/!$/, '');
  if (NAMED[e]) return NAMED[e]!;
  if (!/^[\w.]+$/.test(e)) return '…';
  const last = e.split('.').pop()!;
  return NAMED[last] ?? last.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** A string or template literal's text with placeholders; constants of the file (`SOURCE`) are filled in; undefined for anything else. */
function literalText(arg: Arg, constants: ReadonlyMap<string, string>): string | undefined {
  if (/^'[^']*'$/.test(arg) || /^"[^"]*"$/.test(arg)) return arg.slice(1, -1);
  if (!arg.startsWith('`') || !arg.endsWith('`')) return undefined;
  return templateParts(arg)
    .map((p) => ('text' in p ? p.text : (constants.get(p.expr) ?? placeholder(p.expr))))
    .join('');
}

/** `const NAME = '…'` or a template of the file's top level, for sources written `${SOURCE} fn`. */
function fileConstants(code: string, shared: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const out = new Map<string, string>(shared);
  for (const m of code.matchAll(/^(?:export )?const (\w+) = (['`])/gm)) {
    const open = m.index! + m[0].length - 1;
    const end = m[2] === '`' ? skipTemplate(code, open) : skipString(code, open, "'");
    const text = literalText(code.slice(open, end + 1), out);
    if (text !== undefined) out.set(m[1]!, text);
  }
  return out;
}

/** The value a `text` variable was given last before `at` (`const text = \`…\``), when it is a literal. */
function variableBefore(
  code: string,
  name: string,
  at: number,
  constants: ReadonlyMap<string, string>,
): string | undefined {
  const before = code.slice(0, at);
  const re = new RegExp(`(?:const|let) ${name}(?:: string)? = ([\`'])`, 'g');
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(before); m; m = re.exec(before)) last = m;
  if (!last) return undefined;
  const open = last.index + last[0].length - 1;
  const end = last[1] === '`' ? skipTemplate(code, open) : skipString(code, open, "'");
  return literalText(code.slice(open, end + 1), constants);
}

const COMPUTED = '(built at run time)';

/** The event sites of one source file. */
export function eventSites(file: string, code: string, shared: ReadonlyMap<string, string> = new Map()): EventSite[] {
  const constants = new Map([...shared, ...fileConstants(code, shared)]);
  const sites: EventSite[] = [];
  const add = (component: string, textArg: Arg | undefined, sourceArg: Arg | undefined, at: number) => {
    const fromVariable =
      textArg !== undefined && /^\w+$/.test(textArg) ? variableBefore(code, textArg, at, constants) : undefined;
    const text = (textArg && literalText(textArg, constants)) ?? fromVariable ?? COMPUTED;
    // A source in a variable: a constant, the literal it was given just before (`const appsSource = \`…\``; a
    // well-known name such as `source` is a parameter), or its name's placeholder.
    const sourceVariable = sourceArg !== undefined && /^\w+$/.test(sourceArg);
    const source =
      (sourceArg && literalText(sourceArg, constants)) ??
      (sourceVariable
        ? (constants.get(sourceArg) ??
          (sourceArg in NAMED ? undefined : variableBefore(code, sourceArg, at, constants)) ??
          placeholder(sourceArg))
        : '…');
    sites.push({ component, text, source, where: file });
  };
  for (const m of code.matchAll(/\.record\(\s*'(\w+)'/g)) {
    const open = m.index! + '.record'.length;
    const [, text, source] = callArguments(code, open);
    add(m[1]!, text, source, m.index!);
  }
  for (const m of code.matchAll(/this\.mutate\(/g)) {
    const args = callArguments(code, m.index! + 'this.mutate'.length);
    add('apiserver', args[5], args[6], m.index!);
  }
  return sites;
}

/** Every event site under src/ (test files aside), by component in the diagram's lane order, then text. */
export function allEventSites(root: string): EventSite[] {
  const src = path.join(root, 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  const codes = files.map((f) => [path.join('src', f), readFileSync(path.join(src, f), 'utf8')] as const);
  // Constants exported by one file and used in another's sources (`${STORE_SOURCE} Store.Create`): the first definition of a name.
  const shared = new Map<string, string>();
  for (const [, code] of codes) for (const [k, v] of fileConstants(code, shared)) if (!shared.has(k)) shared.set(k, v);
  const sites = codes.flatMap(([file, code]) => eventSites(file, code, shared));
  const rank = (c: string) => {
    const i = (COMPONENTS as readonly string[]).indexOf(c);
    return i < 0 ? COMPONENTS.length : i;
  };
  const seen = new Set<string>();
  const unique = sites.filter((s) => {
    const key = `${s.component} ${s.text} ${s.source}`;
    return !seen.has(key) && seen.add(key);
  });
  return unique.sort(
    (a, b) =>
      rank(a.component) - rank(b.component) ||
      (a.component < b.component ? -1 : a.component > b.component ? 1 : 0) ||
      (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  );
}

/** The sites as a Markdown table: component, event text, upstream function, where in src/. */
export function renderEventSites(sites: readonly EventSite[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = sites.map(
    (s) =>
      `| ${s.component} | ${s.text === COMPUTED ? COMPUTED : `\`${cell(s.text)}\``} | ${cell(s.source)} | [${s.where}](../${s.where}) |`,
  );
  return ['| component | event | upstream | in |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

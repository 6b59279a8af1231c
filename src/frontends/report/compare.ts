import type { Operation } from 'fast-json-patch';
import type { TimelineEvent } from '../../foundation/timeline/event';
import { escapeHtml } from '../../foundation/timeline/sequence-diagram';
import { formatOffset, timestampOffset } from '../../foundation/timeline/time';
import type { ScenarioReport } from './model';
import { eventsOf } from './scenario-timeline';
import { widest } from '../../foundation/widest';

/** One row of two timelines side by side: the same event in both, or an event only one has. */
export interface AlignedRow {
  readonly a?: TimelineEvent;
  readonly b?: TimelineEvent;
  /** For a pair: whether they happened at different times from T+0. */
  readonly timeDiffers: boolean;
  /** For a pair: whether their texts differ in a number (`gracePeriod=30` | `gracePeriod=5`). */
  readonly textDiffers: boolean;
  /** For a pair of writes: the fields whose change differs, e.g. `/status/phase: "Failed" | "Succeeded"`. */
  readonly fieldDiffs: readonly string[];
}

/**
 * Aligns two timelines (from T+0 on) by component and event text — revision numbers and uids
 * aside, which differ between any two runs, and other numbers too (a grace period of 30 and one
 * of 5 are the same event with another value) — keeping the longest common sequence of events in
 * order; the rest are events only one side has.
 */
export function alignTimelines(
  a: readonly TimelineEvent[],
  t0a: number,
  b: readonly TimelineEvent[],
  t0b: number,
): AlignedRow[] {
  const ka = a.map((e) => shape(key(e)));
  const kb = b.map((e) => shape(key(e)));
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = ka[i] === kb[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && ka[i] === kb[j]) {
      const x = a[i++]!;
      const y = b[j++]!;
      rows.push({
        a: x,
        b: y,
        timeDiffers: x.at - t0a !== y.at - t0b,
        textDiffers: key(x) !== key(y),
        fieldDiffs: patchDiffs(x.patch, t0a, y.patch, t0b),
      });
    } else if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      rows.push({ a: a[i++]!, timeDiffers: false, textDiffers: false, fieldDiffs: [] });
    } else {
      rows.push({ b: b[j++]!, timeDiffers: false, textDiffers: false, fieldDiffs: [] });
    }
  }
  return rows;
}

const UID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A key with its numbers left out: what makes two events "the same event with other values". */
function shape(k: string): string {
  return k.replace(/\d+/g, '#');
}

function key(e: TimelineEvent): string {
  return `${e.component} ${e.text.replace(/\b(rev|rv)=\d+/g, '$1=N').replace(UID, '<uid>')}${e.outcome === undefined ? '' : ` → ${e.outcome}`}`;
}

/** The field changes two writes disagree on; timestamps compared by their offset from T+0. */
function patchDiffs(
  pa: readonly Operation[] | undefined,
  t0a: number,
  pb: readonly Operation[] | undefined,
  t0b: number,
): string[] {
  if (pa === undefined && pb === undefined) return [];
  const ma = changesByPath(pa ?? [], t0a);
  const mb = changesByPath(pb ?? [], t0b);
  const out: string[] = [];
  for (const path of new Set([...ma.keys(), ...mb.keys()])) {
    const x = ma.get(path) ?? '(unchanged)';
    const y = mb.get(path) ?? '(unchanged)';
    if (x !== y) out.push(`${path}: ${x} | ${y}`);
  }
  return out;
}

/** Each operation's value down to its leaves (`/status/conditions/1/lastTransitionTime`), so a difference names the field that differs. */
function changesByPath(ops: readonly Operation[], t0: number): Map<string, string> {
  const out = new Map<string, string>();
  const leaves = (path: string, value: unknown): void => {
    if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) leaves(`${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, v);
    } else out.set(path, comparable(value, t0));
  };
  for (const op of ops) {
    if (op.op === 'remove') out.set(op.path, 'removed');
    else if (op.op === 'add' || op.op === 'replace') leaves(op.path, op.value);
    else out.set(op.path, op.op);
  }
  return out;
}

function comparable(value: unknown, t0: number): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    const offset = timestampOffset(v, t0);
    return offset === undefined ? v : formatOffset(offset);
  }).replace(UID, '<uid>');
}

function sides(a: ScenarioReport, b: ScenarioReport): AlignedRow[] {
  if (!a.timeline || !b.timeline) return [];
  const x = eventsOf(a.timeline);
  const y = eventsOf(b.timeline);
  return alignTimelines(
    x.events.filter((e) => e.at >= x.t0),
    x.t0,
    y.events.filter((e) => e.at >= y.t0),
    y.t0,
  );
}

/** Two scenarios' timelines side by side as an HTML table: events only one side has, times and field changes that differ, highlighted. */
export function renderComparison(a: ScenarioReport, b: ScenarioReport): string {
  const ta = a.timeline ? Date.parse(a.timeline.t0) : 0;
  const tb = b.timeline ? Date.parse(b.timeline.t0) : 0;
  const rows = sides(a, b);
  const out = [
    '<table class="cmp"><thead><tr>',
    `<th colspan="2">A: ${escapeHtml(a.name)} <small>${escapeHtml(a.location)}</small></th><th>component</th><th colspan="2">B: ${escapeHtml(b.name)} <small>${escapeHtml(b.location)}</small></th>`,
    '</tr></thead><tbody>',
  ];
  for (const r of rows) {
    const cls = [
      r.a && !r.b ? 'only-a' : r.b && !r.a ? 'only-b' : '',
      r.timeDiffers ? 'moved' : '',
      r.textDiffers ? 'changed' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const cell = (e: TimelineEvent | undefined, t0: number): string =>
      e
        ? `<td class="t">${formatOffset(e.at - t0)}</td><td class="x">${escapeHtml(e.text)}${e.outcome ? ` → ${escapeHtml(e.outcome)}` : ''}</td>`
        : '<td class="t"></td><td></td>';
    out.push(`<tr class="${cls}">${cell(r.a, ta)}<td class="c">${(r.a ?? r.b)!.component}</td>${cell(r.b, tb)}</tr>`);
    if (r.fieldDiffs.length > 0)
      out.push(
        `<tr class="fields"><td></td><td colspan="4">fields differ (A | B): ${r.fieldDiffs.map(escapeHtml).join('<br>')}</td></tr>`,
      );
  }
  out.push('</tbody></table>');
  return out.join('');
}

/** The comparison as text, for the terminal: `=` same, `~` the same event with other values or at another time, `-` only in A, `+` only in B. */
export function formatComparison(a: ScenarioReport, b: ScenarioReport): string {
  const ta = a.timeline ? Date.parse(a.timeline.t0) : 0;
  const tb = b.timeline ? Date.parse(b.timeline.t0) : 0;
  const rows = sides(a, b);
  const width = widest(rows, (r) => (r.a ?? r.b)!.component.length, 9);
  const lines = [`A: ${a.location} ${a.name}`, `B: ${b.location} ${b.name}`, ''];
  for (const r of rows) {
    const sign =
      r.a && !r.b ? '-' : r.b && !r.a ? '+' : r.timeDiffers || r.textDiffers || r.fieldDiffs.length > 0 ? '~' : '=';
    const e = (r.a ?? r.b)!;
    const at = (x: TimelineEvent | undefined, t0: number): string => (x ? formatOffset(x.at - t0) : '').padEnd(10);
    const text = (x: TimelineEvent): string => `${x.text}${x.outcome ? ` → ${x.outcome}` : ''}`;
    lines.push(
      `${sign} ${at(r.a, ta)} ${at(r.b, tb)} ${e.component.padEnd(width)} ${text(e)}${r.textDiffers ? `  |  B: ${text(r.b!)}` : ''}`,
    );
    for (const d of r.fieldDiffs) lines.push(`${' '.repeat(24)}${' '.repeat(width)}   ${d}`);
  }
  const count = (f: (r: AlignedRow) => boolean): number => rows.filter(f).length;
  lines.push(
    '',
    `${count((r) => !!r.a && !!r.b)} events in both (${count((r) => r.textDiffers)} with other values, ${count((r) => r.timeDiffers)} at another time, ${count((r) => r.fieldDiffs.length > 0)} writes with other field changes), ${count((r) => !r.b)} only in A, ${count((r) => !r.a)} only in B`,
  );
  return lines.join('\n');
}

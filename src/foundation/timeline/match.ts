import { DurationError, parseWholeSecondsAfterT0 } from '../duration';
import { COMPONENTS, type Component, type TimelineEvent } from './event';
import type { DiagramMarks, RowMark } from './sequence-diagram';
import { formatTimeline } from './text';
import { formatOffset } from './time';

/** One row of an events table: `| at | component | event |` (at optional). */
export interface EventRow {
  at?: { from: number; to: number };
  component: Component;
  text: string;
}

export class TableError extends Error {}

/**
 * Reads an `at` cell: `T+30s` (that whole second) or `T+30s..T+33s` (whole seconds 30 to 33
 * inclusive). Seconds may be written with units the way durations are (`T+2m`, `T+1m30s`).
 */
export function parseAt(cell: string): { from: number; to: number } {
  const one = (part: string): number => {
    try {
      return parseWholeSecondsAfterT0(part) / 1000;
    } catch (e) {
      if (!(e instanceof DurationError)) throw e;
      throw new TableError(
        `bad "at" cell "${cell}": expected T+Ns or a range T+Ns..T+Ms (e.g. T+30s, T+1m30s, T+30s..T+33s) in whole seconds: ${e.message}`,
      );
    }
  };
  const parts = cell.split('..');
  if (parts.length > 2) throw new TableError(`bad "at" cell "${cell}": expected T+Ns or T+Ns..T+Ms`);
  const from = one(parts[0]);
  const to = parts.length === 2 ? one(parts[1]) : from;
  if (to < from) throw new TableError(`bad "at" cell "${cell}": the range ends before it starts`);
  return { from, to };
}

export function parseComponent(cell: string): Component {
  const c = cell.trim() as Component;
  if (!COMPONENTS.includes(c))
    throw new TableError(`unknown component "${cell}": expected one of ${COMPONENTS.join(', ')}`);
  return c;
}

/** The whole second (as Kubernetes writes times) of an event, counted from T+0. */
export function secondOf(e: TimelineEvent, t0: number): number {
  return Math.floor((e.at - t0) / 1000);
}

export function rowMatches(row: EventRow, e: TimelineEvent, t0: number): boolean {
  if (e.component !== row.component || !e.text.startsWith(row.text)) return false;
  if (!row.at) return true;
  const s = secondOf(e, t0);
  return s >= row.at.from && s <= row.at.to;
}

function describeAt(at: { from: number; to: number }): string {
  return at.from === at.to
    ? formatOffset(at.from * 1000)
    : `${formatOffset(at.from * 1000)}..${formatOffset(at.to * 1000)}`;
}

/** A row as the scenario wrote it (in the report's time notation), numbered from 1. */
export function describeRow(row: EventRow, i: number): string {
  return `row ${i + 1} | ${row.at ? `${describeAt(row.at)} | ` : ''}${row.component} | ${row.text} |`;
}

/**
 * Where the scenario's time stands when an assertion looks at the timeline: the clock only runs
 * during a step (a kubectl command until it returns, `When 10s pass`, `When the cluster settles`),
 * so an event due later has not happened yet.
 */
export interface TimelineEnd {
  /** The virtual time now. */
  readonly now: number;
  /** When the next foreground work is due (undefined: nothing but idle loops is left). */
  readonly nextDue?: number;
}

/**
 * What a failure adds when a row looks past the end of the timeline (its \`at\` lies after the
 * clock, or nothing matches it yet): where the scenario's time stands, what is still due, and the
 * step that lets time run on. Empty when the row cannot be explained by time that did not pass.
 */
export function pastTheEnd(row: EventRow | undefined, end: TimelineEnd | undefined, t0: number): string {
  if (!end) return '';
  const nowS = Math.floor((end.now - t0) / 1000);
  if (row?.at && row.at.to < nowS) return '';
  const due =
    end.nextDue === undefined
      ? 'nothing but idle loops (heartbeats, lease renewals) is scheduled'
      : `the next scheduled work is due at ${formatOffset(end.nextDue - t0)}`;
  const wait = row?.at && row.at.from > nowS ? `When ${row.at.from - nowS}s pass` : 'When 10s pass';
  return (
    `\nThe timeline ends at ${formatOffset(end.now - t0)}: the clock only runs during a step, and stopped when the last one returned; ${due}. ` +
    `To let time run on, add a step such as  ${wait}  or  When the cluster settles  before this one.`
  );
}

/** The outcome of an order assertion: a failure message (undefined when it holds) and what to mark in the diagram. */
export interface OrderResult {
  readonly failure?: string;
  readonly marks: DiagramMarks;
}

/**
 * "these events happen in order": each row matches a later event than the row before (gaps
 * allowed). On failure the message has the actual timeline, marking the matched events, names
 * the first row that found no match, and says why: its text matched an event at another time,
 * or only before the previous row's match, or nowhere.
 */
export function checkInOrder(
  events: readonly TimelineEvent[],
  rows: readonly EventRow[],
  t0: number,
  end?: TimelineEnd,
): OrderResult {
  let from = 0;
  const marks = new Map<number, string>();
  const matched: RowMark[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const idx = events.findIndex((e, j) => j >= from && rowMatches(row, e, t0));
    if (idx < 0) {
      const sameText = row.at
        ? events.find((e, j) => j >= from && rowMatches({ ...row, at: undefined }, e, t0))
        : undefined;
      const anywhere = events.find((e) => rowMatches(row, e, t0));
      let hint: string;
      if (sameText)
        hint = `the text matched #${sameText.seq} but at ${formatOffset(sameText.at - t0)}, not ${describeAt(row.at!)}`;
      else if (anywhere)
        hint = `an event matches it at #${anywhere.seq}, but before the event matched by the previous row`;
      else hint = 'no event of the timeline matches it at all';
      // Where the row was looked for: after the previous match, at the row's time if it has one.
      const place = events.find((e, j) => j >= from && (!row.at || secondOf(e, t0) >= row.at.from));
      const rowMarks: RowMark[] = [...matched];
      if (sameText)
        rowMarks.push({
          seq: sameText.seq,
          kind: 'mismatch',
          note: `row ${i + 1}'s text, at ${formatOffset(sameText.at - t0)} instead of ${describeAt(row.at!)}`,
        });
      else if (place)
        rowMarks.push({ seq: place.seq, kind: 'mismatch', note: `row ${i + 1} was looked for from here` });
      if (sameText) marks.set(sameText.seq, '≈');
      return {
        failure:
          `${describeRow(row, i)} found no matching event after the previous row's match: ${hint}.${sameText || anywhere ? '' : pastTheEnd(row, end, t0)}\n` +
          `Rows 1..${i} matched the events marked ✓${sameText ? `, ≈ marks the event with row ${i + 1}'s text` : ''}; the actual timeline from T+0:\n${formatTimeline(events, t0, marks)}`,
        marks: {
          rows: rowMarks,
          expected: [{ beforeSeq: place?.seq, component: row.component, note: `expected ${describeRow(row, i)}` }],
        },
      };
    }
    marks.set(events[idx]!.seq, '✓');
    matched.push({ seq: events[idx]!.seq, kind: 'matched', note: `row ${i + 1}` });
    from = idx + 1;
  }
  return { marks: { rows: matched, expected: [] } };
}

/**
 * "these events happen in exactly this order": after narrowing the timeline to the components
 * the table names, the rows match a contiguous run of it. On failure the message names the row
 * where the longest run broke and shows both sides: that row and the event found in its place
 * (or the end of the timeline).
 */
export function checkExactOrder(
  events: readonly TimelineEvent[],
  rows: readonly EventRow[],
  t0: number,
  end?: TimelineEnd,
): OrderResult {
  const components = new Set(rows.map((r) => r.component));
  const narrowed = events.filter((e) => components.has(e.component));
  let best = { start: -1, matched: 0 };
  // Every start counts, the last events' too: a run may break because the timeline ends.
  for (let start = 0; start < narrowed.length; start++) {
    let k = 0;
    while (k < rows.length && start + k < narrowed.length && rowMatches(rows[k]!, narrowed[start + k]!, t0)) k++;
    if (k === rows.length)
      return {
        marks: {
          rows: rows.map((_, i) => ({ seq: narrowed[start + i]!.seq, kind: 'matched', note: `row ${i + 1}` })),
          expected: [],
        },
      };
    if (k > best.matched) best = { start, matched: k };
  }
  const marks = new Map<number, string>();
  const rowMarks: RowMark[] = [];
  let why: string;
  let expected: DiagramMarks['expected'];
  if (best.matched === 0) {
    const first = rows[0]!;
    const sameText = first.at ? narrowed.find((e) => rowMatches({ ...first, at: undefined }, e, t0)) : undefined;
    if (sameText) marks.set(sameText.seq, '≈');
    const hint = sameText
      ? `its text matches #${sameText.seq} (marked ≈), but at ${formatOffset(sameText.at - t0)}, not ${describeAt(first.at!)}`
      : `no event of the timeline matches it${pastTheEnd(first, end, t0)}`;
    why = `${describeRow(first, 0)} matches no event, so no contiguous run could start: ${hint}.`;
    expected = [
      {
        beforeSeq: sameText?.seq,
        component: first.component,
        note: `expected ${describeRow(first, 0)} (matches no event)`,
      },
    ];
    if (sameText)
      rowMarks.push({
        seq: sameText.seq,
        kind: 'mismatch',
        note: `row 1's text, at ${formatOffset(sameText.at - t0)} instead of ${describeAt(first.at!)}`,
      });
  } else {
    for (let k = 0; k < best.matched; k++) {
      marks.set(narrowed[best.start + k]!.seq, '✓');
      rowMarks.push({ seq: narrowed[best.start + k]!.seq, kind: 'matched', note: `row ${k + 1}` });
    }
    const next = narrowed[best.start + best.matched];
    if (next) {
      marks.set(next.seq, '✗');
      rowMarks.push({ seq: next.seq, kind: 'mismatch', note: `here row ${best.matched + 1} was expected` });
    }
    const missing = rows[best.matched]!;
    expected = [
      { beforeSeq: next?.seq, component: missing.component, note: `expected ${describeRow(missing, best.matched)}` },
    ];
    const first = narrowed[best.start]!;
    const found = next
      ? `#${next.seq} | ${formatOffset(next.at - t0)} | ${next.component} | ${next.text} |  (marked ✗)`
      : `nothing: the narrowed timeline ends after #${narrowed[narrowed.length - 1]!.seq}`;
    why =
      `The longest contiguous run starts at #${first.seq} and matched rows 1..${best.matched} (marked ✓); it broke at row ${best.matched + 1}:\n` +
      `  expected: ${describeRow(missing, best.matched)}\n` +
      `  found:    ${found}` +
      (next ? '' : pastTheEnd(missing, end, t0));
  }
  return {
    failure: `${why}\nThe timeline from T+0, narrowed to ${[...components].join(', ')}:\n${formatTimeline(narrowed, t0, marks)}`,
    marks: { rows: rowMarks, expected },
  };
}

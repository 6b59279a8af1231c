import { DurationError, parseWholeSecondsAfterT0 } from '../duration';
import { COMPONENTS, type Component, type TimelineEvent } from './event';
import { formatTimeline } from './text';

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
      throw new TableError(`bad "at" cell "${cell}": expected T+Ns or a range T+Ns..T+Ms (e.g. T+30s, T+1m30s, T+30s..T+33s) in whole seconds: ${e.message}`);
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
  if (!COMPONENTS.includes(c)) throw new TableError(`unknown component "${cell}": expected one of ${COMPONENTS.join(', ')}`);
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

function describeRow(row: EventRow, i: number): string {
  const at = row.at ? (row.at.from === row.at.to ? `T+${row.at.from}s | ` : `T+${row.at.from}s..T+${row.at.to}s | `) : '';
  return `row ${i + 1} | ${at}${row.component} | ${row.text} |`;
}

/**
 * "these events happen in order": each row matches a later event than the row before (gaps
 * allowed). Returns undefined on success, or a message with the actual timeline, marking the last
 * matched event and naming the first row that found no match.
 */
export function checkInOrder(events: readonly TimelineEvent[], rows: readonly EventRow[], t0: number): string | undefined {
  let from = 0;
  const marks = new Map<number, string>();
  for (let i = 0; i < rows.length; i++) {
    const idx = events.findIndex((e, j) => j >= from && rowMatches(rows[i], e, t0));
    if (idx < 0) {
      const anywhere = events.find((e) => rowMatches(rows[i], e, t0));
      const hint = anywhere ? ` (an event matches it at #${anywhere.seq}, but before the event matched by the previous row)` : ' (no event of the timeline matches it at all)';
      return `${describeRow(rows[i], i)} found no matching event after the previous row's match${hint}.\n` + `Rows 1..${i} matched the events marked ✓; the actual timeline from T+0:\n${formatTimeline(events, t0, marks)}`;
    }
    marks.set(events[idx].seq, '✓');
    from = idx + 1;
  }
  return undefined;
}

/**
 * "these events happen in exactly this order": after narrowing the timeline to the components
 * the table names, the rows match a contiguous run of it.
 */
export function checkExactOrder(events: readonly TimelineEvent[], rows: readonly EventRow[], t0: number): string | undefined {
  const components = new Set(rows.map((r) => r.component));
  const narrowed = events.filter((e) => components.has(e.component));
  let best = { start: -1, matched: -1 };
  for (let start = 0; start + rows.length <= narrowed.length; start++) {
    let k = 0;
    while (k < rows.length && rowMatches(rows[k], narrowed[start + k], t0)) k++;
    if (k === rows.length) return undefined;
    if (k > best.matched) best = { start, matched: k };
  }
  const marks = new Map<number, string>();
  let why: string;
  if (best.matched <= 0) {
    why = `${describeRow(rows[0], 0)} matches no event, so no contiguous run could start.`;
  } else {
    for (let k = 0; k < best.matched; k++) marks.set(narrowed[best.start + k].seq, '✓');
    const next = narrowed[best.start + best.matched];
    if (next) marks.set(next.seq, '✗');
    why = `The longest contiguous run matched rows 1..${best.matched} (marked ✓); then ${describeRow(rows[best.matched], best.matched)} ${next ? `did not match the next event (marked ✗)` : 'had no event left to match'}.`;
  }
  return `${why}\nThe timeline from T+0, narrowed to ${[...components].join(', ')}:\n${formatTimeline(narrowed, t0, marks)}`;
}

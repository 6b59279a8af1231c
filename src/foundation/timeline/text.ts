import type { TimelineEvent } from './event';
import { formatOffset } from './time';
import { widest } from '../widest';

/**
 * The timeline as text, one event a line: time from T+0, component, text, outcome, and the
 * upstream function it models — the report's "guided walk through the upstream source".
 * `marks` puts a marker in front of chosen events (e.g. the last one an assertion matched).
 */
export function formatTimeline(
  events: readonly TimelineEvent[],
  t0: number,
  marks: ReadonlyMap<number, string> = new Map(),
): string {
  const width = widest(events, (e) => e.component.length, 9);
  return events
    .map((e) => {
      const mark = (marks.get(e.seq) ?? '').padEnd(2);
      const time = formatOffset(e.at - t0).padEnd(10);
      const outcome = e.outcome ? ` → ${e.outcome}` : '';
      return `${mark} #${String(e.seq).padEnd(4)} ${time} ${e.component.padEnd(width)} ${e.text}${outcome}    [${e.source}]`;
    })
    .join('\n');
}

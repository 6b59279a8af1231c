import type { Clock } from '../foundation/clock';
import type { Timeline } from '../foundation/timeline/timeline';
import type { Etcd } from './etcd';
import { EventTtl } from './event-ttl';

/** What the compactor works on: etcd, the timeline, and the apiserver's own records of the history. */
export interface CompactionTarget {
  readonly clock: Clock;
  readonly etcd: Etcd;
  readonly timeline: Timeline;
  /** --etcd-compaction-interval. */
  readonly intervalMs: number;
  readonly startedAt: number;
  /** The revision to compact to: the one seen one interval earlier. */
  compactedRevision(): number;
  /** Drops the request records of the history before that revision. */
  dropRequestsBefore(revision: number): void;
  /** Lets the stores forget the keys of objects gone with the compacted history. */
  forgetAbsentKeys(): void;
}

/**
 * R207 — storage/etcd3/compact.go compactor: every --etcd-compaction-interval it compacts etcd to the
 * revision it saw one interval earlier (compactedRevision), and here the history before it is
 * dropped, with the timeline events and request records of that time. Events whose --event-ttl
 * ran out are removed first (EventTtl).
 */
export function scheduleCompaction(t: CompactionTarget): void {
  const eventTtl = new EventTtl(t.etcd);
  t.etcd.subscribe((e) => eventTtl.note(e));
  const tick = () => {
    eventTtl.expire(t.clock.now());
    const revision = t.compactedRevision();
    const ticks = Math.floor((t.clock.now() - t.startedAt) / t.intervalMs);
    t.etcd.compact(revision);
    t.timeline.forgetUntil(t.startedAt + (ticks - 1) * t.intervalMs);
    t.dropRequestsBefore(revision);
    t.forgetAbsentKeys();
    t.clock.after(t.intervalMs, tick, { background: true });
  };
  t.clock.after(t.intervalMs, tick, { background: true });
}

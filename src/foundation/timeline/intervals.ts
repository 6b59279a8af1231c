import { DurationError, parseDuration } from '../duration';
import { requestsOf } from './causality';
import type { TimelineEvent } from './event';
import { formatOffset } from './time';

/**
 * A stretch of time the diagram draws as a bar: something runs or waits from one event to another
 * event (a preStop hook until its container's SIGTERM, a node's partition until it reaches the
 * apiserver again) or to a moment (the grace period to the pod's deletionTimestamp, a back-off to
 * its retry). Read from the events' texts and field changes; an interval whose end the timeline
 * has not reached runs to the end of the diagram.
 */
export interface Interval {
  readonly kind: 'prestop' | 'grace' | 'backoff' | 'unreachable';
  /** The event it starts at: its row carries the label, its lane the bar. */
  readonly startSeq: number;
  /** The event it ends at, when an event ends it. */
  readonly endSeq?: number;
  /** The virtual time it ends at, when a moment ends it (the diagram marks that moment with a row). */
  readonly endAt?: number;
  readonly label: string;
}

/** What a back-off waits for, in an event's text: `retry in 2s`, `back-off 10s`. */
const WAIT = /\b(?:retry in|back-off|backoff) (\d[\w.]*)/;

/**
 * One pass over the events (a served session's timeline may hold hundreds of thousands): what
 * starts an interval is remembered by its key until the event that ends it.
 */
export function findIntervals(events: readonly TimelineEvent[], t0: number): Interval[] {
  const out: Interval[] = [];
  const request = requestsOf(events);
  /** The grace period of each pod key still running, to be cut short by a later write. */
  const openGrace = new Map<string, { startSeq: number; deadline: number; pod: string }>();
  const openPreStop = new Map<string, number>();
  const openUnreachable = new Map<string, number>();
  const closeGrace = (key: string, endSeq: number | undefined, endAt: number | undefined) => {
    const g = openGrace.get(key);
    if (!g) return;
    openGrace.delete(key);
    const end = endAt !== undefined && endAt < g.deadline ? { endSeq } : { endAt: g.deadline };
    out.push({
      kind: 'grace',
      startSeq: g.startSeq,
      ...end,
      label: `grace period of pods/${g.pod}: deletionTimestamp ${formatOffset(g.deadline - t0)}`,
    });
  };
  const closePreStop = (key: string, endSeq: number | undefined) => {
    const startSeq = openPreStop.get(key);
    if (startSeq === undefined) return;
    openPreStop.delete(key);
    out.push({ kind: 'prestop', startSeq, endSeq, label: `preStop hook of ${key}` });
  };
  const closeUnreachable = (node: string, endSeq: number | undefined) => {
    const startSeq = openUnreachable.get(node);
    if (startSeq === undefined) return;
    openUnreachable.delete(node);
    out.push({ kind: 'unreachable', startSeq, endSeq, label: `node ${node} cannot reach the apiserver` });
  };
  for (const e of events) {
    let m: RegExpExecArray | null;
    if (e.component === 'etcd') {
      const key = /^(?:PUT|DELETE) (\/registry\/pods\/\S+)/.exec(e.text)?.[1];
      if (!key) continue;
      if (e.text.startsWith('DELETE')) closeGrace(key, e.seq, e.at);
      const stamp = e.patch?.find(
        (op) => (op.op === 'add' || op.op === 'replace') && op.path === '/metadata/deletionTimestamp',
      );
      if (stamp && 'value' in stamp && typeof stamp.value === 'string') {
        const deadline = Date.parse(stamp.value);
        closeGrace(key, e.seq, e.at);
        // A deadline already reached (a forced delete's T+0) is no period to draw.
        if (deadline > e.at)
          openGrace.set(key, { startSeq: request.get(e.seq) ?? e.seq, deadline, pod: key.split('/').pop()! });
      }
    } else if ((m = /^preStop (\S+ pods\/\S+)$/.exec(e.text))) {
      closePreStop(m[1]!, undefined);
      openPreStop.set(m[1]!, e.seq);
    } else if (
      (m = /^(?:SIGTERM|SIGKILL) (\S+ pods\/\S+)/.exec(e.text)) ||
      (m = /^preStop (\S+ pods\/\S+):/.exec(e.text))
    ) {
      closePreStop(m[1]!, e.seq);
    } else if ((m = /^node (\S+) cannot reach the apiserver/.exec(e.text))) {
      closeUnreachable(m[1]!, undefined);
      openUnreachable.set(m[1]!, e.seq);
    } else if ((m = /^node (\S+) reaches the apiserver again/.exec(e.text))) {
      closeUnreachable(m[1]!, e.seq);
    } else if ((m = WAIT.exec(e.text))) {
      let ms: number;
      try {
        ms = parseDuration(m[1]!);
      } catch (err) {
        if (err instanceof DurationError) continue;
        throw err;
      }
      if (ms > 0)
        out.push({
          kind: 'backoff',
          startSeq: e.seq,
          endAt: e.at + ms,
          label: `back-off ${m[1]}: ${e.text.slice(0, m.index).replace(/[:;,]\s*$/, '')}`,
        });
    }
  }
  for (const key of [...openGrace.keys()]) closeGrace(key, undefined, undefined);
  for (const key of [...openPreStop.keys()]) closePreStop(key, undefined);
  for (const node of [...openUnreachable.keys()]) closeUnreachable(node, undefined);
  return out.sort((a, b) => a.startSeq - b.startSeq);
}

import type { ApiServer } from '../../apiserver/apiserver';
import type { Pod } from '../../apimachinery/types';
import type { TimelineEvent } from '../../foundation/timeline/event';
import { formatTimeline } from '../../foundation/timeline/text';
import { formatOffset } from '../../foundation/timeline/time';
import type { Timeline } from '../../foundation/timeline/timeline';

/**
 * Invariants checked at every instant, not only at the end (issue 33): etcd's history (every
 * write, which a scenario's cluster keeps whole) is replayed in order, and after the last write of
 * each virtual instant from T+0 on the pods are looked at as they were then. The first instant
 * that breaks the invariant is returned, with what the pods were and the timeline around it.
 */

/** The first instant an invariant does not hold, in words. */
export interface Breach {
  readonly at: number;
  readonly message: string;
}

/** Every pod as it was at the end of each instant from `fromMs` on (the state at `fromMs` first), in time order. */
export function* podsAtEachInstant(
  api: ApiServer,
  fromMs: number,
  toMs: number,
): Generator<{ at: number; pods: ReadonlyMap<string, Pod> }> {
  const pods = new Map<string, Pod>();
  const history = api.etcd.historySince(0);
  let i = 0;
  const applyUntil = (atMs: number) => {
    for (; i < history.length && history[i].at <= atMs; i++) {
      const e = history[i];
      if (!e.key.startsWith('/registry/pods/')) continue;
      if (e.type === 'DELETE') pods.delete(e.key);
      else pods.set(e.key, e.value as unknown as Pod);
    }
  };
  applyUntil(fromMs);
  yield { at: fromMs, pods };
  while (i < history.length && history[i].at <= toMs) {
    const at = history[i].at;
    applyUntil(at);
    yield { at, pods };
  }
}

function hasLabels(pod: Pod, labels: Readonly<Record<string, string>>): boolean {
  const own = pod.metadata.labels ?? {};
  for (const [k, v] of Object.entries(labels)) if (own[k] !== v) return false;
  return true;
}

function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function names(pods: readonly Pod[]): string {
  return (
    pods
      .map(
        (p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}${isReady(p) ? ' ready' : ''}`,
      )
      .join(', ') || 'none'
  );
}

/** `at no instant do more than N pods with label … exist`. */
export function firstTooMany(
  api: ApiServer,
  fromMs: number,
  toMs: number,
  max: number,
  labels: Readonly<Record<string, string>>,
): Breach | undefined {
  for (const { at, pods } of podsAtEachInstant(api, fromMs, toMs)) {
    const matching = [...pods.values()].filter((p) => hasLabels(p, labels));
    if (matching.length > max)
      return { at, message: `${matching.length} pods exist, more than ${max}: ${names(matching)}` };
  }
  return undefined;
}

/** `at no instant are fewer than N pods with label … ready` (their Ready condition True). */
export function firstTooFewReady(
  api: ApiServer,
  fromMs: number,
  toMs: number,
  min: number,
  labels: Readonly<Record<string, string>>,
): Breach | undefined {
  for (const { at, pods } of podsAtEachInstant(api, fromMs, toMs)) {
    const matching = [...pods.values()].filter((p) => hasLabels(p, labels));
    const ready = matching.filter(isReady);
    if (ready.length < min)
      return { at, message: `${ready.length} pods ready, fewer than ${min} (pods with the label: ${names(matching)})` };
  }
  return undefined;
}

/**
 * `at no instant do two pods named … run`: the runtimes' double-run watch (src/double-run.ts)
 * says so on the timeline when a second copy of one pod name starts while the first still runs.
 */
export function firstDoubleRun(events: readonly TimelineEvent[], podRef: string): Breach | undefined {
  const e = events.find((x) => x.component === 'runtime' && x.text.startsWith(`double run ${podRef}:`));
  return e && { at: e.at, message: `two pods named ${podRef} run: ${e.text}` };
}

/** The breach as a step failure: when, what, and the timeline from 5 s before to 2 s after. */
export function describeBreach(invariant: string, breach: Breach, timeline: Timeline, t0: number): string {
  const around = timeline
    .since(Math.max(t0, breach.at - 5000))
    .filter((e) => e.at <= breach.at + 2000 && e.component !== 'watch' && e.component !== 'etcd');
  const marks = new Map(around.filter((e) => e.at === breach.at).map((e) => [e.seq, '>']));
  return `${invariant}: broken at ${formatOffset(breach.at - t0)}: ${breach.message}\nTimeline from ${formatOffset(Math.max(t0, breach.at - 5000) - t0)} to ${formatOffset(breach.at + 2000 - t0)} (> marks that instant):\n${formatTimeline(around, t0, marks)}`;
}

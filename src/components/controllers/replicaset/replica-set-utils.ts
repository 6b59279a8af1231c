import { fromTime } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import { isPodActive } from '../controller-utils';
import { isPodReady, podReadyTime } from '../../../helpers/pod-util';

/**
 * The parts of pkg/controller/controller_utils.go the ReplicaSet (and through it the Deployment)
 * controller uses: the scale-down ranking (ActivePodsWithRanks), pod-deletion-cost, the
 * slow-start batches, pod availability, and expectations that track which pods' deletions are awaited.
 */

/** The annotation that orders a ReplicaSet's scale-down (KEP-2255; PodDeletionCost β on since 1.22). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** controller.SlowStartInitialBatchSize and the ReplicaSet controller's BurstReplicas (kube-controller-manager). */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;
export const BURST_REPLICAS = 500;

/**
 * helper.GetDeletionCostFromPodAnnotations: the annotation as an int32; absent or not a valid
 * int32 counts as 0 (ActivePodsWithRanks ignores the parse error).
 */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^[+-]?\d+$/.test(v.trim())) return 0;
  const n = Number(v.trim());
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };
const phaseOrdinal = (pod: Pod): number => PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;

function creationTime(pod: Pod): number | undefined {
  return pod.metadata.creationTimestamp ? fromTime(pod.metadata.creationTimestamp) : undefined;
}

/** maxContainerRestarts: the highest restartCount among the pod's containers. */
export function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** afterOrZero: an unset time sorts first, else the later one does. */
function afterOrZero(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  return a > b;
}

/**
 * logarithmicRankDiff (LogarithmicScaleDown, β on 1.22, GA 1.31): ages compared on a log2 scale
 * of nanoseconds, so pods of about the same age tie (and are then ordered by UID).
 */
function logarithmicRankDiff(a: number, b: number, now: number): number {
  const rank = (t: number) => (now - t > 0 ? Math.floor(Math.log2((now - t) * 1e6)) : -1);
  return rank(a) - rank(b);
}

/** One criterion of ActivePodsWithRanks.Less comparing a and b: <0 a goes first, >0 b, 0 a tie. */
type Criterion = { name: string; compare(a: RankedPod, b: RankedPod, now: number): number; describe(p: RankedPod, now: number): string };

export interface RankedPod {
  readonly pod: Pod;
  /** How many active pods of the related ReplicaSets share its node (getPodsRankedByRelatedPodsOnSameNode). */
  readonly rank: number;
}

const byTime = (a: number | undefined, b: number | undefined, now: number, uidA: string, uidB: string): number => {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return afterOrZero(a, b) ? -1 : 1;
  const diff = logarithmicRankDiff(a, b, now);
  if (diff === 0) return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
  return diff;
};

const age = (t: number | undefined, now: number) => (t === undefined ? 'unknown' : `${Math.round((now - t) / 1000)}s`);

/** ActivePodsWithRanks.Less, in its order (controller_utils.go, v1.33). */
const CRITERIA: readonly Criterion[] = [
  { name: 'unassigned', compare: (a, b) => (!!a.pod.spec?.nodeName === !!b.pod.spec?.nodeName ? 0 : a.pod.spec?.nodeName ? 1 : -1), describe: (p) => (p.pod.spec?.nodeName ? 'assigned' : 'unassigned') },
  { name: 'phase', compare: (a, b) => phaseOrdinal(a.pod) - phaseOrdinal(b.pod), describe: (p) => p.pod.status?.phase ?? 'Pending' },
  { name: 'ready', compare: (a, b) => Number(isPodReady(a.pod)) - Number(isPodReady(b.pod)), describe: (p) => (isPodReady(p.pod) ? 'ready' : 'not ready') },
  { name: 'pod-deletion-cost', compare: (a, b) => deletionCost(a.pod) - deletionCost(b.pod), describe: (p) => `pod-deletion-cost ${deletionCost(p.pod)}` },
  { name: 'colocated', compare: (a, b) => b.rank - a.rank, describe: (p) => `${p.rank} related pods on its node` },
  {
    name: 'ready time',
    compare: (a, b, now) => (isPodReady(a.pod) && isPodReady(b.pod) ? byTime(podReadyTime(a.pod), podReadyTime(b.pod), now, a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? '') : 0),
    describe: (p, now) => `ready for ${age(podReadyTime(p.pod), now)}`,
  },
  { name: 'restarts', compare: (a, b) => maxContainerRestarts(b.pod) - maxContainerRestarts(a.pod), describe: (p) => `${maxContainerRestarts(p.pod)} restarts` },
  {
    name: 'created',
    compare: (a, b, now) => (creationTime(a.pod) === creationTime(b.pod) ? 0 : byTime(creationTime(a.pod), creationTime(b.pod), now, a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? '')),
    describe: (p, now) => `created ${age(creationTime(p.pod), now)} ago`,
  },
];

/** ActivePodsWithRanks.Less as a comparator: the pod to delete first sorts first. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  for (const c of CRITERIA) {
    const d = c.compare(a, b, now);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Why `victim` went before `kept` (the first criterion that told them apart), for the timeline:
 * e.g. `not ready`, `pod-deletion-cost -100`, `ready for 10s`. With no pod kept, every one goes.
 */
export function rankReason(victim: RankedPod, kept: RankedPod | undefined, now: number): string {
  if (!kept) return 'no pod is kept';
  for (const c of CRITERIA) if (c.compare(victim, kept, now) !== 0) return c.describe(victim, now);
  return 'a tie, kept in list order';
}

/**
 * getPodsRankedByRelatedPodsOnSameNode: each pod ranked by the active pods of its ReplicaSet and
 * the related ones (the same Deployment's) on its node — more colocated pods go first.
 */
export function rankByRelatedPodsOnSameNode(pods: readonly Pod[], related: readonly Pod[]): RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(p.spec?.nodeName ?? '', (onNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  return pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
}

/**
 * getPodsToDelete: all of them when fewer are wanted than there are none left, else the first
 * `diff` by ActivePodsWithRanks (the sort is stable: equal pods keep the lister's order).
 */
export function getPodsToDelete(filtered: readonly Pod[], related: readonly Pod[], diff: number, now: number): { victims: RankedPod[]; firstKept?: RankedPod } {
  const ranked = rankByRelatedPodsOnSameNode(filtered, related);
  if (diff < filtered.length) ranked.sort((a, b) => compareForDeletion(a, b, now));
  return { victims: ranked.slice(0, diff), firstKept: ranked[diff] };
}

/**
 * slowStartBatch: `count` calls in batches of 1, 2, 4, … (each batch runs in full; the next only
 * if every call of this one succeeded). Returns how many succeeded and the first error.
 */
export function slowStartBatch<E>(count: number, initialBatchSize: number, fn: () => E | undefined): { successes: number; error?: E } {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    let error: E | undefined;
    for (let i = 0; i < batch; i++) {
      const e = fn();
      if (e === undefined) successes++;
      else error ??= e;
    }
    if (error !== undefined) return { successes, error };
    remaining -= batch;
  }
  return { successes };
}

/**
 * controller.UIDTrackingControllerExpectations: creations counted, deletions tracked by pod key,
 * so a pod seen terminating and then gone lowers the expectation once.
 */
export class UIDTrackingExpectations {
  private readonly expected = new Map<string, { add: number; deletes: Set<string>; at: number }>();
  /** controller.ExpectationsTimeout. */
  static readonly TIMEOUT_MS = 5 * 60_000;

  constructor(private readonly now: () => number) {}

  expectCreations(key: string, n: number): void {
    this.expected.set(key, { add: n, deletes: new Set(), at: this.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.expected.set(key, { add: 0, deletes: new Set(podKeys), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.expected.get(key);
    if (e) e.add -= 1;
  }

  deletionObserved(key: string, podKey: string): void {
    this.expected.get(key)?.deletes.delete(podKey);
  }

  satisfied(key: string): boolean {
    const e = this.expected.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.deletes.size === 0) || this.now() - e.at > UIDTrackingExpectations.TIMEOUT_MS;
  }

  delete(key: string): void {
    this.expected.delete(key);
  }
}

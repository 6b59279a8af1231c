import type { Pod } from '../../../apimachinery/types';
import { compareForDeletion, isPodActive, type RankedPod } from '../controller-utils';

/**
 * The ReplicaSet controller's own helpers (pkg/controller/replicaset/replica_set.go): which pods a
 * scale-down deletes (getPodsToDelete, ranked by controller-utils.ts's ActivePodsWithRanks) and
 * the slow-start batches of its creations.
 */

/** The ReplicaSet controller's BurstReplicas (kube-controller-manager). */
export const BURST_REPLICAS = 500;

/**
 * getPodsRankedByRelatedPodsOnSameNode: each pod ranked by the active pods of its ReplicaSet and
 * the related ones (the same Deployment's) on its node — more colocated pods go first.
 */
export function rankByRelatedPodsOnSameNode(pods: readonly Pod[], related: readonly Pod[]): RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related)
    if (isPodActive(p)) onNode.set(p.spec?.nodeName ?? '', (onNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  return pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
}

/**
 * getPodsToDelete: all of them when fewer are wanted than there are none left, else the first
 * `diff` by ActivePodsWithRanks (the sort is stable: equal pods keep the lister's order).
 */
export function getPodsToDelete(
  filtered: readonly Pod[],
  related: readonly Pod[],
  diff: number,
  now: number,
): { victims: RankedPod[]; firstKept?: RankedPod } {
  const ranked = rankByRelatedPodsOnSameNode(filtered, related);
  if (diff < filtered.length) ranked.sort((a, b) => compareForDeletion(a, b, now));
  return { victims: ranked.slice(0, diff), firstKept: ranked[diff] };
}

/**
 * slowStartBatch: `count` calls in batches of 1, 2, 4, … (each batch runs in full; the next only
 * if every call of this one succeeded). Returns how many succeeded and the first error.
 */
export function slowStartBatch<E>(
  count: number,
  initialBatchSize: number,
  fn: () => E | undefined,
): { successes: number; error?: E } {
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

import { fromTime } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';

export const SOURCE = 'pkg/controller/job/backoff_utils.go';

/**
 * job_controller.go DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff: 10 s, doubling per
 * failure since the last success, capped at 10 minutes in the code (the Job documentation says
 * "capped at six minutes"; the code is what runs).
 */
export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** backoffRecord: failures after the last success, and when the last of them happened. */
export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  readonly lastFailureTime?: number;
}

/**
 * getFinishedTime: when a pod ended — the latest finishedAt of its regular containers once every
 * one of them has terminated (init containers and sidecars are not read; one still running, or a
 * pod without container statuses, gives nothing here), else the Ready=False transition, else when
 * it was deleted (deletionTimestamp less the grace period), else its creation time.
 */
export function getFinishedTime(pod: Pod): number {
  const fromContainers = finishTimeFromContainers(pod);
  if (fromContainers !== undefined) return fromContainers;
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'False');
  if (ready?.lastTransitionTime) return fromTime(ready.lastTransitionTime);
  if (pod.metadata.deletionTimestamp)
    return fromTime(pod.metadata.deletionTimestamp) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  // "This should not happen in clusters with Kubelet and PodGC running."
  return fromTime(pod.metadata.creationTimestamp!);
}

/** getFinishTimeFromContainers: undefined as soon as one regular container has not terminated. */
function finishTimeFromContainers(pod: Pod): number | undefined {
  let latest: number | undefined;
  for (const cs of pod.status?.containerStatuses ?? []) {
    const at = cs.state?.terminated?.finishedAt;
    if (!at) return undefined;
    latest = Math.max(latest ?? 0, fromTime(at));
  }
  return latest;
}

/**
 * backoffStore.newBackoffRecord: the stored record updated with the pods that newly finished.
 * No new success: the failures add up and the last one's time is kept. A new success resets the
 * count to the failures that finished after the latest success.
 */
export function newBackoffRecord(
  stored: BackoffRecord | undefined,
  succeeded: readonly Pod[],
  failed: readonly Pod[],
): BackoffRecord {
  const record = stored ?? { failuresAfterLastSuccess: 0 };
  const failedTimes = failed.map((p) => getFinishedTime(p)).sort((a, b) => a - b);
  if (succeeded.length === 0) {
    if (failedTimes.length === 0) return record;
    return {
      failuresAfterLastSuccess: record.failuresAfterLastSuccess + failedTimes.length,
      lastFailureTime: failedTimes[failedTimes.length - 1],
    };
  }
  const lastSuccess = Math.max(...succeeded.map((p) => getFinishedTime(p)));
  const after = failedTimes.filter((t) => t > lastSuccess);
  return after.length === 0
    ? { failuresAfterLastSuccess: 0 }
    : { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1] };
}

/**
 * getRemainingTimeForFailuresCount: the back-off is 10 s × 2^(failures−1), at most the cap; what
 * is left of it since the last failure (0 once it has passed, or with no failure).
 */
export function getRemainingTime(
  record: BackoffRecord,
  now: number,
  baseMs = DEFAULT_POD_FAILURE_BACKOFF_MS,
  maxMs = MAX_POD_FAILURE_BACKOFF_MS,
): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  let backoff = baseMs;
  for (let i = 1; i < record.failuresAfterLastSuccess; i++) {
    backoff *= 2;
    if (backoff >= maxMs) {
      backoff = maxMs;
      break;
    }
  }
  const elapsed = now - record.lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

import { fromTime, toTime } from '../apimachinery/object';
import type { Pod, PodCondition, PodStatus } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/**
 * pkg/api/v1/pod UpdatePodCondition: sets the condition in place (appended if new); its
 * lastTransitionTime is `now` unless the status stays the same. Returns whether anything changed.
 */
export function updatePodCondition(status: PodStatus, condition: PodCondition, now: number): boolean {
  const next: PodCondition = { ...condition, lastTransitionTime: toTime(now) };
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i < 0) {
    status.conditions = [...conditions, next];
    return true;
  }
  const old = conditions[i];
  if (next.status === old.status) next.lastTransitionTime = old.lastTransitionTime;
  const equal =
    next.status === old.status &&
    next.reason === old.reason &&
    next.message === old.message &&
    next.lastProbeTime === old.lastProbeTime &&
    next.lastTransitionTime === old.lastTransitionTime;
  status.conditions = conditions.map((c, j) => (j === i ? next : c));
  return !equal;
}

/** pkg/api/v1/pod IsPodReady: the (first) Ready condition is True, as GetPodCondition finds it; a loop, as it runs for every pod event. */
export function isPodReady(pod: Pod): boolean {
  const conditions = pod.status?.conditions ?? [];
  for (let i = 0; i < conditions.length; i++)
    if (conditions[i].type === 'Ready') return conditions[i].status === 'True';
  return false;
}

/** podReadyTime: when the Ready condition last turned True (undefined: unknown). */
export function podReadyTime(pod: Pod): number | undefined {
  const t = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime;
  return t ? fromTime(t) : undefined;
}

/**
 * pkg/api/v1/pod IsPodAvailable: ready, and ready for minReadySeconds (0: as soon as it is ready).
 * Up to 1.33 the Ready condition's lastTransitionTime + minReadySeconds must be strictly before now
 * (`Before`); from 1.34 it may equal now (`Compare(now) <= 0`, #132122, which calls it a change
 * easier to test with no practical difference: here, on the virtual clock, a pod at exactly
 * minReadySeconds is available from 1.34 and not before). The ReplicaSet, Deployment, StatefulSet
 * and DaemonSet controllers all ask this one function.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number, release: Release): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const t = podReadyTime(pod);
  if (t === undefined) return false;
  const availableAt = t + minReadySeconds * 1000;
  return release.atLeast(34) ? availableAt <= now : availableAt < now;
}

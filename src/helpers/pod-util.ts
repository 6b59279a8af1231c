import { toTime } from '../apimachinery/object';
import type { Pod, PodCondition, PodStatus } from '../apimachinery/types';

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
    next.status === old.status && next.reason === old.reason && next.message === old.message && next.lastProbeTime === old.lastProbeTime && next.lastTransitionTime === old.lastTransitionTime;
  status.conditions = conditions.map((c, j) => (j === i ? next : c));
  return !equal;
}

/** pkg/api/v1/pod IsPodReady: the (first) Ready condition is True, as GetPodCondition finds it; a loop, as it runs for every pod event. */
export function isPodReady(pod: Pod): boolean {
  const conditions = pod.status?.conditions ?? [];
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'Ready') return conditions[i].status === 'True';
  return false;
}

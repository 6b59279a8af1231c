import { toTime } from '../apimachinery/object';
import type { Condition, PodDisruptionBudget } from '../apimachinery/types';

/**
 * staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go: the DisruptionAllowed
 * condition follows status.disruptionsAllowed — True/SufficientPods above 0, False/InsufficientPods
 * at 0 — as both the eviction subresource and the disruption controller write it.
 */
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

/**
 * apimeta.SetStatusCondition: replaces the condition of that type, keeping its
 * lastTransitionTime unless the status changes; a new condition gets `now`.
 */
export function setStatusCondition(
  conditions: Condition[],
  condition: Omit<Condition, 'lastTransitionTime'>,
  now: number,
): Condition[] {
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i < 0) return [...conditions, { ...condition, lastTransitionTime: toTime(now) }];
  const old = conditions[i];
  const lastTransitionTime = old.status === condition.status ? old.lastTransitionTime : toTime(now);
  return conditions.map((c, j) => (j === i ? { ...condition, lastTransitionTime } : c));
}

/** UpdateDisruptionAllowedCondition. */
export function updateDisruptionAllowedCondition(pdb: PodDisruptionBudget, now: number): void {
  const status = pdb.status!;
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  status.conditions = setStatusCondition(
    status.conditions ?? [],
    {
      type: DISRUPTION_ALLOWED,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
      message: '',
      observedGeneration: status.observedGeneration,
    },
    now,
  );
}

/** ConditionsAreUpToDate: the condition exists, the status is of the current generation, and the condition says what disruptionsAllowed says. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const status = pdb.status;
  const condition = status?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!status || !condition || status.observedGeneration !== pdb.metadata.generation) return false;
  return (status.disruptionsAllowed ?? 0) > 0
    ? condition.status === 'True' && condition.reason === SUFFICIENT_PODS
    : condition.status === 'False' && condition.reason === INSUFFICIENT_PODS;
}

import { fromTime, toTime } from '../../../apimachinery/object';
import type { Deployment, DeploymentCondition, DeploymentStatus } from '../../../apimachinery/types';

/**
 * Progress deadlines (pkg/controller/deployment/progress.go syncRolloutStatus and
 * requeueStuckDeployment; util/deployment_util.go HasProgressDeadline, DeploymentComplete,
 * DeploymentProgressing, DeploymentTimedOut, SetDeploymentCondition). A rollout reports its
 * progress in the Progressing condition; one that has shown none for progressDeadlineSeconds
 * (600 by default) is marked False, ProgressDeadlineExceeded. Timing out changes nothing else:
 * the controller goes on with the rollout as before (rolloutRecreate still waits for the old pods).
 */

/** The reasons of the Progressing condition (util/deployment_util.go). */
export const NEW_RS_CREATED = 'NewReplicaSetCreated';
export const FOUND_NEW_RS = 'FoundNewReplicaSet';
export const RS_UPDATED = 'ReplicaSetUpdated';
export const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
export const TIMED_OUT = 'ProgressDeadlineExceeded';

/** math.MaxInt32: the value that turns the deadline off (HasProgressDeadline). */
const NO_DEADLINE = 2 ** 31 - 1;

/** HasProgressDeadline: progressDeadlineSeconds set and not MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== NO_DEADLINE;
}

export function getProgressing(status: DeploymentStatus | undefined): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === 'Progressing');
}

/** NewDeploymentCondition: both times now. */
export function newCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const t = toTime(now);
  return { type, status, reason, message, lastUpdateTime: t, lastTransitionTime: t };
}

/**
 * SetDeploymentCondition: a condition of the same status and reason is left as it is (its times
 * too); one of the same status keeps its lastTransitionTime; the new one goes last.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = status.conditions?.find((c) => c.type === condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** DeploymentComplete: every replica updated and available, none more, and the generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return (
    s.updatedReplicas === replicas &&
    s.replicas === replicas &&
    s.availableReplicas === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated, ready or available replicas than the stored status says, or fewer old ones. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * DeploymentTimedOut: Progressing (of the new status) already says ProgressDeadlineExceeded, or
 * its lastUpdateTime is more than progressDeadlineSeconds ago — never once NewReplicaSetAvailable.
 */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getProgressing(s);
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE) return false;
  if (c.reason === TIMED_OUT) return true;
  const from = fromTime(c.lastUpdateTime ?? c.lastTransitionTime ?? toTime(now));
  return from + d.spec!.progressDeadlineSeconds! * 1000 < now;
}

/**
 * syncRolloutStatus's part in Progressing: removed without a deadline; left alone once the
 * rollout was complete (every replica updated and NewReplicaSetAvailable); else
 * NewReplicaSetAvailable when complete, ReplicaSetUpdated (lastUpdateTime now, even with the same
 * reason) when it made progress, ProgressDeadlineExceeded when it timed out. Answers whether it
 * timed out just now.
 */
export function updateProgressing(
  d: Deployment,
  status: DeploymentStatus,
  newRSName: string | undefined,
  now: number,
): { timedOut: boolean } {
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = getProgressing(d.status);
  const complete = status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
  if (!hasProgressDeadline(d) || complete) return { timedOut: false };
  const subject = newRSName ? `ReplicaSet "${newRSName}"` : `Deployment "${d.metadata.name}"`;
  if (deploymentComplete(d, status)) {
    setCondition(
      status,
      newCondition('Progressing', 'True', NEW_RS_AVAILABLE, `${subject} has successfully progressed.`, now),
    );
  } else if (deploymentProgressing(d, status)) {
    const c = newCondition('Progressing', 'True', RS_UPDATED, `${subject} is progressing.`, now);
    // Progress moves lastUpdateTime even when the reason stays: remove, then set.
    if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
    removeCondition(status, 'Progressing');
    setCondition(status, c);
  } else if (deploymentTimedOut(d, status, now)) {
    const before = getProgressing(status)?.reason;
    setCondition(status, newCondition('Progressing', 'False', TIMED_OUT, `${subject} has timed out progressing.`, now));
    return { timedOut: before !== TIMED_OUT };
  }
  return { timedOut: false };
}

/**
 * requeueStuckDeployment: with a deadline, a Progressing condition, a rollout neither complete nor
 * timed out, the next progress check is due lastUpdateTime + progressDeadlineSeconds; answers
 * the delay to queue the Deployment after (one second more, against skew), 'now' when less than a
 * second is left (upstream then adds it rate-limited), or undefined when no check is needed.
 */
export function stuckRequeueAfter(d: Deployment, newStatus: DeploymentStatus, now: number): number | 'now' | undefined {
  const current = getProgressing(d.status);
  if (!hasProgressDeadline(d) || !current) return undefined;
  if (deploymentComplete(d, newStatus) || current.reason === TIMED_OUT) return undefined;
  const lastUpdate = fromTime(current.lastUpdateTime ?? current.lastTransitionTime ?? toTime(now));
  const after = lastUpdate + d.spec!.progressDeadlineSeconds! * 1000 - now;
  return after < 1000 ? 'now' : after + 1000;
}

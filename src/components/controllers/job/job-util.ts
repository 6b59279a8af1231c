import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { KubeObject } from '../../../apimachinery/object';
import type { Job, Pod } from '../../../apimachinery/types';
import { JOB_TRACKING_FINALIZER } from '../../../apiserver/workload-strategy';

/** The Job controller's constants and small helpers (job_controller.go; util/utils.go IsJobFinished). */

export const IDENTITY: ClientIdentity = { name: 'job-controller', component: 'job' };
/** syncJobBatchPeriod: pod events reach a Job's sync through AddAfter(1 s), so a burst of them is one sync. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
/** MaxUncountedPods: pods counted per sync, to keep status.uncountedTerminatedPods under 20 KB. */
export const MAX_UNCOUNTED_PODS = 500;
/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** The managedBy value of the built-in controller (batch/v1 JobControllerName). */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';

// `=== true` rather than `?? []`: it runs for every pod event, and allocating for the pods without finalizers is waste.
export const hasTrackingFinalizer = (pod: Pod): boolean =>
  pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) === true;

/** A pod the job controller acts on even without Jobs: an orphan's tracking finalizer is removed (what starts it lazily, ../registry.ts). */
export const hasJobTrackingFinalizer = (obj: KubeObject): boolean => hasTrackingFinalizer(obj as Pod);
export const ref = (pod: Pod): string => `pods/${pod.metadata.name}`;

/** util.IsJobFinished: a Complete or Failed condition that is True. */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the container restarts of running and pending pods count against backoffLimit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])])
      restarts += cs.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

export function appendIfMissing(list: readonly string[], item: string): string[] {
  return list.includes(item) ? [...list] : [...list, item];
}

import { splitKey, keyOf } from '../../../client/informer';
import type { Job, JobCondition, Pod } from '../../../apimachinery/types';
import type { ApiClient } from '../../../client/client';
import { JOB_TRACKING_FINALIZER } from '../../../apiserver/workload-strategy';
import type { Timeline } from '../../../foundation/timeline/timeline';
import type { PodControl } from '../controller-utils';
import type { BackoffRecord } from './backoff';
import { hasTrackingFinalizer, IDENTITY, MAX_UNCOUNTED_PODS, ref } from './job-util';
import { matchPodFailurePolicy } from './pod-failure-policy';

const SOURCE = 'pkg/controller/job/job_controller.go';

/**
 * Finalizer tracking (job_controller.go trackJobStatusAndRemoveFinalizers,
 * flushUncountedAndRemoveFinalizers, enactJobFinished, recordJobFinished, updateJobStatus;
 * the uid expectations of tracking_utils.go are the controller's finalizerExpectations): how a
 * finished pod is counted, unfinalized and how the Job's finishing condition is written.
 */

/** What one syncJob works with (syncJobCtx). */
export /** What one syncJob works with (syncJobCtx). */
interface SyncJobCtx {
  job: Job;
  pods: Pod[];
  activePods: Pod[];
  finishedCondition?: JobCondition;
  succeeded: number;
  failed: number;
  newBackoffRecord: BackoffRecord;
  expectedRmFinalizers: Set<string>;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  terminating?: number;
  ready: number;
}

/** What the tracking needs of the Job controller. */
export interface JobTrackingHost {
  /** The Job controller's own client. */
  readonly client: ApiClient;
  readonly timeline: Timeline;
  readonly podControl: PodControl;
  /** finalizerExpectations (tracking_utils.go uidTrackingExpectations): pod uids whose finalizer removal is in flight, by job key. */
  readonly finalizerExpectations: Map<string, Set<string>>;
  /** podBackoffStore. */
  readonly backoffStore: Map<string, BackoffRecord>;
  isPodFailed(pod: Pod, job: Job): boolean;
  removeTrackingFinalizer(pod: Pod, job?: Job): boolean;
  delayTerminalCondition(): boolean;
  condition(type: string, reason: string, message: string): JobCondition;
  findCondition(job: Job, type: string): JobCondition | undefined;
}

/**
 * trackJobStatusAndRemoveFinalizers (job_controller.go, W41): finished pods go into
 * status.uncountedTerminatedPods (written first), then lose their finalizer, then move from the
 * uncounted lists to succeeded/failed; the finishing condition is set once nothing is uncounted
 * (and, from v1.31, nothing terminates).
 */
export function trackJobStatusAndRemoveFinalizers(
  host: JobTrackingHost,
  ctx: SyncJobCtx,
  needsFlush: boolean,
): Error | undefined {
  const job = ctx.job;
  const status = job.status!;
  const uncounted = status.uncountedTerminatedPods!;
  uncounted.succeeded = [...(uncounted.succeeded ?? [])];
  uncounted.failed = [...(uncounted.failed ?? [])];
  const withFinalizer = new Set<string>();
  for (const p of ctx.pods)
    if (hasTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(p.metadata.uid!)) withFinalizer.add(p.metadata.uid!);
  if (cleanUncountedPodsWithoutFinalizers(status, withFinalizer)) needsFlush = true;
  const toUnfinalize: Pod[] = [];
  let reachedMax = false;
  for (const pod of ctx.pods) {
    const uid = pod.metadata.uid!;
    if (!hasTrackingFinalizer(pod) || ctx.expectedRmFinalizers.has(uid)) continue;
    const failed = host.isPodFailed(pod, job);
    if (!(job.metadata.deletionTimestamp || ctx.finishedCondition || pod.status?.phase === 'Succeeded' || failed))
      continue; // canRemoveFinalizer
    toUnfinalize.push(pod);
    if (pod.status?.phase === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (!ctx.uncounted.succeeded.has(uid)) {
        needsFlush = true;
        uncounted.succeeded.push(uid);
      }
    } else if (
      failed ||
      (ctx.finishedCondition &&
        ctx.finishedCondition.type !== 'SuccessCriteriaMet' &&
        ctx.finishedCondition.type !== 'Complete')
    ) {
      // When the Job is finishing, every pod that did not succeed counts as failed.
      if (!ctx.uncounted.failed.has(uid)) {
        const counts = job.spec?.podFailurePolicy
          ? matchPodFailurePolicy(job.spec.podFailurePolicy, pod).countFailed
          : true;
        if (counts) {
          needsFlush = true;
          uncounted.failed.push(uid);
        }
      }
    }
    if (uncounted.succeeded.length + uncounted.failed.length >= MAX_UNCOUNTED_PODS) {
      reachedMax = true;
      break;
    }
  }
  if (ctx.finishedCondition?.type === 'FailureTarget') {
    // The interim FailureTarget is written before the finalizers go; Failed follows.
    if (!host.findCondition(job, 'FailureTarget'))
      status.conditions = [...(status.conditions ?? []), ctx.finishedCondition];
    needsFlush = true;
    ctx.finishedCondition = host.condition(
      'Failed',
      ctx.finishedCondition.reason ?? '',
      ctx.finishedCondition.message ?? '',
    );
  }
  if (ctx.finishedCondition?.type === 'SuccessCriteriaMet') {
    if (!host.findCondition(job, 'SuccessCriteriaMet')) {
      status.conditions = [...(status.conditions ?? []), ctx.finishedCondition];
      needsFlush = true;
    }
    ctx.finishedCondition = host.condition(
      'Complete',
      ctx.finishedCondition.reason ?? '',
      ctx.finishedCondition.message ?? '',
    );
  }
  // flushUncountedAndRemoveFinalizers.
  if (needsFlush) {
    const e = updateJobStatus(host, ctx);
    if (e) return e;
    host.backoffStore.set(keyOf(job), ctx.newBackoffRecord);
    needsFlush = false;
  }
  let rmError: Error | undefined;
  if (toUnfinalize.length > 0) {
    const key = keyOf(job);
    const expected = host.finalizerExpectations.get(key) ?? new Set<string>();
    host.finalizerExpectations.set(key, expected);
    for (const pod of toUnfinalize) {
      expected.add(pod.metadata.uid!);
      const uncounted = job.status!.uncountedTerminatedPods!;
      const counted = uncounted.succeeded!.includes(pod.metadata.uid!)
        ? 'succeeded'
        : uncounted.failed!.includes(pod.metadata.uid!)
          ? 'failed'
          : undefined;
      const why = counted
        ? `counted as ${counted} in jobs/${job.metadata.name}.status.uncountedTerminatedPods`
        : job.metadata.deletionTimestamp
          ? `jobs/${job.metadata.name} is being deleted`
          : ctx.finishedCondition
            ? `jobs/${job.metadata.name} is finishing`
            : 'its failure does not count (podFailurePolicy)';
      host.timeline.record(
        'job',
        `remove finalizer ${JOB_TRACKING_FINALIZER} from ${ref(pod)}: ${why}`,
        `${SOURCE} flushUncountedAndRemoveFinalizers → removeTrackingFinalizerFromPods`,
        { actor: IDENTITY.name },
      );
      if (host.removeTrackingFinalizer(pod, job)) withFinalizer.delete(pod.metadata.uid!);
      else {
        expected.delete(pod.metadata.uid!);
        rmError = new Error(`removing the tracking finalizer of ${ref(pod)} failed`);
      }
    }
  }
  if (cleanUncountedPodsWithoutFinalizers(job.status!, withFinalizer)) needsFlush = true;
  if (rmError && needsFlush) {
    const e = updateJobStatus(host, ctx);
    return e ?? rmError;
  }
  if (rmError) return rmError;
  const finished = !reachedMax && enactJobFinished(host, ctx);
  if (finished || needsFlush) {
    const e = updateJobStatus(host, ctx);
    if (e) return e;
    if (finished) recordJobFinished(host, ctx.job, ctx.finishedCondition!);
  }
  return undefined;
}

/** enactJobFinished: the Complete or Failed condition, once nothing is uncounted (and, with the delay, nothing terminates). */
function enactJobFinished(host: JobTrackingHost, ctx: SyncJobCtx): boolean {
  const cond = ctx.finishedCondition;
  if (!cond) return false;
  const status = ctx.job.status!;
  const uncounted = status.uncountedTerminatedPods;
  if ((uncounted?.succeeded?.length ?? 0) + (uncounted?.failed?.length ?? 0) > 0) return false;
  if (host.delayTerminalCondition() && (ctx.terminating ?? 0) > 0) {
    host.timeline.record(
      'job',
      `jobs/${ctx.job.metadata.name} waits for ${ctx.terminating} terminating pod(s) before it is marked ${cond.type}`,
      `${SOURCE} enactJobFinished`,
      { actor: IDENTITY.name },
    );
    return false;
  }
  if (!host.findCondition(ctx.job, cond.type)) status.conditions = [...(status.conditions ?? []), cond];
  if (cond.type === 'Complete') status.completionTime = cond.lastTransitionTime;
  return true;
}

/** recordJobFinished: the Completed Event, or a Warning with the failure reason. */
function recordJobFinished(host: JobTrackingHost, job: Job, cond: JobCondition): void {
  host.timeline.record(
    'job',
    `jobs/${job.metadata.name} ${cond.type === 'Complete' ? 'is Complete' : `Failed: ${cond.reason}`}`,
    `${SOURCE} enactJobFinished → recordJobFinished`,
    { actor: IDENTITY.name },
  );
  if (cond.type === 'Complete') host.podControl.event(job, 'Job', 'Normal', 'Completed', 'Job completed');
  else host.podControl.event(job, 'Job', 'Warning', cond.reason ?? 'Failed', cond.message ?? '');
}

/** updateJobStatus: UpdateStatus with the resourceVersion the sync read; the answer is what the next write builds on. */
function updateJobStatus(host: JobTrackingHost, ctx: SyncJobCtx): Error | undefined {
  const job = ctx.job;
  const { namespace } = splitKey(keyOf(job));
  const uncounted = job.status!.uncountedTerminatedPods!;
  const body: Job = structuredClone(job);
  body.status!.uncountedTerminatedPods = {
    ...(uncounted.succeeded?.length ? { succeeded: uncounted.succeeded } : {}),
    ...(uncounted.failed?.length ? { failed: uncounted.failed } : {}),
  };
  const r = host.client.update('jobs', namespace, body, { subresource: 'status' });
  if (!r.ok) return new Error(`updating the status of jobs/${job.metadata.name}: ${r.status.message}`);
  job.metadata.resourceVersion = r.object.metadata.resourceVersion;
  host.podControl.consistency?.wroteAt(job, 'jobs', r.object.metadata.resourceVersion);
  return undefined;
}

/** cleanUncountedPodsWithoutFinalizers: uids whose finalizer is gone move from the uncounted lists to the counters. */
function cleanUncountedPodsWithoutFinalizers(
  status: NonNullable<Job['status']>,
  withFinalizer: ReadonlySet<string>,
): boolean {
  const u = status.uncountedTerminatedPods!;
  let updated = false;
  const succeeded = (u.succeeded ?? []).filter((uid) => withFinalizer.has(uid));
  if (succeeded.length !== (u.succeeded ?? []).length) {
    status.succeeded = (status.succeeded ?? 0) + (u.succeeded!.length - succeeded.length);
    u.succeeded = succeeded;
    updated = true;
  }
  const failed = (u.failed ?? []).filter((uid) => withFinalizer.has(uid));
  if (failed.length !== (u.failed ?? []).length) {
    status.failed = (status.failed ?? 0) + (u.failed!.length - failed.length);
    u.failed = failed;
    updated = true;
  }
  return updated;
}

import { fromTime, toTime } from '../../../apimachinery/object';
import type { Job, JobCondition, Pod } from '../../../apimachinery/types';
import { JOB_TRACKING_FINALIZER } from '../../../apiserver/workload-strategy';
import type { SharedInformer } from '../../../client/informer';
import { keyOf } from '../../../client/informer';
import {
  compareActivePods,
  ControllerExpectations,
  getControllerOf,
  isPodActive,
  isPodTerminating,
  labelSelectorAsSelector,
  newControllerRef,
  POD_CONTROLLER_UID_INDEX,
  PodControl,
  podsByControllerUID,
  resolveControllerRef,
} from '../controller-utils';
import { isPodReady } from '../../../helpers/pod-util';
import type { ControllerContext } from '../controller-manager';
import { StoppableController } from '../stoppable';
import { DefaultControllerRateLimiter, WorkQueue } from '../../../client/workqueue';
import { ConsistencyStore, skipSyncWhileCacheIsStale } from '../consistency-store';
import { getRemainingTime, newBackoffRecord, type BackoffRecord } from './backoff';
import {
  appendIfMissing,
  hasTrackingFinalizer,
  IDENTITY,
  isJobFinished,
  JOB_CONTROLLER_NAME,
  MAX_POD_CREATE_DELETE_PER_SYNC,
  pastBackoffLimitOnFailure,
  ref,
  SYNC_JOB_BATCH_PERIOD_MS,
} from './job-util';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { type JobTrackingHost, type SyncJobCtx, trackJobStatusAndRemoveFinalizers } from './tracking';

const SOURCE = 'pkg/controller/job/job_controller.go';

/**
 * The Job controller (pkg/controller/job, rules W40–W48 of docs/rules/statefulsets-jobs-daemonsets.md): it creates a
 * Job's pods with the `batch.kubernetes.io/job-tracking` finalizer, counts each finished pod
 * first in `status.uncountedTerminatedPods` and then in succeeded/failed once its finalizer is
 * off, replaces failed pods after the pod failure back-off, applies the podFailurePolicy and
 * podReplacementPolicy, fails the Job past backoffLimit or activeDeadlineSeconds (deleting its
 * active pods), and marks it Complete or Failed — from v1.31 only once no pod is terminating
 * (the interim SuccessCriteriaMet/FailureTarget conditions first). Indexed completion, per-index
 * back-off, successPolicy, suspend's resume bookkeeping and pod adoption are not modelled.
 */
export class JobController extends StoppableController {
  readonly queue: WorkQueue;
  readonly orphanQueue: WorkQueue;
  private readonly jobs: SharedInformer<Job>;
  private readonly pods: SharedInformer<Pod>;
  private readonly expectations: ControllerExpectations;
  /** finalizerExpectations (uidTrackingExpectations): pod uids whose finalizer removal is in flight, by job key. */
  private readonly finalizerExpectations = new Map<string, Set<string>>();
  /** podBackoffStore. */
  private readonly backoffStore = new Map<string, BackoffRecord>();
  private readonly podControl: PodControl;
  /** The writes each Job's next sync waits to see (StaleControllerConsistencyJob, v1.36). */
  private readonly consistency: ConsistencyStore;
  /** What tracking.ts's finalizer tracking uses of this controller. */
  private readonly tracking: JobTrackingHost;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    // DefaultJobApiBackOff 1 s doubling to MaxJobApiBackOff 1 min, per item only.
    const limiter = () =>
      new DefaultControllerRateLimiter(clock, {
        baseDelayMs: 1000,
        maxDelayMs: 60_000,
        qps: Number.MAX_SAFE_INTEGER,
        burst: Number.MAX_SAFE_INTEGER,
      });
    this.queue = new WorkQueue(clock, (key) => this.syncJob(key), limiter());
    this.orphanQueue = new WorkQueue(clock, (key) => this.handleOrphanPod(key), limiter());
    this.expectations = new ControllerExpectations(() => clock.now());
    this.podControl = new PodControl(clock, this.client, 'job-controller');
    this.jobs = informers.informerFor('jobs');
    this.pods = podsByControllerUID(informers);
    this.consistency = new ConsistencyStore({ pods: this.pods, jobs: this.jobs });
    if (this.release.enabled('StaleControllerConsistencyJob')) this.podControl.consistency = this.consistency;
    this.tracking = {
      client: this.client,
      timeline: ctx.timeline,
      podControl: this.podControl,
      finalizerExpectations: this.finalizerExpectations,
      backoffStore: this.backoffStore,
      isPodFailed: (pod, job) => this.isPodFailed(pod, job),
      removeTrackingFinalizer: (pod, job) => this.removeTrackingFinalizer(pod, job),
      delayTerminalCondition: () => this.delayTerminalCondition(),
      condition: (type, reason, message) => this.condition(type, reason, message),
      findCondition: (job, type) => this.findCondition(job, type),
    };
  }

  start(): this {
    this.jobs.addEventHandler(
      this.whileRunning((key, old, job) => {
        if (job)
          this.queue.add(key); // addJob / updateJob: enqueueSyncJobImmediately
        else if (old) {
          this.consistency.clear(key, old.metadata.uid);
          this.queue.add(key);
          this.cleanupPodFinalizers(old); // deleteJob
        }
      }),
    );
    this.pods.addEventHandler(
      this.whileRunning((_key, old, pod) => {
        // Without Jobs the only work left is an orphan's tracking finalizer (each path below checks the pod it looks at).
        if (this.jobs.size === 0 && !hasTrackingFinalizer((pod ?? old)!)) return;
        if (pod && !old) this.addPod(pod);
        else if (pod && old) this.updatePod(old, pod);
        else if (old) this.deletePod(old, true);
      }),
    );
    return this;
  }

  private resolveControllerRef(pod: Pod): Job | undefined {
    return resolveControllerRef(pod, 'Job', this.jobs);
  }

  private enqueueBatched(job: Job): void {
    this.queue.addAfter(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
  }

  /** addPod: a creation observed; an orphan with the finalizer goes to the orphan queue. */
  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod, false);
    const job = this.resolveControllerRef(pod);
    if (job) {
      this.expectations.creationObserved(keyOf(job));
      this.enqueueBatched(job);
    } else if (!getControllerOf(pod) && hasTrackingFinalizer(pod)) this.orphanQueue.add(keyOf(pod));
  }

  /** updatePod: a deletionTimestamp is handled as a deletion; a finalizer gone is an expectation met. */
  private updatePod(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod, false);
    const job = this.resolveControllerRef(pod);
    if (job) {
      if (!hasTrackingFinalizer(pod)) this.finalizerExpectations.get(keyOf(job))?.delete(pod.metadata.uid!);
      this.enqueueBatched(job);
    } else if (hasTrackingFinalizer(pod)) this.orphanQueue.add(keyOf(pod));
  }

  /** deletePod: for the deletionTimestamp (final false) and for the pod leaving storage (final true). */
  private deletePod(pod: Pod, final: boolean): void {
    const owner = getControllerOf(pod);
    const job = this.resolveControllerRef(pod);
    if (!owner || !job || isJobFinished(job)) {
      // syncJob will not remove this finalizer.
      if (hasTrackingFinalizer(pod)) this.orphanQueue.add(keyOf(pod));
      return;
    }
    const key = keyOf(job);
    this.expectations.deletionObserved(key);
    if (final || !hasTrackingFinalizer(pod)) this.finalizerExpectations.get(key)?.delete(pod.metadata.uid!);
    this.enqueueBatched(job);
  }

  /** cleanupPodFinalizers: a deleted Job's pods that still carry the finalizer are handed to the orphan worker. */
  private cleanupPodFinalizers(job: Job): void {
    for (const pod of this.pods.byIndex(POD_CONTROLLER_UID_INDEX, job.metadata.uid!))
      if (hasTrackingFinalizer(pod)) this.orphanQueue.add(keyOf(pod));
  }

  /**
   * handleOrphanPod: a pod with the finalizer whose Job is gone or finished (or that no Job
   * controls any more) loses the finalizer, so nothing keeps it once it is deleted.
   */
  private handleOrphanPod(key: string): void | Error {
    if (this.stopped) return;
    const pod = this.pods.get(key);
    if (!pod || !hasTrackingFinalizer(pod)) return;
    const owner = getControllerOf(pod);
    if (owner?.kind === 'Job') {
      const job = this.resolveControllerRef(pod);
      if (job && !isJobFinished(job)) return;
    }
    this.timeline.record(
      'job',
      `remove finalizer ${JOB_TRACKING_FINALIZER} from orphan ${ref(pod)}: its Job is ${owner ? 'gone or finished' : 'no longer its controller'}`,
      `${SOURCE} handleOrphanPod`,
      { actor: IDENTITY.name },
    );
    const r = this.removeTrackingFinalizer(pod);
    if (!r) return new Error(`removing the tracking finalizer of ${ref(pod)} failed`);
  }

  /** removeTrackingFinalizerPatch: a strategic merge patch deleting the one finalizer (a vanished pod counts as done). */
  private removeTrackingFinalizer(pod: Pod, job?: Job): boolean {
    const r = this.client.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', {
      metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] },
    });
    // A pod write of the Job's sync (not of the orphan queue) is one its next sync waits to see.
    if (r.ok && job) this.podControl.consistency?.wroteAt(job, 'pods', r.object.metadata.resourceVersion);
    return r.ok || r.code === 404;
  }

  /** getPodsForJob: the pods the Job controls (the controller-uid index) that its selector still selects. */
  private getPodsForJob(job: Job): Pod[] {
    const selector = labelSelectorAsSelector(job.spec?.selector);
    return this.pods
      .byIndex(POD_CONTROLLER_UID_INDEX, job.metadata.uid!)
      .filter((p) => selector?.matches(p.metadata.labels) ?? false);
  }

  /** trackTerminatingPods: status.terminating is tracked with JobPodReplacementPolicy or JobManagedBy on, or with a podFailurePolicy. */
  private trackTerminatingPods(job: Job): boolean {
    return (
      this.release.enabled('JobPodReplacementPolicy') ||
      this.release.enabled('JobManagedBy') ||
      !!job.spec?.podFailurePolicy
    );
  }

  /** onlyReplaceFailedPods: podReplacementPolicy Failed (gate on), or any podFailurePolicy. */
  private onlyReplaceFailedPods(job: Job): boolean {
    if (this.release.enabled('JobPodReplacementPolicy') && job.spec?.podReplacementPolicy === 'Failed') return true;
    return !!job.spec?.podFailurePolicy;
  }

  /**
   * delayTerminalCondition (v1.31, kubernetes#125510): with JobManagedBy or JobPodReplacementPolicy
   * on, Complete/Failed wait until no pod of the Job is terminating; SuccessCriteriaMet and
   * FailureTarget are set first.
   */
  private delayTerminalCondition(): boolean {
    return (
      this.release.atLeast(31) &&
      (this.release.enabled('JobManagedBy') || this.release.enabled('JobPodReplacementPolicy'))
    );
  }

  /**
   * isPodFailed: phase Failed; or — unless only failed pods are replaced — being deleted
   * without having succeeded (a pod that may never reach a phase, e.g. on a lost node).
   */
  private isPodFailed(pod: Pod, job: Job): boolean {
    if (pod.status?.phase === 'Failed') return true;
    if (this.onlyReplaceFailedPods(job)) return false;
    return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded';
  }

  private condition(type: string, reason: string, message: string): JobCondition {
    const now = toTime(this.clock.now());
    return { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message };
  }

  private newFailureCondition(reason: string, message: string): JobCondition {
    return this.condition(this.delayTerminalCondition() ? 'FailureTarget' : 'Failed', reason, message);
  }

  private newSuccessCondition(): JobCondition {
    return this.condition(this.delayTerminalCondition() ? 'SuccessCriteriaMet' : 'Complete', '', '');
  }

  /** syncJob: one reconciliation of a Job against its pods. */
  syncJob(key: string): void | Error {
    if (this.stopped) return;
    const stale = skipSyncWhileCacheIsStale({
      enabled: this.release.enabled('StaleControllerConsistencyJob'),
      store: this.consistency,
      key,
      owner: `job/${key.slice(key.indexOf('/') + 1)}`,
      component: 'job',
      actor: IDENTITY.name,
      source: `${SOURCE} syncJob (kubernetes#137210)`,
      timeline: this.timeline,
    });
    if (stale) return stale;
    const job0 = this.jobs.get(key);
    if (!job0) {
      this.consistency.clear(key);
      this.expectations.delete(key);
      this.finalizerExpectations.delete(key);
      this.backoffStore.delete(key);
      return;
    }
    // The informer's copy is shared: work on a copy.
    const job: Job = structuredClone(job0);
    if (isJobFinished(job)) {
      this.backoffStore.delete(key);
      return;
    }
    // JobManagedBy: a Job managed by another controller is skipped.
    if (this.release.enabled('JobManagedBy') && job.spec?.managedBy && job.spec.managedBy !== JOB_CONTROLLER_NAME)
      return;
    const spec = job.spec!;
    const status = (job.status ??= {});
    status.uncountedTerminatedPods ??= {};
    const satisfiedExpectations = this.expectations.satisfied(key);
    const pods = this.getPodsForJob(job);
    const activePods = pods.filter(isPodActive);
    const ctx: SyncJobCtx = {
      job,
      pods,
      activePods,
      ready: activePods.filter(isPodReady).length,
      uncounted: {
        succeeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
        failed: new Set(status.uncountedTerminatedPods.failed ?? []),
      },
      expectedRmFinalizers: new Set(this.finalizerExpectations.get(key) ?? []),
      succeeded: 0,
      failed: 0,
      newBackoffRecord: { failuresAfterLastSuccess: 0 },
    };
    if (this.trackTerminatingPods(job)) ctx.terminating = pods.filter(isPodTerminating).length;
    let active = activePods.length;
    const newSucceeded = this.newFinishedPods(ctx, ctx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
    const newFailed = this.newFinishedPods(ctx, ctx.uncounted.failed, (p) => this.isPodFailed(p, job));
    const nonIgnored = spec.podFailurePolicy
      ? newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy!, p).countFailed).length
      : newFailed.length;
    ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncounted.succeeded.size;
    ctx.failed = (status.failed ?? 0) + nonIgnored + ctx.uncounted.failed.size;
    const now = this.clock.now();
    if (!status.startTime && !spec.suspend) status.startTime = toTime(now);
    ctx.newBackoffRecord = newBackoffRecord(this.backoffStore.get(key), newSucceeded, newFailed);

    const backoffLimit = spec.backoffLimit ?? 6;
    ctx.finishedCondition = this.findCondition(job, 'SuccessCriteriaMet');
    if (!ctx.finishedCondition) {
      const target = this.findCondition(job, 'FailureTarget');
      if (target) ctx.finishedCondition = this.condition('Failed', target.reason ?? '', target.message ?? '');
      else {
        const message = this.getFailJobMessage(job, pods);
        if (message) ctx.finishedCondition = this.condition('FailureTarget', 'PodFailurePolicy', message);
      }
    }
    if (!ctx.finishedCondition) {
      if (ctx.failed > backoffLimit || pastBackoffLimitOnFailure(job, pods)) {
        ctx.finishedCondition = this.newFailureCondition(
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
        );
      } else if (this.pastActiveDeadline(job)) {
        ctx.finishedCondition = this.newFailureCondition(
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
        );
      } else if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null && !spec.suspend) {
        this.queue.addAfter(key, spec.activeDeadlineSeconds * 1000 - (now - fromTime(status.startTime!)));
      }
    }

    let manageJobErr: Error | undefined;
    let suspendCondChanged = false;
    if (ctx.finishedCondition) {
      if (ctx.activePods.length > 0) {
        this.timeline.record(
          'job',
          `jobs/${job.metadata.name} is finishing (${ctx.finishedCondition.reason || ctx.finishedCondition.type}): delete its ${ctx.activePods.length} active pod(s), finalizers kept`,
          `${SOURCE} deleteActivePods`,
          { actor: IDENTITY.name },
        );
      }
      const { deleted, deletedReady, error } = this.deletePods(job, ctx.activePods, false);
      // Not finished yet while pods may still carry finalizers or be missing from the cache.
      if (deleted !== active || !satisfiedExpectations) ctx.finishedCondition = undefined;
      active -= deleted;
      if (ctx.terminating !== undefined) ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      manageJobErr = error;
    } else {
      let manageJobCalled = false;
      if (satisfiedExpectations && !job.metadata.deletionTimestamp) {
        const r = this.manageJob(job, ctx);
        active = r.active;
        manageJobErr = r.error;
        manageJobCalled = true;
      }
      const complete =
        spec.completions === undefined || spec.completions === null
          ? ctx.succeeded > 0 && active === 0
          : ctx.succeeded >= spec.completions && active === 0;
      if (complete) ctx.finishedCondition = this.newSuccessCondition();
      else if (manageJobCalled && spec.suspend) {
        // The resume bookkeeping (JobResumed, a new startTime) is not modelled.
        if (!this.findCondition(job, 'Suspended')) {
          status.conditions = [
            ...(status.conditions ?? []),
            this.condition('Suspended', 'JobSuspended', 'Job suspended'),
          ];
          suspendCondChanged = true;
          this.podControl.event(job, 'Job', 'Normal', 'Suspended', 'Job suspended');
        }
      }
    }

    // status.terminating exists only with JobPodReplacementPolicy (KEP-3939).
    const terminating = this.release.enabled('JobPodReplacementPolicy') ? ctx.terminating : undefined;
    const needsStatusUpdate =
      suspendCondChanged ||
      active !== (status.active ?? 0) ||
      ctx.ready !== status.ready ||
      terminating !== status.terminating;
    status.active = active;
    status.ready = ctx.ready;
    if (terminating === undefined) delete status.terminating;
    else status.terminating = terminating;
    const err = trackJobStatusAndRemoveFinalizers(
      this.tracking,
      ctx,
      needsStatusUpdate || !job0.status?.startTime || !job0.status?.uncountedTerminatedPods,
    );
    return err ?? manageJobErr;
  }

  private findCondition(job: Job, type: string): JobCondition | undefined {
    return (job.status?.conditions ?? []).find((c) => c.type === type && c.status === 'True');
  }

  /** getValidPodsWithFilter: finished pods that still carry the finalizer and are not counted or being unfinalized already. */
  private newFinishedPods(ctx: SyncJobCtx, uncounted: Set<string>, filter: (p: Pod) => boolean): Pod[] {
    return ctx.pods.filter(
      (p) =>
        hasTrackingFinalizer(p) &&
        !uncounted.has(p.metadata.uid!) &&
        !ctx.expectedRmFinalizers.has(p.metadata.uid!) &&
        filter(p),
    );
  }

  /** getFailJobMessage: the first failed pod a FailJob rule matches. */
  private getFailJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
    const policy = job.spec?.podFailurePolicy;
    if (!policy) return undefined;
    for (const p of pods) {
      if (!this.isPodFailed(p, job)) continue;
      const m = matchPodFailurePolicy(policy, p);
      if (m.failJobMessage) return m.failJobMessage;
    }
    return undefined;
  }

  /** pastActiveDeadline: activeDeadlineSeconds have passed since status.startTime (never while suspended). */
  private pastActiveDeadline(job: Job): boolean {
    const seconds = job.spec?.activeDeadlineSeconds;
    const start = job.status?.startTime;
    if (seconds === undefined || seconds === null || !start || job.spec?.suspend) return false;
    return this.clock.now() - fromTime(start) >= seconds * 1000;
  }

  /**
   * manageJob: as many active pods as parallelism allows and completions still need; too many are
   * deleted (activePodsForRemoval's order), too few are created — not before the pod failure
   * back-off has passed, and, when only failed pods are replaced, counting terminating ones.
   */
  private manageJob(job: Job, ctx: SyncJobCtx): { active: number; error?: Error } {
    const spec = job.spec!;
    const key = keyOf(job);
    let active = ctx.activePods.length;
    const parallelism = spec.parallelism ?? 1;
    if (spec.suspend) {
      const { deleted, deletedReady, error } = this.deletePods(job, [...ctx.activePods].sort(compareActivePods), true);
      if (ctx.terminating !== undefined) ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      return { active: active - deleted, error };
    }
    let wantActive: number;
    if (spec.completions === undefined || spec.completions === null)
      wantActive = ctx.succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(spec.completions - ctx.succeeded, parallelism));
    const rmAtLeast = Math.max(0, active - wantActive);
    if (rmAtLeast > 0) {
      const victims = [...ctx.activePods]
        .sort(compareActivePods)
        .slice(0, Math.min(rmAtLeast, MAX_POD_CREATE_DELETE_PER_SYNC));
      this.timeline.record(
        'job',
        `jobs/${job.metadata.name} has ${active} active pods, wants ${wantActive}: delete ${victims.map(ref).join(', ')}`,
        `${SOURCE} manageJob`,
        { actor: IDENTITY.name },
      );
      this.expectations.expect(key, 0, victims.length);
      const { deleted, deletedReady, error } = this.deletePods(job, victims, true);
      if (ctx.terminating !== undefined) ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      return { active: active - deleted, error };
    }
    const terminating = this.onlyReplaceFailedPods(job) ? (ctx.terminating ?? 0) : 0;
    let diff = wantActive - terminating - active;
    if (diff <= 0) {
      if (terminating > 0 && wantActive - active > 0) {
        this.timeline.record(
          'job',
          `jobs/${job.metadata.name} waits for ${terminating} terminating pod(s) before replacing them (podReplacementPolicy ${spec.podReplacementPolicy ?? 'Failed'})`,
          `${SOURCE} manageJob`,
          { actor: IDENTITY.name },
        );
      }
      return { active };
    }
    const remaining = getRemainingTime(ctx.newBackoffRecord, this.clock.now());
    if (remaining > 0) {
      this.timeline.record(
        'job',
        `jobs/${job.metadata.name} waits ${remaining / 1000}s of pod failure back-off before creating pods (${ctx.newBackoffRecord.failuresAfterLastSuccess} failure(s) since the last success)`,
        `${SOURCE} manageJob → backoff_utils.go getRemainingTime`,
        { actor: IDENTITY.name },
      );
      this.queue.addAfter(key, remaining);
      return { active: 0 };
    }
    diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
    this.timeline.record(
      'job',
      `jobs/${job.metadata.name} creates ${diff} pod(s) (active ${active}, wanted ${wantActive}${terminating ? `, ${terminating} terminating` : ''})`,
      `${SOURCE} manageJob`,
      { actor: IDENTITY.name },
    );
    this.expectations.expect(key, diff, 0);
    const template = structuredClone(spec.template);
    template.metadata = {
      ...template.metadata,
      finalizers: appendIfMissing(template.metadata?.finalizers ?? [], JOB_TRACKING_FINALIZER),
    };
    const controllerRef = newControllerRef(job, 'batch/v1', 'Job');
    let error: Error | undefined;
    // Slow start: batches of 1, 2, 4 … ; a failed batch stops the rest (retried by the next sync).
    for (let batch = Math.min(diff, 1); diff > 0; batch = Math.min(2 * batch, diff)) {
      let failed = 0;
      for (let i = 0; i < batch; i++) {
        const r = this.podControl.createPod(job, 'Job', template, controllerRef, {});
        if (!r.ok) {
          failed += 1;
          this.expectations.creationObserved(key);
          active -= 1;
          error = new Error(`creating a pod for jobs/${job.metadata.name}: ${r.status.message}`);
        }
      }
      active += batch;
      diff -= batch;
      if (failed > 0 && diff > 0) {
        for (let i = 0; i < diff; i++) this.expectations.creationObserved(key);
        break;
      }
    }
    return { active, error };
  }

  /**
   * deleteActivePods / deleteJobPods: DELETE each pod; a pod the Job drops (removeFinalizer) first
   * loses its tracking finalizer, one deleted because the Job is finishing keeps it (it is counted
   * as failed and unfinalized by trackJobStatusAndRemoveFinalizers).
   */
  private deletePods(
    job: Job,
    pods: readonly Pod[],
    removeFinalizer: boolean,
  ): { deleted: number; deletedReady: number; error?: Error } {
    let deleted = 0;
    let deletedReady = 0;
    let error: Error | undefined;
    const key = keyOf(job);
    for (const pod of pods) {
      if (removeFinalizer && hasTrackingFinalizer(pod) && !this.removeTrackingFinalizer(pod, job)) {
        this.expectations.deletionObserved(key);
        error = new Error(`removing the tracking finalizer of ${ref(pod)} failed`);
        continue;
      }
      const r = this.podControl.deletePod(job, 'Job', pod.metadata.name!);
      if (!r.ok && r.code !== 404) {
        if (removeFinalizer) this.expectations.deletionObserved(key);
        error = new Error(`deleting ${ref(pod)}: ${r.status.message}`);
        continue;
      }
      deleted += 1;
      if (isPodReady(pod)) deletedReady += 1;
    }
    return { deleted, deletedReady, error };
  }
}

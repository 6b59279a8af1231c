import type { FieldError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import type { KubeObject } from '../apimachinery/object';
import type { GarbageCollectionPolicy, Strategy } from './strategy';
import type { ControllerRevision, DaemonSet, Job, JobSpec, StatefulSet } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/** batch/v1 JobTrackingFinalizer: a Job's pods carry it until the job controller has counted them. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** The labels a Job's generated selector uses (pkg/registry/batch/job/strategy.go generateSelector, labels since v1.27). */
export const JOB_CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
const LEGACY_JOB_NAME_LABEL = 'job-name';

type WithStatus = KubeObject & { spec?: unknown; status?: unknown };

/**
 * A workload kind with a status subresource (rest.ResetFieldsStrategy), defaulted at creation: an update of the main
 * resource keeps the stored status, and an update through `/status` keeps the stored spec
 * (e.g. pkg/registry/apps/statefulset/strategy.go PrepareForUpdate and statefulSetStatusStrategy).
 * The generation moves only with the spec.
 */
export function workloadStrategy<T extends WithStatus>(
  config: { kind: string; apiVersion: string; resource: string; gcPolicy: GarbageCollectionPolicy },
  defaults: (obj: T) => void,
  validate: (obj: T) => FieldError[] = () => [],
): { main: Strategy<T>; status: Strategy<T> } {
  const base = genericStrategy<T>({ ...config, namespaced: true });
  const main: Strategy<T> = {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      delete obj.status;
      defaults(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validate(obj)];
    },
    prepareForUpdate(next, old) {
      // The defaults were set at creation; a selector is only ever generated then.
      next.status = old.status;
      base.prepareForUpdate(next, old);
    },
  };
  const status: Strategy<T> = {
    ...main,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
      next.metadata.generation = old.metadata.generation;
    },
  };
  return { main, status };
}

/**
 * pkg/apis/batch/v1/defaults.go SetDefaults_Job and pkg/registry/batch/job/strategy.go
 * (PrepareForCreate, generateSelector): completions and parallelism 1 when neither is set,
 * backoffLimit 6, completionMode NonIndexed, suspend false, manualSelector false; without
 * manualSelector a selector on the Job's uid and labels on the template, the
 * `batch.kubernetes.io/` ones beside the legacy `controller-uid` / `job-name` (v1.27, KEP-3716);
 * podReplacementPolicy `TerminatingOrFailed`, or `Failed` when a podFailurePolicy is set, while
 * JobPodReplacementPolicy is on (α 1.28, β on 1.29, GA 1.34).
 */
export function setJobDefaults(job: Job, release: Release): void {
  const spec = (job.spec ??= { template: {} } as JobSpec);
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  if (release.enabled('JobPodReplacementPolicy'))
    spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  if (!spec.manualSelector && job.metadata.uid) {
    const uid = job.metadata.uid;
    const name = job.metadata.name!;
    const newLabels = release.atLeast(27);
    const selectorLabels: Record<string, string> = newLabels
      ? { [JOB_CONTROLLER_UID_LABEL]: uid }
      : { [LEGACY_CONTROLLER_UID_LABEL]: uid };
    spec.selector ??= { matchLabels: selectorLabels };
    const template = (spec.template ??= {});
    template.metadata = { ...template.metadata };
    template.metadata.labels = {
      ...template.metadata.labels,
      ...(newLabels ? { [JOB_CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name } : {}),
      [LEGACY_CONTROLLER_UID_LABEL]: uid,
      [LEGACY_JOB_NAME_LABEL]: name,
    };
  }
}

/**
 * pkg/apis/batch/validation ValidateJob, the parts a scenario can get wrong: the template's
 * restartPolicy must be OnFailure or Never, and a podFailurePolicy needs Never.
 */
function validateJob(job: Job): FieldError[] {
  const errs: FieldError[] = [];
  const restart = job.spec?.template?.spec?.restartPolicy;
  if (restart !== 'OnFailure' && restart !== 'Never') {
    errs.push({
      field: 'spec.template.spec.restartPolicy',
      type: 'Unsupported value',
      value: restart ?? 'Always',
      detail: 'supported values: "OnFailure", "Never"',
    });
  }
  if (job.spec?.podFailurePolicy && restart !== 'Never') {
    errs.push({
      field: 'spec.template.spec.restartPolicy',
      type: 'Invalid',
      value: restart ?? 'Always',
      detail: 'only "Never" is supported when podFailurePolicy is specified',
    });
  }
  return errs;
}

/**
 * The Job strategy. DefaultGarbageCollectionPolicy of pkg/registry/batch/job/strategy.go: for a
 * request to batch/v1 it is OrphanDependents, kept for compatibility — a DELETE without a
 * propagation policy leaves the Job's pods running (kubectl sends Background, so it does not).
 */
export function jobStrategies(release: Release): { main: Strategy<Job>; status: Strategy<Job> } {
  return workloadStrategy<Job>(
    { kind: 'Job', apiVersion: 'batch/v1', resource: 'jobs', gcPolicy: 'OrphanDependents' },
    (job) => setJobDefaults(job, release),
    validateJob,
  );
}

/**
 * pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet: replicas 1, podManagementPolicy
 * OrderedReady, updateStrategy RollingUpdate with partition 0, revisionHistoryLimit 10, and the
 * persistentVolumeClaimRetentionPolicy Retain/Retain while StatefulSetAutoDeletePVC is on
 * (α 1.23, β on 1.27, GA 1.32).
 */
export function setStatefulSetDefaults(set: StatefulSet, release: Release): void {
  const spec = (set.spec ??= { selector: {}, template: {}, serviceName: '' } as NonNullable<StatefulSet['spec']>);
  spec.replicas ??= 1;
  spec.podManagementPolicy ??= 'OrderedReady';
  spec.updateStrategy ??= { type: 'RollingUpdate' };
  if (spec.updateStrategy.type === 'RollingUpdate') spec.updateStrategy.rollingUpdate ??= { partition: 0 };
  spec.revisionHistoryLimit ??= 10;
  if (release.enabled('StatefulSetAutoDeletePVC')) {
    spec.persistentVolumeClaimRetentionPolicy = {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
      ...spec.persistentVolumeClaimRetentionPolicy,
    };
  } else delete spec.persistentVolumeClaimRetentionPolicy;
}

/** SetDefaults_DaemonSet: updateStrategy RollingUpdate (maxUnavailable 1, maxSurge 0), revisionHistoryLimit 10. */
export function setDaemonSetDefaults(ds: DaemonSet): void {
  const spec = (ds.spec ??= { selector: {}, template: {} } as NonNullable<DaemonSet['spec']>);
  spec.updateStrategy ??= { type: 'RollingUpdate' };
  if (spec.updateStrategy.type === 'RollingUpdate')
    spec.updateStrategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 0, ...spec.updateStrategy.rollingUpdate };
  spec.revisionHistoryLimit ??= 10;
}

/** apps/v1 StatefulSets and DaemonSets delete their dependents (in the background) by default (pkg/registry/apps/*\/strategy.go). */
export function statefulSetStrategies(release: Release): {
  main: Strategy<StatefulSet>;
  status: Strategy<StatefulSet>;
} {
  return workloadStrategy<StatefulSet>(
    { kind: 'StatefulSet', apiVersion: 'apps/v1', resource: 'statefulsets', gcPolicy: 'DeleteDependents' },
    (s) => setStatefulSetDefaults(s, release),
  );
}

export function daemonSetStrategies(): { main: Strategy<DaemonSet>; status: Strategy<DaemonSet> } {
  return workloadStrategy<DaemonSet>(
    { kind: 'DaemonSet', apiVersion: 'apps/v1', resource: 'daemonsets', gcPolicy: 'DeleteDependents' },
    setDaemonSetDefaults,
  );
}

/** ControllerRevisions (pkg/registry/apps/controllerrevision): no status, deleted with their dependents by default. */
export function controllerRevisionStrategy(): Strategy<ControllerRevision> {
  return genericStrategy<ControllerRevision>({
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    resource: 'controllerrevisions',
    namespaced: true,
    gcPolicy: 'DeleteDependents',
  });
}

import { validateContainerRestartRules } from './kind-rules/container-restart-rules';
import type { Container, DeleteOptions, Pod, PodSpec } from '../apimachinery/types';
import { jsonEqual, toTime } from '../apimachinery/object';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import type { Strategy } from './strategy';
import type { FieldError } from '../apimachinery/errors';
import { validateFinalizers, validateObjectMetaUpdate } from '../apimachinery/validation';
import { append } from '../foundation/widest';
import {
  dropContainerRestartRules,
  dropContainerStopSignals,
  dropRestartableInitContainers,
  validatePodDeletionCost,
} from './pod-release-fields';

/** The image a container gets when a scenario's manifest names none. */
export const DEFAULT_IMAGE = 'registry.k8s.io/e2e-test-images/agnhost:2.53';

/**
 * pkg/apis/core/v1/defaults.go SetDefaults_PodSpec / SetDefaults_Container: the defaults the
 * apiserver fills in on create (terminationGracePeriodSeconds 30, restartPolicy Always, …).
 */
export function setPodDefaults(pod: Pod): void {
  const spec: PodSpec = (pod.spec ??= { containers: [] });
  if (spec.containers.length === 0) spec.containers.push({ name: 'app' });
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  spec.enableServiceLinks ??= true;
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) setContainerDefaults(c);
}

function setContainerDefaults(c: Container): void {
  c.image ??= DEFAULT_IMAGE;
  const tag = c.image.includes('@') ? 'digest' : (c.image.split('/').pop() ?? '').split(':')[1];
  c.imagePullPolicy ??= tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
}

/** The pod's API phase is Succeeded or Failed. */
export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

const MAX_INT32 = 2147483647;

/**
 * validation.go ValidatePodUpdate (K70): activeDeadlineSeconds may be set, or lowered, on a running
 * pod — never raised nor removed; the first error ends the update's validation.
 */
export function activeDeadlineUpdateError(next: number | undefined, old: number | undefined): FieldError | undefined {
  const field = 'spec.activeDeadlineSeconds';
  if (next !== undefined) {
    if (next < 0 || next > MAX_INT32)
      return { field, type: 'Invalid', value: next, detail: `must be between 0 and ${MAX_INT32}, inclusive` };
    if (old !== undefined && old < next)
      return { field, type: 'Invalid', value: next, detail: 'must be less than or equal to previous value' };
    return undefined;
  }
  if (old !== undefined)
    return { field, type: 'Invalid', value: null, detail: 'must not update from a positive integer to nil value' };
  return undefined;
}

/** Spec fields a pod update may change (pkg/apis/core/validation ValidatePodUpdate, simplified to the common ones). */
function mutableSpecView(spec: PodSpec | undefined): unknown {
  if (!spec) return spec;
  const strip = (cs: Container[] | undefined) => cs?.map((c) => ({ ...c, image: undefined }));
  return {
    ...spec,
    containers: strip(spec.containers),
    initContainers: strip(spec.initContainers),
    activeDeadlineSeconds: undefined,
    tolerations: undefined,
    schedulingGates: undefined,
  };
}

/**
 * V13 — scheduling gates (KEP-3521, `PodSchedulingReadiness`: α 1.26, β on 1.27, GA 1.30).
 * pkg/api/pod/util.go dropDisabledFields: with the gate off, gates are dropped on create (and on
 * an update unless the stored pod has some). strategy.go applySchedulingGatedCondition: a pod
 * created with gates gets PodScheduled=False, reason SchedulingGated. validation.go
 * validateSchedulingGates on update: gates may only be removed.
 */
function dropSchedulingGates(spec: PodSpec | undefined, old: PodSpec | undefined, release: Release): void {
  if (!spec || release.enabled('PodSchedulingReadiness') || (old?.schedulingGates ?? []).length > 0) return;
  delete spec.schedulingGates;
}

function validateSchedulingGatesUpdate(spec: PodSpec | undefined, old: PodSpec | undefined): FieldError[] {
  const had = new Set((old?.schedulingGates ?? []).map((g) => g.name));
  const added = (spec?.schedulingGates ?? []).find((g) => !had.has(g.name));
  return added
    ? [
        {
          field: 'spec.schedulingGates',
          type: 'Forbidden',
          detail: `only deletion is allowed, but found new scheduling gate '${added.name}'`,
        },
      ]
    : [];
}

/** Every container of the spec (init, regular, ephemeral), as podutil.VisitContainers walks them. */
function allContainers(spec: PodSpec | undefined): Container[] {
  return [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...((spec?.ephemeralContainers ?? []) as Container[]),
  ];
}

/**
 * The pod spec drops of pkg/api/pod/util.go dropDisabledFields that have code of their own (the
 * others are R320's table, disabled-fields.ts): for a pod (PrepareForCreate / PrepareForUpdate)
 * and, through R320, for every pod template (DropDisabledTemplateFields).
 */
export function dropDisabledPodSpecFields(spec: PodSpec | undefined, old: PodSpec | undefined, release: Release): void {
  dropPodLifecycleSleepAction(spec, old, release);
  dropSchedulingGates(spec, old, release);
  dropContainerStopSignals(spec, old, release);
  dropRestartableInitContainers(spec, old, release);
  dropContainerRestartRules(spec, old, release);
}

/**
 * V8 — pkg/api/pod/util.go dropPodLifecycleSleepAction (called from dropDisabledFields on create
 * and update): with `PodLifecycleSleepAction` off (before v1.30, KEP-3960) and no sleep action in
 * the stored spec, a `sleep` handler is removed without an error, and a preStop/postStart left
 * with no handler is removed too.
 */
function dropPodLifecycleSleepAction(spec: PodSpec | undefined, old: PodSpec | undefined, release: Release): void {
  const inUse = (s: PodSpec | undefined) =>
    allContainers(s).some((c) => c.lifecycle?.preStop?.sleep || c.lifecycle?.postStart?.sleep);
  if (release.enabled('PodLifecycleSleepAction') || inUse(old)) return;
  for (const c of allContainers(spec)) {
    const lifecycle = c.lifecycle;
    if (!lifecycle) continue;
    for (const hook of ['preStop', 'postStart'] as const) {
      const handler = lifecycle[hook];
      if (!handler?.sleep) continue;
      delete handler.sleep;
      if (!handler.exec && !handler.httpGet && !handler.tcpSocket) delete lifecycle[hook];
    }
  }
}

/**
 * V11 — pkg/apis/core/validation/validation.go validateSleepAction (validateContainers /
 * validateInitContainers → validateLifecycle → validateHandler): a `sleep` handler's seconds must
 * lie within the pod's terminationGracePeriodSeconds (equal is allowed). Zero is refused unless
 * `PodLifecycleSleepActionAllowZero` is on (α 1.32, β on 1.33, GA 1.34; KEP-4818, #127094), and
 * from v1.32 the refusal names that gate. Only regular containers and restartable init containers
 * may have hooks; postStart is checked before preStop.
 */
function validateSleepActions(spec: PodSpec | undefined, release: Release): FieldError[] {
  const grace = spec?.terminationGracePeriodSeconds;
  if (grace === undefined || grace === null) return [];
  const allowZero = release.enabled('PodLifecycleSleepActionAllowZero');
  let detail = allowZero
    ? `must be non-negative and less than terminationGracePeriodSeconds (${grace})`
    : `must be greater than 0 and less than terminationGracePeriodSeconds (${grace})`;
  if (!allowZero && release.atLeast(32))
    detail += '. Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.';
  const errs: FieldError[] = [];
  const visit = (
    containers: readonly Container[] | undefined,
    path: string,
    hooksAllowed: (c: Container) => boolean,
  ) => {
    (containers ?? []).forEach((c, i) => {
      if (!hooksAllowed(c)) return;
      for (const hook of ['postStart', 'preStop'] as const) {
        const seconds = c.lifecycle?.[hook]?.sleep?.seconds;
        if (seconds === undefined) continue;
        if (seconds > grace || seconds < 0 || (seconds === 0 && !allowZero)) {
          errs.push({ field: `${path}[${i}].lifecycle.${hook}.sleep`, type: 'Invalid', value: seconds, detail });
        }
      }
    });
  };
  visit(spec?.containers, 'spec.containers', () => true);
  visit(spec?.initContainers, 'spec.initContainers', (c) => c.restartPolicy === 'Always');
  return errs;
}

/** pkg/registry/core/pod/strategy.go podStrategy, as kube-apiserver `release` has it. */
export function podStrategyFor(release: Release): Strategy<Pod> {
  // Pods carry metadata.generation since v1.33 (KEP-5067, #130181; not behind a gate): 1 on
  // create, +1 on each spec change, +1 when deletion starts (R12). Before, pods had none.
  const generation = release.atLeast(33);
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    resource: 'pods',
    etcdPrefix: 'pods',
    namespaced: true,
    allowUnconditionalUpdate: true,
    // pkg/registry/core/pod/storage/storage.go NewStorage: ReturnDeletedObject: true (R49).
    returnDeletedObject: true,

    /** podStrategy.PrepareForCreate: status is reset to Pending, generation starts at 1 (v1.33). */
    prepareForCreate(pod, now) {
      setPodDefaults(pod);
      dropDisabledPodSpecFields(pod.spec, undefined, release);
      pod.status = { phase: 'Pending', qosClass: 'BestEffort' };
      if ((pod.spec?.schedulingGates ?? []).length > 0) {
        pod.status.conditions = [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'SchedulingGated',
            message: 'Scheduling is blocked due to non-empty scheduling gates',
            lastTransitionTime: toTime(now),
          },
        ];
      }
      if (generation) pod.metadata.generation = 1;
      pod.metadata.creationTimestamp = toTime(now);
    },

    validate(pod) {
      const errs = validateFinalizers(pod.metadata.finalizers ?? []);
      append(errs, validatePodDeletionCost(pod.metadata));
      const names = new Set<string>();
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        if (names.has(c.name))
          errs.push({ field: 'spec.containers', type: 'Invalid', value: c.name, detail: 'Duplicate value' });
        names.add(c.name);
      }
      // validation.go validateInitContainers (K58): only a sidecar may have lifecycle hooks, so the
      // kubelet never runs a preStop for a regular init container. (Before v1.28 the same rejection
      // read "Invalid value: core.Lifecycle{…}: must not be set for init containers"; not reproduced.)
      (pod.spec?.initContainers ?? []).forEach((c, i) => {
        if (c.lifecycle && c.restartPolicy !== 'Always')
          errs.push({
            field: `spec.initContainers[${i}].lifecycle`,
            type: 'Forbidden',
            detail: 'may not be set for init containers without restartPolicy=Always',
          });
      });
      append(errs, validateSleepActions(pod.spec, release));
      // V51 validateContainerRestartPolicy: malformed restartPolicyRules are refused.
      append(errs, validateContainerRestartRules(pod.spec, 'spec', release));
      // ValidatePodSpec: a deadline is a positive int32 (K70).
      const deadline = pod.spec?.activeDeadlineSeconds;
      if (deadline !== undefined && deadline !== null && (deadline < 1 || deadline > MAX_INT32))
        errs.push({
          field: 'spec.activeDeadlineSeconds',
          type: 'Invalid',
          value: deadline,
          detail: `must be between 1 and ${MAX_INT32}, inclusive`,
        });
      return errs;
    },

    /** podStrategy.PrepareForUpdate: status is not changed through the main resource; generation follows the spec (updatePodGeneration). */
    prepareForUpdate(next, old) {
      next.status = old.status;
      dropDisabledPodSpecFields(next.spec, old.spec, release);
      if (generation && !jsonEqual(next.spec, old.spec)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },

    validateUpdate(next, old) {
      const errs = validateObjectMetaUpdate(next.metadata, old.metadata);
      append(errs, validatePodDeletionCost(next.metadata, old.metadata));
      const deadline = activeDeadlineUpdateError(
        next.spec?.activeDeadlineSeconds ?? undefined,
        old.spec?.activeDeadlineSeconds ?? undefined,
      );
      if (deadline) {
        errs.push(deadline);
        return errs;
      }
      if (!jsonEqual(mutableSpecView(next.spec), mutableSpecView(old.spec))) {
        errs.push({
          field: 'spec',
          type: 'Forbidden',
          detail:
            'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations)',
        });
      }
      errs.push(...validateSchedulingGatesUpdate(next.spec, old.spec));
      return errs;
    },

    /**
     * R6–R11 — podStrategy.CheckGracefulDelete: the asked grace, else the spec's, else 0; an
     * unscheduled or already terminal pod goes at once; a negative result becomes 1. The result is
     * written back into the options, and pods always take the graceful path when options exist.
     */
    checkGracefulDelete(pod: Pod, options: DeleteOptions): boolean {
      let period = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
      if (!pod.spec?.nodeName) period = 0;
      if (isTerminal(pod)) period = 0;
      if (period < 0) period = 1;
      options.gracePeriodSeconds = period;
      return true;
    },
  };
}

/** The pod strategy of the default release (v1.36). */
export const podStrategy: Strategy<Pod> = podStrategyFor(DEFAULT_RELEASE);

/**
 * strategy.go podStatusStrategy: the pods/status subresource changes only status; spec, owner
 * references and a submitted deletionTimestamp are taken from the stored pod (R32).
 */
export const podStatusStrategy: Strategy<Pod> = {
  ...podStrategy,
  prepareForUpdate(next, old) {
    next.spec = old.spec;
    delete next.metadata.deletionTimestamp;
    next.metadata.ownerReferences = old.metadata.ownerReferences;
    next.metadata.generation = old.metadata.generation;
  },
  validateUpdate(next, old) {
    return validateObjectMetaUpdate(next.metadata, old.metadata);
  },
};

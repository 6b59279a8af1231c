import type { ApiResponse } from '../../apiserver/apiserver';
import type { ApiClient } from '../../client/client';
import { EventRecorder } from '../../client/event-recorder';
import { fromTime, type KubeObject } from '../../apimachinery/object';
import {
  labelSelectorAsSelector as parseSelectorSpec,
  SelectorError,
  type LabelSelector as ParsedSelector,
} from '../../apimachinery/selectors';
import type { LabelSelector, OwnerReference, Pod, PodTemplateSpec } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer, SharedInformerFactory } from '../../client/informer';
import { isPodReady, podReadyTime } from '../../helpers/pod-util';
import type { ConsistencyStore } from './consistency-store';

/**
 * pkg/controller/controller_utils.go, in one module: what every controller of kube-controller-manager
 * shares — controller references, IsPodActive and the active-pod orderings (ActivePodsWithRanks),
 * PodControl (the create/delete calls and their Events), ControllerExpectations and
 * UIDTrackingControllerExpectations, the pod indexers by controller. IsPodAvailable is
 * pkg/api/v1/pod's: helpers/pod-util.ts.
 */

/**
 * metav1.LabelSelectorAsSelector: matchLabels and matchExpressions (In, NotIn, Exists,
 * DoesNotExist), all of which must hold. An absent selector selects nothing, an empty one
 * everything (as upstream).
 */
export function labelSelectorAsSelector(selector: LabelSelector | undefined): ParsedSelector | undefined {
  if (!selector) return undefined;
  try {
    return parseSelectorSpec(selector);
  } catch (e) {
    // A selector that does not convert selects nothing, as the controllers skip it on the error.
    if (e instanceof SelectorError) return undefined;
    throw e;
  }
}

/** metav1.GetControllerOf: the ownerReference with controller: true. */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  // No `?? []`: this runs for every pod event of several controllers, and most pods have no owner.
  return obj.metadata.ownerReferences?.find((r) => r.controller);
}

/**
 * resolveControllerRef (each workload controller has one): the owner of `kind` the pod's
 * controller reference names, from the owner informer's cache, if its uid is the one referenced.
 */
export function resolveControllerRef<T extends KubeObject>(
  pod: Pod,
  kind: string,
  owners: SharedInformer<T>,
): T | undefined {
  const ref = getControllerOf(pod);
  if (!ref || ref.kind !== kind) return undefined;
  const owner = owners.get(`${pod.metadata.namespace}/${ref.name}`);
  return owner && owner.metadata.uid === ref.uid ? owner : undefined;
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion true. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** controller.IsPodTerminating (CountTerminatingPods): being deleted and not yet in a terminal phase. */
export function isPodTerminating(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !!pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * controller.ActivePods Less (the order victims are picked in when there are too many):
 * unassigned before assigned, Pending before Unknown before Running, not ready before ready,
 * then more recently created first (the ready-time, restart-count and deletion-cost ranks of
 * ActivePodsWithRanks are the ReplicaSet's).
 */
export function compareActivePods(a: Pod, b: Pod): number {
  const assigned = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Pod) => PHASE_RANK[p.status?.phase ?? 'Pending'] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod) => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  const created = (p: Pod) => p.metadata.creationTimestamp ?? '';
  if (created(a) !== created(b)) return created(a) > created(b) ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/**
 * controller.RealPodControl: a workload controller's pod writes, each with the Event upstream
 * records on the owner (SuccessfulCreate / FailedCreate, SuccessfulDelete / FailedDelete), sent
 * as the controller's own client.
 */
export class PodControl {
  private readonly recorder: EventRecorder;
  /**
   * With its StaleControllerConsistency… gate on (v1.36), the controller's consistency store: each
   * pod created or deleted is a write for its owner, which the owner's next sync waits to see in
   * the pod informer (consistency-store.ts).
   */
  consistency: ConsistencyStore | undefined;

  constructor(
    clock: Clock,
    /** The controller's own client (ControllerContext.clientFor). */
    private readonly client: ApiClient,
    /** The Event source component, e.g. `job-controller`. */
    component: string,
    /** The Events' messages: RealPodControl's by default; StatefulPodControl (recordPodEvent) words them its own way. */
    private readonly messages: {
      created(pod: string, owner: KubeObject): string;
      deleted(pod: string, owner: KubeObject): string;
    } = { created: (pod) => `Created pod: ${pod}`, deleted: (pod) => `Deleted pod: ${pod}` },
  ) {
    this.recorder = new EventRecorder(
      { component },
      client.identity.component,
      () => clock.now(),
      (e) => this.client.create('events', e.metadata.namespace, e),
    );
  }

  /**
   * CreatePods / CreatePodsWithGenerateName (GetPodFromTemplate): the template's labels,
   * annotations, finalizers and spec, the controller reference, and either a fixed name (a
   * StatefulSet's) or `generateName` (the owner's name and a dash, unless given).
   */
  createPod(
    owner: KubeObject,
    ownerKind: string,
    template: PodTemplateSpec,
    controllerRef: OwnerReference,
    naming: { name?: string; generateName?: string },
    mutate?: (pod: Pod) => void,
  ): ApiResponse<Pod> {
    const meta = template.metadata ?? {};
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...(naming.name ? { name: naming.name } : { generateName: naming.generateName ?? `${owner.metadata.name}-` }),
        namespace: owner.metadata.namespace,
        ...(meta.labels ? { labels: { ...meta.labels } } : {}),
        ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
        ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
        ownerReferences: [controllerRef],
      },
      spec: structuredClone(template.spec ?? { containers: [] }),
    };
    mutate?.(pod);
    const r = this.client.create('pods', owner.metadata.namespace, pod);
    const ref = involved(owner, ownerKind);
    if (r.ok) {
      this.consistency?.wroteAt(owner, 'pods', r.object.metadata.resourceVersion);
      this.recorder.event(ref, 'Normal', 'SuccessfulCreate', this.messages.created(r.object.metadata.name!, owner));
    } else this.recorder.event(ref, 'Warning', 'FailedCreate', `Error creating: ${r.status.message}`);
    return r;
  }

  /** DeletePod: a DELETE with no options (the pod's own grace period). */
  deletePod(owner: KubeObject, ownerKind: string, name: string): ApiResponse<unknown> {
    const r = this.client.delete('pods', owner.metadata.namespace, name, {});
    const ref = involved(owner, ownerKind);
    if (r.ok) {
      this.consistency?.wroteAt(owner, 'pods', (r.object as KubeObject | undefined)?.metadata?.resourceVersion);
      this.recorder.event(ref, 'Normal', 'SuccessfulDelete', this.messages.deleted(name, owner));
    } else if (r.code !== 404)
      this.recorder.event(ref, 'Warning', 'FailedDelete', `Error deleting: ${r.status.message}`);
    return r;
  }

  /** An Event about the owner itself (e.g. the Job's BackoffLimitExceeded). */
  event(owner: KubeObject, ownerKind: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.recorder.event(involved(owner, ownerKind), type, reason, message);
  }
}

function involved(
  owner: KubeObject,
  kind: string,
): { kind: string; namespace?: string; name?: string; uid?: string; apiVersion?: string } {
  return {
    kind,
    namespace: owner.metadata.namespace,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    apiVersion: owner.apiVersion,
  };
}

/**
 * controller.ControllerExpectations: how many creations and deletions a controller still expects
 * to see through its informer for a key; a sync that would act twice on its own in-flight writes
 * waits until they are observed (or the 5-minute ExpectationsTimeout passes).
 */
export class ControllerExpectations {
  private readonly expected = new Map<string, { add: number; del: number; at: number }>();
  static readonly TIMEOUT_MS = 5 * 60_000;

  constructor(private readonly now: () => number) {}

  expect(key: string, add: number, del: number): void {
    this.expected.set(key, { add, del, at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.expected.get(key);
    if (e) e.add -= 1;
  }

  deletionObserved(key: string): void {
    const e = this.expected.get(key);
    if (e) e.del -= 1;
  }

  /** SatisfiedExpectations: nothing pending, none recorded, or the record expired. */
  satisfied(key: string): boolean {
    const e = this.expected.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.del <= 0) || this.now() - e.at > ControllerExpectations.TIMEOUT_MS;
  }

  delete(key: string): void {
    this.expected.delete(key);
  }
}

/** controller.PodControllerUIDIndex: the pods of a controller by its uid. */
export const POD_CONTROLLER_UID_INDEX = 'podControllerUID';
/** controller.OrphanPodIndexKey: the index value of the pods without a controller (the ReplicaSet controller adopts from them). */
export const ORPHAN_POD_INDEX_KEY = '_ORPHAN_POD';

/** The value of every orphan, shared: most pods have no controller, and each event computes its value. */
const ORPHAN_POD_VALUES: readonly string[] = [ORPHAN_POD_INDEX_KEY];

/**
 * The shared pod informer with the controller-uid index (controller.AddPodControllerUIDIndexer),
 * which the job, statefulset and daemonset controllers read their pods from: a workload's pods
 * cost what it has, not what the cluster holds.
 */
export function podsByControllerUID(factory: SharedInformerFactory): SharedInformer<Pod> {
  const informer = factory.informerFor('pods');
  if (!informer.hasIndexer(POD_CONTROLLER_UID_INDEX)) {
    informer.addIndexer(POD_CONTROLLER_UID_INDEX, (pod) => {
      const owner = getControllerOf(pod);
      return owner ? [owner.uid] : ORPHAN_POD_VALUES;
    });
  }
  return informer;
}

/** The pods `owner` controls (the controller-uid index) that its selector still selects (no adoption of orphans is modelled). */
export function podsOwnedBy(pods: SharedInformer<Pod>, owner: KubeObject, selector: LabelSelector | undefined): Pod[] {
  const parsed = labelSelectorAsSelector(selector);
  return pods
    .byIndex(POD_CONTROLLER_UID_INDEX, owner.metadata.uid!)
    .filter((p) => parsed?.matches(p.metadata.labels) ?? false);
}

/** The annotation that orders a ReplicaSet's scale-down (KEP-2255; PodDeletionCost β on since 1.22). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** controller.SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * helper.GetDeletionCostFromPodAnnotations: the annotation as an int32; absent or not a valid
 * int32 counts as 0 (ActivePodsWithRanks ignores the parse error).
 */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^[+-]?\d+$/.test(v.trim())) return 0;
  const n = Number(v.trim());
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };
const phaseOrdinal = (pod: Pod): number => PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;

function creationTime(pod: Pod): number | undefined {
  return pod.metadata.creationTimestamp ? fromTime(pod.metadata.creationTimestamp) : undefined;
}

/** maxContainerRestarts: the highest restartCount among the pod's containers. */
export function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** afterOrZero: an unset time sorts first, else the later one does. */
function afterOrZero(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  return a > b;
}

/**
 * logarithmicRankDiff (LogarithmicScaleDown, β on 1.22, GA 1.31): ages compared on a log2 scale
 * of nanoseconds, so pods of about the same age tie (and are then ordered by UID).
 */
function logarithmicRankDiff(a: number, b: number, now: number): number {
  const rank = (t: number) => (now - t > 0 ? Math.floor(Math.log2((now - t) * 1e6)) : -1);
  return rank(a) - rank(b);
}

/** One criterion of ActivePodsWithRanks.Less comparing a and b: <0 a goes first, >0 b, 0 a tie. */
type Criterion = {
  name: string;
  compare(a: RankedPod, b: RankedPod, now: number): number;
  describe(p: RankedPod, now: number): string;
};

export interface RankedPod {
  readonly pod: Pod;
  /** How many active pods of the related ReplicaSets share its node (getPodsRankedByRelatedPodsOnSameNode). */
  readonly rank: number;
}

const byTime = (a: number | undefined, b: number | undefined, now: number, uidA: string, uidB: string): number => {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return afterOrZero(a, b) ? -1 : 1;
  const diff = logarithmicRankDiff(a, b, now);
  if (diff === 0) return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
  return diff;
};

const age = (t: number | undefined, now: number) => (t === undefined ? 'unknown' : `${Math.round((now - t) / 1000)}s`);

/** ActivePodsWithRanks.Less, in its order (controller_utils.go, v1.33). */
const CRITERIA: readonly Criterion[] = [
  {
    name: 'unassigned',
    compare: (a, b) => (!!a.pod.spec?.nodeName === !!b.pod.spec?.nodeName ? 0 : a.pod.spec?.nodeName ? 1 : -1),
    describe: (p) => (p.pod.spec?.nodeName ? 'assigned' : 'unassigned'),
  },
  {
    name: 'phase',
    compare: (a, b) => phaseOrdinal(a.pod) - phaseOrdinal(b.pod),
    describe: (p) => p.pod.status?.phase ?? 'Pending',
  },
  {
    name: 'ready',
    compare: (a, b) => Number(isPodReady(a.pod)) - Number(isPodReady(b.pod)),
    describe: (p) => (isPodReady(p.pod) ? 'ready' : 'not ready'),
  },
  {
    name: 'pod-deletion-cost',
    compare: (a, b) => deletionCost(a.pod) - deletionCost(b.pod),
    describe: (p) => `pod-deletion-cost ${deletionCost(p.pod)}`,
  },
  { name: 'colocated', compare: (a, b) => b.rank - a.rank, describe: (p) => `${p.rank} related pods on its node` },
  {
    name: 'ready time',
    compare: (a, b, now) =>
      isPodReady(a.pod) && isPodReady(b.pod)
        ? byTime(podReadyTime(a.pod), podReadyTime(b.pod), now, a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? '')
        : 0,
    describe: (p, now) => `ready for ${age(podReadyTime(p.pod), now)}`,
  },
  {
    name: 'restarts',
    compare: (a, b) => maxContainerRestarts(b.pod) - maxContainerRestarts(a.pod),
    describe: (p) => `${maxContainerRestarts(p.pod)} restarts`,
  },
  {
    name: 'created',
    compare: (a, b, now) =>
      creationTime(a.pod) === creationTime(b.pod)
        ? 0
        : byTime(creationTime(a.pod), creationTime(b.pod), now, a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? ''),
    describe: (p, now) => `created ${age(creationTime(p.pod), now)} ago`,
  },
];

/** ActivePodsWithRanks.Less as a comparator: the pod to delete first sorts first. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  for (const c of CRITERIA) {
    const d = c.compare(a, b, now);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Why `victim` went before `kept` (the first criterion that told them apart), for the timeline:
 * e.g. `not ready`, `pod-deletion-cost -100`, `ready for 10s`. With no pod kept, every one goes.
 */
export function rankReason(victim: RankedPod, kept: RankedPod | undefined, now: number): string {
  if (!kept) return 'no pod is kept';
  for (const c of CRITERIA) if (c.compare(victim, kept, now) !== 0) return c.describe(victim, now);
  return 'a tie, kept in list order';
}

/**
 * controller.UIDTrackingControllerExpectations: creations counted, deletions tracked by pod key,
 * so a pod seen terminating and then gone lowers the expectation once.
 */
export class UIDTrackingExpectations {
  private readonly expected = new Map<string, { add: number; deletes: Set<string>; at: number }>();
  /** controller.ExpectationsTimeout. */
  static readonly TIMEOUT_MS = 5 * 60_000;

  constructor(private readonly now: () => number) {}

  expectCreations(key: string, n: number): void {
    this.expected.set(key, { add: n, deletes: new Set(), at: this.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.expected.set(key, { add: 0, deletes: new Set(podKeys), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.expected.get(key);
    if (e) e.add -= 1;
  }

  deletionObserved(key: string, podKey: string): void {
    this.expected.get(key)?.deletes.delete(podKey);
  }

  satisfied(key: string): boolean {
    const e = this.expected.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.deletes.size === 0) || this.now() - e.at > UIDTrackingExpectations.TIMEOUT_MS;
  }

  delete(key: string): void {
    this.expected.delete(key);
  }
}

/**
 * controller_utils.go nextPodAvailabilityCheck: how long until a ready pod has been ready for
 * minReadySeconds; undefined when it is not ready, has no ready time, or is available already.
 */
export function nextPodAvailabilityCheck(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  if (minReadySeconds <= 0 || !isPodReady(pod)) return undefined;
  const readySince = podReadyTime(pod);
  if (readySince === undefined) return undefined;
  const wait = readySince + minReadySeconds * 1000 - now;
  return wait > 0 ? wait : undefined;
}

/**
 * controller_utils.go FindMinNextPodAvailabilityCheck (kubernetes#132121): the earliest time, from
 * now, at which one of the pods becomes available. Upstream computes it against the time the
 * owner's status was evaluated and refreshes it with the clock (0 when that moment has passed);
 * on the virtual clock both are the same instant, so one pass gives the same answer.
 */
export function findMinNextPodAvailabilityCheck(
  pods: readonly Pod[],
  minReadySeconds: number,
  now: number,
): number | undefined {
  let min: number | undefined;
  for (const pod of pods) {
    const next = nextPodAvailabilityCheck(pod, minReadySeconds, now);
    if (next !== undefined && (min === undefined || next < min)) min = next;
  }
  return min;
}

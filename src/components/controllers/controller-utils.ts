import type { ApiResponse, ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import { EventRecorder } from '../../client/event-recorder';
import type { KubeObject } from '../../apimachinery/object';
import { labelSelectorAsSelector as parseSelectorSpec, SelectorError, type LabelSelector as ParsedSelector } from '../../apimachinery/selectors';
import type { LabelSelector, OwnerReference, Pod, PodTemplateSpec } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer, SharedInformerFactory } from '../../client/informer';
import { isPodReady } from '../../helpers/pod-util';

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
export function resolveControllerRef<T extends KubeObject>(pod: Pod, kind: string, owners: SharedInformer<T>): T | undefined {
  const ref = getControllerOf(pod);
  if (!ref || ref.kind !== kind) return undefined;
  const owner = owners.get(`${pod.metadata.namespace}/${ref.name}`);
  return owner && owner.metadata.uid === ref.uid ? owner : undefined;
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion true. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
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

  constructor(
    clock: Clock,
    private readonly api: ApiServer,
    private readonly identity: ClientIdentity,
    /** The Event source component, e.g. `job-controller`. */
    component: string,
    /** The Events' messages: RealPodControl's by default; StatefulPodControl (recordPodEvent) words them its own way. */
    private readonly messages: { created(pod: string, owner: KubeObject): string; deleted(pod: string, owner: KubeObject): string } = { created: (pod) => `Created pod: ${pod}`, deleted: (pod) => `Deleted pod: ${pod}` },
  ) {
    this.recorder = new EventRecorder({ component }, identity.component, () => clock.now(), (e) => this.api.create(identity, 'events', e.metadata.namespace, e));
  }

  /**
   * CreatePods / CreatePodsWithGenerateName (GetPodFromTemplate): the template's labels,
   * annotations, finalizers and spec, the controller reference, and either a fixed name (a
   * StatefulSet's) or `generateName` (the owner's name and a dash, unless given).
   */
  createPod(owner: KubeObject, ownerKind: string, template: PodTemplateSpec, controllerRef: OwnerReference, naming: { name?: string; generateName?: string }, mutate?: (pod: Pod) => void): ApiResponse<Pod> {
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
    const r = this.api.create(this.identity, 'pods', owner.metadata.namespace, pod);
    const ref = involved(owner, ownerKind);
    if (r.ok) this.recorder.event(ref, 'Normal', 'SuccessfulCreate', this.messages.created(r.object.metadata.name!, owner));
    else this.recorder.event(ref, 'Warning', 'FailedCreate', `Error creating: ${r.status.message}`);
    return r;
  }

  /** DeletePod: a DELETE with no options (the pod's own grace period). */
  deletePod(owner: KubeObject, ownerKind: string, name: string): ApiResponse<unknown> {
    const r = this.api.delete(this.identity, 'pods', owner.metadata.namespace, name, {});
    const ref = involved(owner, ownerKind);
    if (r.ok) this.recorder.event(ref, 'Normal', 'SuccessfulDelete', this.messages.deleted(name, owner));
    else if (r.code !== 404) this.recorder.event(ref, 'Warning', 'FailedDelete', `Error deleting: ${r.status.message}`);
    return r;
  }

  /** An Event about the owner itself (e.g. the Job's BackoffLimitExceeded). */
  event(owner: KubeObject, ownerKind: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.recorder.event(involved(owner, ownerKind), type, reason, message);
  }
}

function involved(owner: KubeObject, kind: string): { kind: string; namespace?: string; name?: string; uid?: string; apiVersion?: string } {
  return { kind, namespace: owner.metadata.namespace, name: owner.metadata.name, uid: owner.metadata.uid, apiVersion: owner.apiVersion };
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
  return pods.byIndex(POD_CONTROLLER_UID_INDEX, owner.metadata.uid!).filter((p) => parsed?.matches(p.metadata.labels) ?? false);
}

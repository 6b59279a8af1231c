import type { ClientIdentity } from '../../apiserver/apiserver';
import { jsonEqual, toTime } from '../../apimachinery/object';
import type { Node, Pod, PodStatus, Taint, Toleration } from '../../apimachinery/types';
import type { TimerHandle } from '../../foundation/clock';
import { ControllerBase } from './controller-base';
import type { ControllerContext } from './controller-manager';
import { podInformer, podsAssignedToNode, type PodInformer } from '../../client/pod-informer';
import { updatePodCondition } from '../../helpers/pod-util';
import { toleratesTaint } from '../../helpers/taints';

const SOURCE = 'pkg/controller/tainteviction/taint_eviction.go';
const IDENTITY: ClientIdentity = { name: 'taint-eviction-controller', component: 'nodelifecycle' };
/** taint_eviction.go `retries` and the sleep between them in deletePodHandler. */
const RETRIES = 5;
const RETRY_MS = 10;

/**
 * v1helper.GetMatchingTolerations: for every taint, the first toleration that tolerates it;
 * undefined if some taint is not tolerated.
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Toleration[] | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((tol) => toleratesTaint(tol, taint));
    if (!t) return undefined;
    used.push(t);
  }
  return used;
}

/**
 * getMinTolerationTime over the used tolerations, in seconds: 0 if there are none or one has
 * tolerationSeconds ≤ 0, Infinity if none sets tolerationSeconds (tolerated forever), else the minimum.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min;
}

/**
 * How long a pod may stay on a node with these NoExecute taints (processPodOnNode's decision):
 * undefined if some taint is not tolerated (evict now), Infinity if tolerated forever, else seconds.
 */
export function minTolerationSeconds(tolerations: readonly Toleration[], taints: readonly Taint[]): number | undefined {
  const used = getMatchingTolerations(taints, tolerations);
  return used === undefined ? undefined : getMinTolerationTime(used);
}

function noExecuteTaints(node: Node | undefined): Taint[] {
  return (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** One entry of the TimedWorkerQueue: a pending eviction, or null once it has fired (kept to stop re-adding). */
interface TimedWorker {
  createdAt: number;
  fireAt: number;
  handle: TimerHandle;
}

/**
 * The taint eviction controller (pkg/controller/tainteviction, split out of node lifecycle in
 * v1.29; K47): when a node carries NoExecute taints, each pod bound to it is deleted once its
 * shortest matching toleration runs out (at once if some taint is not tolerated) — first a
 * DisruptionTarget condition, then a DELETE with empty options (the spec's grace). It does not look
 * at deletionTimestamp: a pod already terminating is "evicted" too, which changes nothing but the
 * condition (the DELETE is a pending no-op, R21).
 */
export class TaintEvictionController extends ControllerBase {
  /** taintedNodes: the NoExecute taints of every tainted node. */
  private readonly taintedNodes = new Map<string, Taint[]>();
  /** The node informer's copies, to tell whether an update changed the NoExecute taints (NodeUpdated). */
  private readonly knownNodes = new Map<string, Node>();
  /** taintEvictionQueue (timed_workers.go TimedWorkerQueue), keyed namespace/name. */
  private readonly workers = new Map<string, TimedWorker | null>();
  private readonly recorder = this.eventRecorder({ component: 'taint-eviction-controller' }, 'taint-eviction');

  /** The shared pod informer: its cache (podLister) and spec.nodeName index (getPodsAssignedToNode). */
  private readonly podInformer: PodInformer;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.podInformer = podInformer(ctx.informers);
  }

  start(): this {
    this.api.watch('nodes', undefined, {}, (e) => {
      const name = e.object.metadata.name!;
      const old = this.knownNodes.get(name);
      if (e.type === 'DELETED') this.knownNodes.delete(name);
      else this.knownNodes.set(name, e.object);
      this.nodeUpdated(old, e.type === 'DELETED' ? undefined : e.object);
    });
    this.podInformer.addEventHandler((_key, old, pod) => this.podUpdated(old, pod));
    return this;
  }

  /** NodeUpdated: only a change of the NoExecute taints (or an add/delete) is handled. */
  private nodeUpdated(old: Node | undefined, node: Node | undefined): void {
    if (old && node && jsonEqual(noExecuteTaints(old), noExecuteTaints(node))) return;
    this.handleNodeUpdate((node ?? old)!.metadata.name!);
  }

  /** PodUpdated: only an add, a delete, or a change of tolerations or node is handled. */
  private podUpdated(old: Pod | undefined, pod: Pod | undefined): void {
    if (
      old &&
      pod &&
      jsonEqual(old.spec?.tolerations ?? [], pod.spec?.tolerations ?? []) &&
      old.spec?.nodeName === pod.spec?.nodeName
    )
      return;
    const p = (pod ?? old)!;
    this.handlePodUpdate(p.metadata.namespace, p.metadata.name!, p.spec?.nodeName);
  }

  /** handleNodeUpdate: remember the node's NoExecute taints, then processPodOnNode for every pod bound to it. */
  private handleNodeUpdate(nodeName: string): void {
    // nodeLister.Get: the node informer's cache, not a GET to the apiserver.
    const node = this.knownNodes.get(nodeName);
    if (!node) {
      this.taintedNodes.delete(nodeName); // node deleted: scheduled evictions stay (they GET the pod when they fire)
      return;
    }
    const taints = noExecuteTaints(node);
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);
    const pods = podsAssignedToNode(this.podInformer, nodeName);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      for (const pod of pods) this.cancelWorkWithEvent(pod.metadata.namespace, pod.metadata.name!);
      return;
    }
    const now = this.clock.now();
    for (const pod of pods)
      this.processPodOnNode(
        pod.metadata.namespace,
        pod.metadata.name!,
        nodeName,
        pod.spec?.tolerations ?? [],
        taints,
        now,
      );
  }

  /** handlePodUpdate: a pod gone from the informer loses its eviction; a pod on a tainted node is processed. */
  private handlePodUpdate(namespace: string | undefined, name: string, nodeName: string | undefined): void {
    // podLister.Get: the informer's cache, not a GET to the apiserver.
    const pod = this.podInformer.get(`${namespace}/${name}`);
    if (!pod) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    if (pod.spec?.nodeName !== nodeName || !nodeName) return;
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(namespace, name, nodeName, pod.spec?.tolerations ?? [], taints, this.clock.now());
  }

  /** processPodOnNode: schedule (or cancel) the pod's eviction for the shortest matching toleration. */
  private processPodOnNode(
    namespace: string | undefined,
    name: string,
    nodeName: string,
    tolerations: readonly Toleration[],
    taints: readonly Taint[],
    now: number,
  ): void {
    if (taints.length === 0) this.cancelWorkWithEvent(namespace, name);
    const used = getMatchingTolerations(taints, tolerations);
    const keys = taints.map((t) => t.key).join(', ');
    if (used === undefined) {
      // Not all taints are tolerated: cancel what was scheduled, the pod goes right away.
      this.cancelWorkWithEvent(namespace, name);
      this.addWork(namespace, name, now, now, `NoExecute taint ${keys} on node ${nodeName} is not tolerated`);
      return;
    }
    const seconds = getMinTolerationTime(used);
    if (seconds === Number.POSITIVE_INFINITY) {
      this.cancelWorkWithEvent(namespace, name); // tolerated forever
      return;
    }
    let startTime = now;
    const triggerTime = now + seconds * 1000;
    const scheduled = this.workers.get(`${namespace}/${name}`);
    if (scheduled) {
      startTime = scheduled.createdAt;
      if (startTime + seconds * 1000 < triggerTime) return; // the earlier schedule stands
      this.cancelWorkWithEvent(namespace, name);
    }
    this.addWork(
      namespace,
      name,
      startTime,
      startTime + seconds * 1000,
      `tolerates NoExecute taint ${keys} on node ${nodeName} for ${seconds}s`,
    );
  }

  /** TimedWorkerQueue.AddWork: nothing if the key is there (pending, or fired and kept). */
  private addWork(namespace: string | undefined, name: string, createdAt: number, fireAt: number, why: string): void {
    const key = `${namespace}/${name}`;
    if (this.workers.has(key)) return;
    const delay = Math.max(0, fireAt - this.clock.now());
    this.timeline.record(
      'nodelifecycle',
      `eviction of pods/${name} scheduled in ${delay / 1000}s: ${why}`,
      `${SOURCE} processPodOnNode → TimedWorkerQueue.AddWork`,
      { actor: IDENTITY.name },
    );
    const handle = this.clock.after(delay, () => {
      this.deletePodHandler(namespace, name);
      this.workers.set(key, null); // kept after success, so the pod is not scheduled again
    });
    this.workers.set(key, { createdAt, fireAt, handle });
  }

  /** cancelWorkWithEvent: TimedWorkerQueue.CancelWork, and an Event if a pending eviction was cancelled. */
  private cancelWorkWithEvent(namespace: string | undefined, name: string): void {
    const key = `${namespace}/${name}`;
    if (!this.workers.has(key)) return;
    const worker = this.workers.get(key);
    this.workers.delete(key);
    if (!worker) return;
    this.clock.cancel(worker.handle);
    this.emitEvent(namespace, name, `Cancelling deletion of Pod ${key}`, 'emitCancelPodDeletionEvent');
  }

  /**
   * deletePodHandler: the event, then addConditionAndDeletePod, tried up to `retries` (5) times,
   * 10 ms apart, until one attempt gets through.
   */
  private deletePodHandler(namespace: string | undefined, name: string): void {
    this.emitEvent(namespace, name, `Marking for deletion Pod ${namespace}/${name}`, 'emitPodDeletionEvent');
    const attempt = (left: number) => {
      if (this.addConditionAndDeletePod(namespace, name) || left <= 1) return;
      this.clock.after(RETRY_MS, () => attempt(left - 1));
    };
    attempt(RETRIES);
  }

  /**
   * addConditionAndDeletePod: GET the pod; add DisruptionTarget{DeletionByTaintManager} through
   * UpdatePodCondition and PatchPodStatus when that changes it; then DELETE with empty options.
   * With PodDisruptionConditions disabled (possible up to v1.30; locked on from v1.31) neither the
   * GET nor the condition happens: just the DELETE (V10). Up to v1.28 (taint_manager.go, before
   * 1.28.4, 1.27.8, 1.26.11) the condition is a forced server-side apply by "TaintManager", sent
   * every time with lastTransitionTime now, and a pod the field manager cannot convert (duplicate
   * env names or ports) is never deleted (V12, kubernetes#121103). Returns whether it got through.
   */
  private addConditionAndDeletePod(namespace: string | undefined, name: string): boolean {
    const record = () =>
      this.timeline.record(
        'nodelifecycle',
        `taint eviction pods/${name}: deleting due to NoExecute taint`,
        `${SOURCE} addConditionAndDeletePod`,
        { actor: IDENTITY.name },
      );
    const release = this.release;
    if (release.enabled('PodDisruptionConditions')) {
      const got = this.api.get('pods', namespace, name);
      if (!got.ok) return false;
      record();
      const condition = {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      };
      if (!release.atLeast(29)) {
        const applied = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace },
          status: { conditions: [{ ...condition, lastTransitionTime: toTime(this.clock.now()) }] },
        };
        if (!this.client.applyStatus(namespace!, name, applied, { fieldManager: 'TaintManager', force: true }).ok)
          return false;
      } else {
        const status: PodStatus = structuredClone(got.object.status ?? {});
        if (updatePodCondition(status, condition, this.clock.now())) {
          const r = this.client.patch(
            'pods',
            namespace,
            name,
            'merge',
            { status: { conditions: status.conditions } },
            { subresource: 'status' },
          );
          if (!r.ok) return false;
        }
      }
    } else {
      record();
    }
    return this.client.delete('pods', namespace, name, {}).ok;
  }

  /** The controller's EventRecorder (reason TaintManagerEviction, on the pod). */
  private emitEvent(namespace: string | undefined, name: string, message: string, fn: string): void {
    const reason = 'TaintManagerEviction';
    this.timeline.record('events', `${reason} pods/${name}: ${message}`, `${SOURCE} ${fn}`, { actor: IDENTITY.name });
    this.recorder.event({ kind: 'Pod', apiVersion: 'v1', name, namespace }, 'Normal', reason, message);
  }
}

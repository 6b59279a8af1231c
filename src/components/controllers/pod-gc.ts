import type { ClientIdentity } from '../../apiserver/apiserver';
import { ControllerBase } from './controller-base';
import type { ControllerContext } from './controller-manager';
import { toTime } from '../../apimachinery/object';
import { updatePodCondition } from '../../helpers/pod-util';
import type { Node, Pod, PodCondition, PodStatus } from '../../apimachinery/types';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';

/** The taint that says a node is shut down for good (NodeOutOfServiceVolumeDetach, GA in 1.28). */
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export interface PodGCConfig {
  /** gcCheckPeriod (20 s). */
  periodMs: number;
  /** quarantineTime before a vanished node's pods are collected (40 s). */
  quarantineMs: number;
  /** --terminated-pod-gc-threshold (12500); 0 turns gcTerminated off. */
  terminatedPodThreshold: number;
  /** The kube-controller-manager release modelled. */
  release: Release;
}

export const DEFAULT_POD_GC_CONFIG: Readonly<PodGCConfig> = Object.freeze({
  periodMs: 20_000,
  quarantineMs: 40_000,
  terminatedPodThreshold: 12_500,
  release: DEFAULT_RELEASE,
});

const SOURCE = 'pkg/controller/podgc/gc_controller.go';
const IDENTITY: ClientIdentity = { name: 'pod-garbage-collector', component: 'podgc' };

/** gc_controller.go isPodTerminated: any phase but Pending, Running and Unknown. */
function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** pkg/util/node IsNodeReady: the Ready condition is True. */
function isNodeReady(node: Node): boolean {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

/** pkg/kubelet/eviction PodIsEvicted: phase Failed with reason Evicted. */
function podIsEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status.reason === 'Evicted';
}

/** byEvictionAndCreationTimestamp: evicted pods first, then the oldest, names breaking ties. */
function byEvictionAndCreationTimestamp(a: Pod, b: Pod): number {
  const ae = podIsEvicted(a);
  const be = podIsEvicted(b);
  if (ae !== be) return ae ? -1 : 1;
  return byCreationTimestamp(a, b);
}

/** byCreationTimestamp: the oldest first, names breaking ties. */
function byCreationTimestamp(a: Pod, b: Pod): number {
  const at = Date.parse(a.metadata.creationTimestamp ?? '');
  const bt = Date.parse(b.metadata.creationTimestamp ?? '');
  if (at !== bt) return at - bt;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '')
    ? -1
    : (a.metadata.name ?? '') > (b.metadata.name ?? '')
      ? 1
      : 0;
}

/**
 * The pod garbage collector (pkg/controller/podgc/gc_controller.go `gc`, every 20 s; K48–K50):
 * terminated pods over the threshold, terminating pods on out-of-service nodes, pods bound to a node
 * that no longer exists (after a 40 s quarantine and a live check), and terminating pods that were
 * never scheduled are marked Failed and force-deleted.
 */
export class PodGarbageCollector extends ControllerBase {
  /**
   * nodeQueue, a delaying workqueue (delaying_queue.go): node names waiting out the quarantine, with
   * the time they become ready (adding a name that already waits keeps the earlier time), and the
   * names that are ready, which the next pass takes (discoverDeletedNodes).
   */
  private readonly waiting = new Map<string, number>();
  private readonly ready = new Set<string>();
  /** The controller's own copy: a scenario may change its threshold without touching the defaults. */
  readonly config: PodGCConfig;

  /** --terminated-pod-gc-threshold and the release's gates come from the component config (ctx.config.podGC). */
  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.config = { ...ctx.config.podGC };
  }

  start(): this {
    this.schedule();
    return this;
  }

  /** wait.UntilWithContext(gc, 20 s). Idle ticks are background work; with nodes in quarantine the next tick is real work. */
  private schedule(): void {
    this.clock.after(
      this.config.periodMs,
      () => {
        this.gc();
        this.schedule();
      },
      { background: this.waiting.size === 0 && this.ready.size === 0 },
    );
  }

  /** gc: one pass over the informers' pods and nodes. */
  private gc(): void {
    const pods = this.api.list('pods', undefined);
    const nodes = this.api.list('nodes', undefined);
    if (!pods.ok || !nodes.ok) return;
    if (this.config.terminatedPodThreshold > 0) this.gcTerminated(pods.object.items);
    // V14 — gc runs gcTerminating only with NodeOutOfServiceVolumeDetach (KEP-2268), a gate that
    // can be disabled while it is beta (v1.26–v1.27); GA and locked from v1.28.
    if (this.config.release.enabled('NodeOutOfServiceVolumeDetach'))
      this.gcTerminating(pods.object.items, nodes.object.items);
    this.gcOrphaned(pods.object.items, nodes.object.items);
    this.gcUnscheduledTerminating(pods.object.items);
  }

  /**
   * V15 — the order pods are collected in: evicted pods first from v1.27 (kubernetes#116167,
   * byEvictionAndCreationTimestamp); up to v1.26 by creation time alone (byCreationTimestamp).
   */
  private order(): (a: Pod, b: Pod) => number {
    return this.config.release.atLeast(27) ? byEvictionAndCreationTimestamp : byCreationTimestamp;
  }

  /** gcTerminated: the terminated pods beyond the threshold go, evicted ones first, then the oldest. */
  private gcTerminated(pods: readonly Pod[]): void {
    const terminated = pods.filter(isPodTerminated);
    const deleteCount = terminated.length - this.config.terminatedPodThreshold;
    if (deleteCount <= 0) return;
    terminated.sort(this.order());
    for (const pod of terminated.slice(0, deleteCount)) {
      this.markFailedAndDeletePod(
        pod,
        undefined,
        `${terminated.length} terminated pods exceed the threshold of ${this.config.terminatedPodThreshold}`,
        'gcTerminated',
      );
    }
  }

  /** gcTerminating: terminating pods on a node that is not Ready and carries the out-of-service taint. */
  private gcTerminating(pods: readonly Pod[], nodes: readonly Node[]): void {
    // nodeLister.Get is a map lookup, not a scan of every node per pod.
    const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
    const terminating = pods.filter((pod) => {
      if (!pod.metadata.deletionTimestamp) return false;
      const node = byName.get(pod.spec?.nodeName);
      if (!node) return false; // nodeLister.Get failed: skipped
      return !isNodeReady(node) && (node.spec?.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE);
    });
    terminating.sort(this.order());
    for (const pod of terminating)
      this.markFailedAndDeletePod(
        pod,
        undefined,
        `terminating on node ${pod.spec?.nodeName}, which is not ready and tainted ${TAINT_OUT_OF_SERVICE}`,
        'gcTerminating',
      );
  }

  /**
   * gcOrphaned: every pass queues the missing nodes of bound pods for the quarantine (AddAfter);
   * discoverDeletedNodes then takes the names whose quarantine is over and, for those still missing
   * from the informer, confirms with a live GET (checkIfNodeExists) that they are gone.
   */
  private gcOrphaned(pods: readonly Pod[], nodes: readonly Node[]): void {
    const now = this.clock.now();
    // The delaying queue's waitingLoop: entries whose time has come move to the queue.
    for (const [n, readyAt] of [...this.waiting]) {
      if (readyAt > now) continue;
      this.waiting.delete(n);
      this.ready.add(n);
    }
    const existing = new Set(nodes.map((n) => n.metadata.name!));
    for (const pod of pods) {
      const n = pod.spec?.nodeName;
      if (!n || existing.has(n) || this.waiting.has(n)) continue;
      this.waiting.set(n, now + this.config.quarantineMs);
      // (a name taken out of the quarantine in this very pass is queued again too, as upstream does; not worth an event)
      if (!this.ready.has(n))
        this.timeline.record(
          'podgc',
          `node ${n} not found: quarantined for ${this.config.quarantineMs / 1000}s`,
          `${SOURCE} gcOrphaned (nodeQueue.AddAfter)`,
        );
    }
    const deleted = new Set<string>();
    for (const n of [...this.ready]) {
      this.ready.delete(n);
      if (existing.has(n)) continue;
      if (this.api.get('nodes', undefined, n).ok) continue; // checkIfNodeExists
      deleted.add(n);
    }
    for (const pod of pods) {
      const n = pod.spec?.nodeName;
      if (!n || !deleted.has(n)) continue;
      const condition: PodCondition = {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists',
      };
      this.markFailedAndDeletePod(pod, condition, `node ${n} no longer exists`, 'gcOrphaned');
    }
  }

  /** gcUnscheduledTerminating: terminating pods that never got a node. */
  private gcUnscheduledTerminating(pods: readonly Pod[]): void {
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp && !pod.spec?.nodeName)
        this.markFailedAndDeletePod(pod, undefined, 'terminating and never scheduled', 'gcUnscheduledTerminating');
    }
  }

  /**
   * V12 — up to v1.28 (and its patches before 1.28.4, 1.27.8, 1.26.11) the status write is a
   * server-side apply with field manager "PodGC", forced: the condition (with lastTransitionTime
   * now) whenever there is one, so even for a pod already Succeeded or Failed, and phase Failed
   * unless the pod is terminal. ExtractPodStatus would re-send fields PodGC already owns; a pod it
   * applied to is deleted right after, so there are none. If the apply fails — a pod with
   * duplicate env names or ports cannot be converted for the field manager (500) — the pod is not
   * deleted, and every pass fails the same way: the bug kubernetes#121103 fixed by sending an
   * ordinary status PATCH from v1.29 (cherry-picked into 1.26.11, 1.27.8, 1.28.4). Returns whether
   * to go on to the DELETE.
   */
  private applyFailedStatus(pod: Pod, condition: PodCondition | undefined): boolean {
    const phase = pod.status?.phase;
    const status: PodStatus = {};
    if (phase !== 'Succeeded' && phase !== 'Failed') status.phase = 'Failed';
    if (condition) status.conditions = [{ ...condition, lastTransitionTime: toTime(this.clock.now()) }];
    if (Object.keys(status).length === 0) return true;
    const { name, namespace } = pod.metadata;
    const applied = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, status };
    return this.client.applyStatus(namespace!, name!, applied, { fieldManager: 'PodGC', force: true }).ok;
  }

  /**
   * markFailedAndDeletePodWithCondition: unless the pod is already Succeeded or Failed, its status
   * is patched to phase Failed (plus the condition, via UpdatePodCondition; PatchPodStatus), then it
   * is deleted with DeleteOptions{gracePeriodSeconds: 0} and no precondition. Up to v1.28 the status
   * write is a server-side apply instead (applyFailedStatus).
   */
  private markFailedAndDeletePod(pod: Pod, condition: PodCondition | undefined, why: string, fn: string): void {
    const name = pod.metadata.name!;
    const ns = pod.metadata.namespace;
    this.timeline.record(
      'podgc',
      `force delete pods/${name}: ${why}`,
      `${SOURCE} ${fn} → markFailedAndDeletePodWithCondition`,
    );
    const phase = pod.status?.phase;
    // V9 — the status write sits behind PodDisruptionConditions or JobPodReplacementPolicy
    // (KEP-3939, #118772: α 1.28, β on 1.29); the condition behind PodDisruptionConditions alone
    // (gc_controller.go markFailedAndDeletePodWithCondition). With both gates off the pod is
    // deleted as it is, neither Failed nor conditioned.
    const gates = this.config.release;
    const marks = gates.enabled('PodDisruptionConditions') || gates.enabled('JobPodReplacementPolicy');
    const withCondition = condition !== undefined && gates.enabled('PodDisruptionConditions');
    if (marks && !gates.atLeast(29)) {
      if (!this.applyFailedStatus(pod, withCondition ? condition : undefined)) return;
    } else if (marks && phase !== 'Succeeded' && phase !== 'Failed') {
      const status: PodStatus = structuredClone(pod.status ?? {});
      status.phase = 'Failed';
      if (withCondition) updatePodCondition(status, condition, this.clock.now());
      const body: { status: PodStatus } = {
        status: { phase: 'Failed', ...(withCondition ? { conditions: status.conditions } : {}) },
      };
      const r = this.client.patch('pods', ns, name, 'merge', body, { subresource: 'status' });
      if (!r.ok) return; // the error goes to HandleError; the next pass tries again
    }
    this.client.delete('pods', ns, name, { gracePeriodSeconds: 0 });
  }
}

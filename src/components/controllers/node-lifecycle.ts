import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../apiserver/admission';
import type { ClientIdentity } from '../../apiserver/apiserver';
import { toTime } from '../../apimachinery/object';
import type { Node, NodeCondition, Pod, Taint } from '../../apimachinery/types';
import { NODE_LEASE_NAMESPACE } from '../../helpers/well-known';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { updatePodCondition } from '../../helpers/pod-util';
import { podInformer, podsAssignedToNode, type PodInformer } from '../../client/pod-informer';
import { ControllerBase } from './controller-base';
import type { ControllerContext } from './controller-manager';

export interface NodeLifecycleConfig {
  /** --node-monitor-period (5 s). */
  monitorPeriodMs: number;
  /** --node-monitor-grace-period (50 s since v1.32; 40 s before: see nodeLifecycleConfig). */
  gracePeriodMs: number;
  /** The kube-controller-manager release modelled. */
  release: Release;
}

/**
 * kube-controller-manager's defaults for a release: --node-monitor-grace-period went from 40 s to
 * 50 s in v1.32 (#126287, pkg/controller/nodelifecycle/config/v1alpha1/defaults.go
 * RecommendedDefaultNodeLifecycleControllerConfiguration), so that it exceeds the kubelet's
 * nodeStatusUpdateFrequency retries plus the lease duration.
 */
export function nodeLifecycleConfig(release: Release): Readonly<NodeLifecycleConfig> {
  return Object.freeze({ monitorPeriodMs: 5000, gracePeriodMs: release.atLeast(32) ? 50_000 : 40_000, release });
}

export const DEFAULT_NODE_LIFECYCLE_CONFIG: Readonly<NodeLifecycleConfig> = nodeLifecycleConfig(DEFAULT_RELEASE);

const SOURCE = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';
const UTIL = 'pkg/controller/util/node/controller_utils.go';
const IDENTITY: ClientIdentity = { name: 'node-lifecycle-controller', component: 'nodelifecycle' };

/** The node conditions tryUpdateNodeHealth turns Unknown (NetworkUnavailable is left alone). */
const MONITORED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint each condition status stands for. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
/** UnschedulableTaintTemplate: spec.unschedulable (a cordoned node) becomes this NoSchedule taint. */
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const CONDITION_TAINT_KEYS = new Set([
  ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  TAINT_UNSCHEDULABLE,
]);

/** nodeHealthData: what the controller last saw of a node, and when it last saw it change. */
interface NodeHealth {
  probeTimestamp: number;
  readyHeartbeat?: string;
  leaseRenewTime?: string;
}

// Index loops: every monitor pass (5 s) reads each node's stored, frozen arrays, which V8's array
// builtins walk on a slow path (docs/performance.md).
function readyOf(node: Node): NodeCondition | undefined {
  const conditions = node.status?.conditions ?? [];
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'Ready') return conditions[i];
  return undefined;
}

function hasTaint(node: Node, key: string, effect: string): boolean {
  const taints = node.spec?.taints ?? [];
  for (let i = 0; i < taints.length; i++) if (taints[i].key === key && taints[i].effect === effect) return true;
  return false;
}

/**
 * The node lifecycle controller (pkg/controller/nodelifecycle), K46. Every monitor period
 * (monitorNodeHealth) it compares, per node, the time it last saw the node's Lease renewed or its
 * Ready heartbeat change (probeTimestamp: when the controller saw it, not the time written in it)
 * with the grace period. Past it, the node's conditions become Unknown (one status UPDATE) and its
 * pods are marked not ready (MarkPodsNotReady). The condition drives two taints: the NoSchedule one
 * follows each node update (doNoScheduleTaintingPass), the NoExecute one is added by the next monitor
 * pass, which sees the Unknown it wrote (processTaintBaseEviction looks at the Ready condition as
 * observed before its own update), through the rate-limited tainter (doNoExecuteTaintingPass, every
 * 100 ms; here at once). A node that reports Ready again loses both.
 */
export class NodeLifecycleController extends ControllerBase {
  private readonly health = new Map<string, NodeHealth>();
  private readonly config: NodeLifecycleConfig;
  private readonly recorder = this.eventRecorder({ component: 'node-controller' }, 'node-not-ready');

  /** The shared pod informer: MarkPodsNotReady reads its spec.nodeName index (getPodsAssignedToNode). */
  private readonly podInformer: PodInformer;

  /** Its settings are kube-controller-manager's defaults for the release (nodeLifecycleConfig). */
  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.podInformer = podInformer(ctx.informers);
    this.config = { ...nodeLifecycleConfig(ctx.release) };
  }

  start(): this {
    // nodeInformer UpdateFunc → nodeUpdateQueue → doNodeProcessingPassWorker.
    this.api.watch('nodes', undefined, {}, (e) => {
      if (e.type !== 'DELETED') this.doNoScheduleTaintingPass(e.object.metadata.name!);
      else this.health.delete(e.object.metadata.name!);
    });
    this.schedule(false);
    return this;
  }

  /** The monitor loop is idle (background) unless some node is on its way to being marked or unmarked. */
  private schedule(pending: boolean): void {
    this.clock.after(this.config.monitorPeriodMs, () => this.schedule(this.monitorNodeHealth()), {
      background: !pending,
    });
  }

  /** monitorNodeHealth; returns whether a node is still on its way to a new state (the next passes have work). */
  private monitorNodeHealth(): boolean {
    const nodes = this.api.list('nodes', undefined);
    if (!nodes.ok) return false;
    let pending = false;
    for (const listed of nodes.object.items) {
      const observed = readyOf(listed);
      const node = this.tryUpdateNodeHealth(listed);
      const current = readyOf(node);
      if (current === undefined) continue;
      // Up to v1.33 processTaintBaseEviction judged the Ready condition observed before this pass's
      // update, so the NoExecute taint came one pass (5 s) after Unknown; from v1.34 it uses the
      // current one and taints in the same pass (kubernetes#120816, issue #120815).
      this.processTaintBaseEviction(node, this.config.release.atLeast(34) ? current : observed);
      if (current.status !== 'True' && observed?.status === 'True') this.markPodsNotReady(node.metadata.name!);
      const silent = this.clock.now() - this.health.get(node.metadata.name!)!.probeTimestamp;
      // A node two lease renewals late will cross the grace period; an Unknown node still needs its
      // NoExecute taint; a Ready one still carrying them needs them lifted.
      if (current.status === 'True' && silent > 20_000) pending = true;
      if (
        current.status !== 'True' &&
        !hasTaint(node, current.status === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE, 'NoExecute')
      )
        pending = true;
      if (
        current.status === 'True' &&
        (hasTaint(node, TAINT_UNREACHABLE, 'NoExecute') || hasTaint(node, TAINT_NOT_READY, 'NoExecute'))
      )
        pending = true;
    }
    return pending;
  }

  /**
   * tryUpdateNodeHealth: probeTimestamp moves to now when the Ready heartbeat or the Lease's
   * renewTime changed since the last pass; past probeTimestamp + grace, every monitored condition
   * that is not Unknown becomes Unknown ("Kubelet stopped posting node status.") in one UpdateStatus
   * when Ready changed. Returns the node after the pass: the listed (stored, shared) one itself
   * unless it was written — a copy per node and pass made the idle monitor loop a visible cost.
   */
  private tryUpdateNodeHealth(listed: Node): Node {
    const name = listed.metadata.name!;
    const now = this.clock.now();
    const ready = readyOf(listed);
    const saved = this.health.get(name);
    const health: NodeHealth = saved ?? { probeTimestamp: now, readyHeartbeat: ready?.lastHeartbeatTime };
    if (saved && ready?.lastHeartbeatTime !== saved.readyHeartbeat) {
      health.probeTimestamp = now;
      health.readyHeartbeat = ready?.lastHeartbeatTime;
    }
    const lease = this.api.get('leases', NODE_LEASE_NAMESPACE, name);
    const renewTime = lease.ok ? lease.object.spec?.renewTime : undefined;
    // The same text is the same time: most passes see the renewal they saw last, and parse nothing.
    if (
      renewTime !== undefined &&
      renewTime !== health.leaseRenewTime &&
      (health.leaseRenewTime === undefined || Date.parse(health.leaseRenewTime) < Date.parse(renewTime))
    ) {
      health.leaseRenewTime = renewTime;
      health.probeTimestamp = now;
    }
    this.health.set(name, health);
    if (!(now > health.probeTimestamp + this.config.gracePeriodMs)) return listed;
    const nowText = toTime(now);
    let changed = false;
    const conditions: NodeCondition[] = [...(listed.status?.conditions ?? [])];
    for (const type of MONITORED_CONDITIONS) {
      const i = conditions.findIndex((c) => c.type === type);
      if (i < 0) {
        conditions.push({
          type,
          status: 'Unknown',
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
          lastHeartbeatTime: listed.metadata.creationTimestamp,
          lastTransitionTime: nowText,
        });
        changed ||= type === 'Ready';
      } else if (conditions[i].status !== 'Unknown') {
        conditions[i] = {
          ...conditions[i],
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: nowText,
        };
        changed ||= type === 'Ready';
      }
    }
    // Only a change of Ready is written (the other conditions go Unknown with it).
    if (!changed) return listed;
    const node: Node = { ...listed, status: { ...listed.status, conditions } };
    this.timeline.record(
      'nodelifecycle',
      `node ${name} Ready=Unknown: no heartbeat seen for ${Math.round((now - health.probeTimestamp) / 1000)}s`,
      `${SOURCE} tryUpdateNodeHealth`,
      { actor: IDENTITY.name },
    );
    const r = this.client.update('nodes', undefined, node, { subresource: 'status' });
    return r.ok ? { ...node, metadata: r.object.metadata } : node;
  }

  /**
   * processTaintBaseEviction, on the Ready condition as observed before this pass's own update:
   * False / Unknown → the not-ready / unreachable NoExecute taint (swapped for the other one if
   * present); True → markNodeAsReachable lifts both.
   */
  private processTaintBaseEviction(node: Node, observed: NodeCondition | undefined): void {
    const name = node.metadata.name!;
    switch (observed?.status) {
      case 'False':
      case 'Unknown': {
        const [add, remove] =
          observed.status === 'False' ? [TAINT_NOT_READY, TAINT_UNREACHABLE] : [TAINT_UNREACHABLE, TAINT_NOT_READY];
        if (hasTaint(node, add, 'NoExecute')) return;
        this.timeline.record(
          'nodelifecycle',
          `node ${name} tainted ${add}:NoExecute (Ready=${observed.status})`,
          `${SOURCE} processTaintBaseEviction → doNoExecuteTaintingPass`,
          { actor: IDENTITY.name },
        );
        this.swapNodeControllerTaint(name, [{ key: add, effect: 'NoExecute' }], [{ key: remove, effect: 'NoExecute' }]);
        return;
      }
      case 'True': {
        if (!hasTaint(node, TAINT_UNREACHABLE, 'NoExecute') && !hasTaint(node, TAINT_NOT_READY, 'NoExecute')) return;
        this.timeline.record(
          'nodelifecycle',
          `node ${name} is Ready again: NoExecute taints removed`,
          `${SOURCE} markNodeAsReachable`,
          { actor: IDENTITY.name },
        );
        this.swapNodeControllerTaint(
          name,
          [],
          [
            { key: TAINT_UNREACHABLE, effect: 'NoExecute' },
            { key: TAINT_NOT_READY, effect: 'NoExecute' },
          ],
        );
        return;
      }
    }
  }

  /** doNoScheduleTaintingPass: the condition taints (NoSchedule) follow the node's conditions, and the unschedulable one its spec. */
  private doNoScheduleTaintingPass(name: string): void {
    const got = this.api.get('nodes', undefined, name);
    if (!got.ok) return;
    const node = got.object;
    const want: Taint[] = [];
    for (const c of node.status?.conditions ?? []) {
      const key = CONDITION_TAINTS[c.type]?.[c.status];
      if (key) want.push({ key, effect: 'NoSchedule' });
    }
    // Map node.Spec.Unschedulable to a taint (K82).
    if (node.spec?.unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
    const have = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && CONDITION_TAINT_KEYS.has(t.key));
    const add = want.filter((w) => !have.some((h) => h.key === w.key));
    const remove = have.filter((h) => !want.some((w) => w.key === h.key));
    if (add.length === 0 && remove.length === 0) return;
    const what = [...add.map((t) => `+${t.key}:NoSchedule`), ...remove.map((t) => `-${t.key}:NoSchedule`)].join(' ');
    this.timeline.record('nodelifecycle', `node ${name} taints ${what}`, `${SOURCE} doNoScheduleTaintingPass`, {
      actor: IDENTITY.name,
    });
    this.swapNodeControllerTaint(name, add, remove);
  }

  /** controller_utils.go SwapNodeControllerTaint: the added taints get timeAdded now (one PATCH of spec.taints). */
  private swapNodeControllerTaint(name: string, add: Taint[], remove: Taint[]): void {
    const got = this.api.get('nodes', undefined, name);
    if (!got.ok) return;
    const now = toTime(this.clock.now());
    const kept = (got.object.spec?.taints ?? []).filter(
      (t) =>
        !remove.some((r) => r.key === t.key && r.effect === t.effect) &&
        !add.some((a) => a.key === t.key && a.effect === t.effect),
    );
    const taints = [...kept, ...add.map((t) => ({ ...t, timeAdded: now }))];
    this.client.patch('nodes', undefined, name, 'merge', {
      metadata: { resourceVersion: got.object.metadata.resourceVersion },
      spec: { taints: taints.length ? taints : null },
    });
  }

  /**
   * MarkPodsNotReady: each pod's Ready condition set to False (UpdatePodCondition), one UpdateStatus
   * per pod — the node's pods from the pod informer's index (getPodsAssignedToNode), not a LIST.
   */
  private markPodsNotReady(nodeName: string): void {
    for (const listed of podsAssignedToNode(this.podInformer, nodeName)) {
      const pod: Pod = structuredClone(listed);
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (!ready || !pod.status) continue;
      if (!updatePodCondition(pod.status, { ...ready, status: 'False' }, this.clock.now())) continue;
      this.timeline.record(
        'nodelifecycle',
        `pods/${pod.metadata.name} Ready=False: node ${nodeName} is not ready`,
        `${UTIL} MarkPodsNotReady`,
        { actor: IDENTITY.name },
      );
      const r = this.client.update('pods', pod.metadata.namespace, pod, { subresource: 'status' });
      // The event follows the UpdateStatus (so the pod still exists); only NotFound skips it.
      if (r.ok || r.code !== 404) this.recordNotReadyEvent(pod);
    }
  }

  /** MarkPodsNotReady's recorder.Event(pod, Warning, "NodeNotReady", "Node is not ready"), source node-controller. */
  private recordNotReadyEvent(pod: Pod): void {
    const { name, namespace, uid } = pod.metadata;
    const message = 'Node is not ready';
    this.timeline.record('events', `NodeNotReady pods/${name}: ${message}`, `${UTIL} MarkPodsNotReady`, {
      actor: IDENTITY.name,
    });
    this.recorder.event({ kind: 'Pod', apiVersion: 'v1', name, namespace, uid }, 'Warning', 'NodeNotReady', message);
  }
}

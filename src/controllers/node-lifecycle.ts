import { TAINT_UNREACHABLE } from '../apiserver/admission';
import type { ApiServer, ClientIdentity } from '../apiserver/apiserver';
import { toTime } from '../apiserver/object';
import type { Node, NodeCondition, Pod, Taint } from '../apiserver/types';
import type { Clock } from '../clock';
import { leaseRenewedAt, NODE_LEASE_NAMESPACE } from '../kubelet/node-status';
import type { Timeline } from '../timeline/timeline';

export interface NodeLifecycleConfig {
  /** --node-monitor-period (5 s). */
  monitorPeriodMs: number;
  /** --node-monitor-grace-period (50 s since v1.32; 40 s before). */
  gracePeriodMs: number;
}

export const DEFAULT_NODE_LIFECYCLE_CONFIG: NodeLifecycleConfig = { monitorPeriodMs: 5000, gracePeriodMs: 50_000 };

const SOURCE = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';
const IDENTITY: ClientIdentity = { name: 'node-lifecycle-controller', component: 'nodelifecycle' };

/**
 * The node lifecycle controller (pkg/controller/nodelifecycle): every monitor period it compares
 * each node's last heartbeat (its Lease) with the grace period; a silent node becomes Ready=Unknown,
 * is tainted `node.kubernetes.io/unreachable` (NoExecute and NoSchedule), and its pods are marked
 * not ready (MarkPodsNotReady) — K46. A node that reports again loses the taints.
 */
export class NodeLifecycleController {
  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    private readonly config: NodeLifecycleConfig = DEFAULT_NODE_LIFECYCLE_CONFIG,
  ) {}

  start(): void {
    this.schedule(false);
  }

  /** The monitor loop is idle (background) unless some node has gone quiet and is not yet marked. */
  private schedule(pending: boolean): void {
    this.clock.after(this.config.monitorPeriodMs, () => this.schedule(this.monitorNodeHealth()), { background: !pending });
  }

  /** monitorNodeHealth; returns whether a silent node is still on its way to being marked. */
  private monitorNodeHealth(): boolean {
    const nodes = this.api.list('nodes', undefined);
    const leases = this.api.list('leases', NODE_LEASE_NAMESPACE);
    if (!nodes.ok || !leases.ok) return false;
    const now = this.clock.now();
    let pending = false;
    for (const node of nodes.object.items) {
      const lease = leases.object.items.find((l) => l.metadata.name === node.metadata.name);
      const heartbeat = leaseRenewedAt(lease) ?? Date.parse(node.metadata.creationTimestamp ?? toTime(now));
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      const silentFor = now - heartbeat;
      if (silentFor > this.config.gracePeriodMs) {
        if (ready?.status !== 'Unknown') this.markUnknown(node, silentFor);
      } else if (silentFor > 2 * 10_000 && ready?.status !== 'Unknown') {
        pending = true; // heartbeats stopped: this node will cross the grace period soon
      } else if (ready?.status === 'True' && (node.spec?.taints ?? []).some((t) => t.key === TAINT_UNREACHABLE)) {
        this.removeUnreachableTaints(node);
      }
    }
    return pending;
  }

  /** tryUpdateNodeHealth + doNoExecuteTaintingPass + MarkPodsNotReady for a node that stopped reporting. */
  private markUnknown(node: Node, silentFor: number): void {
    const name = node.metadata.name!;
    const now = toTime(this.clock.now());
    this.timeline.record('nodelifecycle', `node ${name} Ready=Unknown: no heartbeat for ${Math.round(silentFor / 1000)}s`, `${SOURCE} tryUpdateNodeHealth`);
    const conditions: NodeCondition[] = (node.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: now } : c,
    );
    this.api.patch(IDENTITY, 'nodes', undefined, name, 'merge', { status: { conditions } }, { subresource: 'status' });
    const taints: Taint[] = [
      ...(node.spec?.taints ?? []).filter((t) => t.key !== TAINT_UNREACHABLE),
      { key: TAINT_UNREACHABLE, effect: 'NoSchedule', timeAdded: now },
      { key: TAINT_UNREACHABLE, effect: 'NoExecute', timeAdded: now },
    ];
    this.api.patch(IDENTITY, 'nodes', undefined, name, 'merge', { spec: { taints } });
    // controller_utils.go MarkPodsNotReady: only the Ready condition of each pod on the node.
    const pods = this.api.list('pods', undefined, (p) => p.spec?.nodeName === name);
    for (const pod of pods.ok ? pods.object.items : []) this.markPodNotReady(pod);
  }

  private markPodNotReady(pod: Pod): void {
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'False') return;
    const conditions = (pod.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: toTime(this.clock.now()) } : c));
    this.api.patch(IDENTITY, 'pods', pod.metadata.namespace, pod.metadata.name!, 'merge', { status: { conditions } }, { subresource: 'status' });
  }

  private removeUnreachableTaints(node: Node): void {
    const name = node.metadata.name!;
    this.timeline.record('nodelifecycle', `node ${name} is Ready again: unreachable taints removed`, `${SOURCE} doNoExecuteTaintingPass`);
    const taints = (node.spec?.taints ?? []).filter((t) => t.key !== TAINT_UNREACHABLE);
    this.api.patch(IDENTITY, 'nodes', undefined, name, 'merge', { spec: { taints } });
  }
}

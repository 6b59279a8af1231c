import type { ApiClient } from '../apiserver/client';
import { Unreachable } from '../apiserver/client';
import { toTime } from '../apiserver/object';
import type { Lease, Node } from '../apiserver/types';
import type { Scheduler, TimerHandle } from '../clock';

/** The namespace of node heartbeats. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** pkg/kubelet/nodelease: the kubelet renews its Lease every 10 s (renewInterval = 0.25 × 40 s lease duration). */
export const LEASE_RENEW_INTERVAL_MS = 10_000;
export const LEASE_DURATION_SECONDS = 40;

/** KubeletConfiguration maxPods default. */
export const MAX_PODS = 110;

/**
 * The kubelet's node reporting: registerWithAPIServer (kubelet_node_status.go) creates the Node
 * object, and the node lease controller (component-helpers/apimachinery/lease controller.go)
 * renews the node's Lease — the heartbeat the node lifecycle controller watches (K46). Renewals
 * are idle periodic work (background timers): they never keep "the cluster settles" waiting.
 */
export class NodeStatusReporter {
  private timer?: TimerHandle;
  /** The Lease as this process last wrote it (controller.go latestLease; lost when the kubelet restarts). */
  private latestLease?: Lease;

  constructor(
    private readonly clock: Scheduler,
    private readonly client: ApiClient,
    private readonly nodeName: string,
  ) {}

  /** registerWithAPIServer then the first lease renewal; retried while the apiserver is out of reach. */
  start(): void {
    try {
      this.register();
      this.renewLease();
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
    }
    this.schedule();
  }

  /** Back in touch: renew at once, and report Ready (tryUpdateNodeStatus). */
  reconnected(): void {
    try {
      this.renewLease();
      this.reportReady();
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
    }
  }

  stop(): void {
    if (this.timer) this.clock.cancel(this.timer);
  }

  private schedule(): void {
    this.timer = this.clock.after(
      LEASE_RENEW_INTERVAL_MS,
      () => {
        try {
          this.renewLease();
        } catch (e) {
          if (!(e instanceof Unreachable)) throw e;
        }
        this.schedule();
      },
      { background: true },
    );
  }

  private register(): void {
    const api = this.client.server;
    const now = toTime(this.clock.now());
    const node: Node = {
      metadata: { name: this.nodeName, labels: { 'kubernetes.io/hostname': this.nodeName, 'kubernetes.io/os': 'linux' } },
      spec: {},
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }],
        addresses: [{ type: 'Hostname', address: this.nodeName }],
        // setters.go MachineInfo: maxPods (KubeletConfiguration default 110) as capacity and allocatable pods.
        capacity: { pods: String(MAX_PODS) },
        allocatable: { pods: String(MAX_PODS) },
      },
    };
    // A kubelet that restarts finds its Node already there (AlreadyExists) and keeps it.
    api.create(this.client.identity, 'nodes', undefined, node);
  }

  /**
   * controller.go sync: the Lease this process wrote last is renewed from that copy, without a GET
   * ("we can optimistically assume it didn't change since our last update"); only the first
   * renewal, or one whose update failed, GETs it (backoffEnsureLease, which creates it if missing).
   */
  private renewLease(): void {
    const api = this.client.server;
    const renewTime = new Date(this.clock.now()).toISOString().replace('Z', '000Z');
    const renew = (lease: Lease) => {
      const r = api.update(this.client.identity, 'leases', NODE_LEASE_NAMESPACE, { ...lease, spec: { ...lease.spec, renewTime } });
      this.latestLease = r.ok ? r.object : undefined;
      return r.ok;
    };
    if (this.latestLease && renew(this.latestLease)) return;
    const got = api.get('leases', NODE_LEASE_NAMESPACE, this.nodeName);
    if (!got.ok) {
      const lease: Lease = {
        metadata: { name: this.nodeName, namespace: NODE_LEASE_NAMESPACE },
        spec: { holderIdentity: this.nodeName, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime },
      };
      const created = api.create(this.client.identity, 'leases', NODE_LEASE_NAMESPACE, lease);
      this.latestLease = created.ok ? created.object : undefined;
      return;
    }
    renew(got.object);
  }

  /**
   * syncNodeStatus with the node shutdown manager reporting an error (setters.go ReadyCondition):
   * Ready=False, reason KubeletNotReady, the error as message ("node is shutting down").
   */
  reportNotReady(message: string): void {
    try {
      const api = this.client.server;
      const got = api.get('nodes', undefined, this.nodeName);
      if (!got.ok) return;
      const now = toTime(this.clock.now());
      const ready = got.object.status?.conditions?.find((c) => c.type === 'Ready');
      const lastTransitionTime = ready?.status === 'False' ? ready.lastTransitionTime : now;
      const conditions = [
        ...(got.object.status?.conditions ?? []).filter((c) => c.type !== 'Ready'),
        { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message, lastHeartbeatTime: now, lastTransitionTime },
      ];
      api.patch(this.client.identity, 'nodes', undefined, this.nodeName, 'merge', { status: { conditions } }, { subresource: 'status' });
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
    }
  }

  /** The kubelet's node status says Ready again (the node lifecycle controller then lifts its taints). */
  private reportReady(): void {
    const api = this.client.server;
    const got = api.get('nodes', undefined, this.nodeName);
    if (!got.ok) return;
    const now = toTime(this.clock.now());
    const ready = got.object.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status === 'True') return;
    const conditions = [
      ...(got.object.status?.conditions ?? []).filter((c) => c.type !== 'Ready'),
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
    ];
    api.patch(this.client.identity, 'nodes', undefined, this.nodeName, 'merge', { status: { conditions } }, { subresource: 'status' });
  }
}

import type { ApiClient } from '../../client/client';
import { Unreachable } from '../../client/client';
import { toTime } from '../../apimachinery/object';
import type { Lease, Node } from '../../apimachinery/types';
import type { Scheduler, TimerHandle } from '../../foundation/clock';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { NODE_LEASE_NAMESPACE } from '../../helpers/well-known';
import { Loop } from '../../foundation/loop';
import { ANN_CONTROLLER_MANAGED_ATTACH_DETACH } from '../../helpers/volume-util';

/** The machine every simulated node is: linux/amd64 (the architecture label a kubelet sets from GOARCH). */
const NODE_ARCH = 'amd64';
/**
 * R247 — the machine's capacity as cAdvisor reports it (setters.go MachineInfo): 4 CPUs, 16 GiB of
 * memory, a 100 GiB root filesystem, no huge pages.
 */
const MACHINE_CAPACITY = {
  cpu: '4',
  'ephemeral-storage': '104857600Ki',
  'hugepages-1Gi': '0',
  'hugepages-2Mi': '0',
  memory: '16777216Ki',
};
/**
 * Allocatable (cm.GetNodeAllocatableReservation): capacity less the default hard eviction
 * thresholds — memory.available 100Mi (16777216Ki − 102400Ki) and nodefs.available 10 % of the
 * filesystem (a quantity that is no longer whole Ki, printed in bytes).
 */
const MACHINE_ALLOCATABLE = {
  cpu: '4',
  'ephemeral-storage': '96636764160',
  'hugepages-1Gi': '0',
  'hugepages-2Mi': '0',
  memory: '16674816Ki',
};

const SETTERS = 'pkg/kubelet/nodestatus/setters.go MemoryPressureCondition';

/** pkg/kubelet/nodelease: the kubelet renews its Lease every 10 s (renewInterval = 0.25 × 40 s lease duration). */
export const LEASE_RENEW_INTERVAL_MS = 10_000;
export const LEASE_DURATION_SECONDS = 40;

/** KubeletConfiguration maxPods default. */
export const MAX_PODS = 110;

/**
 * nodestatus.go VersionInfo and MachineInfo: the kubelet's own version (the modelled release, at its
 * first patch, as /version reports it), kube-proxy's (the same, written until
 * DisableNodeKubeProxyVersion turns it off: v1.33 on, KEP-4004), and the machine: a kind-like
 * node (Debian, containerd) whose ids are derived from its name, so runs stay deterministic.
 */
export function nodeInfo(nodeName: string, release: Release): NonNullable<NonNullable<Node['status']>['nodeInfo']> {
  const version = `v1.${release.minor}.0`;
  const id = [...nodeName]
    .reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
    .toString(16)
    .padStart(8, '0');
  return {
    architecture: 'amd64',
    bootID: `${id}-0000-4000-8000-000000000001`,
    containerRuntimeVersion: 'containerd://2.0.3',
    kernelVersion: '6.1.0-terminating',
    kubeProxyVersion: release.enabled('DisableNodeKubeProxyVersion') ? '' : version,
    kubeletVersion: version,
    machineID: id.repeat(4),
    operatingSystem: 'linux',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    systemUUID: `${id}-0000-4000-8000-000000000000`,
  };
}

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
  /** syncNodeStatus every nodeStatusUpdateFrequency, run only when a condition may have changed. */
  private readonly statusLoop?: Loop;

  constructor(
    private readonly clock: Scheduler,
    private readonly client: ApiClient,
    private readonly nodeName: string,
    /** What the Node reports about its machine and kubelet (nodestatus setters NodeAddress and VersionInfo). */
    private readonly machine: { nodeIP: string; release: Release } = { nodeIP: '10.0.0.1', release: DEFAULT_RELEASE },
    /** The eviction manager's IsUnderMemoryPressure and the node Event recorder, for the MemoryPressure condition (K74). */
    private readonly pressure?: {
      nodeStatusUpdateFrequencyMs: number;
      isUnderMemoryPressure(): boolean;
      recordNodeEvent(type: 'Normal' | 'Warning', reason: string, message: string, source: string): void;
    },
  ) {
    if (pressure) this.statusLoop = new Loop(clock, pressure.nodeStatusUpdateFrequencyMs, () => this.syncNodeStatus());
  }

  /** The eviction manager's node conditions changed: the next node status update reports them. */
  nodeConditionsChanged(): void {
    this.statusLoop?.wake();
  }

  /**
   * syncNodeStatus → setters.go MemoryPressureCondition (K74): the MemoryPressure condition follows
   * the eviction manager — True with KubeletHasInsufficientMemory, False with KubeletHasSufficientMemory
   * — with a Normal NodeHasInsufficientMemory / NodeHasSufficientMemory Event on each transition.
   * (Registration here reports only Ready, so a node that never was under pressure has no
   * MemoryPressure condition; upstream reports it False from the start. Heartbeat-only status
   * updates are not modelled: the Lease is the heartbeat.)
   */
  private syncNodeStatus(): void {
    if (!this.pressure) return;
    try {
      const api = this.client.server;
      const got = api.get('nodes', undefined, this.nodeName);
      if (!got.ok) return;
      const under = this.pressure.isUnderMemoryPressure();
      const current = got.object.status?.conditions?.find((c) => c.type === 'MemoryPressure');
      const status = under ? 'True' : 'False';
      if (current ? current.status === status : !under) return;
      const now = toTime(this.clock.now());
      const condition = under
        ? {
            type: 'MemoryPressure',
            status,
            reason: 'KubeletHasInsufficientMemory',
            message: 'kubelet has insufficient memory available',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          }
        : {
            type: 'MemoryPressure',
            status,
            reason: 'KubeletHasSufficientMemory',
            message: 'kubelet has sufficient memory available',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          };
      // The setters run MemoryPressure before Ready: the condition comes first in the list.
      const conditions = [
        condition,
        ...(got.object.status?.conditions ?? []).filter((c) => c.type !== 'MemoryPressure'),
      ];
      this.client.patch(
        'nodes',
        undefined,
        this.nodeName,
        'merge',
        { status: { conditions } },
        { subresource: 'status' },
      );
      const event = under ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory';
      this.pressure.recordNodeEvent(
        'Normal',
        event,
        `Node ${this.nodeName} status is now: ${event}`,
        `${SETTERS} → kubelet_node_status.go recordNodeStatusEvent`,
      );
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
    }
  }

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
    this.statusLoop?.stop();
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
    const now = toTime(this.clock.now());
    const node: Node = {
      // R247 — kubelet_node_status.go initialNode: the hostname, OS and architecture labels, the
      // stable ones and their beta twins (kubeletapis.LabelOS/LabelArch), as a linux/amd64 kubelet sets them.
      metadata: {
        name: this.nodeName,
        // P22 — initialNode: with enableControllerAttachDetach (KubeletConfiguration default true;
        // the kubelet's own attach and detach, when it is false, are not modelled) the attach/detach
        // controller is told to manage this node's volumes.
        annotations: { [ANN_CONTROLLER_MANAGED_ATTACH_DETACH]: 'true' },
        labels: {
          'beta.kubernetes.io/arch': NODE_ARCH,
          'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': NODE_ARCH,
          'kubernetes.io/hostname': this.nodeName,
          'kubernetes.io/os': 'linux',
        },
      },
      spec: {},
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
        addresses: [
          { type: 'InternalIP', address: this.machine.nodeIP },
          { type: 'Hostname', address: this.nodeName },
        ],
        nodeInfo: nodeInfo(this.nodeName, this.machine.release),
        // setters.go MachineInfo: the machine's capacity (R247: MACHINE below) and maxPods
        // (KubeletConfiguration default 110); allocatable is capacity less the hard eviction
        // thresholds (no kube-/system-reserved by default).
        capacity: { ...MACHINE_CAPACITY, pods: String(MAX_PODS) },
        allocatable: { ...MACHINE_ALLOCATABLE, pods: String(MAX_PODS) },
      },
    };
    // A kubelet that restarts finds its Node already there (AlreadyExists) and keeps it.
    this.client.create('nodes', undefined, node);
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
      const r = this.client.update('leases', NODE_LEASE_NAMESPACE, {
        ...lease,
        spec: { ...lease.spec, renewTime },
      });
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
      const created = this.client.create('leases', NODE_LEASE_NAMESPACE, lease);
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
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message,
          lastHeartbeatTime: now,
          lastTransitionTime,
        },
      ];
      this.client.patch(
        'nodes',
        undefined,
        this.nodeName,
        'merge',
        { status: { conditions } },
        { subresource: 'status' },
      );
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
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
    ];
    this.client.patch(
      'nodes',
      undefined,
      this.nodeName,
      'merge',
      { status: { conditions } },
      { subresource: 'status' },
    );
  }
}

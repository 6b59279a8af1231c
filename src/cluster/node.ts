import type { ApiServer } from '../apiserver/apiserver';
import type { Clock } from '../foundation/clock';
import { DEFAULT_KUBELET_CONFIG, Kubelet, type KubeletConfig } from '../components/kubelet/kubelet';
import type { MachineState } from '../components/kubelet/machine-state';
import { NodeStatusReporter } from '../components/kubelet/node-status';
import { EvictionManager } from '../components/kubelet/eviction/eviction-manager';
import type { KubeletKillHost } from '../components/kubelet/kill-host';
import type { PodStats } from '../components/kubelet/eviction/helpers';
import { formatQuantity } from '../components/kubelet/eviction/quantity';
import { NodeShutdownManager, type ShutdownConfig } from '../components/kubelet/nodeshutdown';
import type { Pod } from '../apimachinery/types';
import { ContainerRuntime, DEFAULT_BEHAVIOUR, type ContainerBehaviour } from '../components/kubelet/runtime';
import {
  DEFAULT_VOLUME_CONFIG,
  VolumeManager,
  type VolumeBehaviour,
  type VolumeManagerConfig,
} from '../components/kubelet/volume-manager';
import type { Timeline } from '../foundation/timeline/timeline';

export interface NodeConfig {
  kubelet: KubeletConfig;
  volumes: VolumeManagerConfig;
}

export const DEFAULT_NODE_CONFIG: NodeConfig = { kubelet: DEFAULT_KUBELET_CONFIG, volumes: DEFAULT_VOLUME_CONFIG };

/**
 * One machine: its container runtime and mounts (which survive kubelet restarts), the kubelet
 * process running on it, and whether its network reaches the apiserver.
 */
export class SimNode {
  readonly runtime: ContainerRuntime;
  readonly volumes: VolumeManager;
  kubelet: Kubelet;
  /** The running kubelet's Node registration and Lease heartbeats (they die with the process). */
  private nodeStatus: NodeStatusReporter;
  /** The running kubelet's node shutdown manager (K51). */
  shutdownManager: NodeShutdownManager;
  /** The running kubelet's eviction manager (K71). */
  evictionManager!: EvictionManager;
  /**
   * The machine's memory under pressure: memory.available is this minus the working sets of the
   * containers running now (so an eviction frees what its pod used); undefined: plenty of memory.
   */
  private memoryBase?: number;
  reachable = true;
  /** The machine has powered off after a shutdown: its kubelet is gone for good. */
  poweredOff = false;
  /** When the node lost the apiserver (for "what still blocks"). */
  unreachableSince?: number;
  /**
   * Scenario-set behaviours of containers and volumes, keyed `UID name`: they belong to one pod (a
   * later pod of the same name is another pod, with nothing set).
   */
  readonly containerBehaviours = new Map<string, ContainerBehaviour>();
  readonly volumeBehaviours = new Map<string, VolumeBehaviour>();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    readonly name: string,
    readonly config: NodeConfig = DEFAULT_NODE_CONFIG,
    /** What the machine already runs (a resumed cluster, src/planning/restore/): the first kubelet finds it. */
    machine?: MachineState,
  ) {
    this.runtime = new ContainerRuntime(
      clock,
      timeline,
      name,
      (uid, c) => this.containerBehaviours.get(`${uid} ${c}`) ?? DEFAULT_BEHAVIOUR,
    );
    this.volumes = new VolumeManager(clock, timeline, name, config.volumes, (uid, v) =>
      this.volumeBehaviours.get(`${uid} ${v}`),
    );
    for (const [k, b] of machine?.containerBehaviours ?? []) this.containerBehaviours.set(k, b);
    for (const [k, b] of machine?.volumeBehaviours ?? []) this.volumeBehaviours.set(k, b);
    const kills = new Map<string, number>();
    for (const p of machine?.pods ?? []) {
      // A pod whose status shows no container yet is still being set up: the kubelet's SyncPod creates its sandbox.
      if (p.containers.length === 0) continue;
      if (p.sandboxTeardownError !== undefined) this.runtime.sandboxTeardownErrors.set(p.uid, p.sandboxTeardownError);
      this.runtime.restorePod(p.uid, p.podRef, p.containers);
      if (p.volumes.length > 0) this.volumes.mountPod(p.uid, p.podRef, p.volumes);
      if (p.killDeadlineMs !== undefined) kills.set(p.uid, p.killDeadlineMs);
    }
    if (machine?.unreachableSince !== undefined) {
      // Cut off before its kubelet starts: nothing it would say (a Ready status, a lease) reaches the apiserver.
      this.reachable = false;
      this.unreachableSince = machine.unreachableSince;
    }
    this.kubelet = this.newKubelet(kills);
    this.shutdownManager = this.newShutdownManager(config.kubelet);
    this.nodeStatus = this.startKubelet();
  }

  /**
   * Something outside the pods (a system daemon, the kernel's caches) takes the node's memory until
   * `availableBytes` is left now; what the pods use is part of it, so each pod that stops gives its
   * working set back. The eviction manager notices at its next synchronize (every 10 s).
   */
  comeUnderMemoryPressure(availableBytes: number): void {
    this.assertPoweredOn('come under memory pressure');
    this.memoryBase = availableBytes + this.podsWorkingSet();
    this.timeline.record(
      'kubelet',
      `node ${this.name} is under memory pressure: memory.available=${formatQuantity(availableBytes)}`,
      'memory taken outside the pods (simulated)',
      { actor: this.name },
    );
    this.evictionManager.wake();
  }

  /** The memory taken outside the pods is given back: plenty of memory again. */
  relieveMemoryPressure(): void {
    this.memoryBase = undefined;
    this.timeline.record(
      'kubelet',
      `node ${this.name} has plenty of memory again`,
      'memory given back outside the pods (simulated)',
      { actor: this.name },
    );
    this.evictionManager.wake();
  }

  /** The summary API's memory.available (undefined: plenty). */
  memoryAvailable(): number | undefined {
    return this.memoryBase === undefined ? undefined : this.memoryBase - this.podsWorkingSet();
  }

  /** The summary API's stats of a pod: its running containers' working sets (undefined: the runtime has no sandbox for it). */
  podStats(pod: Pod): PodStats | undefined {
    const uid = pod.metadata.uid!;
    const sandbox = this.runtime.sandbox(uid);
    if (!sandbox) return undefined;
    const containers: PodStats['containers'] = [];
    for (const c of sandbox.containers.values()) {
      if (c.state === 'running')
        containers.push({
          name: c.name,
          workingSetBytes: this.containerBehaviours.get(`${uid} ${c.name}`)?.memoryBytes ?? 0,
        });
    }
    return { containers };
  }

  private podsWorkingSet(): number {
    let sum = 0;
    for (const sandbox of this.runtime.allSandboxes()) {
      for (const c of sandbox.containers.values())
        if (c.state === 'running') sum += this.containerBehaviours.get(`${sandbox.uid} ${c.name}`)?.memoryBytes ?? 0;
    }
    return sum;
  }

  /**
   * systemd-logind announces a shutdown (K51): the kubelet's shutdown manager kills the pods by
   * priority group, then releases its inhibitor lock; the machine powers off
   * `shutdownPowerOffDelayMs` later: the kubelet process, its heartbeats and its network are gone.
   * `periods` stands in for a kubelet configured with other shutdown grace periods than the node's.
   */
  shutdown(periods?: ShutdownConfig): void {
    this.assertPoweredOn('shut down');
    if (this.shutdownManager.shutdownStatus()) throw new Error(`node "${this.name}" is already shutting down`);
    if (periods) this.shutdownManager = this.newShutdownManager(periods);
    this.shutdownManager.shutdown(() => {
      this.clock.after(this.config.kubelet.shutdownPowerOffDelayMs, () => this.powerOff());
    });
  }

  private powerOff(): void {
    if (this.poweredOff) return;
    this.timeline.record(
      'kubelet',
      `node ${this.name} powered off`,
      'systemd poweroff after the kubelet released its shutdown inhibitor lock (simulated)',
      { actor: this.name },
    );
    this.kubelet.stop();
    this.evictionManager.stop();
    this.nodeStatus.stop();
    this.setReachable(false);
    this.poweredOff = true;
  }

  /**
   * The machine loses power (no shutdown: nothing is signalled, nothing is written): every process
   * on it stops at once — containers, the kubelet, its heartbeats — and its network is gone. The
   * node lifecycle controller sees it only as missing heartbeats; its pods stay in the API.
   */
  losePower(): void {
    this.assertPoweredOn('lose power');
    this.timeline.record(
      'kubelet',
      `node ${this.name} lost power: every process on it is gone, nothing was signalled`,
      'power loss (simulated)',
      { actor: this.name },
    );
    this.kubelet.stop();
    this.nodeStatus.stop();
    this.setReachable(false);
    this.runtime.powerLoss();
    this.poweredOff = true;
  }

  private assertPoweredOn(what: string): void {
    if (this.poweredOff) throw new Error(`node "${this.name}" has powered off after a shutdown: it cannot ${what}`);
  }

  /** The kubelet process restarts: no pod-worker state survives; the runtime keeps running (K45). */
  restartKubelet(): void {
    this.assertPoweredOn('restart its kubelet');
    this.kubelet.stop();
    this.evictionManager.stop();
    this.timeline.record('kubelet', `kubelet stopped on node ${this.name}`, 'pkg/kubelet/kubelet.go (process exit)', {
      actor: this.name,
    });
    this.kubelet = this.newKubelet();
    this.shutdownManager = this.newShutdownManager(this.config.kubelet);
    this.nodeStatus = this.startKubelet();
  }

  setReachable(reachable: boolean): void {
    if (reachable === this.reachable) return;
    if (reachable) this.assertPoweredOn('reach the apiserver again');
    this.reachable = reachable;
    if (!reachable) {
      this.unreachableSince = this.clock.now();
      this.timeline.record('kubelet', `node ${this.name} cannot reach the apiserver`, 'network partition (simulated)', {
        actor: this.name,
      });
      this.kubelet.disconnected();
    } else {
      this.unreachableSince = undefined;
      this.timeline.record(
        'kubelet',
        `node ${this.name} reaches the apiserver again`,
        'network partition (simulated)',
        { actor: this.name },
      );
      this.kubelet.reconnected();
      this.nodeStatus.reconnected();
    }
  }

  /** The kubelet process starts: its node status reporter, its eviction manager (whose state starts empty), then its sync loop. */
  private startKubelet(): NodeStatusReporter {
    const kubelet = this.kubelet;
    const reporter = new NodeStatusReporter(
      kubelet.scheduler,
      kubelet.client,
      this.name,
      { nodeIP: this.config.kubelet.nodeIP, release: this.config.kubelet.release },
      {
        nodeStatusUpdateFrequencyMs: kubelet.settings.nodeStatusUpdateFrequencyMs,
        isUnderMemoryPressure: () => this.evictionManager.isUnderMemoryPressure(),
        recordNodeEvent: (type, reason, message, source) => kubelet.recordNodeEvent(type, reason, message, source),
      },
    );
    this.evictionManager = new EvictionManager(
      {
        ...this.killHost(kubelet),
        podIsFinished: (uid) => kubelet.podIsFinished(uid),
        memoryAvailable: () => this.memoryAvailable(),
        stats: (pod) => this.podStats(pod),
        recordPodEvent: (pod, type, reason, message, source, annotations) =>
          kubelet.recordPodEvent(pod, type, reason, message, source, annotations),
        nodeConditionsChanged: () => reporter.nodeConditionsChanged(),
      },
      kubelet.settings.eviction,
      kubelet.scheduler.now(),
    );
    reporter.start();
    kubelet.start();
    // A restarted kubelet finds the memory as it is.
    if (this.memoryBase !== undefined) this.evictionManager.wake();
    return reporter;
  }

  /** What the kubelet's own killers (node shutdown, eviction) are given of it. */
  private killHost(kubelet: Kubelet): KubeletKillHost {
    return {
      scheduler: kubelet.scheduler,
      release: kubelet.settings.release,
      timeline: this.timeline,
      nodeName: this.name,
      getActivePods: () => kubelet.getActivePods(),
      killPodNow: (pod, evict, grace, statusFunc, done) => kubelet.killPodNow(pod, evict, grace, statusFunc, done),
      recordNodeEvent: (type, reason, message, source) => kubelet.recordNodeEvent(type, reason, message, source),
    };
  }

  private newShutdownManager(periods: ShutdownConfig): NodeShutdownManager {
    const kubelet = this.kubelet;
    return new NodeShutdownManager(
      {
        ...this.killHost(kubelet),
        podVolumesExist: (uid) => kubelet.podVolumesExist(uid),
        syncNodeStatus: () => {
          const err = this.shutdownManager.shutdownStatus();
          if (err) this.nodeStatus.reportNotReady(err);
        },
      },
      {
        shutdownGracePeriodSeconds: periods.shutdownGracePeriodSeconds,
        shutdownGracePeriodCriticalPodsSeconds: periods.shutdownGracePeriodCriticalPodsSeconds,
      },
    );
  }

  /** `resumedKills`: only the first kubelet of a resumed node has been killing pods (a restarted one starts over, K45). */
  private newKubelet(resumedKills?: ReadonlyMap<string, number>): Kubelet {
    return new Kubelet(
      this.clock,
      this.timeline,
      this.name,
      this.api,
      () => this.reachable,
      this.runtime,
      this.volumes,
      this.config.kubelet,
      resumedKills,
    );
  }
}

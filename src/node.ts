import type { ApiServer } from './apiserver/apiserver';
import type { Clock } from './clock';
import { DEFAULT_KUBELET_CONFIG, Kubelet, type KubeletConfig } from './kubelet/kubelet';
import { NodeStatusReporter } from './kubelet/node-status';
import { NodeShutdownManager, type ShutdownConfig } from './kubelet/nodeshutdown';
import { ContainerRuntime, DEFAULT_BEHAVIOUR, type ContainerBehaviour } from './kubelet/runtime';
import { DEFAULT_VOLUME_CONFIG, VolumeManager, type VolumeBehaviour, type VolumeManagerConfig } from './kubelet/volume-manager';
import type { Timeline } from './timeline/timeline';

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
  ) {
    this.runtime = new ContainerRuntime(clock, timeline, name, (uid, c) => this.containerBehaviours.get(`${uid} ${c}`) ?? DEFAULT_BEHAVIOUR);
    this.volumes = new VolumeManager(clock, timeline, name, config.volumes, (uid, v) => this.volumeBehaviours.get(`${uid} ${v}`));
    this.kubelet = this.newKubelet();
    this.shutdownManager = this.newShutdownManager(config.kubelet);
    this.nodeStatus = this.startKubelet();
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
    this.timeline.record('kubelet', `node ${this.name} powered off`, 'systemd poweroff after the kubelet released its shutdown inhibitor lock (simulated)', { actor: this.name });
    this.kubelet.stop();
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
    this.timeline.record('kubelet', `node ${this.name} lost power: every process on it is gone, nothing was signalled`, 'power loss (simulated)', { actor: this.name });
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
    this.timeline.record('kubelet', `kubelet stopped on node ${this.name}`, 'pkg/kubelet/kubelet.go (process exit)', { actor: this.name });
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
      this.timeline.record('kubelet', `node ${this.name} cannot reach the apiserver`, 'network partition (simulated)', { actor: this.name });
      this.kubelet.disconnected();
    } else {
      this.unreachableSince = undefined;
      this.timeline.record('kubelet', `node ${this.name} reaches the apiserver again`, 'network partition (simulated)', { actor: this.name });
      this.kubelet.reconnected();
      this.nodeStatus.reconnected();
    }
  }

  private startKubelet(): NodeStatusReporter {
    const reporter = new NodeStatusReporter(this.kubelet.scheduler, this.kubelet.client, this.name);
    reporter.start();
    this.kubelet.start();
    return reporter;
  }

  private newShutdownManager(periods: ShutdownConfig): NodeShutdownManager {
    const kubelet = this.kubelet;
    return new NodeShutdownManager(
      {
        scheduler: kubelet.scheduler,
        release: kubelet.settings.release,
        timeline: this.timeline,
        nodeName: this.name,
        getActivePods: () => kubelet.getActivePods(),
        killPodNow: (pod, evict, grace, statusFunc, done) => kubelet.killPodNow(pod, evict, grace, statusFunc, done),
        podVolumesExist: (uid) => kubelet.podVolumesExist(uid),
        syncNodeStatus: () => {
          const err = this.shutdownManager.shutdownStatus();
          if (err) this.nodeStatus.reportNotReady(err);
        },
        recordNodeEvent: (type, reason, message, source) => kubelet.recordNodeEvent(type, reason, message, source),
      },
      { shutdownGracePeriodSeconds: periods.shutdownGracePeriodSeconds, shutdownGracePeriodCriticalPodsSeconds: periods.shutdownGracePeriodCriticalPodsSeconds },
    );
  }

  private newKubelet(): Kubelet {
    return new Kubelet(this.clock, this.timeline, this.name, this.api, () => this.reachable, this.runtime, this.volumes, this.config.kubelet);
  }
}

import type { ClientIdentity } from '../apiserver/apiserver';
import { ApiClient, Unreachable } from '../apiserver/client';
import { toTime } from '../apiserver/object';
import type { Event, Pod } from '../apiserver/types';
import { ProcessScheduler, type Clock } from '../clock';
import type { Timeline } from '../timeline/timeline';
import { PodConfig, type PodUpdate } from './config-source';
import { KubeRuntimeManager } from './kuberuntime';
import { Loop } from './loop';
import { PodWorkers, type PodSyncStatus } from './pod-workers';
import type { ContainerRuntime } from './runtime';
import { generateAPIPodStatus } from './status';
import { StatusManager } from './status-manager';
import { Ticker } from './ticker';
import type { VolumeManager } from './volume-manager';

/** The kubelet's timing constants (kubelet-semantics.md §5); a scenario may change them. */
export interface KubeletConfig {
  /** genericPlegRelistPeriod: the pod cache is refreshed every second (K18). */
  plegRelistPeriodMs: number;
  /** syncLoop's syncTicker (K19). */
  syncPeriodMs: number;
  /** housekeepingPeriod (K43). */
  housekeepingPeriodMs: number;
  /** status manager syncPeriod (K35). */
  statusSyncPeriodMs: number;
  /** pod worker backOffPeriod after a failed sync (K19). */
  backOffPeriodMs: number;
  /** ContainerGCPeriod: exited containers and sandboxes of deleted pods are removed (K41). */
  containerGCPeriodMs: number;
  /** SyncTerminatingRuntimePod: grace for runtime pods the kubelet has no config for (K30). */
  orphanKillGracePeriodSeconds: number;
}

export const DEFAULT_KUBELET_CONFIG: KubeletConfig = {
  plegRelistPeriodMs: 1000,
  syncPeriodMs: 1000,
  housekeepingPeriodMs: 2000,
  statusSyncPeriodMs: 10_000,
  backOffPeriodMs: 10_000,
  containerGCPeriodMs: 60_000,
  orphanKillGracePeriodSeconds: 1,
};

/**
 * One kubelet process (pkg/kubelet/kubelet.go): the syncLoop's handlers for config ops, the pod
 * workers' three sync functions, housekeeping and container GC. It talks to the apiserver only
 * through its client; the container runtime and the volume mounts belong to the node and outlive
 * the process.
 */
export class Kubelet {
  readonly scheduler: ProcessScheduler;
  readonly client: ApiClient;
  readonly workers: PodWorkers;
  readonly statusManager: StatusManager;
  private readonly config: PodConfig;
  private readonly kuberuntime: KubeRuntimeManager;
  private readonly pleg: Ticker;
  private readonly syncTicker: Ticker;
  private readonly housekeeping: Loop;
  private readonly containerGC: Loop;
  /** The pod manager: the pods config currently says this node runs, by uid. */
  private readonly podManager = new Map<string, Pod>();
  private eventCounter = 0;

  constructor(
    clock: Clock,
    private readonly timeline: Timeline,
    readonly nodeName: string,
    api: ApiClient['api'],
    connected: () => boolean,
    private readonly runtime: ContainerRuntime,
    private readonly volumes: VolumeManager,
    readonly settings: KubeletConfig,
  ) {
    this.scheduler = new ProcessScheduler(clock);
    const identity: ClientIdentity = { name: `kubelet/${nodeName}`, component: 'kubelet' };
    this.client = new ApiClient(api, identity, connected);
    this.pleg = new Ticker(this.scheduler, settings.plegRelistPeriodMs);
    this.syncTicker = new Ticker(this.scheduler, settings.syncPeriodMs);
    this.housekeeping = new Loop(this.scheduler, settings.housekeepingPeriodMs, () => this.handlePodCleanups());
    this.containerGC = new Loop(this.scheduler, settings.containerGCPeriodMs, () => this.garbageCollectContainers());
    this.kuberuntime = new KubeRuntimeManager(this.scheduler, runtime, { event: (pod, c, type, reason, message) => this.recordEvent(pod, c, type, reason, message) });
    this.statusManager = new StatusManager(this.scheduler, timeline, this.client, nodeName, (uid) => !this.workers.isTerminated(uid), settings.statusSyncPeriodMs);
    this.workers = new PodWorkers(
      this.scheduler,
      timeline,
      nodeName,
      { backOffPeriodMs: settings.backOffPeriodMs },
      {
        syncPod: (pod, done) => this.syncPod(pod, done),
        syncTerminatingPod: (pod, grace, done) => this.syncTerminatingPod(pod, grace, done),
        syncTerminatedPod: (pod, done) => this.syncTerminatedPod(pod, done),
      },
      (t, ready) => this.pleg.afterTickNewerThan(t, ready),
      (t, fn) => this.syncTicker.atTickFrom(t, fn),
    );
    this.workers.onTerminated = (s) => this.onWorkerTerminated(s);
    runtime.onContainerExit = this.scheduler.guard((uid: string) => this.onContainerExit(uid));
    this.config = new PodConfig(this.client, timeline, nodeName, (updates) => this.syncLoopIteration(updates));
  }

  /** Run: connect the config source (LIST + WATCH) and look for leftovers from an earlier process. */
  start(): void {
    this.timeline.record('kubelet', `kubelet started on node ${this.nodeName}`, 'pkg/kubelet/kubelet.go Run', { actor: this.nodeName });
    this.config.start();
    if (this.runtime.allSandboxes().some((s) => !this.podManager.has(s.uid))) this.housekeeping.wake();
  }

  /** The process exits: its goroutines and timers vanish, the runtime and mounts stay. */
  stop(): void {
    this.config.stop();
    this.kuberuntime.abandon();
    this.scheduler.kill();
  }

  /** The node lost its connection to the apiserver. */
  disconnected(): void {
    this.config.disconnect();
  }

  /** The node can reach the apiserver again: the reflector reconnects, pending statuses are retried. */
  reconnected(): void {
    this.config.reconnect();
    this.statusManager.resync();
  }

  /** Pods the kubelet knows about, for "what still blocks" messages. */
  podWorkerStates(): { name: string; state: string }[] {
    return this.workers.all().map((s) => ({ name: s.pod.metadata.name!, state: s.finished ? 'finished' : s.workType }));
  }

  // ---- syncLoopIteration: config ops → Handle* (K11) ----

  private syncLoopIteration(updates: PodUpdate[]): void {
    for (const { op, pod } of updates) {
      const uid = pod.metadata.uid!;
      switch (op) {
        case 'ADD':
          // HandlePodAdditions: pod manager, admission (always admitted here), then the worker.
          this.podManager.set(uid, pod);
          this.workers.updatePod({ updateType: 'create', pod });
          break;
        case 'UPDATE':
        case 'DELETE':
          // HandlePodUpdates: a graceful delete is just an update (K11, K12).
          this.podManager.set(uid, pod);
          this.workers.updatePod({ updateType: 'update', pod });
          break;
        case 'REMOVE':
          // HandlePodRemoves → deletePod: a kill without options; cleanup is left to housekeeping (K13).
          this.podManager.delete(uid);
          this.workers.updatePod({ updateType: 'kill', pod });
          this.housekeeping.wake();
          break;
        case 'RECONCILE':
          // HandlePodReconcile: only the pod manager's copy changes for a deletion.
          this.podManager.set(uid, pod);
          break;
      }
    }
  }

  // ---- the pod worker's sync functions ----

  /** SyncPod for a pod to run: sandbox and containers started, volumes mounted, status Running. */
  private syncPod(pod: Pod, done: (err?: string, isTerminal?: boolean) => void): void {
    const uid = pod.metadata.uid!;
    if (!this.runtime.sandbox(uid)) {
      const names = [...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(pod.spec?.containers ?? [])].map((c) => c.name);
      this.runtime.startPod(uid, `pods/${pod.metadata.name}`, names);
      this.volumes.mountPod(uid, `pods/${pod.metadata.name}`, (pod.spec?.volumes ?? []).map((v) => v.name));
    }
    const status = generateAPIPodStatus(pod, this.runtime.sandbox(uid), false, this.scheduler.now());
    this.statusManager.setPodStatus(pod, status);
    done(undefined, status.phase === 'Succeeded' || status.phase === 'Failed');
  }

  /** PLEG: a container died; at the next relist the pod is synced again (ContainerDied event). */
  private onContainerExit(uid: string): void {
    const pod = this.podManager.get(uid);
    const worker = this.workers.status(uid);
    if (!pod || !worker || worker.workType !== 'sync') return;
    this.pleg.afterTickNewerThan(this.scheduler.now(), () => {
      const latest = this.podManager.get(uid);
      if (latest) this.workers.updatePod({ updateType: 'sync', pod: latest });
    });
  }

  /**
   * SyncTerminatingPod (K31): report the current status, kill every container with the effective
   * grace period, check nothing runs any more, report the stopped status (its terminal phase is
   * held back by the status manager until the worker is terminated, K33).
   */
  private syncTerminatingPod(pod: Pod, gracePeriod: number, done: (err?: string) => void): void {
    const uid = pod.metadata.uid!;
    this.statusManager.setPodStatus(pod, generateAPIPodStatus(pod, this.runtime.sandbox(uid), false, this.scheduler.now()));
    this.kuberuntime.killPod(pod, gracePeriod, () => {
      if (this.runtime.hasRunningContainers(uid)) return done('detected running containers after a successful KillPod, CRI violation');
      this.statusManager.setPodStatus(pod, generateAPIPodStatus(pod, this.runtime.sandbox(uid), true, this.scheduler.now()));
      done();
    });
  }

  /**
   * SyncTerminatedPod (K40): push the final status (its terminal phase lands now), wait for the
   * volumes to unmount, then (cgroup gone) TerminatePod — which lets the status manager send the
   * final DELETE (K36).
   */
  private syncTerminatedPod(pod: Pod, done: (err?: string) => void): void {
    const uid = pod.metadata.uid!;
    this.statusManager.setPodStatus(pod, generateAPIPodStatus(pod, this.runtime.sandbox(uid), true, this.scheduler.now()));
    this.volumes.waitForUnmount(uid, (err) => {
      if (err) return done(err);
      this.statusManager.terminatePod(pod);
      done();
    });
  }

  private onWorkerTerminated(s: PodSyncStatus): void {
    this.volumes.podTerminated(s.uid);
    this.containerGC.wake();
    if (!this.podManager.has(s.uid)) this.housekeeping.wake();
  }

  // ---- housekeeping (K43) and container GC (K41) ----

  /**
   * HandlePodCleanups: workers of pods gone from config become orphans and, once finished, are
   * forgotten (status and volume bookkeeping dropped); runtime pods no worker knows are killed with
   * a 1 s grace (SyncTerminatingRuntimePod, K30).
   */
  private handlePodCleanups(): void {
    let again = false;
    for (const s of this.workers.all()) {
      if (this.podManager.has(s.uid)) continue;
      this.workers.markOrphan(s.uid);
      if (s.finished) {
        if (!this.volumes.forget(s.uid)) {
          again = true;
          continue;
        }
        this.workers.forget(s.uid);
        this.statusManager.forget(s.uid);
        this.timeline.record('kubelet', `housekeeping removed worker pods/${s.pod.metadata.name}`, 'pkg/kubelet/kubelet_pods.go HandlePodCleanups → SyncKnownPods', { actor: this.nodeName });
      } else again = true;
    }
    for (const sandbox of this.runtime.allSandboxes()) {
      if (this.workers.status(sandbox.uid) || this.podManager.has(sandbox.uid)) continue;
      if (!this.runtime.hasRunningContainers(sandbox.uid)) continue;
      this.timeline.record('kubelet', `SyncTerminatingRuntimePod ${sandbox.podRef} gracePeriod=${this.settings.orphanKillGracePeriodSeconds}`, 'pkg/kubelet/kubelet.go SyncTerminatingRuntimePod', { actor: this.nodeName });
      const orphan = { metadata: { uid: sandbox.uid, name: sandbox.podRef.replace('pods/', '') }, spec: { containers: [] } } as Pod;
      this.kuberuntime.killPod(orphan, this.settings.orphanKillGracePeriodSeconds, () => this.containerGC.wake());
    }
    if (again) this.housekeeping.wake();
  }

  /** containerGC: remove the exited containers and sandbox of pods that are deleted and terminated. */
  private garbageCollectContainers(): void {
    for (const sandbox of this.runtime.allSandboxes()) {
      if (sandbox.state === 'ready' || this.runtime.hasRunningContainers(sandbox.uid)) continue;
      const worker = this.workers.status(sandbox.uid);
      if (worker && !(worker.finished && (worker.deleted || !this.podManager.has(sandbox.uid)))) {
        this.containerGC.wake();
        continue;
      }
      this.runtime.removePodSandbox(sandbox.uid);
    }
  }

  // ---- Kubernetes Events (record.EventRecorder) ----

  private recordEvent(pod: Pod, container: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const name = pod.metadata.name ?? '';
    this.timeline.record('events', `${reason} pods/${name}: ${message}`, 'pkg/kubelet/kuberuntime/kuberuntime_container.go recordContainerEvent', { actor: this.nodeName });
    this.eventCounter += 1;
    const now = toTime(this.scheduler.now());
    const event: Event = {
      metadata: { name: `${name}.${this.nodeName}.${this.eventCounter}`, namespace: pod.metadata.namespace ?? 'default' },
      involvedObject: { kind: 'Pod', apiVersion: 'v1', name, namespace: pod.metadata.namespace, uid: pod.metadata.uid, fieldPath: `spec.containers{${container}}` },
      reason,
      message,
      type,
      source: { component: 'kubelet', host: this.nodeName },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    try {
      this.client.server.create(this.client.identity, 'events', event.metadata.namespace, event);
    } catch (e) {
      // The recorder drops events it cannot deliver.
      if (!(e instanceof Unreachable)) throw e;
    }
  }
}

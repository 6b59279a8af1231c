import type { ClientIdentity } from '../../apiserver/apiserver';
import { ApiClient, Unreachable } from '../../client/client';
import { EventRecorder } from '../../client/event-recorder';
import type { Event, Pod, PodStatus } from '../../apimachinery/types';

type ObjectReference = Event['involvedObject'];
import { ProcessScheduler, type Clock } from '../../foundation/clock';
import type { Timeline } from '../../foundation/timeline/timeline';
import { ACTIVE_DEADLINE_SOURCE, ActiveDeadlineHandler, activeDeadline } from './active-deadline';
import { PodConfig, type PodUpdate } from './config-source';
import { KubeRuntimeManager } from './kuberuntime';
import { Loop } from '../../foundation/loop';
import { PodWorkers, type PodSyncStatus } from './pod-workers';
import type { ContainerRuntime } from './runtime';
import { Backoff } from './backoff';
import { type ContainerStartContext, killUnhealthyContainers, startContainers } from './container-start';
import { generateAPIPodStatus, isRegularInitContainer, type WaitingReason } from './status';
import { StatusManager } from './status-manager';
import { ProberManager } from './prober/prober-manager';
import type { ProbeResult, ProbeType } from './prober/worker';
import { Ticker } from './ticker';
import type { VolumeManager } from './volume-manager';
import { AttachedVolumes, podHasClaims } from './attached-volumes';
import { garbageCollectContainers, handlePodCleanups, isAdmittedPodTerminal } from './housekeeping';
import { killPodNow } from './kill-pod-now';
import type { KubeletConfig } from './kubelet-config';
import { containersToStart, onlySidecarsLeft } from './pod-actions';
import { resetAllContainers, restartingAll } from './restart-all';
import { resumeKillGrace } from './machine-state';
import { type RestartRuleGates, restartRuleGates } from '../../helpers/container-restart';

export { DEFAULT_KUBELET_CONFIG, type KubeletConfig } from './kubelet-config';

/**
 * One kubelet process (pkg/kubelet/kubelet.go): the syncLoop's handlers for config ops, the pod
 * workers' three sync functions, housekeeping and container GC. It talks to the apiserver only
 * through its client; the container runtime and the volume mounts belong to the node and outlive
 * the process.
 */
export class Kubelet {
  readonly scheduler: ProcessScheduler;
  readonly client: ApiClient;
  private readonly recorder: EventRecorder;
  readonly workers: PodWorkers;
  readonly statusManager: StatusManager;
  readonly probeManager: ProberManager;
  private readonly config: PodConfig;
  private readonly kuberuntime: KubeRuntimeManager;
  private readonly pleg: Ticker;
  private readonly syncTicker: Ticker;
  private readonly housekeeping: Loop;
  private readonly containerGC: Loop;
  /** Pods whose cgroup SyncTerminatedPod has removed (PodResourcesAreReclaimed asks, before v1.27). */
  private readonly podCgroupsRemoved = new Set<string>();
  /** image_manager.go backOff: failed pulls per pod and image (10 s doubling to 5 min); lost on restart like upstream's in-memory one. */
  private readonly imageBackOff = new Backoff();
  /** kubelet.go backOff (crash loops): per container of a pod, 10 s doubling to 5 min (K55). */
  private readonly crashLoopBackOff = new Backoff();
  /** What SyncPod's start of containers uses (container-start.ts). */
  private readonly containerStart: ContainerStartContext;
  /** kubelet.go reasonCache: why each container of a pod could not start at its last SyncPod (shown as its waiting reason). */
  private readonly reasonCache = new Map<string, Map<string, WaitingReason>>();
  /** The pod manager: the pods config currently says this node runs, by uid. */
  private readonly podManager = new Map<string, Pod>();
  /** The active deadline handler, the kubelet's pod sync (loop) handler (K70). */
  private readonly activeDeadline: ActiveDeadlineHandler;
  /** The deadline each pod with activeDeadlineSeconds has a sync-tick check waiting for, by uid. */
  private readonly deadlineChecks = new Map<string, number>();
  /** What this kubelet's release changes in generateAPIPodStatus, asked once (a release never changes). */
  private readonly statusGates: {
    trackGeneration: boolean;
    volumeMounts: boolean;
    podIsTerminalArgument: boolean;
    podHostIPs: boolean;
    podReadyToStartContainers: boolean;
    restartRules: RestartRuleGates;
  };
  /**
   * V47 — pods whose ready sandbox the status may report (PodReadyToStartContainers True): up to
   * v1.35 once a SyncPod starts with the sandbox in the pod cache, i.e. after the SyncPod that
   * created it (and pulled the images) has returned; from v1.36 (OnPodSandboxReady,
   * kubernetes#134660) as soon as the sandbox is up, before any image pull.
   */
  private readonly sandboxSeen = new Set<string>();
  /** The volume manager's PersistentVolumeClaim part: attach before mount, volumesInUse (P16). */
  readonly attached: AttachedVolumes;

  constructor(
    clock: Clock,
    private readonly timeline: Timeline,
    readonly nodeName: string,
    api: ApiClient['api'],
    connected: () => boolean,
    private readonly runtime: ContainerRuntime,
    private readonly volumes: VolumeManager,
    readonly settings: KubeletConfig,
    /**
     * A resumed node's kills in progress (src/components/kubelet/machine-state.ts): pod uid → the SIGKILL
     * deadline (its deletionTimestamp). This kubelet stands for one that has run since the DELETE.
     */
    private readonly resumedKills: ReadonlyMap<string, number> = new Map(),
  ) {
    this.scheduler = new ProcessScheduler(clock);
    this.containerStart = {
      runtime,
      crashLoopBackOff: this.crashLoopBackOff,
      now: () => this.scheduler.now(),
      recordEvent: (pod, c, reason, message, source) => this.recordEvent(pod, c, 'Warning', reason, message, source),
      plegEvent: (uid) => this.plegEvent(uid),
      probeResult: (uid, name, type) => this.probeManager.result(uid, name, type),
      killing: (pod, c, message, source) => this.recordEvent(pod, c, 'Normal', 'Killing', message, source),
      stopContainer: (uid, name, grace) =>
        this.runtime.stopContainer(
          uid,
          name,
          grace,
          this.scheduler.guard(() => this.plegEvent(uid)),
        ),
    };
    const { release } = settings;
    this.statusGates = {
      trackGeneration: release.enabled('PodObservedGenerationTracking'),
      volumeMounts: release.enabled('RecursiveReadOnlyMounts'),
      podIsTerminalArgument: release.atLeast(27),
      podHostIPs: release.enabled('PodHostIPs'),
      podReadyToStartContainers: release.enabled('PodReadyToStartContainersCondition'),
      restartRules: restartRuleGates(release),
    };
    const identity: ClientIdentity = { name: `kubelet/${nodeName}`, component: 'kubelet' };
    this.client = new ApiClient(api, identity, connected);
    this.recorder = new EventRecorder(
      { component: 'kubelet', host: nodeName },
      nodeName,
      () => this.scheduler.now(),
      (event) => {
        try {
          this.client.create('events', event.metadata.namespace, event);
        } catch (e) {
          // The recorder drops events it cannot deliver.
          if (!(e instanceof Unreachable)) throw e;
        }
      },
    );
    this.attached = new AttachedVolumes(
      this.scheduler,
      timeline,
      nodeName,
      this.client,
      settings.release,
      (pod, reason, message, source) => this.recordEvent(pod, undefined, 'Warning', reason, message, source),
    );
    this.pleg = new Ticker(this.scheduler, settings.plegRelistPeriodMs);
    this.syncTicker = new Ticker(this.scheduler, settings.syncPeriodMs);
    this.housekeeping = new Loop(this.scheduler, settings.housekeepingPeriodMs, () => this.handlePodCleanups());
    this.containerGC = new Loop(this.scheduler, settings.containerGCPeriodMs, () =>
      garbageCollectContainers(this.runtime, this.workers),
    );
    this.kuberuntime = new KubeRuntimeManager(
      this.scheduler,
      runtime,
      { event: (pod, c, type, reason, message) => this.recordEvent(pod, c, type, reason, message) },
      settings.release,
    );
    this.statusManager = new StatusManager(
      this.scheduler,
      timeline,
      this.client,
      nodeName,
      (uid) => this.workers.couldHaveRunningContainers(uid),
      settings.statusSyncPeriodMs,
      (uid) => this.podManager.get(uid),
      {
        release: settings.release,
        podResourcesAreReclaimed: (uid, status) => this.podResourcesAreReclaimed(uid, status),
      },
    );
    this.workers = new PodWorkers(
      this.scheduler,
      timeline,
      nodeName,
      {
        backOffPeriodMs: settings.backOffPeriodMs,
        resyncIntervalMs: settings.syncFrequencyMs,
        release: settings.release,
      },
      {
        syncPod: (pod, done) => this.syncPod(pod, done),
        syncTerminatingPod: (pod, grace, done, podStatusFn) => this.syncTerminatingPod(pod, grace, done, podStatusFn),
        syncTerminatingRuntimePod: (pod, done) => this.syncTerminatingRuntimePod(pod, done),
        syncTerminatedPod: (pod, done) => this.syncTerminatedPod(pod, done),
      },
      (t, ready) => this.pleg.afterTickNewerThan(t, ready),
      (t, fn) => this.syncTicker.atTickFrom(t, fn),
      (uid) => !this.runtime.isRunningPod(uid),
    );
    this.probeManager = new ProberManager(this.scheduler, timeline, nodeName, {
      pod: (uid) => this.podManager.get(uid),
      status: (uid) => this.statusManager.getPodStatus(uid),
      restartRules: this.statusGates.restartRules,
      probe: (uid, container, type) => (this.runtime.probeSucceeds(uid, container, type) ? 'Success' : 'Failure'),
      changed: (uid, container, type, result) => this.onProbeResult(uid, container, type, result),
    });
    this.workers.onTerminated = (s) => this.onWorkerTerminated(s);
    this.activeDeadline = new ActiveDeadlineHandler(
      (uid) => this.statusManager.getPodStatus(uid),
      () => this.scheduler.now(),
      (pod, reason, message) =>
        this.recordEvent(pod, undefined, 'Normal', reason, message, `${ACTIVE_DEADLINE_SOURCE} ShouldEvict`),
    );
    this.workers.onRemoved = (s) => {
      this.podCgroupsRemoved.delete(s.uid);
      this.reasonCache.delete(s.uid);
      this.activeDeadline.forget(s.uid);
      this.deadlineChecks.delete(s.uid);
      this.sandboxSeen.delete(s.uid);
    };
    // The work queue: a failed sync is retried when the sync ticker finds it due, only for pods
    // still in the pod manager (getPodsToSync → HandlePodSyncs); orphans are re-driven by housekeeping.
    this.workers.onWorkDue = (uid) => {
      const pod = this.podManager.get(uid);
      if (pod) this.workers.updatePod({ updateType: 'sync', pod });
    };
    runtime.onContainerExit = this.scheduler.guard((uid: string) => this.plegEvent(uid));
    this.config = new PodConfig(this.client, timeline, nodeName, (updates) => this.syncLoopIteration(updates));
  }

  /** Run: connect the config source (LIST + WATCH) and look for leftovers from an earlier process. */
  start(): void {
    this.timeline.record('kubelet', `kubelet started on node ${this.nodeName}`, 'pkg/kubelet/kubelet.go Run', {
      actor: this.nodeName,
    });
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
    this.attached.resync();
  }

  /** Containers left waiting in CrashLoopBackOff by their pod's last SyncPod, for "what still retries" messages. */
  crashLoops(): { pod: string; container: string; message: string }[] {
    const out = [];
    for (const [uid, reasons] of this.reasonCache) {
      const pod = this.podManager.get(uid);
      if (!pod) continue;
      for (const [container, r] of reasons)
        if (r.reason === 'CrashLoopBackOff')
          out.push({ pod: pod.metadata.name!, container, message: r.message ?? r.reason });
    }
    return out;
  }

  podWorkerStates(): { name: string; state: string }[] {
    return this.workers.all().map((s) => ({ name: s.pod.metadata.name!, state: s.finished ? 'finished' : s.workType }));
  }

  // ---- syncLoopIteration: config ops → Handle* (K11) ----

  private syncLoopIteration(updates: PodUpdate[]): void {
    for (const { op, pod } of updates) {
      const uid = pod.metadata.uid!;
      switch (op) {
        case 'ADD': {
          // HandlePodAdditions: pod manager, admission (always admitted here), then the worker.
          this.podManager.set(uid, pod);
          this.probeManager.addPod(pod);
          const deadline = this.resumedKills.get(uid);
          if (deadline === undefined || !pod.metadata.deletionTimestamp) {
            this.workers.updatePod({ updateType: 'create', pod });
            break;
          }
          this.workers.updatePod({
            updateType: 'create',
            pod,
            killPodOptions: {
              gracePeriodOverride: resumeKillGrace(this.timeline, this.nodeName, this.scheduler.now(), pod, deadline),
            },
          });
          break;
        }
        case 'UPDATE':
        case 'DELETE':
          // HandlePodUpdates: a graceful delete is just an update (K11, K12).
          this.podManager.set(uid, pod);
          this.workers.updatePod({ updateType: 'update', pod });
          break;
        case 'REMOVE':
          // HandlePodRemoves → deletePod: a kill without options; cleanup is left to housekeeping (K13).
          this.podManager.delete(uid);
          this.probeManager.removePod(uid);
          this.workers.updatePod({ updateType: 'kill', pod });
          this.housekeeping.wake();
          break;
        case 'RECONCILE':
          // HandlePodReconcile: only the pod manager's copy changes for a deletion; the status
          // manager's full sync compares its status with this copy (needsReconcile).
          this.podManager.set(uid, pod);
          this.statusManager.podStatusChangedInApi(pod);
          break;
      }
    }
  }

  // ---- the pod worker's sync functions ----

  /**
   * SyncPod for a pod to run: sandbox and containers started, volumes mounted, status Running. An
   * image pull blocks SyncPod; the runtime calls run without the worker's cancellation (TODO
   * #113606), so a container whose pull completes starts even if the pod is being deleted (S12).
   */
  private syncPod(pod: Pod, done: (err?: string, isTerminal?: boolean, backedOff?: boolean) => void): void {
    const uid = pod.metadata.uid!;
    const ref = `pods/${pod.metadata.name}`;
    const inits = pod.spec?.initContainers ?? [];
    const runsToCompletion = (name: string) => isRegularInitContainer(pod, name);
    // With termination requested, the cancelled context ends SyncPod before the runtime is asked for anything.
    const cancelled = this.workers.isPodTerminationRequested(uid);
    let toPull: string[] = [];
    const sandbox = this.runtime.sandbox(uid);
    // SyncPod generates the status from the pod cache, which has the sandbox once a SyncPod created it (V47).
    if (sandbox) this.sandboxSeen.add(uid);
    if (!cancelled && !sandbox && podHasClaims(pod) && !this.attached.allMounted(uid)) {
      // SyncPod: the status is written, then WaitForAttachAndMount blocks the worker until the claims are mounted (P16).
      this.statusManager.setPodStatus(pod, this.generateAPIPodStatus(pod, false));
      this.attached.waitForAttachAndMount(
        pod,
        () => this.workers.isPodTerminationRequested(uid),
        this.scheduler.guard((err?: string) => (err ? done(err) : this.syncPod(pod, done))),
      );
      return;
    }
    if (!cancelled && !sandbox) {
      this.volumes.mountPod(
        uid,
        ref,
        (pod.spec?.volumes ?? []).map((v) => v.name),
      );
      // computePodActions for a new sandbox: the first init container, or without any every regular container (K56).
      const first = inits.length > 0 ? [inits[0].name] : (pod.spec?.containers ?? []).map((c) => c.name);
      this.updatePodCIDR();
      toPull = this.runtime.startPod(uid, ref, first, runsToCompletion, pod.metadata.namespace);
      // V47 — from v1.36 kuberuntime SyncPod calls OnPodSandboxReady once the new sandbox is up
      // (kubernetes#134660): the condition is True in the status written now, before any pull.
      if (this.settings.release.has('OnPodSandboxReady')) this.sandboxSeen.add(uid);
      // Up to v1.35 the status says so only at the next SyncPod: the one PLEG's ContainerStarted
      // brings at its next relist (after the pulls, which end with a PLEG event of their own).
      else if (this.statusGates.podReadyToStartContainers && inits.length === 0 && toPull.length === 0)
        this.plegEvent(uid);
      // PLEG's ContainerStarted at the next relist syncs the pod again, which starts the next init container.
      if (inits.length > 0) this.plegEvent(uid);
    }
    const status = this.generateAPIPodStatus(pod, false);
    this.statusManager.setPodStatus(pod, status);
    const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
    if (!terminal) this.watchActiveDeadline(pod);
    const reasons = this.reasonCache.get(uid) ?? new Map<string, WaitingReason>();
    this.reasonCache.set(uid, reasons);
    let crashLooping = false;
    // V70 — SyncPod with restartAllContainers (the status's AllContainersRestarting is True): reset, not start.
    if (!cancelled && !terminal && sandbox?.state === 'ready' && restartingAll(status)) {
      resetAllContainers(pod, {
        sandbox,
        resetting: this.kuberuntime.resetting,
        kill: (name, cb) => this.kuberuntime.killContainerForRestart(pod, name, this.scheduler.guard(cb)),
        remove: (name, source) => this.runtime.removeContainer(uid, name, source),
        requeue: () => this.workers.updatePod({ updateType: 'sync', pod: this.podManager.get(uid) ?? pod }),
        note: (text, source) => this.timeline.record('kubelet', text, source, { actor: this.nodeName }),
      });
      return done(undefined, false, false);
    }
    if (
      !cancelled &&
      !terminal &&
      sandbox?.state === 'ready' &&
      onlySidecarsLeft(pod, sandbox, this.settings.release)
    ) {
      // computePodActions: nothing to keep and nothing to start — KillPod, and (SidecarContainers)
      // the sidecars are not restarted: the pod is done, its worker stops them (K90).
      this.timeline.record(
        'kubelet',
        `${ref}: every regular container has exited for good; KillPod stops its sidecars`,
        'pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions (keepCount == 0: KillPod)',
        { actor: this.nodeName },
      );
      return done(undefined, true, false);
    }
    if (!cancelled && !terminal && sandbox?.state === 'ready') {
      killUnhealthyContainers(this.containerStart, pod, sandbox);
      const start = startContainers(
        this.containerStart,
        pod,
        containersToStart(pod, sandbox, this.statusGates.restartRules),
        reasons,
      );
      crashLooping = start.backedOff;
      toPull = start.toPull;
    }
    if (terminal || toPull.length === 0) return done(undefined, terminal, crashLooping);
    // image_manager.go EnsureImageExists: an image whose last pull failed less than its back-off
    // ago is not pulled again: the container waits with ImagePullBackOff, which SyncPod does not
    // count as an error (the pod is synced again at the resync interval).
    const imageOf = (name: string) =>
      [...inits, ...(pod.spec?.containers ?? [])].find((c) => c.name === name)?.image ?? '';
    const backOffKey = (name: string) => `${uid}_${imageOf(name)}`;
    const now = this.scheduler.now();
    const pulling = toPull.filter((name) => {
      if (!this.imageBackOff.isInBackOffSinceUpdate(backOffKey(name), now)) return true;
      reasons.set(name, { reason: 'ImagePullBackOff', message: `Back-off pulling image "${imageOf(name)}"` });
      this.recordEvent(
        pod,
        name,
        'Normal',
        'BackOff',
        `Back-off pulling image "${imageOf(name)}"`,
        'pkg/kubelet/images/image_manager.go EnsureImageExists (IsInBackOffSinceUpdate)',
      );
      return false;
    });
    if (pulling.length === 0) return done(undefined, false, true);
    let left = pulling.length;
    let failed: string | undefined;
    for (const name of pulling) {
      this.runtime.pullImage(
        uid,
        name,
        this.scheduler.guard((err?: string) => {
          if (err) {
            failed = err;
            this.imageBackOff.next(backOffKey(name), this.scheduler.now());
            // The message is the runtime's pull error (containerd's NotFound here).
            reasons.set(name, {
              reason: 'ErrImagePull',
              message: `rpc error: code = NotFound desc = failed to pull and unpack image "${imageOf(name)}": not found`,
            });
          } else {
            reasons.delete(name);
            this.runtime.startContainer(uid, name, runsToCompletion(name));
            this.plegEvent(uid);
          }
          left -= 1;
          if (left === 0) done(failed);
        }),
      );
    }
  }

  /**
   * PLEG: a container started or died. At the next relist a syncing pod is synced again
   * (syncLoopIteration → HandlePodSyncs), and for a ContainerDied event cleanUpContainersInPod runs.
   */
  private plegEvent(uid: string): void {
    this.pleg.afterTickNewerThan(this.scheduler.now(), () => {
      const latest = this.podManager.get(uid);
      if (latest && this.workers.status(uid)?.workType === 'sync')
        this.workers.updatePod({ updateType: 'sync', pod: latest });
      this.cleanUpContainersInPod(uid);
    });
  }

  /**
   * kubelet.go cleanUpContainersInPod (K41): once a deleted or evicted pod has terminated
   * (ShouldPodContentBeRemoved), the pod container deletor removes all its exited containers right
   * away; otherwise it keeps the newest dead container of each name (--maximum-dead-containers-per-container
   * 1), which the runtime here holds by name anyway. The sandbox is left to container GC.
   */
  private cleanUpContainersInPod(uid: string): void {
    const sandbox = this.runtime.sandbox(uid);
    if (!sandbox || !this.workers.shouldPodContentBeRemoved(uid)) return;
    for (const c of [...sandbox.containers.values()]) {
      if (c.state === 'exited')
        this.runtime.removeContainer(
          uid,
          c.name,
          'pkg/kubelet/pod_container_deletor.go deleteContainersInPod (removeAll) → kuberuntime_container.go removeContainer',
        );
    }
  }

  /**
   * SyncTerminatingPod (K31): report the current status (edited by the kill's status function, K51), kill every container with the effective
   * grace period, check nothing runs any more, report the stopped status (its terminal phase is
   * held back by the status manager until the worker is terminated, K33).
   */
  private syncTerminatingPod(
    pod: Pod,
    gracePeriod: number | undefined,
    done: (err?: string) => void,
    podStatusFn?: (status: PodStatus) => void,
  ): void {
    const uid = pod.metadata.uid!;
    const status = this.generateAPIPodStatus(pod, false);
    // A kill request's status function (node shutdown, eviction) edits this first status only; the
    // stopped status below keeps its phase, reason, message and DisruptionTarget through the cache.
    podStatusFn?.(status);
    this.statusManager.setPodStatus(pod, status);
    this.probeManager.stopLivenessAndStartup(pod, this.settings.release);
    this.kuberuntime.killPod(pod, gracePeriod, (err) => {
      if (err) {
        // X8 — SyncTerminatingPod: a failed kill is a Warning FailedKillPod and an error; the pod worker retries after its back-off.
        this.recordEvent(
          pod,
          undefined,
          'Warning',
          'FailedKillPod',
          `error killing pod: ${err}`,
          'pkg/kubelet/kubelet.go SyncTerminatingPod (killPod failed)',
        );
        return done(`error killing pod: ${err}`);
      }
      if (this.runtime.hasRunningContainers(uid))
        return done('detected running containers after a successful KillPod, CRI violation');
      // Once the containers are stopped, no probe is needed any more (probeManager.RemovePod).
      this.probeManager.removePod(uid);
      this.statusManager.setPodStatus(pod, this.generateAPIPodStatus(pod, true));
      done();
    });
  }

  /**
   * kubelet.go updatePodCIDR: the node's `spec.podCIDR` (set by the node IPAM controller after the
   * node registered) goes to the runtime's network plugin, which takes pod IPs from it. Read from
   * the node before a sandbox is created; a node without one yet (or out of reach) leaves the
   * network as it was, and a sandbox created then gets no IP.
   */
  private updatePodCIDR(): void {
    if (this.runtime.network.podCIDR !== undefined || !this.client.connected()) return;
    const node = this.client.api.get('nodes', undefined, this.nodeName);
    const cidr = node.ok ? node.object.spec?.podCIDR : undefined;
    if (cidr) this.runtime.network.configure(cidr);
  }

  /**
   * kubelet_pods.go generateAPIPodStatus for this kubelet's release: `podIsTerminal` exists from
   * v1.27 (#115331; before, the phase followed the restart policy even at the end of termination),
   * with PodObservedGenerationTracking (v1.34+) the status carries the pod's generation, and with
   * RecursiveReadOnlyMounts (v1.31+) the container statuses list their volumeMounts.
   */
  private generateAPIPodStatus(pod: Pod, podIsTerminal: boolean): PodStatus {
    const {
      trackGeneration,
      volumeMounts,
      podIsTerminalArgument,
      podHostIPs,
      podReadyToStartContainers,
      restartRules,
    } = this.statusGates;
    const uid = pod.metadata.uid!;
    const gates = {
      observedGeneration: trackGeneration ? pod.metadata.generation : undefined,
      volumeMounts,
      hostIP: this.settings.nodeIP,
      podHostIPs,
      podReadyToStartContainers,
      sandboxNotYetSeen: !this.sandboxSeen.has(uid),
      restartRules,
    };
    const evict = this.activeDeadline.shouldEvict(pod);
    return generateAPIPodStatus(
      pod,
      this.runtime.sandbox(uid),
      podIsTerminal && podIsTerminalArgument,
      this.scheduler.now(),
      this.statusManager.getPodStatus(uid),
      gates,
      this.reasonCache.get(uid),
      this.probeManager.readiness(uid),
      evict,
    );
  }

  /**
   * A probe's result changed (the syncLoop's readinessManager / livenessManager updates): a
   * readiness change goes into the status at once (statusManager.SetContainerReadiness), for a
   * pod still running or terminating; a liveness failure syncs the pod, whose SyncPod restarts
   * the container.
   */
  private onProbeResult(uid: string, _container: string, type: ProbeType, result: ProbeResult): void {
    const pod = this.podManager.get(uid);
    const state = this.workers.status(uid);
    if (!pod || !state || state.finished) return;
    if (type === 'readiness') {
      this.statusManager.setPodStatus(pod, this.generateAPIPodStatus(pod, false));
      return;
    }
    if (result === 'Failure' && state.workType === 'sync') this.workers.updatePod({ updateType: 'sync', pod });
  }

  /**
   * kubelet.go getPodsToSync asks every PodSyncLoopHandler at each sync tick (1 s) whether a pod
   * must be synced; the active deadline handler says yes once the pod is past its deadline (K70).
   * Asking for every pod at every tick would cost each pod something each second, so the check is
   * made only for pods with activeDeadlineSeconds, at the first sync tick at or after their
   * deadline — the tick where upstream's ShouldSync first holds. A lowered deadline (an update)
   * schedules an earlier check and drops the later one.
   */
  private watchActiveDeadline(pod: Pod): void {
    if (pod.spec?.activeDeadlineSeconds === undefined) return;
    const uid = pod.metadata.uid!;
    const deadline = activeDeadline(pod, this.statusManager.getPodStatus(uid));
    if (deadline === undefined || this.deadlineChecks.get(uid) === deadline) return;
    this.deadlineChecks.set(uid, deadline);
    this.syncTicker.atTickFrom(deadline, () => {
      if (this.deadlineChecks.get(uid) !== deadline) return;
      this.deadlineChecks.delete(uid);
      const latest = this.podManager.get(uid);
      if (!latest || this.workers.status(uid)?.workType !== 'sync' || !this.activeDeadline.shouldSync(latest)) return;
      this.timeline.record(
        'kubelet',
        `pods/${latest.metadata.name} is past its active deadline (activeDeadlineSeconds=${latest.spec?.activeDeadlineSeconds}): sync`,
        `${ACTIVE_DEADLINE_SOURCE} ShouldSync → kubelet.go getPodsToSync`,
        { actor: this.nodeName },
      );
      this.workers.updatePod({ updateType: 'sync', pod: latest });
    });
  }

  /**
   * kubelet_pods.go PodResourcesAreReclaimed (the status manager's deletion gate before v1.27): no
   * container can run any more, none shows running in the status, no volume is left, and the pod
   * cgroup has been removed (at the end of SyncTerminatedPod).
   */
  private podResourcesAreReclaimed(uid: string, status: PodStatus): boolean {
    if (this.workers.couldHaveRunningContainers(uid)) return false;
    if ([...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])].some((c) => c.state?.running))
      return false;
    if (this.volumes.podVolumesExist(uid)) return false;
    return this.podCgroupsRemoved.has(uid);
  }

  /** SyncTerminatingRuntimePod (K30): containers without config are killed with a 1 s grace; no status is written. */
  private syncTerminatingRuntimePod(pod: Pod, done: (err?: string) => void): void {
    const uid = pod.metadata.uid!;
    this.kuberuntime.killPod(pod, this.settings.orphanKillGracePeriodSeconds, (err) => {
      if (err) return done(`error killing pod: ${err}`);
      if (this.runtime.hasRunningContainers(uid))
        return done('detected running containers after a successful KillPod, CRI violation');
      this.containerGC.wake();
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
    this.statusManager.setPodStatus(pod, this.generateAPIPodStatus(pod, true));
    this.volumes.waitForUnmount(uid, (err) => {
      if (err) return done(err);
      // The pod cgroup is destroyed (pcm.Destroy), then the final status is marked.
      this.podCgroupsRemoved.add(uid);
      this.attached.podVolumesUnmounted(uid);
      this.statusManager.terminatePod(pod);
      done();
    });
  }

  private onWorkerTerminated(s: PodSyncStatus): void {
    this.volumes.podTerminated(s.uid);
    this.containerGC.wake();
    if (!this.podManager.has(s.uid)) this.housekeeping.wake();
  }

  // ---- housekeeping (K43) and container GC (K41): housekeeping.ts ----

  private handlePodCleanups(): void {
    handlePodCleanups({
      timeline: this.timeline,
      nodeName: this.nodeName,
      synced: () => this.config.synced,
      podManager: this.podManager,
      workers: this.workers,
      statusManager: this.statusManager,
      volumes: this.volumes,
      runtime: this.runtime,
      orphanKillGracePeriodSeconds: this.settings.orphanKillGracePeriodSeconds,
      wakeHousekeeping: () => this.housekeeping.wake(),
      wakeContainerGC: () => this.containerGC.wake(),
    });
  }

  // ---- kubelet-initiated kills (K52) ----

  /**
   * The active pods (filterOutInactivePods over the pod manager): not yet terminated by their
   * worker, and not terminal unless their termination is still under way.
   */
  getActivePods(): Pod[] {
    return [...this.podManager.values()].filter((pod) => {
      const uid = pod.metadata.uid!;
      if (this.workers.isPodKnownTerminated(uid)) return false;
      return !isAdmittedPodTerminal(this.statusManager, pod) || this.workers.isPodTerminationRequested(uid);
    });
  }

  /** pod_workers.go killPodNow (K52): see kill-pod-now.ts. */
  killPodNow(
    pod: Pod,
    isEvicted: boolean,
    gracePeriodOverride: number | undefined,
    statusFunc: ((status: PodStatus) => void) | undefined,
    done: (err?: string) => void,
  ): void {
    killPodNow(
      {
        scheduler: this.scheduler,
        timeline: this.timeline,
        nodeName: this.nodeName,
        workers: this.workers,
        recordEvent: (p, reason, message, source) => this.recordEvent(p, undefined, 'Warning', reason, message, source),
      },
      pod,
      isEvicted,
      gracePeriodOverride,
      statusFunc,
      done,
    );
  }
  /** PodIsFinished (the eviction manager's PodCleanedUpFunc): the pod worker has completed SyncTerminatedPod. */
  podIsFinished(uid: string): boolean {
    return this.workers.shouldPodBeFinished(uid);
  }

  /** An Event about a pod, with annotations (the eviction manager's AnnotatedEventf). */
  recordPodEvent(
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source: string,
    annotations?: Record<string, string>,
  ): void {
    this.recordEvent(pod, undefined, type, reason, message, source, annotations);
  }

  /** The pod still has volumes mounted (VolumeManager.WaitForAllPodsUnmount polls this). */
  podVolumesExist(uid: string): boolean {
    return this.volumes.podVolumesExist(uid);
  }

  // ---- Kubernetes Events (record.EventRecorder) ----

  /** An Event about the node itself (e.g. NodeShutdown), with the node as involvedObject. */
  recordNodeEvent(type: 'Normal' | 'Warning', reason: string, message: string, source: string): void {
    this.timeline.record('events', `${reason} nodes/${this.nodeName}: ${message}`, source, { actor: this.nodeName });
    this.recorder.event(
      { kind: 'Node', apiVersion: 'v1', name: this.nodeName, uid: this.nodeName },
      type,
      reason,
      message,
    );
  }

  /** An Event about a pod, or about one of its containers when `container` is given. */
  private recordEvent(
    pod: Pod,
    container: string | undefined,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source = 'pkg/kubelet/kuberuntime/kuberuntime_container.go recordContainerEvent',
    annotations?: Record<string, string>,
  ): void {
    const name = pod.metadata.name ?? '';
    this.timeline.record('events', `${reason} pods/${name}: ${message}`, source, { actor: this.nodeName });
    const ref: ObjectReference = {
      kind: 'Pod',
      apiVersion: 'v1',
      name,
      namespace: pod.metadata.namespace,
      uid: pod.metadata.uid,
      ...(container !== undefined ? { fieldPath: `spec.containers{${container}}` } : {}),
    };
    this.recorder.event(ref, type, reason, message, annotations);
  }
}

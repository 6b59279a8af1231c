import type { Pod, PodStatus } from '../../apimachinery/types';
import type { Scheduler } from '../../foundation/clock';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';

/** pod_workers.go UpdatePodOptions.UpdateType. */
export type UpdateType = 'create' | 'update' | 'sync' | 'kill';

/** pod_workers.go KillPodOptions. */
export interface KillPodOptions {
  /** PodTerminationGracePeriodSecondsOverride. */
  gracePeriodOverride?: number;
  evict?: boolean;
  /**
   * PodStatusFunc: applied by SyncTerminatingPod to the status it generates before the kill (the
   * worker keeps the newest one, statusPostTerminating); node shutdown and eviction set the
   * terminal phase, reason, message and DisruptionTarget condition this way (K51).
   */
  statusFunc?: (status: PodStatus) => void;
  /** CompletedCh: called once the worker has finished terminating the pod (notifyPostTerminating); killPodNow waits on it (K52). */
  completed?: () => void;
}

export interface UpdatePodOptions {
  updateType: UpdateType;
  /** The pod; for a runtime-only pod (`runningPod`), a synthetic one built from the runtime (RunningPod.ToAPIPod). */
  pod: Pod;
  /** UpdatePodOptions.RunningPod: the pod is known only from the container runtime (no config) and can only be killed. */
  runningPod?: boolean;
  killPodOptions?: KillPodOptions;
}

/** podSyncStatus.WorkType. */
export type WorkType = 'sync' | 'terminating' | 'terminated';

/** pod_workers.go podSyncStatus: what the kubelet knows about one pod uid. */
export interface PodSyncStatus {
  readonly uid: string;
  /** The most recent pod (config) the worker was given. */
  pod: Pod;
  workType: WorkType;
  /** 0 until a grace period has been chosen; only ever decreases afterwards (K16). */
  gracePeriod: number;
  terminatingAt?: number;
  terminatedAt?: number;
  /** startedAt: the worker allowed the pod to start (its first sync call began). */
  startedAt?: number;
  finished: boolean;
  deleted: boolean;
  evicted: boolean;
  /** Not in config any more (housekeeping SyncKnownPods). */
  orphan: boolean;
  /** A create arrived for this uid while it was terminating (same-uid re-create, K22). */
  restartRequested: boolean;
  /** The pod was seen in the runtime without config: it must go through a terminating call. */
  observedRuntime: boolean;
  pendingUpdate?: UpdatePodOptions;
  /** The last update handed to a sync function (kill options accumulated); replayed by requeueLastPodUpdate. */
  activeUpdate?: UpdatePodOptions;
  /** A sync call is in flight (or waiting for the PLEG cache). */
  working: boolean;
  /** When the previous sync call ended: the next one waits for a PLEG relist newer than this (K18). */
  lastSyncEnd: number;
  /** workQueue.Enqueue: when the pod is next due (one entry per uid: a later Enqueue replaces it). */
  dueAt?: number;
  /** notifyPostTerminating: kill requesters waiting for termination to complete (killPodNow's CompletedCh). */
  notifyPostTerminating: (() => void)[];
  /** statusPostTerminating: status functions from kill requests; SyncTerminatingPod gets the newest. */
  statusPostTerminating: ((status: PodStatus) => void)[];
}

/** The sync functions the kubelet provides (pod_workers.go podSyncer); `done(err)` ends the call. */
export interface PodSyncer {
  /** `isTerminal`: the pod has reached a terminal phase by itself (its containers completed). */
  syncPod(pod: Pod, done: (err?: string, isTerminal?: boolean, backedOff?: boolean) => void): void;
  /**
   * `gracePeriod` is the override the worker computed; undefined lets the runtime use the pod's own
   * (setTerminationGracePeriod). `podStatusFn` is the newest kill request's status function (K51).
   */
  syncTerminatingPod(
    pod: Pod,
    gracePeriod: number | undefined,
    done: (err?: string) => void,
    podStatusFn?: (status: PodStatus) => void,
  ): void;
  /** A pod known only from the runtime: kill what runs with a 1 s grace, write no status (K30). */
  syncTerminatingRuntimePod(pod: Pod, done: (err?: string) => void): void;
  syncTerminatedPod(pod: Pod, done: (err?: string) => void): void;
}

export interface PodWorkersConfig {
  /** The kubelet's release (calculateEffectiveGracePeriod changed in v1.31). */
  release: Release;
  /** completeWork: retry after an error (backOffPeriod 10 s; upstream jitters ×[1,1.5), modelled at its lower bound). */
  backOffPeriodMs: number;
  /** completeWork: a successful sync is due again after resyncInterval (--sync-frequency, 1 min; jitter ×[1,1.5) at its lower bound). */
  resyncIntervalMs: number;
}

/** What SyncKnownPods reports for a worker it kept. */
export interface PodWorkerSync {
  state: WorkType;
  orphan: boolean;
}

const SOURCE = 'pkg/kubelet/pod_workers.go';
// Built once each (the timeline interns sources by value: a string concatenated per event is flattened and hashed every time).
const UPDATE_POD_SOURCE = `${SOURCE} UpdatePod`;
const COMPLETE_TERMINATED_SOURCE = `${SOURCE} completeTerminated`;

/**
 * pod_workers.go podWorkers: one state machine per pod uid, sync → terminating → terminated →
 * finished (K14), driven by UpdatePod, by each sync call's completion and by housekeeping
 * (SyncKnownPods).
 */
export class PodWorkers {
  private readonly statuses = new Map<string, PodSyncStatus>();
  /** podsSynced: housekeeping has run SyncKnownPods once; unknown pods are then known not to run. */
  private podsSynced = false;

  constructor(
    private readonly clock: Scheduler,
    private readonly timeline: Timeline,
    private readonly nodeName: string,
    private readonly config: PodWorkersConfig,
    private readonly syncer: PodSyncer,
    /** podCache.GetNewerThan: call `ready` once the PLEG has relisted strictly after `t` (K18). */
    private readonly waitForCacheNewerThan: (t: number, ready: () => void) => void,
    /** The sync ticker: call `fn` at the first 1 s tick at or after `t` (K19). */
    private readonly atSyncTick: (t: number, fn: () => void) => void,
    /** isPodStatusCacheTerminal(podCache.Get(uid)): no running container and no ready sandbox in the runtime. */
    private readonly podCacheTerminal: (uid: string) => boolean = () => false,
  ) {}

  /** ShouldPodBeFinished (the eviction manager's PodCleanedUpFunc): SyncTerminatedPod has completed; an unknown pod once pods are synced. */
  shouldPodBeFinished(uid: string): boolean {
    const s = this.statuses.get(uid);
    return s ? s.finished : this.podsSynced;
  }

  status(uid: string): PodSyncStatus | undefined {
    return this.statuses.get(uid);
  }

  all(): PodSyncStatus[] {
    return [...this.statuses.values()];
  }

  /** IsPodKnownTerminated: SyncTerminatingPod has completed for this uid. */
  isPodKnownTerminated(uid: string): boolean {
    return this.statuses.get(uid)?.terminatedAt !== undefined;
  }

  /** CouldHaveRunningContainers: true until terminated; for unknown pods, until housekeeping has synced the workers. */
  couldHaveRunningContainers(uid: string): boolean {
    const s = this.statuses.get(uid);
    return s ? s.terminatedAt === undefined : !this.podsSynced;
  }

  /** IsPodTerminationRequested. */
  isPodTerminationRequested(uid: string): boolean {
    return this.statuses.get(uid)?.terminatingAt !== undefined;
  }

  /** ShouldPodRuntimeBeRemoved: the worker reached terminated (or, once synced, does not know the pod). */
  shouldPodRuntimeBeRemoved(uid: string): boolean {
    const s = this.statuses.get(uid);
    return s ? s.terminatedAt !== undefined : this.podsSynced;
  }

  /** ShouldPodContentBeRemoved (container GC, K41): evicted, or deleted and terminated. */
  shouldPodContentBeRemoved(uid: string): boolean {
    const s = this.statuses.get(uid);
    return s ? s.evicted || (s.deleted && s.terminatedAt !== undefined) : this.podsSynced;
  }

  /**
   * UpdatePod: record the newest pod and decide whether it starts termination (K15); once
   * terminating every update is a kill with the recomputed effective grace period (K16, K17).
   */
  updatePod(options: UpdatePodOptions): void {
    const uid = options.pod.metadata.uid!;
    const name = options.pod.metadata.name;
    const now = this.clock.now();
    let status = this.statuses.get(uid);
    const firstTime = !status;
    if (!status) {
      status = {
        uid,
        pod: options.pod,
        workType: 'sync',
        gracePeriod: 0,
        finished: false,
        deleted: false,
        evicted: false,
        orphan: false,
        restartRequested: false,
        observedRuntime: false,
        working: false,
        lastSyncEnd: Number.NEGATIVE_INFINITY,
        notifyPostTerminating: [],
        statusPostTerminating: [],
      };
      // K21: a pod whose config phase is terminal and of which nothing runs was terminated by an
      // earlier kubelet; it starts as terminated so that SyncTerminatedPod still runs (#105523).
      const phase = options.pod.status?.phase;
      if (!options.runningPod && (phase === 'Failed' || phase === 'Succeeded') && this.podCacheTerminal(uid)) {
        status.workType = 'terminated';
        status.terminatingAt = now;
        status.terminatedAt = now;
        this.timeline.record(
          'kubelet',
          `pods/${name} is ${phase} and nothing runs: its worker starts as terminated`,
          `${SOURCE} UpdatePod (isPodStatusCacheTerminal)`,
          { actor: this.nodeName },
        );
      }
      this.statuses.set(uid, status);
      if (status.workType === 'terminated') this.onTerminated(status);
    }

    // A runtime-only kill of a pod whose config the worker has: kill that pod instead.
    const isRuntimePod = !!options.runningPod && (status.pendingUpdate?.pod ?? status.activeUpdate?.pod) === undefined;
    if (options.runningPod) {
      status.observedRuntime = true;
      if (!isRuntimePod)
        options = updateOptions(
          options.updateType,
          (status.pendingUpdate?.pod ?? status.activeUpdate?.pod)!,
          false,
          options.killPodOptions,
        );
    }
    const pod = options.pod;

    // K22: a create for a uid that is already terminating means a same-uid re-create; housekeeping
    // purges the worker once it has finished so the new pod can start.
    if (!firstTime && status.terminatingAt !== undefined && options.updateType === 'create') {
      status.restartRequested = true;
      this.timeline.record(
        'kubelet',
        `pods/${name} re-created with the same uid while terminating: restart after termination`,
        `${SOURCE} UpdatePod (restartRequested)`,
        { actor: this.nodeName },
      );
      return;
    }
    // K14: a finished worker ignores everything until housekeeping forgets it.
    if (status.finished) return;
    if (!isRuntimePod) status.pod = pod;

    // (Upstream also cancels the context of a running sync here; SyncPod's runtime calls ignore it,
    // and the kubelet's SyncPod asks IsPodTerminationRequested instead.)
    if (status.terminatingAt === undefined) {
      let reason: string | undefined;
      if (isRuntimePod) {
        status.deleted = true;
        reason = 'orphaned runtime pod';
      } else if (pod.metadata.deletionTimestamp !== undefined) {
        status.deleted = true;
        reason = 'deletionTimestamp set';
      } else if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
        reason = `phase ${pod.status.phase}`;
      } else if (options.updateType === 'kill') {
        status.evicted = !!options.killPodOptions?.evict;
        reason = status.evicted ? 'evicted' : 'kill requested';
      }
      if (reason) {
        status.workType = 'terminating';
        status.terminatingAt = now;
        this.timeline.record('kubelet', `terminating pods/${name} (${reason})`, UPDATE_POD_SOURCE, {
          actor: this.nodeName,
        });
      }
    }

    // The completion callback and status function of a kill request are not part of the update
    // that is replayed: the worker keeps them aside (notifyPostTerminating, statusPostTerminating).
    const { completed, statusFunc, gracePeriodOverride, evict } = options.killPodOptions ?? {};
    if (status.workType === 'terminated') {
      // A terminated pod only waits for cleanup; a runtime-only kill from an older cache is ignored.
      if (isRuntimePod) return;
      completed?.();
      options = updateOptions(options.updateType, options.pod, options.runningPod, undefined);
    } else if (status.workType === 'terminating') {
      if (completed) status.notifyPostTerminating.push(completed);
      if (statusFunc) status.statusPostTerminating.push(statusFunc);
      const kill: KillPodOptions = { gracePeriodOverride };
      if (evict !== undefined) kill.evict = evict;
      const { gracePeriod, shortened } = calculateEffectiveGracePeriod(status, pod, kill, this.config.release);
      if (shortened) {
        this.timeline.record(
          'kubelet',
          `grace shortened pods/${name} to ${gracePeriod}s (a kill already running keeps its grace, #83916)`,
          UPDATE_POD_SOURCE,
          { actor: this.nodeName },
        );
      }
      status.gracePeriod = gracePeriod;
      // Always hand SyncTerminatingPod the grace period (K17): every update is now a kill.
      kill.gracePeriodOverride = gracePeriod;
      options = updateOptions(options.updateType, options.pod, options.runningPod, kill);
    } else {
      // KillPodOptions are not valid for sync actions outside of the terminating phase.
      completed?.();
      options = updateOptions(options.updateType, options.pod, options.runningPod, undefined);
    }
    status.pendingUpdate = options;
    this.startWork(status);
  }

  /**
   * SyncKnownPods (housekeeping, K43): workers of pods no longer desired become orphans and are
   * driven to completion (removeTerminatedWorker); finished orphans and finished workers with a
   * same-uid re-create are forgotten. Returns the workers it kept.
   */
  syncKnownPods(desired: ReadonlySet<string>): Map<string, PodWorkerSync> {
    this.podsSynced = true;
    const known = new Map<string, PodWorkerSync>();
    for (const [uid, status] of [...this.statuses]) {
      const orphan = !desired.has(uid);
      status.orphan = orphan;
      if ((status.restartRequested || orphan) && this.removeTerminatedWorker(status, orphan)) continue;
      known.set(uid, { state: status.workType, orphan });
    }
    return known;
  }

  /**
   * removeTerminatedWorker: forget a finished worker (returns true); an unfinished orphan is
   * considered deleted and pushed on: never started ⇒ dropped without a sync call; syncing ⇒
   * termination starts with the grace of the last known pod (1 s if none); terminating or
   * terminated ⇒ its last update is replayed.
   */
  private removeTerminatedWorker(status: PodSyncStatus, orphan: boolean): boolean {
    const name = status.pod.metadata.name;
    if (!status.finished) {
      if (!orphan) return false;
      status.deleted = true;
      if (status.startedAt !== undefined || status.observedRuntime) {
        if (status.terminatingAt === undefined) {
          status.terminatingAt = this.clock.now();
          status.workType = 'terminating';
          status.gracePeriod = status.activeUpdate
            ? calculateEffectiveGracePeriod(status, status.activeUpdate.pod, undefined, this.config.release).gracePeriod
            : 1;
          this.timeline.record(
            'kubelet',
            `terminating pods/${name} (orphaned while running, gracePeriod=${status.gracePeriod})`,
            `${SOURCE} removeTerminatedWorker`,
            { actor: this.nodeName },
          );
        }
        this.requeueLastPodUpdate(status);
        return false;
      }
    }
    this.statuses.delete(status.uid);
    const why = status.restartRequested && !orphan ? 'to let the re-created pod start' : 'no longer in config';
    this.timeline.record(
      'kubelet',
      `housekeeping removed worker pods/${name} (${why})`,
      `${SOURCE} SyncKnownPods → removeTerminatedWorker`,
      { actor: this.nodeName },
    );
    this.onRemoved(status);
    return true;
  }

  /** podWorkerLoop + startPodSync: take the pending update, wait for a fresh PLEG cache, call the sync function for the state. */
  private startWork(status: PodSyncStatus): void {
    if (status.working || !status.pendingUpdate) return;
    const update = status.pendingUpdate;
    status.pendingUpdate = undefined;
    status.working = true;
    // startPodSync: the work type is decided when the update is taken, before the cache wait.
    const workType = status.workType;
    status.startedAt ??= this.clock.now();
    status.activeUpdate = mergeLastUpdate(status.activeUpdate, update);
    const pod = update.pod;
    const name = pod.metadata.name;
    const done = (err?: string, isTerminal?: boolean, backedOff?: boolean) =>
      this.completeWork(status, update, workType, err, isTerminal, backedOff);
    const run = () => {
      if (this.statuses.get(status.uid) !== status) return;
      switch (workType) {
        case 'sync':
          return this.syncer.syncPod(pod, done);
        case 'terminating': {
          if (update.runningPod) {
            this.timeline.record(
              'kubelet',
              `SyncTerminatingRuntimePod pods/${name} gracePeriod=1`,
              'pkg/kubelet/kubelet.go SyncTerminatingRuntimePod',
              { actor: this.nodeName },
            );
            return this.syncer.syncTerminatingRuntimePod(pod, done);
          }
          const override = update.killPodOptions?.gracePeriodOverride;
          const shown =
            override ??
            `${pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds} (the pod's own)`;
          this.timeline.record(
            'kubelet',
            `SyncTerminatingPod pods/${name} gracePeriod=${shown}`,
            'pkg/kubelet/kubelet.go SyncTerminatingPod',
            { actor: this.nodeName },
          );
          // acknowledgeTerminating: the newest status function of the kill requests so far.
          return this.syncer.syncTerminatingPod(pod, override, done, status.statusPostTerminating.at(-1));
        }
        case 'terminated':
          this.timeline.record(
            'kubelet',
            `SyncTerminatedPod pods/${name}`,
            'pkg/kubelet/kubelet.go SyncTerminatedPod',
            { actor: this.nodeName },
          );
          return this.syncer.syncTerminatedPod(pod, done);
      }
    };
    // A runtime-only pod needs no status: it is terminated at once, without waiting for the PLEG.
    if (update.runningPod) run();
    else this.waitForCacheNewerThan(status.lastSyncEnd, run);
  }

  /**
   * The end of one podWorkerLoop iteration: completeSync / completeTerminating /
   * completeTerminatingRuntimePod / completeTerminated move to the next state and requeue at once
   * (K18); completeWork runs a pending update now, or after an error has the kubelet's work queue
   * retry after the back-off (K19).
   */
  private completeWork(
    status: PodSyncStatus,
    update: UpdatePodOptions,
    workType: WorkType,
    err: string | undefined,
    isTerminal: boolean | undefined,
    backedOff?: boolean,
  ): void {
    status.working = false;
    status.lastSyncEnd = this.clock.now();
    if (this.statuses.get(status.uid) !== status) return;
    const name = status.pod.metadata.name;
    if (err) {
      const retry = status.pendingUpdate
        ? 'a newer update is queued'
        : `retry in ${this.config.backOffPeriodMs / 1000}s`;
      this.timeline.record(
        'kubelet',
        `sync error pods/${name}: ${err}; ${retry}`,
        `${SOURCE} podWorkerLoop → completeWork`,
        { actor: this.nodeName },
      );
      // workQueue.Enqueue(uid, backOffPeriod): the sync ticker hands due pods back (getPodsToSync).
      if (!status.pendingUpdate) this.enqueue(status, this.config.backOffPeriodMs);
    } else if (workType === 'terminated') {
      // completeTerminated: the worker is done for this uid.
      status.finished = true;
      status.pendingUpdate = undefined;
      this.timeline.record('kubelet', `pod worker finished pods/${name}`, COMPLETE_TERMINATED_SOURCE, {
        actor: this.nodeName,
      });
      return;
    } else if (workType === 'terminating' && update.runningPod) {
      // completeTerminatingRuntimePod: a runtime pod has no API representation; forget it.
      this.statuses.delete(status.uid);
      this.notifyTerminated(status);
      return;
    } else if (workType === 'terminating') {
      // completeTerminating: no container runs any more; kill requesters waiting on it are told.
      status.workType = 'terminated';
      status.terminatedAt = this.clock.now();
      this.onTerminated(status);
      this.notifyTerminated(status);
      this.requeueLastPodUpdate(status);
    } else if (isTerminal && status.terminatingAt === undefined) {
      // completeSync: the pod's containers completed by themselves.
      status.workType = 'terminating';
      status.terminatingAt = this.clock.now();
      this.timeline.record('kubelet', `terminating pods/${name} (pod is terminal)`, `${SOURCE} completeSync`, {
        actor: this.nodeName,
      });
      this.requeueLastPodUpdate(status);
    } else if (workType === 'sync' && backedOff) {
      // No error: requeue at the regular resync interval. Modelled only for a sync that ended in a
      // back-off (the resync is what retries it); for a healthy pod a resync changes nothing.
      this.enqueue(status, this.config.resyncIntervalMs);
    }
    this.startWork(status);
  }

  /** workQueue.Enqueue(uid, delay): replaces the pod's earlier entry; the sync ticker hands it back when due. */
  private enqueue(status: PodSyncStatus, delayMs: number): void {
    const dueAt = this.clock.now() + delayMs;
    status.dueAt = dueAt;
    this.atSyncTick(dueAt, () => {
      if (status.dueAt === dueAt) this.onWorkDue(status.uid);
    });
  }

  /** completeTerminating: close every kill request's CompletedCh and drop the status functions. */
  private notifyTerminated(status: PodSyncStatus): void {
    const waiting = status.notifyPostTerminating;
    status.notifyPostTerminating = [];
    status.statusPostTerminating = [];
    for (const notify of waiting) notify();
  }

  /** requeueLastPodUpdate: replay the last update if nothing is pending. */
  private requeueLastPodUpdate(status: PodSyncStatus): void {
    if (status.pendingUpdate || !status.activeUpdate) return;
    const last = status.activeUpdate;
    status.pendingUpdate = updateOptions(last.updateType, last.pod, last.runningPod, last.killPodOptions);
    this.startWork(status);
  }

  /** Hook for the kubelet: the volume manager may now unmount (K39). */
  onTerminated: (status: PodSyncStatus) => void = () => undefined;

  /** Hook for the kubelet: housekeeping forgot this worker. */
  onRemoved: (status: PodSyncStatus) => void = () => undefined;

  /**
   * Hook for the kubelet's work queue: a failed sync is due for a retry. The kubelet only retries
   * pods still in its pod manager (getPodsToSync); orphans are re-driven by housekeeping. Alone,
   * the workers replay the last update.
   */
  onWorkDue: (uid: string) => void = (uid) => {
    const s = this.statuses.get(uid);
    if (s) this.requeueLastPodUpdate(s);
  };
}

/** podSyncStatus.mergeLastUpdate: the newest pod (a real one beats a runtime-only one), kill options accumulated. */
function mergeLastUpdate(active: UpdatePodOptions | undefined, other: UpdatePodOptions): UpdatePodOptions {
  const pod = !active || !other.runningPod ? other.pod : active.pod;
  return updateOptions(
    other.updateType,
    pod,
    other.runningPod,
    other.killPodOptions ? { ...other.killPodOptions } : (active ?? other).killPodOptions,
  );
}

/**
 * An UpdatePodOptions with all its members. Copies are built with this, not spread: in V8 a spread
 * copy of a fresh object that gains a member ({ ...options, killPodOptions }) is several times
 * slower, and this runs on every pod update.
 */
function updateOptions(
  updateType: UpdateType,
  pod: Pod,
  runningPod: boolean | undefined,
  killPodOptions: KillPodOptions | undefined,
): UpdatePodOptions {
  return { updateType, pod, runningPod, killPodOptions };
}

/**
 * pod_workers.go calculateEffectiveGracePeriod (K16): the smallest of the grace already in use, the
 * pod's deletionGracePeriodSeconds and a kill override; with neither source set, the spec's
 * terminationGracePeriodSeconds; never below 1 s; it can only go down. Before v1.31 a value of 0
 * that a source did set (a force delete, a hard eviction's override) was also replaced by the spec's
 * grace: those pods got the full grace period (#124063, v1.31 release notes; issues #113717, #115819).
 */
export function calculateEffectiveGracePeriod(
  status: Pick<PodSyncStatus, 'gracePeriod'>,
  pod: Pod,
  options: KillPodOptions | undefined,
  release: Release = DEFAULT_RELEASE,
): { gracePeriod: number; shortened: boolean } {
  let gracePeriod = status.gracePeriod;
  let overridden = false;
  const fromApi = pod.metadata.deletionGracePeriodSeconds;
  if (fromApi !== undefined && (gracePeriod === 0 || fromApi < gracePeriod)) {
    gracePeriod = fromApi;
    overridden = true;
  }
  const fromKill = options?.gracePeriodOverride;
  if (fromKill !== undefined && (gracePeriod === 0 || fromKill < gracePeriod)) {
    gracePeriod = fromKill;
    overridden = true;
  }
  if (
    (!overridden || !release.atLeast(31)) &&
    gracePeriod === 0 &&
    pod.spec?.terminationGracePeriodSeconds !== undefined
  ) {
    gracePeriod = pod.spec.terminationGracePeriodSeconds;
  }
  if (gracePeriod < 1) gracePeriod = 1;
  return { gracePeriod, shortened: status.gracePeriod !== 0 && status.gracePeriod !== gracePeriod };
}

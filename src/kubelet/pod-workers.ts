import type { Pod } from '../apiserver/types';
import type { Scheduler } from '../clock';
import type { Timeline } from '../timeline/timeline';

/** pod_workers.go UpdatePodOptions.UpdateType. */
export type UpdateType = 'create' | 'update' | 'sync' | 'kill';

/** pod_workers.go KillPodOptions. */
export interface KillPodOptions {
  /** PodTerminationGracePeriodSecondsOverride. */
  gracePeriodOverride?: number;
  evict?: boolean;
}

export interface UpdatePodOptions {
  updateType: UpdateType;
  pod: Pod;
  killPodOptions?: KillPodOptions;
}

/** podSyncStatus.WorkType. */
export type WorkType = 'sync' | 'terminating' | 'terminated';

/** pod_workers.go podSyncStatus: what the kubelet knows about one pod uid. */
export interface PodSyncStatus {
  readonly uid: string;
  pod: Pod;
  workType: WorkType;
  /** 0 until a grace period has been chosen; only ever decreases afterwards (K16). */
  gracePeriod: number;
  terminatingAt?: number;
  terminatedAt?: number;
  finished: boolean;
  deleted: boolean;
  evicted: boolean;
  /** Not in config any more (housekeeping SyncKnownPods). */
  orphan: boolean;
  pendingUpdate?: UpdatePodOptions;
  working: boolean;
  /** When the previous sync call ended: the next one waits for a PLEG relist newer than this (K18). */
  lastSyncEnd: number;
}

/** The three sync functions the kubelet provides (pod_workers.go podSyncer); `done(err)` ends the call. */
export interface PodSyncer {
  /** `isTerminal`: the pod has reached a terminal phase by itself (its containers completed). */
  syncPod(pod: Pod, done: (err?: string, isTerminal?: boolean) => void): void;
  syncTerminatingPod(pod: Pod, gracePeriod: number, done: (err?: string) => void): void;
  syncTerminatedPod(pod: Pod, done: (err?: string) => void): void;
}

export interface PodWorkersConfig {
  /** completeWork: retry after an error (backOffPeriod 10 s; upstream jitters ×[1,1.5), modelled at its lower bound). */
  backOffPeriodMs: number;
}

const SOURCE = 'pkg/kubelet/pod_workers.go';

/**
 * pod_workers.go podWorkers: one state machine per pod uid, sync → terminating → terminated →
 * finished (K14), driven by UpdatePod and by each sync call's completion.
 */
export class PodWorkers {
  private readonly statuses = new Map<string, PodSyncStatus>();

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
  ) {}

  status(uid: string): PodSyncStatus | undefined {
    return this.statuses.get(uid);
  }

  all(): PodSyncStatus[] {
    return [...this.statuses.values()];
  }

  /** ShouldPodRuntimeBeRemoved / !PodCouldHaveRunningContainers: the worker reached terminated. */
  isTerminated(uid: string): boolean {
    const s = this.statuses.get(uid);
    return !!s && (s.workType === 'terminated' || s.finished);
  }

  /**
   * UpdatePod: record the newest pod and decide whether it starts termination (K15); once
   * terminating every update is a kill with the recomputed effective grace period (K16, K17).
   */
  updatePod(options: UpdatePodOptions): void {
    const uid = options.pod.metadata.uid!;
    let status = this.statuses.get(uid);
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
        working: false,
        lastSyncEnd: Number.NEGATIVE_INFINITY,
      };
      this.statuses.set(uid, status);
    }
    // K14: a finished worker ignores everything until housekeeping forgets it.
    if (status.finished) return;
    status.pod = options.pod;
    const pod = options.pod;
    if (status.workType === 'sync') {
      let reason: string | undefined;
      if (pod.metadata.deletionTimestamp !== undefined) {
        status.deleted = true;
        reason = 'deletionTimestamp set';
      } else if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
        reason = `phase ${pod.status.phase}`;
      } else if (options.updateType === 'kill') {
        status.evicted = !!options.killPodOptions?.evict;
        reason = 'kill requested';
      }
      if (reason) {
        status.workType = 'terminating';
        status.terminatingAt = this.clock.now();
        this.timeline.record('kubelet', `terminating pods/${pod.metadata.name} (${reason})`, `${SOURCE} UpdatePod`, { actor: this.nodeName });
      }
    }
    if (status.workType !== 'sync') {
      const kill: KillPodOptions = { ...options.killPodOptions };
      const { gracePeriod, shortened } = calculateEffectiveGracePeriod(status, pod, kill);
      if (shortened) {
        this.timeline.record('kubelet', `grace shortened pods/${pod.metadata.name} to ${gracePeriod}s (a kill already running keeps its grace, #83916)`, `${SOURCE} UpdatePod`, { actor: this.nodeName });
      }
      status.gracePeriod = gracePeriod;
      kill.gracePeriodOverride = gracePeriod;
      options = { ...options, killPodOptions: kill };
    }
    status.pendingUpdate = options;
    this.startWork(status);
  }

  /** housekeeping SyncKnownPods: workers of pods no longer in config become orphans (K43). */
  markOrphan(uid: string): void {
    const s = this.statuses.get(uid);
    if (s) {
      s.orphan = true;
      s.deleted = true;
    }
  }

  /** removeTerminatedWorker: forget a finished orphan so the uid can be released. */
  forget(uid: string): void {
    this.statuses.delete(uid);
  }

  /** podWorkerLoop: take the pending update, wait for a fresh PLEG cache, call the sync function for the state. */
  private startWork(status: PodSyncStatus): void {
    if (status.working || !status.pendingUpdate) return;
    const update = status.pendingUpdate;
    status.pendingUpdate = undefined;
    status.working = true;
    this.waitForCacheNewerThan(status.lastSyncEnd, () => {
      if (this.statuses.get(status.uid) !== status) return;
      const pod = status.pod;
      const name = pod.metadata.name;
      const done = (err?: string) => this.completeWork(status, update, err);
      switch (status.workType) {
        case 'sync':
          return this.syncer.syncPod(pod, (err, isTerminal) => {
            // completeSync: a pod whose containers all completed moves on to terminating.
            if (!err && isTerminal && status.workType === 'sync') {
              status.workType = 'terminating';
              status.terminatingAt = this.clock.now();
              this.timeline.record('kubelet', `terminating pods/${name} (pod is terminal)`, `${SOURCE} completeSync`, { actor: this.nodeName });
              const { gracePeriod } = calculateEffectiveGracePeriod(status, pod, undefined);
              status.gracePeriod = gracePeriod;
              status.pendingUpdate ??= { ...update, killPodOptions: { gracePeriodOverride: gracePeriod } };
            }
            done(err);
          });
        case 'terminating':
          this.timeline.record('kubelet', `SyncTerminatingPod pods/${name} gracePeriod=${update.killPodOptions?.gracePeriodOverride}`, 'pkg/kubelet/kubelet.go SyncTerminatingPod', { actor: this.nodeName });
          return this.syncer.syncTerminatingPod(pod, update.killPodOptions?.gracePeriodOverride ?? status.gracePeriod, done);
        case 'terminated':
          this.timeline.record('kubelet', `SyncTerminatedPod pods/${name}`, 'pkg/kubelet/kubelet.go SyncTerminatedPod', { actor: this.nodeName });
          return this.syncer.syncTerminatedPod(pod, done);
      }
    });
  }

  /**
   * completeWork / completeTerminating / completeTerminated: move to the next state and requeue
   * at once, or retry after the back-off on error (K18, K19).
   */
  private completeWork(status: PodSyncStatus, update: UpdatePodOptions, err: string | undefined): void {
    status.working = false;
    status.lastSyncEnd = this.clock.now();
    const name = status.pod.metadata.name;
    if (err) {
      this.timeline.record('kubelet', `sync error pods/${name}: ${err}; retry in ${this.config.backOffPeriodMs / 1000}s`, `${SOURCE} completeWork`, { actor: this.nodeName });
      status.pendingUpdate ??= update;
      this.atSyncTick(this.clock.now() + this.config.backOffPeriodMs, () => this.startWork(status));
      return;
    }
    if (status.workType === 'terminating') {
      status.workType = 'terminated';
      status.terminatedAt = this.clock.now();
      status.pendingUpdate ??= update;
      this.onTerminated(status);
    } else if (status.workType === 'terminated') {
      status.finished = true;
      status.pendingUpdate = undefined;
      this.timeline.record('kubelet', `pod worker finished pods/${name}`, `${SOURCE} completeTerminated`, { actor: this.nodeName });
      return;
    }
    this.startWork(status);
  }

  /** Hook for the kubelet: the volume manager may now unmount (K39). */
  onTerminated: (status: PodSyncStatus) => void = () => undefined;
}

/**
 * pod_workers.go calculateEffectiveGracePeriod (current upstream, K16): the smallest of the grace
 * already in use, the pod's deletionGracePeriodSeconds and a kill override; with neither source
 * set, the spec's terminationGracePeriodSeconds; never below 1 s; it can only go down.
 */
export function calculateEffectiveGracePeriod(status: Pick<PodSyncStatus, 'gracePeriod'>, pod: Pod, options: KillPodOptions | undefined): { gracePeriod: number; shortened: boolean } {
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
  if (!overridden && gracePeriod === 0 && pod.spec?.terminationGracePeriodSeconds !== undefined) {
    gracePeriod = pod.spec.terminationGracePeriodSeconds;
  }
  if (gracePeriod < 1) gracePeriod = 1;
  return { gracePeriod, shortened: status.gracePeriod !== 0 && status.gracePeriod !== gracePeriod };
}

import type { Scheduler } from '../../foundation/clock';
import type { Timeline } from '../../foundation/timeline/timeline';
import { Loop } from '../../foundation/loop';

/** How unmounting one volume behaves; scenarios set these. */
export interface VolumeBehaviour {
  /** How long one TearDown takes. */
  unmountMs: number;
  /** Every TearDown fails (a busy device, `target is busy`): retried with back-off forever. */
  neverUnmounts: boolean;
  /**
   * TearDown never returns (an unmount blocked on a dead NFS server): the operation stays pending,
   * so the reconciler never starts another one for that volume — no failures, no retries.
   */
  hangs?: boolean;
}

export interface VolumeManagerConfig {
  /** desired_state_of_world_populator + reconciler loop period (upstream 100 ms each; modelled as one loop). */
  reconcilerPeriodMs: number;
  /** Default TearDown time of a volume (emptyDir, configMap, secret, projected: a local directory). */
  defaultUnmountMs: number;
  /** goroutinemap/exponentialbackoff: first retry delay after a failed operation, doubling each time… */
  backoffInitialMs: number;
  /** …up to this cap (maxDurationBeforeRetry, 2m2s). */
  backoffMaxMs: number;
  /** volume_manager.go WaitForUnmount: poll interval and timeout (podAttachAndMountTimeout 2m3s). */
  waitForUnmountPollMs: number;
  waitForUnmountTimeoutMs: number;
}

export const DEFAULT_VOLUME_CONFIG: VolumeManagerConfig = {
  reconcilerPeriodMs: 100,
  defaultUnmountMs: 100,
  backoffInitialMs: 500,
  backoffMaxMs: 122_000,
  waitForUnmountPollMs: 300,
  waitForUnmountTimeoutMs: 123_000,
};

interface MountedVolume {
  readonly name: string;
  state: 'mounted' | 'unmounting' | 'unmounted';
  failures: number;
  retryAt: number;
  lastError?: string;
}

interface PodVolumes {
  readonly uid: string;
  readonly podRef: string;
  readonly volumes: Map<string, MountedVolume>;
  /** The pod worker reached terminated: its volumes left the desired state (K39). */
  removed: boolean;
  /** The pod's position in the pod map (kept when a uid is mounted again, as a Map keeps it). */
  readonly order: number;
}

const SOURCE = 'pkg/kubelet/volumemanager/reconciler/reconciler.go unmountVolumes → operationexecutor UnmountVolume';

/**
 * The kubelet's volume manager (pkg/kubelet/volumemanager): mounts a pod's volumes when it starts
 * and unmounts them only once its pod worker has terminated (K39), retrying failed TearDowns with
 * exponential back-off (K40, S7). WaitForUnmount is what SyncTerminatedPod blocks on.
 */
export class VolumeManager {
  private readonly pods = new Map<string, PodVolumes>();
  /**
   * The removed pods that still have a volume mounted or being unmounted: the reconciler's work,
   * so that neither a pod's termination nor a reconciler pass scans every pod of the node.
   */
  private readonly unmounting = new Set<PodVolumes>();
  private mounted = 0;
  private readonly loop: Loop;

  constructor(
    private readonly clock: Scheduler,
    private readonly timeline: Timeline,
    private readonly nodeName: string,
    readonly config: VolumeManagerConfig,
    private readonly behaviourOf: (uid: string, volume: string) => VolumeBehaviour | undefined,
  ) {
    this.loop = new Loop(clock, config.reconcilerPeriodMs, () => this.reconcile());
  }

  mountPod(uid: string, podRef: string, volumes: readonly string[]): void {
    const map = new Map<string, MountedVolume>();
    for (const name of volumes) map.set(name, { name, state: 'mounted', failures: 0, retryAt: 0 });
    const old = this.pods.get(uid);
    if (old) this.unmounting.delete(old);
    this.pods.set(uid, { uid, podRef, volumes: map, removed: false, order: old?.order ?? this.mounted++ });
  }

  /** desired_state_of_world_populator findAndRemoveDeletedPods: the worker is terminated, so the volumes may go. */
  podTerminated(uid: string): void {
    const p = this.pods.get(uid);
    if (!p || p.removed) return;
    p.removed = true;
    if (!stillMounted(p)) return;
    // Until now none of its volumes could be unmounting (only removed pods are), so the pod brings
    // work: wake the reconciler without looking at the other pods.
    this.unmounting.add(p);
    this.loop.wake();
  }

  /** Are any of the pod's volumes still mounted (or being unmounted)? */
  podVolumesExist(uid: string): boolean {
    const p = this.pods.get(uid);
    return !!p && stillMounted(p);
  }

  /**
   * volume_manager.go WaitForUnmount: polls until every volume of the pod is unmounted, or fails
   * after the timeout with the list of volumes still mounted.
   */
  waitForUnmount(uid: string, done: (err?: string) => void): void {
    const deadline = this.clock.now() + this.config.waitForUnmountTimeoutMs;
    const poll = () => {
      if (!this.podVolumesExist(uid)) return done();
      if (this.clock.now() >= deadline) {
        const left = [...(this.pods.get(uid)?.volumes.values() ?? [])]
          .filter((v) => v.state !== 'unmounted')
          .map((v) => v.name);
        return done(`timed out waiting for volumes to unmount: unmounted volumes=[${left.join(' ')}]`);
      }
      this.clock.after(Math.min(this.config.waitForUnmountPollMs, deadline - this.clock.now()), poll);
    };
    poll();
  }

  /**
   * Remove the pod's directory once its volumes are all gone (housekeeping cleanupOrphanedPodDirs,
   * K42); while a volume is still mounted the directory is kept and false is returned.
   */
  forget(uid: string): boolean {
    if (this.podVolumesExist(uid)) return false;
    const p = this.pods.get(uid);
    if (p) this.unmounting.delete(p);
    this.pods.delete(uid);
    return true;
  }

  /** The pods that still have a directory (volumes) on this node. */
  podUIDs(): string[] {
    return [...this.pods.keys()];
  }

  /** Does the pod still have its directory on this node? */
  hasPod(uid: string): boolean {
    return this.pods.has(uid);
  }

  /** Volumes that keep failing to unmount, for "what still blocks" messages. */
  stuckVolumes(): { podRef: string; volume: string; failures: number; lastError?: string }[] {
    const out = [];
    for (const p of this.pods.values()) {
      for (const v of p.volumes.values()) {
        if (v.failures > 0 && v.state !== 'unmounted')
          out.push({ podRef: p.podRef, volume: v.name, failures: v.failures, lastError: v.lastError });
      }
    }
    return out;
  }

  /** Volumes whose TearDown was started and never returned, for "what still blocks" messages. */
  hangingVolumes(): { podRef: string; volume: string }[] {
    const out = [];
    for (const p of this.pods.values()) {
      for (const v of p.volumes.values()) {
        if (v.state === 'unmounting' && this.behaviourOf(p.uid, v.name)?.hangs)
          out.push({ podRef: p.podRef, volume: v.name });
      }
    }
    return out;
  }

  /** One reconciler pass: start TearDown for every volume of removed pods whose back-off has expired. */
  private reconcile(): void {
    const now = this.clock.now();
    let nextRetry: number | undefined;
    // In the order the pods were mounted (the pod map's order), as a pass over every pod would.
    const work = [...this.unmounting].sort((a, b) => a.order - b.order);
    for (const p of work) {
      for (const v of p.volumes.values()) {
        if (v.state !== 'mounted') continue;
        if (v.retryAt > now) {
          nextRetry = Math.min(nextRetry ?? v.retryAt, v.retryAt);
          continue;
        }
        this.unmount(p, v);
      }
    }
    if (nextRetry !== undefined) this.loop.wakeAt(nextRetry);
  }

  private unmount(p: PodVolumes, v: MountedVolume): void {
    const behaviour = this.behaviourOf(p.uid, v.name);
    v.state = 'unmounting';
    this.timeline.record('volumes', `unmount ${v.name} ${p.podRef}`, SOURCE, { actor: this.nodeName });
    // nestedpendingoperations: while an operation on the volume is pending no other one starts.
    if (behaviour?.hangs) return;
    this.clock.after(behaviour?.unmountMs ?? this.config.defaultUnmountMs, () => {
      if (behaviour?.neverUnmounts) {
        v.state = 'mounted';
        v.failures += 1;
        const backoff = Math.min(this.config.backoffInitialMs * 2 ** (v.failures - 1), this.config.backoffMaxMs);
        v.retryAt = this.clock.now() + backoff;
        v.lastError = 'UnmountVolume.TearDown failed: unmount failed: exit status 32 (target is busy)';
        this.timeline.record(
          'volumes',
          `unmount failed ${v.name} ${p.podRef}: retry in ${backoff / 1000}s`,
          'pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go Update',
          { actor: this.nodeName },
        );
        this.loop.wakeAt(v.retryAt);
        return;
      }
      v.state = 'unmounted';
      this.timeline.record('volumes', `unmounted ${v.name} ${p.podRef}`, SOURCE, { actor: this.nodeName });
      if (!stillMounted(p)) this.unmounting.delete(p);
    });
  }
}

/** Is a volume of the pod still mounted or being unmounted? */
function stillMounted(p: PodVolumes): boolean {
  for (const v of p.volumes.values()) if (v.state !== 'unmounted') return true;
  return false;
}

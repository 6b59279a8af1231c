import { Unreachable, type ApiClient } from '../../client/client';
import type { Pod } from '../../apimachinery/types';
import type { Scheduler } from '../../foundation/clock';
import { attachableVolume } from '../../helpers/volume-util';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { Loop } from '../../foundation/loop';

const VOLUME_MANAGER = 'pkg/kubelet/volumemanager/volume_manager.go';

export interface AttachedVolumesConfig {
  /** podAttachAndMountRetryInterval: WaitForAttachAndMount looks again every 300 ms… */
  pollMs: number;
  /** …for podAttachAndMountTimeout (2m3s). */
  timeoutMs: number;
  /** nodeStatusUpdateFrequency: volumesInUse is reported with the node status (10 s). */
  statusPeriodMs: number;
}

export const DEFAULT_ATTACHED_VOLUMES_CONFIG: AttachedVolumesConfig = {
  pollMs: 300,
  timeoutMs: 123_000,
  statusPeriodMs: 10_000,
};

/** A pod's claim volume as the kubelet's desired state of the world holds it. */
interface ClaimVolume {
  /** The pod's volume name (`data`). */
  readonly name: string;
  readonly claim: string;
  /** The unique volume name once the claim resolves to a bound volume (DSW populator createVolumeSpec). */
  unique?: string;
  /** The CSI driver needs the attach/detach controller's attach first (csi_plugin.go CanAttach). */
  attachable: boolean;
  mounted: boolean;
}

/** Does the pod name a PersistentVolumeClaim? Pods without one skip everything here. */
export function podHasClaims(pod: Pod): boolean {
  const volumes = pod.spec?.volumes;
  if (!volumes) return false;
  for (const v of volumes) if (v.persistentVolumeClaim) return true;
  return false;
}

/**
 * P16 — the kubelet volume manager's part for PersistentVolumeClaims (pkg/kubelet/volumemanager):
 * the desired-state populator resolves each claim to its bound PersistentVolume; the volumes of
 * the pods the kubelet wants mounted are reported in the Node's status.volumesInUse with the next
 * node status update (every 10 s; MarkVolumesAsReportedInUse); the reconciler mounts a volume the
 * attach/detach controller attaches only once the Node's status.volumesAttached lists it and it
 * is reported in use (VerifyControllerAttachedVolume, then MountDevice and SetUp); SyncPod's
 * WaitForAttachAndMount blocks the pod's start until every volume is mounted, and after
 * podAttachAndMountTimeout (2m3s) fails the sync with a FailedMount Event (the pod worker retries).
 * Once the pod's volumes are unmounted (its worker terminated, K39) its volumes leave the desired
 * state, and the next status update drops them from volumesInUse — which lets the controller
 * detach them. Kept by the kubelet process (a restarted kubelet reconstructs it upstream; here it
 * starts empty).
 */
export class AttachedVolumes {
  private readonly pods = new Map<string, { podRef: string; volumes: ClaimVolume[] }>();
  /** What the last node status write reported in volumesInUse (sorted, joined), and as a set. */
  private reportedText = '';
  private reported = new Set<string>();
  private readonly statusLoop: Loop;

  constructor(
    private readonly clock: Scheduler,
    private readonly timeline: Timeline,
    private readonly nodeName: string,
    private readonly client: ApiClient,
    private readonly release: Release,
    private readonly event: (pod: Pod, reason: string, message: string, source: string) => void,
    readonly config: AttachedVolumesConfig = DEFAULT_ATTACHED_VOLUMES_CONFIG,
  ) {
    this.statusLoop = new Loop(clock, config.statusPeriodMs, () => this.reportVolumesInUse());
  }

  /** Are all the pod's claim volumes mounted? */
  allMounted(uid: string): boolean {
    const p = this.pods.get(uid);
    return !!p && p.volumes.every((v) => v.mounted);
  }

  /**
   * WaitForAttachAndMount: adds the pod's claims to the desired state, then polls until each is
   * attached (when it must be) and mounted; `done` gets the error SyncPod reports after the timeout,
   * or none. A pod whose termination was requested stops waiting at once (the sync's context ends).
   */
  waitForAttachAndMount(pod: Pod, cancelled: () => boolean, done: (err?: string) => void): void {
    const uid = pod.metadata.uid!;
    const podRef = `pods/${pod.metadata.name}`;
    let entry = this.pods.get(uid);
    if (!entry) {
      const volumes: ClaimVolume[] = [];
      for (const v of pod.spec?.volumes ?? [])
        if (v.persistentVolumeClaim)
          volumes.push({ name: v.name, claim: v.persistentVolumeClaim.claimName, attachable: false, mounted: false });
      this.pods.set(uid, (entry = { podRef, volumes }));
    }
    const volumes = entry.volumes;
    const deadline = this.clock.now() + this.config.timeoutMs;
    const poll = () => {
      if (cancelled()) return done('context canceled');
      try {
        this.resolve(pod, volumes);
        const node = this.client.server.get('nodes', undefined, this.nodeName);
        const attached = new Set((node.ok ? (node.object.status?.volumesAttached ?? []) : []).map((a) => a.name));
        for (const v of volumes) {
          if (v.mounted || !v.unique || !this.reported.has(v.unique)) continue;
          if (v.attachable && !attached.has(v.unique)) continue;
          // MountDevice (the volume's global mount) then SetUp (the bind mount into the pod).
          v.mounted = true;
          this.timeline.record(
            'volumes',
            `mount ${v.name} ${podRef} (${v.unique})`,
            `${VOLUME_MANAGER.replace('volume_manager.go', 'reconciler/reconciler_common.go')} mountOrAttachVolumes → operationexecutor MountVolume`,
            { actor: this.nodeName },
          );
        }
      } catch (e) {
        if (!(e instanceof Unreachable)) throw e;
      }
      if (volumes.every((v) => v.mounted)) return done();
      if (this.clock.now() >= deadline) {
        const unmounted = volumes.filter((v) => !v.mounted).map((v) => v.name);
        const unattached = volumes.filter((v) => !v.mounted && (v.attachable || !v.unique)).map((v) => v.name);
        // The wait's error: "timed out waiting for the condition" until the volume manager moved to context-based polling.
        const cause = this.release.atLeast(28) ? 'context deadline exceeded' : 'timed out waiting for the condition';
        const err = `unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[${unattached.join(' ')}], failed to process volumes=[]: ${cause}`;
        this.event(
          pod,
          'FailedMount',
          `Unable to attach or mount volumes: ${err}`,
          `${VOLUME_MANAGER} WaitForAttachAndMount → pkg/kubelet/kubelet.go SyncPod`,
        );
        return done(err);
      }
      this.clock.after(Math.min(this.config.pollMs, deadline - this.clock.now()), poll);
    };
    poll();
  }

  /** desired_state_of_world_populator processPodVolumes: each claim to its bound volume (GETs, as createVolumeSpec does). */
  private resolve(pod: Pod, volumes: ClaimVolume[]): void {
    let added = false;
    for (const v of volumes) {
      if (v.unique) continue;
      const api = this.client.server;
      const pvc = api.get('persistentvolumeclaims', pod.metadata.namespace, v.claim);
      if (!pvc.ok || !pvc.object.spec?.volumeName || pvc.object.metadata.deletionTimestamp) continue;
      const pv = api.get('persistentvolumes', undefined, pvc.object.spec.volumeName);
      if (!pv.ok) continue;
      const driverName = pv.object.spec?.csi?.driver;
      const driver = driverName ? api.get('csidrivers', undefined, driverName) : undefined;
      const attachable = attachableVolume(pvc.object, pv.object, () => (driver?.ok ? driver.object : undefined));
      v.unique = attachable?.unique ?? `kubernetes.io/pv/${pv.object.metadata.name}`;
      v.attachable = !!attachable;
      added = true;
    }
    if (added) this.statusLoop.wake();
  }

  /** The pod's volumes are unmounted (SyncTerminatedPod's WaitForUnmount returned): they leave the desired state. */
  podVolumesUnmounted(uid: string): void {
    if (!this.pods.delete(uid)) return;
    this.statusLoop.wake();
  }

  /** The node status update's volumesInUse (GetVolumesInUse), written only when it changed. */
  private reportVolumesInUse(): void {
    const inUse = new Set<string>();
    for (const p of this.pods.values()) for (const v of p.volumes) if (v.unique) inUse.add(v.unique);
    const list = [...inUse].sort();
    const text = list.join(',');
    if (text === this.reportedText) return;
    try {
      const r = this.client.patch(
        'nodes',
        undefined,
        this.nodeName,
        'merge',
        { status: { volumesInUse: list.length > 0 ? list : null } },
        { subresource: 'status' },
      );
      if (!r.ok) return;
      this.reportedText = text;
      this.reported = inUse;
    } catch (e) {
      // Not reported: tried again once the node reaches the apiserver (resync).
      if (!(e instanceof Unreachable)) throw e;
    }
  }

  /** Claims of pods still waiting to mount, for "what still blocks" messages. */
  waiting(): { podRef: string; volume: string }[] {
    const out = [];
    for (const p of this.pods.values())
      for (const v of p.volumes) if (!v.mounted) out.push({ podRef: p.podRef, volume: v.name });
    return out;
  }

  /** Back in touch with the apiserver: the next status update reports what is in use. */
  resync(): void {
    this.reportedText = '\u0000';
    this.statusLoop.wake();
  }

  stop(): void {
    this.statusLoop.stop();
  }
}

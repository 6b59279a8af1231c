import type { ClientIdentity } from '../../../../apiserver/apiserver';
import type { EventRecorder } from '../../../../client/event-recorder';
import type {
  CSIDriver,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  VolumeAttachment,
} from '../../../../apimachinery/types';
import { Loop } from '../../../../foundation/loop';
import type { TimerHandle } from '../../../../foundation/clock';
import type { ControllerContext } from '../../controller-manager';
import { keyOf, splitKey, type SharedInformer } from '../../../../client/informer';
import { podInformer } from '../../../../client/pod-informer';
import { StoppableController } from '../../stoppable';
import {
  ANN_CONTROLLER_MANAGED_ATTACH_DETACH,
  attachableVolume,
  attachmentName,
  isPodTerminated,
  podClaimNames,
  type AttachableVolume,
} from '../../../../helpers/volume-util';

const ADC = 'pkg/controller/volume/attachdetach';
const RECONCILER = `${ADC}/reconciler/reconciler.go`;
const IDENTITY: ClientIdentity = { name: 'attachdetach-controller', component: 'attachdetach' };
/** The pod index of claims (common.AddPodPVCIndexerIfNotPresent): `namespace/claim`. */
export const POD_PVC_INDEX = 'pod-pvc-index';
const NO_CLAIMS: readonly string[] = [];
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export interface AttachDetachConfig {
  /** The reconciler's loop period (reconcilerLoopPeriod, 100 ms). */
  reconcilerPeriodMs: number;
  /** maxWaitForUnmountDuration: 6 minutes (not a flag). */
  maxWaitForUnmountMs: number;
  /** csi_plugin.go csiTimeout: how long one Attach waits for the VolumeAttachment to say attached (2 min). */
  csiTimeoutMs: number;
  /** goroutinemap/exponentialbackoff: first retry after a failed operation (500 ms), doubling up to 2m2s. */
  backoffInitialMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_ATTACH_DETACH_CONFIG: AttachDetachConfig = {
  reconcilerPeriodMs: 100,
  maxWaitForUnmountMs: 6 * 60_000,
  csiTimeoutMs: 2 * 60_000,
  backoffInitialMs: 500,
  backoffMaxMs: 122_000,
};

/** The desired state of one volume on one node (cache/desired_state_of_world.go volumeToAttach). */
interface DesiredVolume {
  volume: AttachableVolume;
  /** The pods scheduled to the node that use it, by key. */
  readonly pods: Map<string, Pod>;
  multiAttachErrorReported: boolean;
}

/** The actual state of one volume on one node (cache/actual_state_of_world.go nodeAttachedTo, with the operation running on it). */
interface AttachedVolume {
  volume: AttachableVolume;
  readonly node: string;
  /** attaching: the VolumeAttachment exists, not yet attached; uncertain: an attach timed out (the object stays); detaching: it is being deleted. */
  state: 'attaching' | 'attached' | 'uncertain' | 'detaching';
  /** "Assume mounted, until proven otherwise" (AddVolumeNode); the node's volumesInUse says otherwise. */
  mountedByNode: boolean;
  detachRequestedAt?: number;
  /** When the running attach gives up (csiTimeout), and its timer. */
  attachDeadline?: number;
  attachTimer?: TimerHandle;
  failures: number;
  retryAt: number;
}

/**
 * P11–P14 — the attach/detach controller (pkg/controller/volume/attachdetach): a desired state of
 * the world from the pods (their claims' CSI volumes on their nodes, while the pod is not
 * terminated), an actual state from its own operations, and a reconciler every 100 ms that
 * detaches what is no longer desired — once the node's volumesInUse no longer lists it, or by
 * force after maxWaitForUnmountDuration (6 min, counted from when the volume left the desired
 * state) on a node that is not Ready, or at once on a node tainted out-of-service
 * (NodeOutOfServiceVolumeDetach) — and then attaches what is desired, reporting a Multi-Attach
 * error once per pod when a ReadWriteOnce volume is still attached elsewhere. CSI attach and
 * detach are VolumeAttachment objects (csi_attacher.go Attach / Detach): the controller creates
 * and deletes them; the driver's external-attacher (src/components/csi/) attaches and reports
 * status.attached. The node status updater writes each node's volumesAttached.
 * In-tree volume plugins, inline CSI volumes, the populator's periodic resync and the
 * --disable-force-detach-on-timeout flag (v1.30+, default off) are not modelled.
 */
export class AttachDetachController extends StoppableController {
  private readonly pods: SharedInformer<Pod>;
  private readonly nodes: SharedInformer<Node>;
  private readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly volumes: SharedInformer<PersistentVolume>;
  private readonly drivers: SharedInformer<CSIDriver>;
  private readonly attachments: SharedInformer<VolumeAttachment>;
  private readonly recorder: EventRecorder;
  private readonly loop: Loop;
  /** DSW: node → unique volume name → desired volume. */
  private readonly desired = new Map<string, Map<string, DesiredVolume>>();
  /** The DSW entries of each pod (key → node and volumes), to take them out when the pod goes. */
  private readonly podEntries = new Map<string, { node: string; volumes: string[] }>();
  /** ASW: `unique|node` → attached volume. */
  private readonly actual = new Map<string, AttachedVolume>();
  /**
   * The nodes of the desired state (addNodeToDswp): those whose Node carries the
   * controller-managed-attach-detach annotation (P22); a pod on any other node is ignored
   * (ProcessPodVolumes: the node is "not yet managed by the controller").
   */
  private readonly managedNodes = new Set<string>();
  /** The volumesAttached last written per node (node_status_updater.go), as a sorted list of unique names. */
  private readonly reportedAttached = new Map<string, string>();

  constructor(
    ctx: ControllerContext,
    readonly config: AttachDetachConfig = DEFAULT_ATTACH_DETACH_CONFIG,
  ) {
    super(ctx, IDENTITY);
    const { informers } = ctx;
    this.pods = podInformer(informers);
    if (!this.pods.hasIndexer(POD_PVC_INDEX)) {
      this.pods.addIndexer(POD_PVC_INDEX, (pod) => {
        if (!pod.spec?.volumes) return NO_CLAIMS;
        const names = podClaimNames(pod);
        return names.length === 0 ? NO_CLAIMS : names.map((n) => `${pod.metadata.namespace}/${n}`);
      });
    }
    this.nodes = informers.informerFor('nodes');
    this.claims = informers.informerFor('persistentvolumeclaims');
    this.volumes = informers.informerFor('persistentvolumes');
    this.drivers = informers.informerFor('csidrivers');
    this.attachments = informers.informerFor('volumeattachments');
    this.recorder = this.eventRecorder({ component: 'attachdetach-controller' }, 'attachdetach');
    this.loop = new Loop(ctx.clock, config.reconcilerPeriodMs, () => this.reconcile());
  }

  start(): this {
    // podAdd / podUpdate / podDelete → util.ProcessPodVolumes: pods without claims cost one check.
    this.pods.addEventHandler(
      this.whileRunning((key, old, pod) => {
        if (!(pod ?? old)!.spec?.volumes && !this.podEntries.has(key)) return;
        this.processPod(key, pod);
      }),
    );
    // A claim bound, or a volume or driver changed: the pods using them are processed again.
    this.claims.addEventHandler(this.whileRunning((key) => this.processClaimPods(key)));
    this.volumes.addEventHandler(
      this.whileRunning((_key, old, pv) => {
        const ref = (pv ?? old)?.spec?.claimRef;
        if (ref?.namespace && ref.name) this.processClaimPods(`${ref.namespace}/${ref.name}`);
      }),
    );
    // nodeUpdate → processVolumesInUse: the kubelet's volumesInUse says what is still mounted.
    this.nodes.addEventHandler(this.whileRunning((_key, old, node) => this.nodeChanged(old, node)));
    this.attachments.addEventHandler(this.whileRunning((_key, old, va) => this.attachmentChanged(old, va)));
    return this;
  }

  // ---- the desired state of the world ----

  private processClaimPods(claimKey: string): void {
    if (this.pods.countByIndex(POD_PVC_INDEX, claimKey) === 0) return;
    for (const pod of this.pods.byIndex(POD_PVC_INDEX, claimKey)) this.processPod(keyOf(pod), pod);
  }

  /** util.ProcessPodVolumes with DetermineVolumeAction: add the pod's attachable volumes on its node, or remove them. */
  private processPod(key: string, pod: Pod | undefined): void {
    const before = this.podEntries.get(key);
    const node = pod?.spec?.nodeName;
    const add = !!pod && !!node && !isPodTerminated(pod) && this.managedNodes.has(node) && !!this.nodes.get(node);
    const volumes: AttachableVolume[] = [];
    if (add) {
      for (const claim of podClaimNames(pod!)) {
        const pvc = this.claims.get(`${pod!.metadata.namespace}/${claim}`);
        const v = attachableVolume(
          pvc,
          pvc?.spec?.volumeName ? this.volumes.get(pvc.spec.volumeName) : undefined,
          (d) => this.drivers.get(d),
        );
        if (v) volumes.push(v);
      }
    }
    const unchanged =
      before &&
      add &&
      before.node === node &&
      before.volumes.length === volumes.length &&
      volumes.every((v, i) => before.volumes[i] === v.unique);
    if (unchanged) {
      for (const v of volumes) this.desired.get(node!)?.get(v.unique)?.pods.set(key, pod!);
      return;
    }
    if (before) {
      for (const unique of before.volumes) {
        const entry = this.desired.get(before.node)?.get(unique);
        if (!entry) continue;
        entry.pods.delete(key);
        if (entry.pods.size === 0) this.desired.get(before.node)!.delete(unique);
      }
      this.podEntries.delete(key);
    }
    if (volumes.length > 0) {
      let onNode = this.desired.get(node!);
      if (!onNode) this.desired.set(node!, (onNode = new Map()));
      for (const v of volumes) {
        let entry = onNode.get(v.unique);
        if (!entry) onNode.set(v.unique, (entry = { volume: v, pods: new Map(), multiAttachErrorReported: false }));
        entry.pods.set(key, pod!);
      }
      this.podEntries.set(key, { node: node!, volumes: volumes.map((v) => v.unique) });
    }
    if (before || volumes.length > 0) this.loop.wake();
  }

  private isDesired(unique: string, node: string): boolean {
    return this.desired.get(node)?.has(unique) ?? false;
  }

  // ---- the actual state of the world ----

  /** processVolumesInUse: what the node's kubelet reports in use is mounted; everything else of that node is not. */
  private nodeChanged(old: Node | undefined, node: Node | undefined): void {
    if (!node) {
      // nodeDelete: DeleteNode from the desired state.
      if (old) this.managedNodes.delete(old.metadata.name!);
      return;
    }
    // nodeAdd / nodeUpdate → addNodeToDswp: the annotation's presence, whatever its value. It is
    // never taken back on an update; pods already seen on the node wait for the populator's
    // periodic findAndAddActivePods (not modelled).
    if (node.metadata.annotations?.[ANN_CONTROLLER_MANAGED_ATTACH_DETACH] !== undefined)
      this.managedNodes.add(node.metadata.name!);
    const inUse = new Set(node.status?.volumesInUse ?? []);
    for (const a of this.actual.values()) {
      if (a.node !== node.metadata.name) continue;
      a.mountedByNode = inUse.has(a.volume.unique);
    }
    const taintsChanged = (old?.spec?.taints?.length ?? 0) !== (node.spec?.taints?.length ?? 0);
    const readyChanged = readyOf(old) !== readyOf(node);
    if (
      this.actual.size > 0 &&
      (taintsChanged || readyChanged || old?.status?.volumesInUse !== node.status?.volumesInUse)
    )
      this.loop.wake();
  }

  /** The external-attacher reported the attach (status.attached), or the VolumeAttachment is gone (the detach is done). */
  private attachmentChanged(old: VolumeAttachment | undefined, va: VolumeAttachment | undefined): void {
    const spec = (va ?? old)?.spec;
    const pvName = spec?.source?.persistentVolumeName;
    if (!spec?.nodeName || !pvName) return;
    const a = [...this.actual.values()].find((x) => x.node === spec.nodeName && x.volume.pv === pvName);
    if (!a) return;
    if (!va) {
      if (a.state !== 'detaching') return;
      // Detach's waitForVolumeDetachment saw the object go: MarkVolumeAsDetached.
      this.actual.delete(`${a.volume.unique}|${a.node}`);
      this.timeline.record(
        'attachdetach',
        `${a.volume.pv} is detached from ${a.node}`,
        'pkg/volume/csi/csi_attacher.go Detach (waitForVolumeDetachment) → MarkVolumeAsDetached',
        { actor: IDENTITY.name },
      );
      this.loop.wake();
      return;
    }
    if ((a.state === 'attaching' || a.state === 'uncertain') && va.status?.attached && !va.metadata.deletionTimestamp) {
      a.state = 'attached';
      a.attachDeadline = undefined;
      if (a.attachTimer) this.clock.cancel(a.attachTimer);
      a.attachTimer = undefined;
      a.failures = 0;
      a.mountedByNode = true;
      this.timeline.record(
        'attachdetach',
        `${a.volume.pv} is attached to ${a.node}`,
        `pkg/volume/csi/csi_attacher.go Attach (waitForVolumeAttachment) → MarkVolumeAsAttached`,
        { actor: IDENTITY.name },
      );
      for (const pod of this.desired.get(a.node)?.get(a.volume.unique)?.pods.values() ?? [])
        this.podEvent(
          pod,
          'Normal',
          'SuccessfulAttachVolume',
          `AttachVolume.Attach succeeded for volume "${a.volume.pv}" `,
          'pkg/volume/util/operationexecutor/operation_generator.go GenerateAttachVolumeFunc',
        );
      this.loop.wake();
    }
  }

  private podEvent(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, source: string): void {
    this.timeline.record('events', `${reason} pods/${pod.metadata.name}: ${message}`, source, { actor: IDENTITY.name });
    this.recorder.event(
      {
        kind: 'Pod',
        apiVersion: 'v1',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
      },
      type,
      reason,
      message,
    );
  }

  // ---- the reconciler ----

  /** reconciler.go reconcile: detaches first (so a volume moving between nodes is freed), then attaches, then node statuses. */
  private reconcile(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    let wakeAt: number | undefined;
    const later = (t: number) => (wakeAt = Math.min(wakeAt ?? t, t));
    for (const a of [...this.actual.values()]) {
      if (this.isDesired(a.volume.unique, a.node)) continue;
      // An operation on the volume is running (an attach still waiting, a detach under way): wait for it.
      if (a.state === 'detaching') continue;
      if (a.state === 'attaching' && a.attachDeadline !== undefined && now < a.attachDeadline) continue;
      a.detachRequestedAt ??= now;
      const node = this.nodes.get(a.node);
      const expired = now - a.detachRequestedAt > this.config.maxWaitForUnmountMs;
      // Force detach only from a node that is not Ready (#110721, v1.25+): a healthy node unmounts.
      const forceDetach = expired && !isNodeReady(node);
      // The out-of-service taint (KEP-2268): NodeOutOfServiceVolumeDetach β 1.26, GA 1.28, ungated from 1.32.
      const outOfService =
        this.release.enabled('NodeOutOfServiceVolumeDetach') &&
        (node?.spec?.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE);
      if (a.mountedByNode && !forceDetach && !outOfService) {
        if (!expired) later(a.detachRequestedAt + this.config.maxWaitForUnmountMs + 1);
        continue;
      }
      this.detach(
        a,
        forceDetach
          ? ' (forced: not unmounted after 6m)'
          : outOfService && a.mountedByNode
            ? ' (forced: node out of service)'
            : '',
      );
    }
    for (const [node, volumes] of this.desired) {
      for (const entry of volumes.values()) {
        const r = this.attachDesired(node, entry, now);
        if (r !== undefined) later(r);
      }
    }
    this.updateNodeStatuses();
    if (wakeAt !== undefined) this.loop.wakeAt(wakeAt - 1);
  }

  /** attachDesiredVolumes for one volume and node; returns when to look again (a back-off or an attach deadline). */
  private attachDesired(node: string, entry: DesiredVolume, now: number): number | undefined {
    const { volume } = entry;
    const a = this.actual.get(`${volume.unique}|${node}`);
    if (a?.state === 'attached') {
      a.detachRequestedAt = undefined;
      return undefined;
    }
    // IsOperationPending: one operation per volume (per volume and node when multi-attach is allowed).
    const others = [...this.actual.values()].filter((x) => x.volume.unique === volume.unique && x.node !== node);
    if (a?.state === 'attaching') return a.attachDeadline;
    if (!volume.multiAttach && others.some((x) => x.state === 'detaching' || x.state === 'attaching')) return undefined;
    if (!volume.multiAttach && others.length > 0) {
      if (!entry.multiAttachErrorReported) {
        this.reportMultiAttachError(
          entry,
          node,
          others.map((x) => x.node),
        );
        entry.multiAttachErrorReported = true;
      }
      return undefined;
    }
    if (a && a.retryAt > now) return a.retryAt;
    this.attach(node, entry, a);
    return this.actual.get(`${volume.unique}|${node}`)?.attachDeadline;
  }

  /**
   * reportMultiAttachError: a Warning FailedAttachVolume on each pod that waits for the volume,
   * naming the pods of its namespace that use it on the other node(s), or — when no desired pod
   * uses it there any more (the old pod left the desired state) — the plain message.
   */
  private reportMultiAttachError(entry: DesiredVolume, node: string, otherNodes: readonly string[]): void {
    const users: Pod[] = [];
    for (const other of otherNodes)
      for (const p of this.desired.get(other)?.get(entry.volume.unique)?.pods.values() ?? []) users.push(p);
    this.timeline.record(
      'attachdetach',
      `${entry.volume.pv} cannot attach to ${node}: attached to ${otherNodes.join(', ')}`,
      `${RECONCILER} attachDesiredVolumes (GetNodesForAttachedVolume)`,
      { actor: IDENTITY.name },
    );
    for (const pod of entry.pods.values()) {
      let multiAttachDetail = "Volume is already exclusively attached to one node and can't be attached to another";
      if (users.length > 0) {
        const local = users.filter((u) => u.metadata.namespace === pod.metadata.namespace).map((u) => u.metadata.name);
        const elsewhere = users.length - local.length;
        multiAttachDetail =
          local.length > 0
            ? `Volume is already used by pod(s) ${local.join(', ')}${elsewhere > 0 ? ` and ${elsewhere} pod(s) in different namespaces` : ''}`
            : `Volume is already used by ${elsewhere} pod(s) in different namespaces`;
      }
      const message = `Multi-Attach error for volume "${entry.volume.pv}" ${multiAttachDetail}`;
      this.timeline.record(
        'events',
        `FailedAttachVolume pods/${pod.metadata.name}: Multi-Attach error for volume "${entry.volume.pv}" ${multiAttachDetail}`,
        `${RECONCILER} reportMultiAttachError`,
        { actor: IDENTITY.name },
      );
      this.recorder.event(
        {
          kind: 'Pod',
          apiVersion: 'v1',
          namespace: pod.metadata.namespace,
          name: pod.metadata.name,
          uid: pod.metadata.uid,
        },
        'Warning',
        'FailedAttachVolume',
        message,
      );
    }
  }

  /** operationexecutor AttachVolume → csi_attacher.go Attach: create the VolumeAttachment (or find it), then wait up to csiTimeout for status.attached. */
  private attach(node: string, entry: DesiredVolume, previous: AttachedVolume | undefined): void {
    const { volume } = entry;
    const now = this.clock.now();
    const a: AttachedVolume = previous ?? {
      volume,
      node,
      state: 'attaching',
      mountedByNode: true,
      failures: 0,
      retryAt: 0,
    };
    a.state = 'attaching';
    a.attachDeadline = now + this.config.csiTimeoutMs;
    this.actual.set(`${volume.unique}|${node}`, a);
    const name = attachmentName(volume.handle, volume.driver, node);
    const existing = this.attachments.get(name);
    if (!existing) {
      this.timeline.record(
        'attachdetach',
        `attach ${volume.pv} to ${node}`,
        `${RECONCILER} attachDesiredVolumes → pkg/volume/csi/csi_attacher.go Attach`,
        { actor: IDENTITY.name },
      );
      const va: VolumeAttachment = {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        metadata: { name },
        spec: { attacher: volume.driver, nodeName: node, source: { persistentVolumeName: volume.pv } },
      };
      const r = this.client.create('volumeattachments', undefined, va);
      if (!r.ok && r.code !== 409) return this.attachFailed(a, entry, r.status.message ?? 'create failed');
    } else if (existing.status?.attached && !existing.metadata.deletionTimestamp) {
      this.attachmentChanged(undefined, existing);
      return;
    }
    a.attachTimer = this.clock.after(this.config.csiTimeoutMs, () => {
      a.attachTimer = undefined;
      if (this.stopped || this.actual.get(`${volume.unique}|${node}`) !== a || a.state !== 'attaching') return;
      this.attachFailed(
        a,
        entry,
        `timed out waiting for external-attacher of ${volume.driver} CSI driver to attach volume ${volume.handle}`,
      );
    });
  }

  /** GenerateAttachVolumeFunc's failure: FailedAttachVolume on the pods, the volume uncertain, exponential back-off. */
  private attachFailed(a: AttachedVolume, entry: DesiredVolume, err: string): void {
    a.state = 'uncertain';
    a.attachDeadline = undefined;
    a.failures += 1;
    const backoff = Math.min(this.config.backoffInitialMs * 2 ** (a.failures - 1), this.config.backoffMaxMs);
    a.retryAt = this.clock.now() + backoff;
    for (const pod of entry.pods.values())
      this.podEvent(
        pod,
        'Warning',
        'FailedAttachVolume',
        `AttachVolume.Attach failed for volume "${a.volume.pv}" : ${err}`,
        'pkg/volume/util/operationexecutor/operation_generator.go GenerateAttachVolumeFunc',
      );
    this.loop.wakeAt(a.retryAt - 1);
  }

  /** operationexecutor DetachVolume → csi_attacher.go Detach: the volume leaves volumesAttached, its VolumeAttachment is deleted; the external-attacher finishes it. */
  private detach(a: AttachedVolume, forced: string): void {
    a.state = 'detaching';
    this.timeline.record(
      'attachdetach',
      `detach ${a.volume.pv} from ${a.node}${forced}`,
      `${RECONCILER} reconcile → pkg/volume/csi/csi_attacher.go Detach`,
      { actor: IDENTITY.name },
    );
    this.updateNodeStatuses();
    const name = attachmentName(a.volume.handle, a.volume.driver, a.node);
    const r = this.client.delete('volumeattachments', undefined, name, {});
    if (!r.ok && r.code === 404) {
      this.actual.delete(`${a.volume.unique}|${a.node}`);
      this.loop.wake();
    }
  }

  /** node_status_updater.go UpdateNodeStatuses: each node's volumesAttached, patched when it changed. */
  private updateNodeStatuses(): void {
    const perNode = new Map<string, string[]>();
    for (const a of this.actual.values()) {
      if (a.state !== 'attached') continue;
      let list = perNode.get(a.node);
      if (!list) perNode.set(a.node, (list = []));
      list.push(a.volume.unique);
    }
    const nodes = new Set([...perNode.keys(), ...this.reportedAttached.keys()]);
    for (const node of nodes) {
      const list = (perNode.get(node) ?? []).sort();
      const text = list.join(',');
      if ((this.reportedAttached.get(node) ?? '') === text) continue;
      if (!this.nodes.get(node)) continue;
      const volumesAttached = list.map((name) => ({ name, devicePath: '' }));
      const r = this.client.patch(
        'nodes',
        undefined,
        node,
        'strategic',
        { status: { volumesAttached } },
        { subresource: 'status' },
      );
      if (r.ok) {
        if (text) this.reportedAttached.set(node, text);
        else this.reportedAttached.delete(node);
      }
    }
  }

  /** What the controller believes, for "what still blocks" messages and explain. */
  attachedVolumes(): { pv: string; node: string; state: string; mountedByNode: boolean; detachRequestedAt?: number }[] {
    return [...this.actual.values()].map((a) => ({
      pv: a.volume.pv,
      node: a.node,
      state: a.state,
      mountedByNode: a.mountedByNode,
      detachRequestedAt: a.detachRequestedAt,
    }));
  }

  /** Pods waiting for a volume attached elsewhere (a Multi-Attach error), by pod key. */
  waitingForVolumes(): { pod: string; pv: string; node: string }[] {
    const out = [];
    for (const [node, volumes] of this.desired) {
      for (const entry of volumes.values()) {
        if (this.actual.get(`${entry.volume.unique}|${node}`)?.state === 'attached') continue;
        for (const key of entry.pods.keys()) out.push({ pod: splitKey(key).name, pv: entry.volume.pv, node });
      }
    }
    return out;
  }
}

function readyOf(node: Node | undefined): string | undefined {
  return node?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

/** nodeutil.IsNodeReady: the Ready condition is True. */
function isNodeReady(node: Node | undefined): boolean {
  return readyOf(node) === 'True';
}

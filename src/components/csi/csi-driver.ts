import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import { EventRecorder } from '../../client/event-recorder';
import type {
  CSIDriver,
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import { ANN_DYNAMICALLY_PROVISIONED, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER } from '../../helpers/volume-util';
import { keyOf, SharedInformerFactory, type SharedInformer } from '../../client/informer';
import type { Timeline } from '../../foundation/timeline/timeline';

/** How one CSI driver's storage backend behaves; scenarios set these (`Given CSI driver … attaches volumes after …`). */
export interface CsiDriverBehaviour {
  /** How long ControllerPublishVolume takes (the external-attacher's attach). */
  attachMs: number;
  /** How long ControllerUnpublishVolume takes (the external-attacher's detach). */
  detachMs: number;
}

/** A simulation assumption: a cloud disk attaches and detaches in a few seconds. */
export const DEFAULT_CSI_BEHAVIOUR: CsiDriverBehaviour = { attachMs: 3000, detachMs: 3000 };

const ATTACHER = 'github.com/kubernetes-csi/external-attacher pkg/controller/csi_handler.go';
const PROVISIONER = 'github.com/kubernetes-csi/external-provisioner pkg/controller/controller.go';

/**
 * P15 — a CSI driver as a cluster runs it: its CSIDriver object (attachRequired: true), its node
 * plugin registered on every node (a CSINode entry, as the kubelet's plugin watcher writes it), and
 * the two controller sidecars that take part in a pod's volumes:
 * - external-provisioner: a claim handed to this driver (the storage-provisioner annotation;
 *   under WaitForFirstConsumer once the scheduler named a node) gets a PersistentVolume
 *   `pvc-<claim uid>` (Provisioning, ProvisioningSucceeded Events); a Released volume it
 *   provisioned with reclaim policy Delete is deleted;
 * - external-attacher: a VolumeAttachment naming this driver gets its finalizer
 *   `external-attacher/<driver>`, and `attachMs` later status.attached; once it is being deleted,
 *   `detachMs` later the finalizer goes (and attached false), so the object leaves.
 * The storage backend itself is not modelled beyond those latencies.
 */
export class CsiDriverSidecars {
  private readonly informers: SharedInformerFactory;
  private readonly attachments: SharedInformer<VolumeAttachment>;
  private readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly volumes: SharedInformer<PersistentVolume>;
  private readonly classes: SharedInformer<StorageClass>;
  private readonly identity: ClientIdentity;
  private readonly recorder: EventRecorder;
  /** Attach or detach operations under way, by VolumeAttachment name. */
  private readonly operations = new Map<string, 'attach' | 'detach'>();
  private readonly provisioning = new Set<string>();
  private readonly finalizer: string;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    readonly name: string,
    readonly behaviour: CsiDriverBehaviour,
  ) {
    this.identity = { name: `csi/${name}`, component: 'csi' };
    this.finalizer = `external-attacher/${name.replace(/\//g, '-')}`;
    this.informers = new SharedInformerFactory(api);
    this.attachments = this.informers.informerFor('volumeattachments');
    this.claims = this.informers.informerFor('persistentvolumeclaims');
    this.volumes = this.informers.informerFor('persistentvolumes');
    this.classes = this.informers.informerFor('storageclasses');
    this.recorder = new EventRecorder(
      { component: `${name}_csi-controller` },
      'csi',
      () => clock.now(),
      (e) => this.api.create(this.identity, 'events', e.metadata.namespace, e),
    );
  }

  /** The CSIDriver object, the node registrations, then the sidecars' informers. */
  start(nodes: readonly string[]): this {
    const driver: CSIDriver = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: this.name },
      spec: { attachRequired: true },
    };
    this.api.create(this.identity, 'csidrivers', undefined, driver);
    for (const node of nodes) this.registerOnNode(node);
    this.attachments.addEventHandler((_key, _old, va) => va && this.syncAttachment(va));
    this.claims.addEventHandler((_key, _old, pvc) => pvc && this.syncClaim(pvc));
    this.volumes.addEventHandler((_key, _old, pv) => pv && this.syncVolume(pv));
    this.informers.start();
    return this;
  }

  /** The kubelet's plugin registration (nodeinfomanager InstallCSIDriver): the driver in the node's CSINode. */
  registerOnNode(node: string): void {
    const got = this.api.get('csinodes', undefined, node);
    const entry = { name: this.name, nodeID: node };
    if (!got.ok) {
      const obj: CSINode = {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: node },
        spec: { drivers: [entry] },
      };
      this.api.create(this.identity, 'csinodes', undefined, obj);
      return;
    }
    if (got.object.spec?.drivers?.some((d) => d.name === this.name)) return;
    this.api.update(this.identity, 'csinodes', undefined, {
      ...got.object,
      spec: { drivers: [...(got.object.spec?.drivers ?? []), entry] },
    });
  }

  // ---- external-attacher ----

  private syncAttachment(va: VolumeAttachment): void {
    if (va.spec?.attacher !== this.name) return;
    const name = va.metadata.name!;
    const pv = va.spec.source?.persistentVolumeName ?? '';
    if (va.metadata.deletionTimestamp) {
      if (!va.metadata.finalizers?.includes(this.finalizer) || this.operations.get(name) === 'detach') return;
      this.operations.set(name, 'detach');
      this.timeline.record(
        'csi',
        `ControllerUnpublishVolume ${pv} from ${va.spec.nodeName}`,
        `${ATTACHER} syncDetach → csiDetach`,
        { actor: this.identity.name },
      );
      this.clock.after(this.behaviour.detachMs, () => {
        this.operations.delete(name);
        const now = this.attachments.get(name);
        if (!now) return;
        // markAsDetached: the finalizer goes and attached turns false in one update; the object leaves.
        const finalizers = (now.metadata.finalizers ?? []).filter((f) => f !== this.finalizer);
        this.timeline.record('csi', `${pv} detached from ${va.spec!.nodeName}`, `${ATTACHER} markAsDetached`, {
          actor: this.identity.name,
        });
        this.api.update(this.identity, 'volumeattachments', undefined, {
          ...now,
          metadata: { ...now.metadata, finalizers },
          status: { ...now.status, attached: false },
        });
      });
      return;
    }
    if (va.status?.attached || this.operations.has(name)) return;
    if (!va.metadata.finalizers?.includes(this.finalizer)) {
      // addVAFinalizer first: the object cannot go while the volume may be attached.
      this.api.update(this.identity, 'volumeattachments', undefined, {
        ...va,
        metadata: { ...va.metadata, finalizers: [...(va.metadata.finalizers ?? []), this.finalizer] },
      });
      return;
    }
    this.operations.set(name, 'attach');
    this.timeline.record(
      'csi',
      `ControllerPublishVolume ${pv} on ${va.spec.nodeName}`,
      `${ATTACHER} syncAttach → csiAttach`,
      { actor: this.identity.name },
    );
    this.clock.after(this.behaviour.attachMs, () => {
      this.operations.delete(name);
      const now = this.attachments.get(name);
      if (!now || now.metadata.deletionTimestamp) return;
      this.timeline.record('csi', `${pv} attached on ${va.spec!.nodeName}`, `${ATTACHER} markAsAttached`, {
        actor: this.identity.name,
      });
      this.api.update(
        this.identity,
        'volumeattachments',
        undefined,
        { ...now, status: { attached: true } },
        { subresource: 'status' },
      );
    });
  }

  // ---- external-provisioner ----

  private syncClaim(pvc: PersistentVolumeClaim): void {
    const annotations = pvc.metadata.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== this.name || pvc.spec?.volumeName || pvc.metadata.deletionTimestamp)
      return;
    const sc = this.classes.get(pvc.spec?.storageClassName ?? '');
    if (!sc) return;
    // shouldProvision: under WaitForFirstConsumer only once the scheduler chose a node.
    if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !annotations[ANN_SELECTED_NODE]) return;
    const pvName = `pvc-${pvc.metadata.uid}`;
    if (this.provisioning.has(pvName) || this.volumes.get(pvName)) return;
    this.provisioning.add(pvName);
    const claimRef = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
    this.claimEvent(
      pvc,
      'Provisioning',
      `External provisioner is provisioning volume for claim "${claimRef}"`,
      `${PROVISIONER} Provision`,
    );
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: pvName, annotations: { [ANN_DYNAMICALLY_PROVISIONED]: this.name } },
      spec: {
        accessModes: pvc.spec?.accessModes,
        capacity: { storage: String(pvc.spec?.resources?.requests?.storage ?? '') },
        claimRef: {
          kind: 'PersistentVolumeClaim',
          apiVersion: 'v1',
          namespace: pvc.metadata.namespace,
          name: pvc.metadata.name,
          uid: pvc.metadata.uid,
          resourceVersion: pvc.metadata.resourceVersion,
        },
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata.name,
        volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
        csi: { driver: this.name, volumeHandle: `vol-${pvc.metadata.uid}`, fsType: 'ext4' },
      },
    };
    this.timeline.record(
      'csi',
      `CreateVolume ${pvName} for persistentvolumeclaims/${pvc.metadata.name}`,
      `${PROVISIONER} Provision`,
      { actor: this.identity.name },
    );
    const r = this.api.create(this.identity, 'persistentvolumes', undefined, pv);
    this.provisioning.delete(pvName);
    if (r.ok)
      this.claimEvent(
        pvc,
        'ProvisioningSucceeded',
        `Successfully provisioned volume ${pvName}`,
        `${PROVISIONER} Provision`,
      );
  }

  /** shouldDelete: a Released volume this driver provisioned, with reclaim policy Delete, is deleted (DeleteVolume, then the object). */
  private syncVolume(pv: PersistentVolume): void {
    if (pv.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] !== this.name || pv.metadata.deletionTimestamp) return;
    if (pv.status?.phase !== 'Released' || pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    this.timeline.record('csi', `DeleteVolume ${pv.metadata.name}`, `${PROVISIONER} shouldDelete → Delete`, {
      actor: this.identity.name,
    });
    this.api.delete(this.identity, 'persistentvolumes', undefined, keyOf(pv), {});
  }

  private claimEvent(pvc: PersistentVolumeClaim, reason: string, message: string, source: string): void {
    this.timeline.record('events', `${reason} persistentvolumeclaims/${pvc.metadata.name}: ${message}`, source, {
      actor: this.identity.name,
    });
    this.recorder.event(
      {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        namespace: pvc.metadata.namespace,
        name: pvc.metadata.name,
        uid: pvc.metadata.uid,
      },
      'Normal',
      reason,
      message,
    );
  }
}

import type { ClientIdentity } from '../../../../apiserver/apiserver';
import type { EventRecorder } from '../../../../client/event-recorder';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../../../apimachinery/types';
import { parseQuantity } from '../../../../apiserver/cel/library/quantity';
import type { ControllerContext } from '../../controller-manager';
import { keyOf, type SharedInformer } from '../../../../client/informer';
import { StoppableController } from '../../stoppable';
import { WorkQueue } from '../../../../client/workqueue';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
} from '../../../../helpers/volume-util';

const SOURCE = 'pkg/controller/volume/persistentvolume/pv_controller.go';
const IDENTITY: ClientIdentity = { name: 'persistentvolume-binder-controller', component: 'persistentvolume' };

/** The storage size of a quantity string, in bytes (0 when unreadable: such a claim or volume never matches). */
export function storageBytes(q: unknown): number {
  try {
    const parsed = parseQuantity(String(q ?? ''));
    return Number(parsed.num / parsed.den);
  } catch {
    return 0;
  }
}

/**
 * P10 — the PersistentVolume controller's binder (pkg/controller/volume/persistentvolume,
 * pv_controller.go syncClaim / syncUnboundClaim / syncVolume), enough to bind:
 * - an unbound claim takes the smallest Available volume of its class whose access modes and
 *   capacity cover it (findBestMatchForClaim), or the one its spec.volumeName names;
 * - binding writes the volume's claimRef and Bound phase, then the claim's volumeName, its
 *   bind-completed and bound-by-controller annotations and its Bound status (bind);
 * - with no volume, a claim of a class with a provisioner is handed to that external provisioner
 *   by the storage-provisioner annotations, with an ExternalProvisioning Event (provisionClaim);
 *   under WaitForFirstConsumer only once the scheduler named a node (selected-node annotation),
 *   until then a WaitForFirstConsumer Event;
 * - a bound volume whose claim is gone becomes Released (syncVolume); with reclaim policy Delete,
 *   a dynamically provisioned one is left to its provisioner to delete.
 * In-tree plugins, the resync every 15 s, claim selectors, data sources and the Recycle policy
 * are not modelled.
 */
export class PersistentVolumeController extends StoppableController {
  readonly claimQueue: WorkQueue;
  readonly volumeQueue: WorkQueue;
  private readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly volumes: SharedInformer<PersistentVolume>;
  private readonly classes: SharedInformer<StorageClass>;
  private readonly recorder: EventRecorder;
  /** The last Event reason given each claim, so a repeated wait is said once (upstream repeats it every resync). */
  private readonly said = new Map<string, string>();

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.claims = ctx.informers.informerFor('persistentvolumeclaims');
    this.volumes = ctx.informers.informerFor('persistentvolumes');
    this.classes = ctx.informers.informerFor('storageclasses');
    this.claimQueue = new WorkQueue(ctx.clock, (key) => this.syncClaim(key));
    this.volumeQueue = new WorkQueue(ctx.clock, (key) => this.syncVolume(key));
    this.recorder = this.eventRecorder({ component: 'persistentvolume-controller' }, 'persistentvolume');
  }

  start(): this {
    this.claims.addEventHandler(
      this.whileRunning((key, old, pvc) => {
        this.claimQueue.add(key);
        // deleteClaim: the volume the claim was bound to is synced (and released).
        if (!pvc && old?.spec?.volumeName) this.volumeQueue.add(old.spec.volumeName);
      }),
    );
    this.volumes.addEventHandler(
      this.whileRunning((key, old, pv) => {
        this.volumeQueue.add(key);
        // A new or changed volume may be what a pending claim waits for.
        const claim = (pv ?? old)?.spec?.claimRef;
        if (claim?.namespace && claim.name) this.claimQueue.add(`${claim.namespace}/${claim.name}`);
        else if (pv && !old) for (const c of this.claims.scan()) if (!c.spec?.volumeName) this.claimQueue.add(keyOf(c));
      }),
    );
    return this;
  }

  private event(
    pvc: PersistentVolumeClaim,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    fn: string,
  ): void {
    const key = keyOf(pvc);
    if (this.said.get(key) === reason) return;
    this.said.set(key, reason);
    this.timeline.record(
      'events',
      `${reason} persistentvolumeclaims/${pvc.metadata.name}: ${message}`,
      `${SOURCE} ${fn}`,
      { actor: IDENTITY.name },
    );
    this.recorder.event(
      {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        namespace: pvc.metadata.namespace,
        name: pvc.metadata.name,
        uid: pvc.metadata.uid,
      },
      type,
      reason,
      message,
    );
  }

  /** syncClaim: an unbound claim is bound or handed to a provisioner; a bound one whose volume is gone is Lost. */
  private syncClaim(key: string): void | Error {
    if (this.stopped) return;
    const pvc = this.claims.get(key);
    if (!pvc) {
      this.said.delete(key);
      return;
    }
    if (pvc.metadata.annotations?.[ANN_BIND_COMPLETED] && pvc.status?.phase === 'Bound') return;
    const className = pvc.spec?.storageClassName ?? '';
    const sc = className ? this.classes.get(className) : undefined;
    if (pvc.spec?.volumeName) {
      const pv = this.volumes.get(pvc.spec.volumeName);
      if (!pv) return;
      const ref = pv.spec?.claimRef;
      if (ref && ref.uid && ref.uid !== pvc.metadata.uid) return;
      return this.bind(pv, pvc);
    }
    const match = this.findBestMatchForClaim(pvc);
    const waitsForConsumer =
      sc?.volumeBindingMode === 'WaitForFirstConsumer' && !pvc.metadata.annotations?.[ANN_SELECTED_NODE];
    if (waitsForConsumer) {
      // shouldDelayBinding: the scheduler chooses the node (and the volume) when a pod needs the claim.
      this.event(
        pvc,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
        'syncUnboundClaim (shouldDelayBinding)',
      );
      return;
    }
    if (match) return this.bind(match, pvc);
    if (!sc || !sc.provisioner) {
      if (!className)
        this.event(
          pvc,
          'Normal',
          'FailedBinding',
          'no persistent volumes available for this claim and no storage class is set',
          'syncUnboundClaim',
        );
      return;
    }
    return this.provisionClaim(pvc, sc.provisioner);
  }

  /** findBestMatchForClaim (index.go findByClaim): the smallest Available volume of the claim's class that covers its modes and size. */
  private findBestMatchForClaim(pvc: PersistentVolumeClaim): PersistentVolume | undefined {
    const want = storageBytes(pvc.spec?.resources?.requests?.storage);
    const modes = pvc.spec?.accessModes ?? [];
    const className = pvc.spec?.storageClassName ?? '';
    let best: PersistentVolume | undefined;
    for (const pv of this.volumes.scan()) {
      if (pv.metadata.deletionTimestamp || (pv.spec?.storageClassName ?? '') !== className) continue;
      const ref = pv.spec?.claimRef;
      if (
        ref &&
        !(
          ref.namespace === pvc.metadata.namespace &&
          ref.name === pvc.metadata.name &&
          (!ref.uid || ref.uid === pvc.metadata.uid)
        )
      )
        continue;
      if (!ref && pv.status?.phase !== 'Available' && pv.status?.phase !== 'Pending') continue;
      if (!modes.every((m) => pv.spec?.accessModes?.includes(m))) continue;
      const size = storageBytes(pv.spec?.capacity?.storage);
      if (size < want) continue;
      if (
        !best ||
        size < storageBytes(best.spec?.capacity?.storage) ||
        (size === storageBytes(best.spec?.capacity?.storage) && pv.metadata.name! < best.metadata.name!)
      )
        best = pv;
    }
    return best;
  }

  /** provisionClaim → provisionClaimOperationExternal: the storage-provisioner annotations and the ExternalProvisioning Event. */
  private provisionClaim(pvc: PersistentVolumeClaim, provisioner: string): void | Error {
    if (pvc.metadata.annotations?.[ANN_STORAGE_PROVISIONER] !== provisioner) {
      const annotations = {
        ...pvc.metadata.annotations,
        [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
        [ANN_STORAGE_PROVISIONER]: provisioner,
      };
      this.timeline.record(
        'persistentvolume',
        `persistentvolumeclaims/${pvc.metadata.name} is left to provisioner ${provisioner}`,
        `${SOURCE} provisionClaimOperationExternal (setClaimProvisioner)`,
        { actor: IDENTITY.name },
      );
      const r = this.client.update('persistentvolumeclaims', pvc.metadata.namespace, {
        ...pvc,
        metadata: { ...pvc.metadata, annotations },
      });
      if (!r.ok) return r.code === 404 ? undefined : new Error(r.status.message);
    }
    this.event(
      pvc,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      'provisionClaimOperationExternal',
    );
  }

  /** bind: bindVolumeToClaim + updateVolumePhase(Bound), then bindClaimToVolume + updateClaimStatus(Bound). */
  private bind(pv: PersistentVolume, pvc: PersistentVolumeClaim): void | Error {
    const { namespace, name, uid, resourceVersion } = pvc.metadata;
    this.timeline.record(
      'persistentvolume',
      `bind persistentvolumeclaims/${name} to ${pv.metadata.name}`,
      `${SOURCE} bind`,
      { actor: IDENTITY.name },
    );
    let volume = pv;
    if (pv.spec?.claimRef?.uid !== uid) {
      const r = this.client.update('persistentvolumes', undefined, {
        ...pv,
        spec: {
          ...pv.spec,
          claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name, uid, resourceVersion },
        },
      });
      if (!r.ok) return new Error(r.status.message);
      volume = r.object;
    }
    if (volume.status?.phase !== 'Bound') {
      const r = this.client.update(
        'persistentvolumes',
        undefined,
        { ...volume, status: { ...volume.status, phase: 'Bound' } },
        { subresource: 'status' },
      );
      if (!r.ok) return new Error(r.status.message);
    }
    let claim = pvc;
    if (pvc.spec?.volumeName !== pv.metadata.name || !pvc.metadata.annotations?.[ANN_BIND_COMPLETED]) {
      const annotations = {
        ...pvc.metadata.annotations,
        [ANN_BIND_COMPLETED]: 'yes',
        ...(pvc.spec?.volumeName ? {} : { [ANN_BOUND_BY_CONTROLLER]: 'yes' }),
      };
      const r = this.client.update('persistentvolumeclaims', namespace, {
        ...pvc,
        metadata: { ...pvc.metadata, annotations },
        spec: { ...pvc.spec, volumeName: pv.metadata.name },
      });
      if (!r.ok) return r.code === 404 ? undefined : new Error(r.status.message);
      claim = r.object;
    }
    const r = this.client.update(
      'persistentvolumeclaims',
      namespace,
      {
        ...claim,
        status: { ...claim.status, phase: 'Bound', accessModes: pv.spec?.accessModes, capacity: pv.spec?.capacity },
      },
      { subresource: 'status' },
    );
    if (!r.ok) return r.code === 404 ? undefined : new Error(r.status.message);
    this.said.delete(keyOf(pvc));
  }

  /** syncVolume: a new volume becomes Available; a bound one whose claim is gone becomes Released. */
  private syncVolume(key: string): void | Error {
    if (this.stopped) return;
    const pv = this.volumes.get(key);
    if (!pv || pv.metadata.deletionTimestamp) return;
    const ref = pv.spec?.claimRef;
    if (!ref) {
      if (pv.status?.phase === 'Pending') return this.setPhase(pv, 'Available');
      return;
    }
    const claim = this.claims.get(`${ref.namespace}/${ref.name}`);
    if (claim && (!ref.uid || claim.metadata.uid === ref.uid)) return;
    // The claim is gone (or is a new claim of the same name): the volume is released.
    if (pv.status?.phase === 'Released' || pv.status?.phase === 'Failed') return;
    this.timeline.record(
      'persistentvolume',
      `${pv.metadata.name} is released: persistentvolumeclaims/${ref.name} is gone (reclaim policy ${pv.spec?.persistentVolumeReclaimPolicy})`,
      `${SOURCE} syncVolume`,
      { actor: IDENTITY.name },
    );
    return this.setPhase(pv, 'Released');
  }

  private setPhase(pv: PersistentVolume, phase: string): void | Error {
    const r = this.client.update(
      'persistentvolumes',
      undefined,
      { ...pv, status: { ...pv.status, phase } },
      { subresource: 'status' },
    );
    if (!r.ok && r.code !== 404) return new Error(r.status.message);
  }
}

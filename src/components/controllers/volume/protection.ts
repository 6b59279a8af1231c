import type { ClientIdentity } from '../../../apiserver/apiserver';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../../apiserver/storage-admission';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../../apimachinery/types';
import type { ControllerContext } from '../controller-manager';
import { keyOf, type SharedInformer } from '../../../client/informer';
import { podInformer } from '../../../client/pod-informer';
import { StoppableController } from '../stoppable';
import { WorkQueue } from '../../../client/workqueue';
import { podClaimNames } from '../../../helpers/volume-util';

const PVC_SOURCE = 'pkg/controller/volume/pvcprotection/pvc_protection_controller.go';
const PV_SOURCE = 'pkg/controller/volume/pvprotection/pv_protection_controller.go';
const PVC_IDENTITY: ClientIdentity = { name: 'pvc-protection-controller', component: 'persistentvolume' };
const PV_IDENTITY: ClientIdentity = { name: 'pv-protection-controller', component: 'persistentvolume' };

/**
 * P8 — the PVC protection controller (pvc_protection_controller.go processPVC, isBeingUsed,
 * podUsesPVC): a claim being deleted keeps `kubernetes.io/pvc-protection` while any pod that is
 * scheduled (spec.nodeName set) names it in its volumes — whatever the pod's phase or deletion:
 * the claim goes only once that pod object is gone. (The podIsShutDown shortcut applies to
 * generic ephemeral volumes only, which are not modelled.)
 */
export class PvcProtectionController extends StoppableController {
  readonly queue: WorkQueue;
  private readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly pods: SharedInformer<Pod>;

  constructor(ctx: ControllerContext) {
    super(ctx, PVC_IDENTITY);
    this.claims = ctx.informers.informerFor('persistentvolumeclaims');
    this.pods = podInformer(ctx.informers);
    this.queue = new WorkQueue(ctx.clock, (key) => this.processPVC(key));
  }

  start(): this {
    this.claims.addEventHandler(
      this.whileRunning((key, _old, pvc) => {
        if (pvc?.metadata.deletionTimestamp && pvc.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER))
          this.queue.add(key);
      }),
    );
    // podAddedDeletedUpdated: a pod that goes (or changes) may release the claims it names; pods without claims cost one check.
    this.pods.addEventHandler(
      this.whileRunning((_key, old, pod) => {
        const p = pod ?? old!;
        if (!p.spec?.volumes || this.claims.size === 0) return;
        for (const name of podClaimNames(p)) this.queue.add(`${p.metadata.namespace}/${name}`);
      }),
    );
    return this;
  }

  private processPVC(key: string): void | Error {
    if (this.stopped) return;
    const pvc = this.claims.get(key);
    if (!pvc?.metadata.deletionTimestamp || !pvc.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER)) return;
    const user = this.isBeingUsed(pvc);
    if (user) {
      this.timeline.record(
        'persistentvolume',
        `persistentvolumeclaims/${pvc.metadata.name} is kept: used by pods/${user}`,
        `${PVC_SOURCE} processPVC (isBeingUsed)`,
        { actor: PVC_IDENTITY.name },
      );
      return;
    }
    this.timeline.record(
      'persistentvolume',
      `remove finalizer ${PVC_PROTECTION_FINALIZER} from persistentvolumeclaims/${pvc.metadata.name}`,
      `${PVC_SOURCE} removeFinalizer`,
      { actor: PVC_IDENTITY.name },
    );
    const finalizers = pvc.metadata.finalizers.filter((f) => f !== PVC_PROTECTION_FINALIZER);
    const r = this.client.update('persistentvolumeclaims', pvc.metadata.namespace, {
      ...pvc,
      metadata: { ...pvc.metadata, finalizers },
    });
    if (!r.ok && r.code !== 404) return new Error(r.status.message);
  }

  /** isBeingUsed → askInformer: the first scheduled pod of the namespace naming the claim (upstream also asks the API when the informer says no; the informer here is never stale). */
  private isBeingUsed(pvc: PersistentVolumeClaim): string | undefined {
    for (const pod of this.pods.scan(pvc.metadata.namespace)) {
      if (pod.spec?.nodeName && podClaimNames(pod).includes(pvc.metadata.name!)) return pod.metadata.name;
    }
    return undefined;
  }
}

/**
 * P9 — the PV protection controller (pv_protection_controller.go processPV, isBeingUsed): a
 * volume being deleted keeps `kubernetes.io/pv-protection` while it is Bound to a claim.
 */
export class PvProtectionController extends StoppableController {
  readonly queue: WorkQueue;
  private readonly volumes: SharedInformer<PersistentVolume>;

  constructor(ctx: ControllerContext) {
    super(ctx, PV_IDENTITY);
    this.volumes = ctx.informers.informerFor('persistentvolumes');
    this.queue = new WorkQueue(ctx.clock, (key) => this.processPV(key));
  }

  start(): this {
    this.volumes.addEventHandler(
      this.whileRunning((key, _old, pv) => {
        if (pv?.metadata.deletionTimestamp && pv.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER))
          this.queue.add(key);
      }),
    );
    return this;
  }

  private processPV(key: string): void | Error {
    if (this.stopped) return;
    const pv = this.volumes.get(key);
    if (!pv?.metadata.deletionTimestamp || !pv.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER)) return;
    if (pv.status?.phase === 'Bound') return;
    this.timeline.record(
      'persistentvolume',
      `remove finalizer ${PV_PROTECTION_FINALIZER} from ${keyOf(pv)}`,
      `${PV_SOURCE} removeFinalizer`,
      { actor: PV_IDENTITY.name },
    );
    const finalizers = pv.metadata.finalizers.filter((f) => f !== PV_PROTECTION_FINALIZER);
    const r = this.client.update('persistentvolumes', undefined, {
      ...pv,
      metadata: { ...pv.metadata, finalizers },
    });
    if (!r.ok && r.code !== 404) return new Error(r.status.message);
  }
}

import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import type { PersistentVolumeClaim, Pod, StorageClass } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer, SharedInformerFactory } from '../../client/informer';
import type { Timeline } from '../../foundation/timeline/timeline';
import { ANN_SELECTED_NODE, podClaimNames } from '../../helpers/volume-util';

const SOURCE = 'pkg/scheduler/framework/plugins/volumebinding';

export interface VolumeBindingConfig {
  /** BindPodVolumes polls the claims every second… */
  pollMs: number;
  /** …for bindTimeout (--bind-timeout-seconds of the plugin args, 600 s). */
  bindTimeoutMs: number;
}

export const DEFAULT_VOLUME_BINDING_CONFIG: VolumeBindingConfig = { pollMs: 1000, bindTimeoutMs: 600_000 };

/**
 * P17 — kube-scheduler's VolumeBinding plugin (volume_binding.go, binder.go), for claims that a
 * provisioner fills: PreFilter refuses a pod whose claim is missing, being deleted, or unbound in
 * an Immediate class ("pod has unbound immediate PersistentVolumeClaims"); for an unbound claim of
 * a WaitForFirstConsumer class, PreBind writes the chosen node into the claim's
 * `volume.kubernetes.io/selected-node` annotation (BindPodVolumes) and holds the pod's binding
 * until every claim is bound (polled every second, for up to 600 s). Matching existing volumes
 * against the node (FindPodVolumes with node affinity) is not modelled: a bound claim's volume is
 * taken to be reachable from every node.
 */
export class VolumeBinding {
  readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly classes: SharedInformer<StorageClass>;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    private readonly identity: ClientIdentity,
    informers: SharedInformerFactory,
    readonly config: VolumeBindingConfig = DEFAULT_VOLUME_BINDING_CONFIG,
  ) {
    this.claims = informers.informerFor('persistentvolumeclaims');
    this.classes = informers.informerFor('storageclasses');
  }

  private claimsOf(pod: Pod): { name: string; pvc?: PersistentVolumeClaim }[] {
    return podClaimNames(pod).map((name) => ({ name, pvc: this.claims.get(`${pod.metadata.namespace}/${name}`) }));
  }

  private delayed(pvc: PersistentVolumeClaim): boolean {
    return this.classes.get(pvc.spec?.storageClassName ?? '')?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** PreFilter (podVolumeClaims): the reason the pod cannot be scheduled now, or undefined. */
  preFilter(pod: Pod): string | undefined {
    for (const { name, pvc } of this.claimsOf(pod)) {
      if (!pvc) return `persistentvolumeclaim "${name}" not found`;
      if (pvc.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
    }
    if (this.claimsOf(pod).some(({ pvc }) => !pvc!.spec?.volumeName && !this.delayed(pvc!)))
      return 'pod has unbound immediate PersistentVolumeClaims';
    return undefined;
  }

  /** A claim bound and its binding complete (binder.go isPVCFullyBound). */
  private static fullyBound(pvc: PersistentVolumeClaim | undefined): boolean {
    return !!pvc?.spec?.volumeName && !!pvc.metadata.annotations?.['pv.kubernetes.io/bind-completed'];
  }

  /**
   * PreBindPreFlight (volume_binding.go): Skip when every claim of the pod is already bound — PreBind
   * has nothing to do — else Success (it will write selected-node and wait).
   */
  hasPreBindWork(pod: Pod): boolean {
    return !this.claimsOf(pod).every(({ pvc }) => VolumeBinding.fullyBound(pvc));
  }

  /** PreBind (BindPodVolumes): selected-node on the unbound delayed claims, then wait for them all to be bound; `bind` or `fail` after. */
  preBind(pod: Pod, node: string, bind: () => void, fail: (message: string) => void): void {
    for (const { pvc } of this.claimsOf(pod)) {
      if (!pvc || pvc.spec?.volumeName || !this.delayed(pvc) || pvc.metadata.annotations?.[ANN_SELECTED_NODE] === node)
        continue;
      this.timeline.record(
        'scheduler',
        `persistentvolumeclaims/${pvc.metadata.name} waits for its volume on ${node} (selected-node)`,
        `${SOURCE}/binder.go BindPodVolumes`,
        { actor: this.identity.name },
      );
      this.api.patch(this.identity, 'persistentvolumeclaims', pvc.metadata.namespace, pvc.metadata.name!, 'merge', {
        metadata: { annotations: { [ANN_SELECTED_NODE]: node } },
      });
    }
    const deadline = this.clock.now() + this.config.bindTimeoutMs;
    const poll = () => {
      const claims = this.claimsOf(pod);
      if (claims.every(({ pvc }) => VolumeBinding.fullyBound(pvc))) return bind();
      if (this.clock.now() >= deadline) return fail('binding volumes: context deadline exceeded');
      this.clock.after(this.config.pollMs, poll);
    };
    poll();
  }
}

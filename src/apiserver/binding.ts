import { conflict } from '../apimachinery/errors';
import type { Pod } from '../apimachinery/types';
import type { Clock } from '../foundation/clock';
import type { Release } from '../foundation/release';
import { updatePodCondition } from '../helpers/pod-util';
import { podStatusStrategy } from './pod-strategy';
import type { Store } from './store';

export const BINDING_SOURCE = 'pkg/registry/core/pod/storage/storage.go BindingREST.setPodHostAndAnnotations';

/**
 * pods/binding (pkg/registry/core/pod/storage/storage.go BindingREST.setPodHostAndAnnotations):
 * a pod that is being deleted, or already bound, cannot be bound (R60); nor, with
 * PodSchedulingReadiness, one that still has scheduling gates. Binding sets spec.nodeName and
 * the PodScheduled=True condition in one write; with ClearingNominatedNodeNameAfterBinding (β on
 * 1.35, KEP-5278) it also clears status.nominatedNodeName, a hint that has served its purpose (W66).
 */
export function setPodHostAndAnnotations(
  pods: Store<Pod>,
  clock: Clock,
  release: Release,
  namespace: string,
  name: string,
  nodeName: string,
): Pod {
  const r = pods.update(
    namespace,
    name,
    (pod) => {
      // BindingREST.assignPod: errors of the update function become a Conflict on "pods/binding".
      if (pod.metadata.deletionTimestamp)
        throw conflict('pods/binding', name, `pod ${name} is being deleted, cannot be assigned to a host`);
      if (pod.spec?.nodeName)
        throw conflict('pods/binding', name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
      if (release.enabled('PodSchedulingReadiness') && (pod.spec?.schedulingGates ?? []).length > 0)
        throw conflict('pods/binding', name, `pod ${name} has non-empty .spec.schedulingGates`);
      pod.spec = { ...pod.spec!, nodeName };
      const status = { ...pod.status };
      if (release.enabled('ClearingNominatedNodeNameAfterBinding')) delete status.nominatedNodeName;
      updatePodCondition(status, { type: 'PodScheduled', status: 'True' }, clock.now());
      pod.status = status;
      return pod;
    },
    { strategy: { ...podStatusStrategy, prepareForUpdate: () => undefined, validateUpdate: () => [] } },
  );
  return r.object;
}

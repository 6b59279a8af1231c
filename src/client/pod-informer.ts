import type { Pod } from '../apimachinery/types';
import type { SharedInformer, SharedInformerFactory } from './informer';

/** The shared pod informer (informers.Core().V1().Pods()). */
export type PodInformer = SharedInformer<Pod>;

/** The index controller_utils.go AddPodNodeNameIndexer adds: pods by spec.nodeName. */
export const POD_NODE_NAME_INDEX = 'spec.nodeName';

/**
 * kube-controller-manager's shared pod informer with the spec.nodeName index, which the node
 * lifecycle and taint eviction controllers read (getPodsAssignedToNode, podLister.Get): a node's
 * pods cost what the node holds, not the cluster.
 */
/** What an unscheduled pod is filed under, shared so that its events allocate nothing for the index. */
const NO_VALUES: readonly string[] = [];

export function podInformer(factory: SharedInformerFactory): PodInformer {
  const informer = factory.informerFor('pods');
  if (!informer.hasIndexer(POD_NODE_NAME_INDEX)) {
    // Every pod event computes the values of its old and new copy: one array per node, not per call.
    const values = new Map<string, readonly string[]>();
    informer.addIndexer(POD_NODE_NAME_INDEX, (pod) => {
      const node = pod.spec?.nodeName;
      if (!node) return NO_VALUES;
      let filed = values.get(node);
      if (filed === undefined) values.set(node, (filed = [node]));
      return filed;
    });
  }
  return informer;
}

/** getPodsAssignedToNode: the node's pods in namespace/name order, as a LIST returns them. */
export function podsAssignedToNode(informer: PodInformer, nodeName: string): Pod[] {
  return informer.byIndex(POD_NODE_NAME_INDEX, nodeName);
}

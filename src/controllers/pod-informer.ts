import type { ApiServer } from '../apiserver/apiserver';
import type { Pod } from '../apiserver/types';

/** What a handler is told: the informer's previous copy and the new one (undefined once deleted). */
export type PodChangeHandler = (key: string, old: Pod | undefined, pod: Pod | undefined) => void;

/**
 * kube-controller-manager's shared pod informer (informers.SharedInformerFactory Core().V1().Pods(),
 * one watch for every controller that asks for it) with the spec.nodeName index that
 * controller_utils.go AddPodNodeNameIndexer adds: the pod lister's cache by namespace/name, the
 * pods bound to each node, and the event handlers of the controllers sharing it. Controllers read
 * it instead of LISTing pods, as upstream's node lifecycle and taint eviction controllers do
 * (getPodsAssignedToNode, podLister.Get): a node's pods cost what the node holds, not the cluster.
 */
export class PodInformer {
  /** The lister's cache, keyed namespace/name. */
  private readonly pods = new Map<string, Pod>();
  /** The spec.nodeName index: node → its pods by namespace/name. */
  private readonly byNode = new Map<string, Map<string, Pod>>();
  private readonly handlers: PodChangeHandler[] = [];

  constructor(private readonly api: ApiServer) {}

  /** AddEventHandler: `handler` runs after the cache and the index have taken the change. */
  addEventHandler(handler: PodChangeHandler): void {
    this.handlers.push(handler);
  }

  /** Run: the informer's watch (from now on: it is started with the cluster, before any pod exists). */
  start(): void {
    this.api.watch('pods', undefined, {}, (e) => {
      const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
      const old = this.pods.get(key);
      const pod = e.type === 'DELETED' ? undefined : e.object;
      if (pod) this.pods.set(key, pod);
      else this.pods.delete(key);
      this.index(key, old, pod);
      for (const handler of this.handlers) handler(key, old, pod);
    });
  }

  /** podLister.Get: the cached copy, keyed namespace/name. */
  get(key: string): Pod | undefined {
    return this.pods.get(key);
  }

  /** getPodsAssignedToNode (the index's ByIndex): the node's pods in namespace/name order, as a LIST returns them. */
  podsAssignedToNode(nodeName: string): Pod[] {
    const onNode = this.byNode.get(nodeName);
    if (!onNode) return [];
    return [...onNode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pod]) => pod);
  }

  /** Keeps the spec.nodeName index in step with the cache. */
  private index(key: string, old: Pod | undefined, pod: Pod | undefined): void {
    const from = old?.spec?.nodeName;
    const to = pod?.spec?.nodeName;
    if (from !== undefined && from !== to) this.byNode.get(from)?.delete(key);
    if (to === undefined || !pod) return;
    let onNode = this.byNode.get(to);
    if (!onNode) this.byNode.set(to, (onNode = new Map()));
    onNode.set(key, pod);
  }
}

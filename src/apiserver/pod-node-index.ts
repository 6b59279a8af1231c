import type { Etcd, EtcdEvent, StoredObject } from './etcd';

const PODS = '/registry/pods/';

/**
 * The pods' keys by `spec.nodeName`, as kube-apiserver's watch cache indexes them: the pod
 * registry gives the cacher the index `Indexers()` → `FieldIndex("spec.nodeName")`:
 * NodeNameIndexFunc, and MatchPod names spec.nodeName among the predicate's IndexFields
 * (pkg/registry/core/pod/strategy.go, present through 1.26–1.36); a LIST whose field selector
 * requires `spec.nodeName=NODE` then reads that index instead of every pod (cacher GetList:
 * pred.MatcherIndex → the watch cache's list by index). Before 1.31 (ConsistentListFromCache) a
 * LIST without resourceVersion went to etcd and scanned; the answer is the same either way, so
 * this changes only the cost: the index narrows the candidates, the selector still decides, and
 * the items stay in key order. Unscheduled pods are indexed under '', as upstream's are.
 */
export class PodNodeIndex {
  private readonly byNode = new Map<string, Set<string>>();

  constructor(private readonly etcd: Etcd) {
    for (const [key, value] of etcd.listEntries(PODS)) this.add(nodeNameOf(value), key);
    // Etcd tells its listeners of each write as it happens, so the index is current at every read.
    etcd.subscribe((e) => this.apply(e));
  }

  /** The current pods under `prefix` whose spec.nodeName is `node`, with their keys, in key order. */
  entries(node: string, prefix: string): [string, StoredObject][] {
    const keys = [...(this.byNode.get(node) ?? [])].filter((k) => k.startsWith(prefix));
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys.map((k) => [k, this.etcd.get(k)!.value]);
  }

  private apply(e: EtcdEvent): void {
    if (!e.key.startsWith(PODS)) return;
    const before = e.prev === undefined ? undefined : nodeNameOf(e.prev);
    const after = e.type === 'PUT' ? nodeNameOf(e.value) : undefined;
    if (before === after) return;
    if (before !== undefined) this.remove(before, e.key);
    if (after !== undefined) this.add(after, e.key);
  }

  private add(node: string, key: string): void {
    let keys = this.byNode.get(node);
    if (!keys) this.byNode.set(node, (keys = new Set()));
    keys.add(key);
  }

  private remove(node: string, key: string): void {
    const keys = this.byNode.get(node);
    keys?.delete(key);
    if (keys?.size === 0) this.byNode.delete(node);
  }
}

/** The value the index is keyed by (NodeNameIndexFunc: pod.Spec.NodeName, '' when unscheduled). */
function nodeNameOf(pod: StoredObject): string {
  return (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
}

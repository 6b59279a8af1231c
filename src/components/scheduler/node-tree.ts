import type { Node } from '../../apimachinery/types';

/**
 * The zone a node is grouped under (k8s.io/component-helpers/node/topology GetZoneKey): its region
 * and zone labels (topology.kubernetes.io/…, else the deprecated failure-domain.beta.kubernetes.io/…),
 * or "" when it has neither.
 */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\u0000:${zone}`;
}

/**
 * The scheduler cache's nodeTree (pkg/scheduler/backend/cache/node_tree.go): node names grouped by
 * zone, each zone in the order its nodes were added, the zones in the order they first appeared.
 * `list()` is the order of the scheduler's snapshot (cache.go updateNodeInfoSnapshotList): one node
 * of each zone in turn, so that the round-robin search of schedule_one.go (W65) spreads over zones.
 * A node whose zone labels change moves to the end of its new zone; a removed node leaves the
 * others in their order. The list is rebuilt only when the tree changed, as UpdateSnapshot does.
 */
export class NodeTree {
  private readonly tree = new Map<string, string[]>();
  private readonly zoneOf = new Map<string, string>();
  private cached: string[] | undefined;

  get size(): number {
    return this.zoneOf.size;
  }

  /** addNode, or updateNode when the node is known (it moves only if its zone changed). */
  set(node: Node): void {
    const name = node.metadata.name!;
    const zone = zoneKey(node);
    const old = this.zoneOf.get(name);
    if (old === zone) return;
    if (old !== undefined) this.remove(name);
    const names = this.tree.get(zone);
    if (names) names.push(name);
    else this.tree.set(zone, [name]);
    this.zoneOf.set(name, zone);
    this.cached = undefined;
  }

  /** removeNode (removeZone once a zone is empty). */
  remove(name: string): void {
    const zone = this.zoneOf.get(name);
    if (zone === undefined) return;
    const names = this.tree.get(zone)!;
    names.splice(names.indexOf(name), 1);
    if (names.length === 0) this.tree.delete(zone);
    this.zoneOf.delete(name);
    this.cached = undefined;
  }

  /** list: the zones interleaved, the i-th node of every zone before the (i+1)-th of any. */
  list(): readonly string[] {
    if (this.cached) return this.cached;
    const zones = [...this.tree.values()];
    const out: string[] = [];
    for (let i = 0; out.length < this.zoneOf.size; i++)
      for (const names of zones) if (i < names.length) out.push(names[i]);
    this.cached = out;
    return out;
  }
}

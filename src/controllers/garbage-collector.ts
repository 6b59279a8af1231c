import type { ApiServer, ClientIdentity, Resource } from '../apiserver/apiserver';
import type { KubeObject } from '../apiserver/object';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../apiserver/validation';
import type { Clock } from '../clock';
import type { Timeline } from '../timeline/timeline';

const SOURCE = 'pkg/controller/garbagecollector/garbagecollector.go';
const IDENTITY: ClientIdentity = { name: 'garbage-collector', component: 'gc' };

/** The kinds whose ownership the simulated collector follows: ReplicaSets own Pods. */
const WATCHED: readonly Resource[] = ['replicasets', 'pods'];

interface Item {
  resource: Resource;
  object: KubeObject;
}

/**
 * The garbage collector (pkg/controller/garbagecollector): it keeps a graph of owners and
 * dependents from its watches and acts when an owner goes away or is being deleted:
 * - attemptToDeleteItem: a dependent whose owners are all gone is deleted (Background, with a UID
 *   precondition);
 * - processDeletingDependentsItem: an owner held by `foregroundDeletion` has its dependents deleted
 *   and loses the finalizer once no dependent with blockOwnerDeletion remains;
 * - orphanDependents: an owner held by `orphan` has its ownerReferences removed from every dependent,
 *   then loses the finalizer.
 * It works one step per change, on a zero-delay queue, as its workers do.
 */
export class GarbageCollector {
  /** The graph's nodes by uid (uidToNode) and, for each owner uid, its dependents (owner → dependents edges). */
  private readonly items = new Map<string, Item>();
  private readonly dependents = new Map<string, Set<string>>();
  /** attemptToDelete / attemptToOrphan queues, merged: uids to look at again. */
  private readonly queue = new Set<string>();
  /** Finalizer removals already sent, so a stale copy in the graph does not send them twice. */
  private readonly finalizersRemoved = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
  ) {}

  start(): void {
    for (const resource of WATCHED) {
      const list = this.api.list(resource, undefined);
      if (list.ok) for (const o of list.object.items) this.upsert({ resource, object: o });
      this.api.watch(resource, undefined, { resourceVersion: list.ok ? list.object.resourceVersion : undefined }, (e) => {
        if (e.type === 'DELETED') this.remove(e.object.metadata.uid!);
        else this.upsert({ resource, object: e.object });
      });
    }
  }

  /** processGraphChanges for an add/update: refresh the edges and look at the item, its owners and dependents. */
  private upsert(item: Item): void {
    const uid = item.object.metadata.uid!;
    const before = this.items.get(uid);
    for (const r of before?.object.metadata.ownerReferences ?? []) this.dependents.get(r.uid)?.delete(uid);
    this.items.set(uid, item);
    for (const r of item.object.metadata.ownerReferences ?? []) {
      if (!this.dependents.has(r.uid)) this.dependents.set(r.uid, new Set());
      this.dependents.get(r.uid)!.add(uid);
      this.enqueue(r.uid);
    }
    this.enqueue(uid);
    for (const d of this.dependents.get(uid) ?? []) this.enqueue(d);
  }

  /** processGraphChanges for a deletion: the dependents of a vanished owner are looked at again. */
  private remove(uid: string): void {
    const item = this.items.get(uid);
    this.items.delete(uid);
    for (const r of item?.object.metadata.ownerReferences ?? []) {
      this.dependents.get(r.uid)?.delete(uid);
      this.enqueue(r.uid);
    }
    for (const d of this.dependents.get(uid) ?? []) this.enqueue(d);
  }

  private enqueue(uid: string): void {
    if (this.queue.size === 0) this.clock.after(0, () => this.processQueue());
    this.queue.add(uid);
  }

  private processQueue(): void {
    const uids = [...this.queue];
    this.queue.clear();
    for (const uid of uids) {
      const item = this.items.get(uid);
      if (!item) continue;
      const meta = item.object.metadata;
      const finalizers = meta.finalizers ?? [];
      if (meta.deletionTimestamp && finalizers.includes(FINALIZER_ORPHAN)) this.orphanDependents(item);
      else if (meta.deletionTimestamp && finalizers.includes(FINALIZER_FOREGROUND)) this.processDeletingDependentsItem(item);
      this.attemptToDeleteItem(item);
    }
  }

  private dependentsOf(uid: string): Item[] {
    return [...(this.dependents.get(uid) ?? [])].map((d) => this.items.get(d)).filter((i): i is Item => i !== undefined);
  }

  /** attemptToDeleteItem: owners all gone → delete; an owner deleting in the foreground → delete too. */
  private attemptToDeleteItem(item: Item): void {
    const meta = item.object.metadata;
    const refs = meta.ownerReferences ?? [];
    if (refs.length === 0 || meta.deletionTimestamp) return;
    const owners = refs.map((r) => this.items.get(r.uid));
    const allGone = owners.every((o) => o === undefined);
    const ownerForeground = owners.some((o) => o?.object.metadata.deletionTimestamp && (o.object.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND));
    if (!allGone && !ownerForeground) return;
    const why = allGone ? `its owner ${refs.map((r) => `${r.kind.toLowerCase()}s/${r.name}`).join(', ')} is gone` : 'its owner is being deleted in the foreground';
    this.timeline.record('gc', `delete ${item.resource}/${meta.name}: ${why}`, `${SOURCE} attemptToDeleteItem`);
    this.api.delete(IDENTITY, item.resource, meta.namespace, meta.name!, { propagationPolicy: 'Background', preconditions: { uid: meta.uid } });
  }

  /** processDeletingDependentsItem: the owner keeps foregroundDeletion until its blocking dependents are gone. */
  private processDeletingDependentsItem(owner: Item): void {
    const uid = owner.object.metadata.uid!;
    const blocking = this.dependentsOf(uid).filter((d) => (d.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion));
    if (blocking.length > 0) return;
    this.removeFinalizer(owner, FINALIZER_FOREGROUND, 'no dependent blocks its deletion any more');
  }

  /** orphanDependents: remove the owner's references from every dependent, then the orphan finalizer. */
  private orphanDependents(owner: Item): void {
    const uid = owner.object.metadata.uid!;
    for (const d of this.dependentsOf(uid)) {
      const refs = (d.object.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      this.timeline.record('gc', `orphan ${d.resource}/${d.object.metadata.name}: remove ownerReference to ${owner.resource}/${owner.object.metadata.name}`, `${SOURCE} orphanDependents`);
      this.api.patch(IDENTITY, d.resource, d.object.metadata.namespace, d.object.metadata.name!, 'merge', { metadata: { ownerReferences: refs.length ? refs : null } });
    }
    this.removeFinalizer(owner, FINALIZER_ORPHAN, 'its dependents are orphaned');
  }

  /** removeFinalizer: a JSON merge patch of the finalizer list, sent once per owner and finalizer. */
  private removeFinalizer(item: Item, finalizer: string, why: string): void {
    const meta = item.object.metadata;
    const key = `${meta.uid} ${finalizer}`;
    if (this.finalizersRemoved.has(key)) return;
    this.finalizersRemoved.add(key);
    this.timeline.record('gc', `remove finalizer ${finalizer} from ${item.resource}/${meta.name}: ${why}`, `${SOURCE} removeFinalizer`);
    const finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    this.api.patch(IDENTITY, item.resource, meta.namespace, meta.name!, 'merge', { metadata: { finalizers } });
  }
}

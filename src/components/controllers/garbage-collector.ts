import type { ClientIdentity, Resource } from '../../apiserver/apiserver';
import { customResources, SERVED_RESOURCES } from '../../apiserver/resources';
import { builtinKind } from '../../apiserver/kinds';
import type { Watch } from '../../apiserver/watch';
import { jsonEqual, type KubeObject } from '../../apimachinery/object';
import type { DeleteOptions, OwnerReference } from '../../apimachinery/types';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../apimachinery/validation';
import { ControllerBase } from './controller-base';
import type { ControllerContext } from './controller-manager';

const SOURCE = 'pkg/controller/garbagecollector/garbagecollector.go';
const OPERATIONS = 'pkg/controller/garbagecollector/operations.go';
const IDENTITY: ClientIdentity = { name: 'garbage-collector', component: 'gc' };

/**
 * The built-in kinds the collector follows: every served kind but Events (garbagecollector.go
 * DefaultIgnoredResources), so a dependent of any kind is collected and an owner of any served
 * kind is resolved (graph_builder.go monitors every deletable resource). Custom resources join
 * at the next Sync after their CRD is Established.
 */
const WATCHED: readonly Resource[] = [
  ...new Set(SERVED_RESOURCES.filter((r) => !builtinKind(r.storage)?.gcIgnored).map((r) => r.storage)),
];

/** kube-controller-manager's startGarbageCollectorController: `go garbageCollector.Sync(ctx, discoveryClient, 30*time.Second)`. */
export const GC_SYNC_PERIOD_MS = 30_000;

/** A REST mapping: the resource of a kind and whether it is namespaced. */
interface Mapping {
  resource: Resource;
  namespaced: boolean;
}

/**
 * The REST mapping of the built-in kinds (by kind alone: their kinds are unique here); an
 * ownerReference to a kind that neither these nor the custom resources known at the last Sync
 * map cannot be resolved, and the collector leaves its dependent alone, as attemptToDeleteItem
 * does when the RESTMapper does not find the owner's kind.
 */
const BUILTIN_MAPPINGS: Readonly<Record<string, Mapping>> = Object.fromEntries(
  SERVED_RESOURCES.map((r) => [r.kind, { resource: r.storage, namespaced: r.namespaced }]),
);

interface Item {
  resource: Resource;
  object: KubeObject;
}

type Policy = 'Orphan' | 'Foreground' | 'Background';

/** Nothing the graph follows changed: the same owner references and finalizers (stored versions share unchanged parts), the same deletion. */
function sameForGraph(old: KubeObject, obj: KubeObject): boolean {
  return (
    old.metadata.ownerReferences === obj.metadata.ownerReferences &&
    old.metadata.finalizers === obj.metadata.finalizers &&
    old.metadata.deletionTimestamp === obj.metadata.deletionTimestamp
  );
}

const isDeletingDependents = (o: KubeObject): boolean =>
  !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND);
const ref = (item: Item): string => `${item.resource}/${item.object.metadata.name}`;

/**
 * The garbage collector (pkg/controller/garbagecollector; rules C1–C3): a graph of owners and dependents built
 * from its watches (graph_builder.go), and workers that act on it:
 * - attemptToDeleteItem: a dependent whose owners are all gone, or being deleted in the
 *   foreground, is deleted with preconditions on its uid (and, from v1.34, resourceVersion); one that still has a
 *   live owner only loses its references to the vanished ones;
 * - processDeletingDependentsItem: an owner held by `foregroundDeletion` loses the finalizer once
 *   no dependent with blockOwnerDeletion is left in the graph (the others are deleted, not waited for);
 * - attemptToOrphanWorker: an owner held by `orphan` has its ownerReference removed from every
 *   dependent, then loses the finalizer.
 * Owners are looked up live (isDangling: a GET, compared by uid), as upstream does. Work runs on
 * zero-delay queues, as the workers do.
 */
export class GarbageCollector extends ControllerBase {
  /** uidToNode: the graph's nodes by uid, and for each owner uid its dependents. */
  private readonly items = new Map<string, Item>();
  private readonly dependents = new Map<string, Set<string>>();
  /** attemptToDelete / attemptToOrphan: uids to look at again. */
  private readonly attemptToDelete = new Set<string>();
  private readonly attemptToOrphan = new Set<string>();
  private scheduled = false;

  /** The monitors (graph_builder.go monitors): one list and watch per resource followed. */
  private readonly monitors = new Map<Resource, Watch | undefined>();
  /** The custom kinds of the RESTMapper, by `group/Kind`, as read at the last Sync. */
  private customMappings = new Map<string, Mapping>();
  /** Dependents whose owner's kind the RESTMapper did not know: looked at again after the next Sync. */
  private readonly unresolved = new Set<string>();
  /** The built-in resources monitored: those the release serves (MutatingAdmissionPolicy only from 1.36). */
  private readonly builtin: readonly Resource[];

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.builtin = WATCHED.filter((r) => builtinKind(r)?.served?.(this.release) !== false);
  }

  start(): this {
    for (const resource of this.builtin) this.monitor(resource);
    this.clock.after(GC_SYNC_PERIOD_MS, () => this.sync(), { background: true });
    return this;
  }

  /** One monitor: list, then watch from the list's resourceVersion; its events feed the graph. */
  private monitor(resource: Resource): void {
    const list = this.api.list(resource, undefined);
    if (list.ok) for (const o of list.object.items) this.upsert({ resource, object: o }, undefined);
    const w = this.api.watch(
      resource,
      undefined,
      { resourceVersion: list.ok ? list.object.resourceVersion : undefined },
      (e) => {
        const uid = e.object.metadata.uid!;
        if (e.type === 'DELETED') return this.remove(uid);
        const known = this.items.get(uid);
        // Most updates (a status change) leave the owner references, the finalizers and the
        // deletion alone: processGraphChanges then finds no reference diff and no transition, and
        // the node only takes the new copy.
        if (known !== undefined && sameForGraph(known.object, e.object)) known.object = e.object;
        else this.upsert({ resource, object: e.object }, known?.object);
      },
    );
    this.monitors.set(resource, w.ok ? w.object : undefined);
  }

  /**
   * A7 — GarbageCollector.Sync, every 30 s (GC_SYNC_PERIOD_MS): discovery is read again
   * (GetDeletableResources: the built-in kinds and the custom resources of Established CRDs); when
   * it changed, the RESTMapper is reset and the monitors are resynced — the new resources listed
   * and watched, those gone stopped. Until then a custom resource is neither followed nor mapped:
   * an ownerReference to its kind waits for this Sync.
   */
  private sync(): void {
    const custom = customResources(this.api).filter(
      (r) => r.verbs.includes('delete') && r.verbs.includes('list') && r.verbs.includes('watch'),
    );
    // Without custom resources (an idle cluster's every Sync) the built-in list itself is what is wanted.
    const wanted =
      custom.length === 0 ? this.builtin : [...new Set<Resource>([...this.builtin, ...custom.map((r) => r.storage)])];
    const changed = wanted.length !== this.monitors.size || wanted.some((r) => !this.monitors.has(r));
    if (changed) {
      this.timeline.record(
        'gc',
        `resync monitors: ${custom.length === 0 ? 'no custom resources' : [...new Set(custom.map((r) => r.storage))].join(', ')}`,
        `${SOURCE} Sync`,
      );
      this.customMappings = new Map(
        custom.map((r) => [`${r.group}/${r.kind}`, { resource: r.storage, namespaced: r.namespaced }]),
      );
      for (const [resource, w] of this.monitors) {
        if (wanted.includes(resource)) continue;
        w?.stop();
        this.monitors.delete(resource);
      }
      for (const resource of wanted) if (!this.monitors.has(resource)) this.monitor(resource);
      for (const uid of this.unresolved) this.enqueue(this.attemptToDelete, uid);
      this.unresolved.clear();
    }
    this.clock.after(GC_SYNC_PERIOD_MS, () => this.sync(), { background: true });
  }

  /** The RESTMapper: a built-in kind, or a custom kind known at the last Sync. */
  private mappingOf(r: OwnerReference): Mapping | undefined {
    const slash = r.apiVersion.indexOf('/');
    const group = slash < 0 ? '' : r.apiVersion.slice(0, slash);
    return this.customMappings.get(`${group}/${r.kind}`) ?? BUILTIN_MAPPINGS[r.kind];
  }

  /** processGraphChanges for an add/update: refresh the edges, then processTransitions. */
  private upsert(item: Item, old: KubeObject | undefined): void {
    const uid = item.object.metadata.uid!;
    const before = old?.metadata.ownerReferences ?? [];
    const after = item.object.metadata.ownerReferences ?? [];
    this.items.set(uid, item);
    for (const r of before) {
      if (!after.some((a) => a.uid === r.uid)) this.dependents.get(r.uid)?.delete(uid);
    }
    for (const r of after) {
      if (!this.dependents.has(r.uid)) this.dependents.set(r.uid, new Set());
      this.dependents.get(r.uid)!.add(uid);
    }
    // addDependentToOwners: an owner never observed is a virtual node, verified by attemptToDelete.
    for (const r of after)
      if (!before.some((b) => b.uid === r.uid) && !this.items.has(r.uid)) this.enqueue(this.attemptToDelete, uid);
    // addUnblockedOwnersToDeleteQueue: a removed or no longer blocking reference may free an owner waiting in the foreground.
    for (const r of before) {
      const now = after.find((a) => a.uid === r.uid);
      if (r.blockOwnerDeletion && !now?.blockOwnerDeletion) {
        const owner = this.items.get(r.uid);
        if (owner && isDeletingDependents(owner.object)) this.enqueue(this.attemptToDelete, r.uid);
      }
    }
    const meta = item.object.metadata;
    const finalizers = meta.finalizers ?? [];
    const wasOrphaning =
      !!old?.metadata.deletionTimestamp && (old.metadata.finalizers ?? []).includes(FINALIZER_ORPHAN);
    if (meta.deletionTimestamp && finalizers.includes(FINALIZER_ORPHAN) && !wasOrphaning) {
      this.enqueue(this.attemptToOrphan, uid); // startsWaitingForDependentsOrphaned
      return;
    }
    if (isDeletingDependents(item.object) && !(old && isDeletingDependents(old))) {
      // startsWaitingForDependentsDeleted: every dependent is looked at, then the owner.
      for (const d of this.dependents.get(uid) ?? []) this.enqueue(this.attemptToDelete, d);
      this.enqueue(this.attemptToDelete, uid);
    }
  }

  /** processGraphChanges for a deletion: the dependents of a vanished owner, and owners waiting for it, are looked at again. */
  private remove(uid: string): void {
    const item = this.items.get(uid);
    this.items.delete(uid);
    for (const d of this.dependents.get(uid) ?? []) this.enqueue(this.attemptToDelete, d);
    this.dependents.delete(uid);
    for (const r of item?.object.metadata.ownerReferences ?? []) {
      this.dependents.get(r.uid)?.delete(uid);
      const owner = this.items.get(r.uid);
      if (owner && isDeletingDependents(owner.object)) this.enqueue(this.attemptToDelete, r.uid);
    }
  }

  private enqueue(queue: Set<string>, uid: string): void {
    queue.add(uid);
    if (this.scheduled) return;
    this.scheduled = true;
    this.clock.after(0, () => this.runWorkers());
  }

  /** The workers: attemptToOrphan, then attemptToDelete, until both queues are empty for now. */
  private runWorkers(): void {
    this.scheduled = false;
    const orphan = [...this.attemptToOrphan];
    this.attemptToOrphan.clear();
    for (const uid of orphan) {
      const item = this.items.get(uid);
      if (item) this.attemptToOrphanWorker(item);
    }
    const del = [...this.attemptToDelete];
    this.attemptToDelete.clear();
    for (const uid of del) {
      const item = this.items.get(uid);
      if (item) this.attemptToDeleteItem(item);
    }
  }

  private dependentsOf(uid: string): Item[] {
    return [...(this.dependents.get(uid) ?? [])]
      .map((d) => this.items.get(d))
      .filter((i): i is Item => i !== undefined);
  }

  /** getObject: a live GET of the item (the graph may lag). */
  private getObject(item: Item): KubeObject | undefined {
    const got = this.api.get(item.resource, item.object.metadata.namespace, item.object.metadata.name!);
    return got.ok ? (got.object as KubeObject) : undefined;
  }

  /**
   * isDangling + classifyReferences: each owner is looked up live by name and compared by uid.
   * Dangling: not found (or another uid); waitingForDependentsDeletion: found with deletionTimestamp
   * and foregroundDeletion; solid: the rest. Undefined when an owner kind cannot be resolved.
   */
  private classifyReferences(
    item: Item,
    refs: readonly OwnerReference[],
  ): { solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] } | undefined {
    const out = { solid: [] as OwnerReference[], dangling: [] as OwnerReference[], waiting: [] as OwnerReference[] };
    for (const r of refs) {
      const mapping = this.mappingOf(r);
      if (!mapping) {
        // apiResource: a REST mapping error; the item is retried (with back-off upstream) and succeeds once a Sync maps the kind.
        this.unresolved.add(item.object.metadata.uid!);
        return undefined;
      }
      const got = this.api.get(
        mapping.resource,
        mapping.namespaced ? item.object.metadata.namespace : undefined,
        r.name,
      );
      if (!got.ok || got.object.metadata.uid !== r.uid) out.dangling.push(r);
      else if (isDeletingDependents(got.object as KubeObject)) out.waiting.push(r);
      else out.solid.push(r);
    }
    return out;
  }

  /** attemptToDeleteItem (garbagecollector.go). */
  private attemptToDeleteItem(item: Item): void {
    // "being deleted" is a one-way trip to the final deletion.
    if (item.object.metadata.deletionTimestamp && !isDeletingDependents(item.object)) return;
    const latest = this.getObject(item);
    if (!latest || latest.metadata.uid !== item.object.metadata.uid) return; // virtual delete event
    // The graph may not have seen the deletionTimestamp yet; the live copy has (upstream would send a no-op DELETE).
    if (latest.metadata.deletionTimestamp && !isDeletingDependents(latest)) return;
    if (isDeletingDependents(latest)) return this.processDeletingDependentsItem({ ...item, object: latest });
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const classified = this.classifyReferences(item, refs);
    if (!classified) return;
    const { solid, dangling, waiting } = classified;
    const name = ref(item);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Remove the dangling and waiting references, so that no owner is stuck with foregroundDeletion.
      const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
      const describe = [
        ...dangling.map((r) => `${r.kind.toLowerCase()}s/${r.name} (gone)`),
        ...waiting.map((r) => `${r.kind.toLowerCase()}s/${r.name} (deleting in the foreground)`),
      ].join(', ');
      this.timeline.record(
        'gc',
        `remove ownerReferences of ${name} to ${describe}: it still has owner ${solid.map((r) => `${r.kind.toLowerCase()}s/${r.name}`).join(', ')}`,
        `${SOURCE} attemptToDeleteItem`,
      );
      this.patchOwnerReferences(item, latest, (r) => !gone.has(r.uid));
      return;
    }
    let policy: Policy;
    let why: string;
    if (waiting.length > 0 && (this.dependents.get(latest.metadata.uid!)?.size ?? 0) > 0) {
      // Its owner waits for it in the foreground, and it has dependents of its own: deleted in the foreground too.
      // (upstream first makes its own references non-blocking when a dependent also waits, to break cycles; not modelled)
      policy = 'Foreground';
      why = 'its owner is being deleted in the foreground and it has dependents';
    } else {
      // No solid owner: collected, honouring a GC finalizer it already carries.
      const finalizers = latest.metadata.finalizers ?? [];
      policy = finalizers.includes(FINALIZER_ORPHAN)
        ? 'Orphan'
        : finalizers.includes(FINALIZER_FOREGROUND)
          ? 'Foreground'
          : 'Background';
      why =
        waiting.length > 0
          ? `its owner ${waiting.map((r) => `${r.kind.toLowerCase()}s/${r.name}`).join(', ')} is being deleted in the foreground`
          : `its owner ${dangling.map((r) => `${r.kind.toLowerCase()}s/${r.name}`).join(', ')} is gone`;
    }
    this.timeline.record('gc', `delete ${name}: ${why}`, `${SOURCE} attemptToDeleteItem`);
    this.deleteObject(item, latest, policy);
  }

  /**
   * deleteObject (operations.go): DELETE with the propagation policy and preconditions on uid and
   * resourceVersion; on a Conflict where only the resourceVersion moved (same owners), once more
   * without the resourceVersion. The resourceVersion precondition and the retry came with v1.34
   * (kubernetes#132632, issue #114603): up to v1.33 the precondition is the uid alone, so a
   * dependent changed between the GC's GET and its DELETE is deleted all the same.
   */
  private deleteObject(item: Item, latest: KubeObject, policy: Policy): void {
    const meta = latest.metadata;
    const options = (rv: string | undefined): DeleteOptions => ({
      propagationPolicy: policy,
      preconditions: { uid: meta.uid, ...(rv ? { resourceVersion: rv } : {}) },
    });
    if (!this.release.atLeast(34)) {
      this.client.delete(item.resource, meta.namespace, meta.name!, options(undefined));
      return;
    }
    const r = this.client.delete(item.resource, meta.namespace, meta.name!, options(meta.resourceVersion));
    if (r.ok || r.code !== 409 || !meta.resourceVersion) return;
    const live = this.getObject(item);
    if (
      live &&
      live.metadata.uid === meta.uid &&
      live.metadata.resourceVersion !== meta.resourceVersion &&
      jsonEqual(live.metadata.ownerReferences ?? [], meta.ownerReferences ?? [])
    ) {
      this.client.delete(item.resource, meta.namespace, meta.name!, options(undefined));
    }
  }

  /** processDeletingDependentsItem: the owner keeps foregroundDeletion while a blocking dependent remains in the graph. */
  private processDeletingDependentsItem(owner: Item): void {
    const uid = owner.object.metadata.uid!;
    const blocking = this.dependentsOf(uid).filter((d) =>
      (d.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion),
    );
    if (blocking.length === 0) {
      this.removeFinalizer(owner, FINALIZER_FOREGROUND, 'no dependent with blockOwnerDeletion is left');
      return;
    }
    for (const d of blocking)
      if (!isDeletingDependents(d.object)) this.enqueue(this.attemptToDelete, d.object.metadata.uid!);
  }

  /** attemptToOrphanWorker: orphanDependents (each dependent loses its reference to the owner), then the orphan finalizer goes. */
  private attemptToOrphanWorker(owner: Item): void {
    const uid = owner.object.metadata.uid!;
    for (const d of this.dependentsOf(uid)) {
      const latest = this.getObject(d);
      if (!latest || latest.metadata.uid !== d.object.metadata.uid) continue; // NotFound is ignored
      this.timeline.record(
        'gc',
        `orphan ${ref(d)}: remove its ownerReference to ${ref(owner)}`,
        `${SOURCE} orphanDependents`,
      );
      this.patchOwnerReferences(d, latest, (r) => r.uid !== uid);
    }
    this.removeFinalizer(owner, FINALIZER_ORPHAN, 'its dependents are orphaned');
  }

  /**
   * The ownerReferences patch (gc.patch): upstream sends a strategic merge patch deleting the
   * references by uid, with the dependent's uid as precondition; the simulated apiserver takes JSON
   * merge patches, so this is the fallback upstream uses for custom resources
   * (deleteOwnerRefJSONMergePatch): the remaining list, computed from a live read.
   */
  private patchOwnerReferences(item: Item, latest: KubeObject, keep: (r: OwnerReference) => boolean): void {
    const refs = (latest.metadata.ownerReferences ?? []).filter(keep);
    const meta = latest.metadata;
    this.client.patch(item.resource, meta.namespace, meta.name!, 'merge', {
      metadata: { resourceVersion: meta.resourceVersion, ownerReferences: refs.length ? refs : null },
    });
  }

  /**
   * removeFinalizer (operations.go): GET the owner; if the finalizer is still there, a JSON merge
   * patch of the remaining finalizers (null when none is left) with its resourceVersion.
   */
  private removeFinalizer(item: Item, finalizer: string, why: string): void {
    const latest = this.getObject(item);
    if (!latest || !(latest.metadata.finalizers ?? []).includes(finalizer)) return;
    const meta = latest.metadata;
    this.timeline.record(
      'gc',
      `remove finalizer ${finalizer} from ${ref(item)}: ${why}`,
      `${OPERATIONS} removeFinalizer`,
    );
    const finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    this.client.patch(item.resource, meta.namespace, meta.name!, 'merge', {
      metadata: { resourceVersion: meta.resourceVersion, finalizers: finalizers.length ? finalizers : null },
    });
  }
}

import type { ApiServer, Resource, ResourceType } from '../apiserver/apiserver';
import type { KubeObject } from '../apimachinery/object';

/** What a handler is told: the informer's previous copy and the new one (undefined once deleted). */
export type ChangeHandler<T> = (key: string, old: T | undefined, obj: T | undefined) => void;

/** An index function (cache.IndexFunc): the values an object is filed under (none: not indexed). */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** cache.MetaNamespaceKeyFunc: namespace/name, or the name alone for a cluster-scoped object. */
export function keyOf(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : name!;
}

/** cache.SplitMetaNamespaceKey. */
export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: undefined, name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

const byKey = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * client-go's SharedIndexInformer (tools/cache/shared_informer.go) for one resource: one list and
 * watch, a lister cache by namespace/name, indexes (cache.Indexers), and the event handlers of
 * every controller sharing it, each run after the cache and the indexes took the change.
 * Controllers read it instead of calling the apiserver, as upstream's listers do, so what a
 * controller looks at costs what it needs, not what the cluster holds.
 */
export class SharedInformer<T extends KubeObject> {
  private readonly cache = new Map<string, T>();
  /**
   * The cache's keys by namespace, each set in the order the cache first saw its keys (as the
   * cache's own order): the namespace index every client-go lister has (cache.NamespaceIndex), so
   * that a lister's List of one namespace walks that namespace, not the whole cache.
   */
  private readonly byNamespace = new Map<string, Set<string>>();
  private readonly indexers = new Map<string, Indexer<T>>();
  /** The same indexers, in the order they were added, for the walk of every event. */
  private readonly indexerList: Indexer<T>[] = [];
  private readonly handlers: ChangeHandler<T>[] = [];
  /**
   * Each handler's rank, parallel to `handlers`: the position of the component that registered it
   * in kube-controller-manager's start order (SharedInformerFactory.registering), so a controller
   * that starts late (lazily, on its first object) still runs its handlers where it would have.
   */
  private readonly ranks: number[] = [];
  /** Run once, before the cache takes in the first object that `matches` (a lazily started controller). */
  private triggers: { matches: (obj: T) => boolean; start: () => void }[] = [];
  private started = false;
  /**
   * The newest resourceVersion the store has taken in (from its LIST, then from each watch event):
   * client-go's LastStoreSyncResourceVersion (tools/cache/thread_safe_store.go, v1.36), which the
   * controllers' consistency store compares their own writes with.
   */
  lastSyncResourceVersion = 0;

  constructor(
    private readonly api: ApiServer,
    readonly resource: Resource,
    /** The rank a handler registered now gets (Infinity: after every other, in registration order). */
    private readonly currentRank: () => number = () => Number.POSITIVE_INFINITY,
  ) {}

  /**
   * AddIndexers. A controller that starts lazily adds its indexes to an informer that runs
   * already: the objects cached so far are filed at once, so the index reads as if it had been
   * added before the informer started (kube-controller-manager adds every index before
   * informerFactory.Start; the simulation starts a controller on its first object instead).
   */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`the ${this.resource} informer has an index "${name}" already`);
    const indexer = { fn, index: new Map<string, Set<string>>() };
    for (const [key, obj] of this.cache) reindex(indexer, key, undefined, obj);
    this.indexers.set(name, indexer);
    this.indexerList.push(indexer);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /** AddEventHandler: an informer already running replays its cache as additions, as client-go does for a late handler. */
  addEventHandler(handler: ChangeHandler<T>): void {
    // After the handlers of the same or a lower rank: in registration order within a rank.
    const rank = this.currentRank();
    let at = this.ranks.length;
    while (at > 0 && this.ranks[at - 1] > rank) at--;
    this.handlers.splice(at, 0, handler);
    this.ranks.splice(at, 0, rank);
    if (this.started) for (const [key, obj] of [...this.cache].sort(byKey)) handler(key, undefined, obj);
  }

  /**
   * Runs `start` once, just before the cache takes in the first object that `matches` (or at once
   * when the cache holds one already): a controller started then registers its handlers in time
   * to be told of that object, as if it had been running from the start.
   */
  beforeFirst(matches: (obj: T) => boolean, start: () => void): void {
    for (const obj of this.cache.values())
      if (matches(obj)) {
        start();
        return;
      }
    this.triggers.push({ matches, start });
  }

  /** Forgets a `beforeFirst` trigger that has not fired (its controller started, or was stopped, otherwise). */
  dropTrigger(start: () => void): void {
    this.triggers = this.triggers.filter((t) => t.start !== start);
  }

  /** Run: list, then watch from the list's resourceVersion (the Reflector's ListAndWatch). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const list = this.api.list(this.resource, undefined);
    if (!list.ok) throw new Error(`the ${this.resource} informer cannot list: ${list.status.message}`);
    this.lastSyncResourceVersion = Number(list.object.resourceVersion) || 0;
    for (const obj of list.object.items as unknown as T[]) this.apply(keyOf(obj), obj);
    this.api.watch(this.resource, undefined, { resourceVersion: list.object.resourceVersion }, (e) => {
      const obj = e.object as unknown as T;
      const rv = Number(obj.metadata.resourceVersion);
      if (rv > this.lastSyncResourceVersion) this.lastSyncResourceVersion = rv;
      this.apply(keyOf(obj), e.type === 'DELETED' ? undefined : obj);
    });
  }

  /** How many objects the cache holds. */
  get size(): number {
    return this.cache.size;
  }

  /** Lister Get: the cached copy by namespace/name. */
  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  /** Lister List, in key order (as a LIST returns objects), optionally of one namespace. */
  list(namespace?: string): T[] {
    const out: [string, T][] = [];
    for (const entry of this.cache)
      if (namespace === undefined || entry[1].metadata.namespace === namespace) out.push(entry);
    return out.sort(byKey).map(([, obj]) => obj);
  }

  /**
   * The cached objects of one namespace (or all) in the order the cache first saw them, unsorted:
   * for callers that only count or filter (a lister List whose order upstream leaves undefined),
   * without list()'s sort.
   */
  *scan(namespace?: string): Iterable<T> {
    if (namespace === undefined) {
      yield* this.cache.values();
      return;
    }
    const keys = this.byNamespace.get(namespace);
    if (keys !== undefined) for (const key of keys) yield this.cache.get(key)!;
  }

  /** Indexer ByIndex, in key order. */
  byIndex(indexName: string, value: string): T[] {
    const indexer = this.indexers.get(indexName);
    if (!indexer) throw new Error(`the ${this.resource} informer has no index "${indexName}"`);
    const filed = indexer.index.get(value);
    if (!filed) return [];
    const keys = [...filed].sort();
    const out: T[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = this.cache.get(keys[i])!;
    return out;
  }

  /** How many objects are filed under `value` (len(ByIndex) without building the list). */
  countByIndex(indexName: string, value: string): number {
    const indexer = this.indexers.get(indexName);
    if (!indexer) throw new Error(`the ${this.resource} informer has no index "${indexName}"`);
    return indexer.index.get(value)?.size ?? 0;
  }

  private fireTriggers(obj: T): void {
    // Every event of the kind passes here while a trigger waits (the Job controller's for a pod
    // with its tracking finalizer may wait for the whole run): no array unless one fires.
    let found: typeof this.triggers | undefined;
    for (const t of this.triggers) if (t.matches(obj)) (found ??= []).push(t);
    if (found === undefined) return;
    const fired = found;
    this.triggers = this.triggers.filter((t) => !fired.includes(t));
    for (const t of fired) t.start();
  }

  private apply(key: string, obj: T | undefined): void {
    if (obj !== undefined && this.triggers.length > 0) this.fireTriggers(obj);
    const old = this.cache.get(key);
    if (obj) this.cache.set(key, obj);
    else this.cache.delete(key);
    // Only an addition or a deletion changes the namespace index (an update keeps the key).
    if (old === undefined || obj === undefined) fileByNamespace(this.byNamespace, key, obj !== undefined);
    // Index loops: every event of the kind passes here (a pod's, about a dozen handlers).
    const indexers = this.indexerList;
    for (let i = 0; i < indexers.length; i++) reindex(indexers[i], key, old, obj);
    const handlers = this.handlers;
    for (let i = 0; i < handlers.length; i++) handlers[i](key, old, obj);
  }
}

/** Files `key` under its namespace (the part before the slash; none for a cluster-scoped object) or takes it out. */
function fileByNamespace(byNamespace: Map<string, Set<string>>, key: string, present: boolean): void {
  const slash = key.indexOf('/');
  if (slash < 0) return;
  const namespace = key.slice(0, slash);
  let keys = byNamespace.get(namespace);
  if (present) {
    if (keys === undefined) byNamespace.set(namespace, (keys = new Set()));
    keys.add(key);
  } else if (keys !== undefined) {
    keys.delete(key);
    if (keys.size === 0) byNamespace.delete(namespace);
  }
}

/**
 * One index: its function and the keys filed under each value (cache.Index, value → set of keys;
 * ByIndex reads the objects from the cache), so an update that keeps an object's values changes
 * nothing here.
 */
interface Indexer<T> {
  fn: IndexFunc<T>;
  index: Map<string, Set<string>>;
}

/**
 * Moves `key` from the values `old` was filed under to the ones `obj` (undefined: deleted) is
 * filed under now (thread_safe_store.go updateSingleIndex).
 */
function reindex<T>({ fn, index }: Indexer<T>, key: string, old: T | undefined, obj: T | undefined): void {
  const before = old && fn(old);
  const after = obj && fn(obj);
  // Most updates (a status change) keep the one value the object had: nothing to refile, as
  // updateSingleIndex's shortcut for an unchanged single value.
  if (
    before !== undefined &&
    after !== undefined &&
    before.length === 1 &&
    after.length === 1 &&
    before[0] === after[0]
  )
    return;
  if (before !== undefined) {
    for (const v of before) {
      if (after?.includes(v)) continue;
      // An emptied value is dropped, so that the values of objects long gone (an owner's uid) do not stay.
      const filed = index.get(v)!;
      filed.delete(key);
      if (filed.size === 0) index.delete(v);
    }
  }
  if (after === undefined) return;
  for (const v of after) {
    let filed = index.get(v);
    if (!filed) index.set(v, (filed = new Set()));
    filed.add(key);
  }
}

/**
 * informers.SharedInformerFactory: one informer per resource for all of kube-controller-manager,
 * so controllers that look at the same kind share one watch and one cache.
 */
export class SharedInformerFactory {
  private readonly informers = new Map<Resource, SharedInformer<KubeObject>>();
  private started = false;
  /** The rank of the handlers registered now (see `registering`). */
  private rank = Number.POSITIVE_INFINITY;
  private readonly rankNow = (): number => this.rank;

  constructor(private readonly api: ApiServer) {}

  /**
   * Runs `register` with `rank` as the rank of every handler it adds to this factory's
   * informers: each informer runs its handlers in rank order, so a component that registers late
   * (a controller started on its first object) runs where its place in the start order puts it.
   * Handlers added outside this run after every ranked one, in the order they were added.
   */
  registering<X>(rank: number, register: () => X): X {
    const outer = this.rank;
    this.rank = rank;
    try {
      return register();
    } finally {
      this.rank = outer;
    }
  }

  /** The shared informer of `resource` (created on first request; started at once if the factory runs already). */
  informerFor<R extends Resource>(resource: R): SharedInformer<ResourceType[R]> {
    let informer = this.informers.get(resource);
    if (!informer) {
      informer = new SharedInformer<KubeObject>(this.api, resource, this.rankNow);
      this.informers.set(resource, informer);
      if (this.started) informer.start();
    }
    return informer as unknown as SharedInformer<ResourceType[R]>;
  }

  /** Start: runs every informer asked for so far (and, from now on, each new one as it is asked for). */
  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }
}

import { compare, type Operation } from 'fast-json-patch';
import BTree from 'sorted-btree';
import type { RevisionReader, Timeline } from '../foundation/timeline/timeline';

/** A stored object: plain JSON, frozen so no component can change history behind the store's back. */
export type StoredObject = Readonly<Record<string, unknown>>;

/** One change in the revision history; `value` carries `metadata.resourceVersion` = revision. */
export interface EtcdEvent {
  readonly revision: number;
  readonly type: 'PUT' | 'DELETE';
  readonly key: string;
  /** The new value (PUT) or the last stored value with the deletion's revision (DELETE). */
  readonly value: StoredObject;
  /** The value before this change (absent for a create). */
  readonly prev?: StoredObject;
  /** The API request that caused this write (see ApiServer), for "what did the last request change". */
  readonly requestId: number;
  readonly at: number;
}

interface KeyValue {
  readonly value: StoredObject;
  readonly modRevision: number;
}

export class EtcdConflict extends Error {}

const ETCD_SOURCE = 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go';
// The etcd lane's sources, each one string built once: the timeline interns sources by value, and
// a string concatenated anew per write would be flattened and hashed again at every event.
const CREATE_SOURCE = `${ETCD_SOURCE} Create`;
const UPDATE_SOURCE = `${ETCD_SOURCE} GuaranteedUpdate`;
const DELETE_SOURCE = `${ETCD_SOURCE} conditionalDelete`;

/**
 * A revisioned key-value store modelled on etcd as kube-apiserver uses it: one global revision
 * counter, every write (create, update, delete) takes the next revision (R52), an object's
 * resourceVersion is the revision of its last write. The history is kept in full (scenarios read
 * it for their report), or, once `compact` is called (a `serve` session), from the compacted
 * revision on, as etcd's compaction drops the superseded versions.
 */
export class Etcd {
  private revision = 1;
  private readonly data = new Map<string, KeyValue>();
  private readonly keys = new KeyIndex();
  private history: EtcdEvent[] = [];
  /** The revision of history[0]: 2 until a compaction dropped the oldest changes. */
  private base = 2;
  /** The revision of the last physical compaction (0: none). */
  private compactedTo = 0;
  private readonly byKey = new Map<string, EtcdEvent[]>();
  private readonly listeners = new Set<(e: EtcdEvent) => void>();
  /** Set by the apiserver around each request so writes can be attributed to it. */
  currentRequestId = 0;
  /**
   * The etcd lane's events keep only their revision: text and patch (from the previous stored
   * version, computed when someone reads it) come from this history, their one owner.
   */
  private readonly lane: RevisionReader = {
    text: (revision) => {
      const change = this.change(revision)!;
      return `${change.type} ${change.key} rev=${revision}`;
    },
    patch: (revision) => {
      const change = this.change(revision);
      return change?.type === 'PUT' && change.prev ? diff(change.prev, change.value) : undefined;
    },
  };

  constructor(
    private readonly timeline: Timeline,
    private readonly now: () => number,
    /** Which keys' writes appear on the etcd lane (Event objects are kept off it). */
    private readonly recorded: (key: string) => boolean = () => true,
  ) {}

  get currentRevision(): number {
    return this.revision;
  }

  get(key: string): { value: StoredObject; modRevision: number } | undefined {
    return this.data.get(key);
  }

  /** All values whose key starts with `prefix`, in key order (etcd range reads are sorted). */
  list(prefix: string): StoredObject[] {
    return this.keys.range(prefix).map((k) => this.data.get(k)!.value);
  }

  /** Like list, with each value's key. */
  listEntries(prefix: string): [string, StoredObject][] {
    return this.keys.range(prefix).map((k) => [k, this.data.get(k)!.value]);
  }

  /** Create-if-absent (etcd3 store.Create: a txn on modRevision == 0). */
  create(key: string, value: Record<string, unknown>): StoredObject {
    if (this.data.has(key)) throw new EtcdConflict(`key exists: ${key}`);
    return this.put(key, value, undefined, CREATE_SOURCE);
  }

  /** Compare-and-swap on the key's modRevision (etcd3 GuaranteedUpdate's txn). */
  update(key: string, value: Record<string, unknown>, expectedModRevision: number): StoredObject {
    const current = this.data.get(key);
    if (!current || current.modRevision !== expectedModRevision) throw new EtcdConflict(`revision moved: ${key}`);
    return this.put(key, value, current.value, UPDATE_SOURCE);
  }

  /** Conditional delete at a known revision (etcd3 conditionalDelete). Returns the final state with the deletion revision. */
  delete(key: string, expectedModRevision: number): StoredObject {
    const current = this.data.get(key);
    if (!current || current.modRevision !== expectedModRevision) throw new EtcdConflict(`revision moved: ${key}`);
    this.revision += 1;
    this.data.delete(key);
    this.keys.remove(key);
    // R57/R15: the deleted object is the last stored state with its resourceVersion set to the deletion revision.
    const value = withResourceVersion(current.value, this.revision);
    if (this.recorded(key)) this.timeline.noteRevision('etcd', this.revision, this.lane, DELETE_SOURCE);
    this.emit({
      revision: this.revision,
      type: 'DELETE',
      key,
      value: deepFreeze(value),
      prev: current.value,
      requestId: this.currentRequestId,
      at: this.now(),
    });
    return value;
  }

  /** History from (and excluding) `afterRevision`, for a watch that resumes. */
  historySince(afterRevision: number): EtcdEvent[] {
    // Revisions are dense from `base` on, so this is an index, not a scan.
    const start = Math.max(0, afterRevision + 1 - this.base);
    return this.history.slice(start);
  }

  /** The change written at `revision` (undefined for the initial revision 1, a compacted one, or one not yet written), O(1). */
  change(revision: number): EtcdEvent | undefined {
    return revision < this.base ? undefined : this.history[revision - this.base];
  }

  /** The revision the history was last compacted to (0 when it is kept in full). */
  get compacted(): number {
    return this.compactedTo;
  }

  /**
   * etcd Compact(revision) (mvcc/kvstore.go compact, as kube-apiserver's compactor calls it):
   * every change up to `revision` leaves the history; what each key holds now stays. The keys
   * whose last change is compacted away (deleted ones) leave the per-key index too, so memory
   * follows what exists, not what ever existed.
   */
  compact(revision: number): void {
    const upTo = Math.min(revision, this.revision);
    if (upTo <= this.compactedTo) return;
    const drop = Math.max(0, upTo - this.base + 1);
    const dropped = this.history.slice(0, drop);
    // A fresh array: splice would keep the old backing store's capacity.
    this.history = this.history.slice(drop);
    this.base += drop;
    this.compactedTo = upTo;
    const perKey = new Map<string, number>();
    for (const e of dropped) perKey.set(e.key, (perKey.get(e.key) ?? 0) + 1);
    for (const [key, n] of perKey) {
      const list = this.byKey.get(key)!;
      if (list.length <= n) this.byKey.delete(key);
      else this.byKey.set(key, list.slice(n));
    }
  }

  fullHistory(): readonly EtcdEvent[] {
    return this.history;
  }

  /** Every change of one key, oldest first. */
  keyHistory(key: string): readonly EtcdEvent[] {
    return this.byKey.get(key) ?? [];
  }

  /**
   * The revision current at virtual time `atMs` (binary search over the time-ordered history);
   * at least the compacted revision, whose time the compacted history no longer holds.
   */
  revisionAt(atMs: number): number {
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid].at <= atMs) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? Math.max(1, this.compactedTo) : this.history[lo - 1].revision;
  }

  subscribe(listener: (e: EtcdEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private put(
    key: string,
    input: Record<string, unknown>,
    prev: StoredObject | undefined,
    source: string,
  ): StoredObject {
    this.revision += 1;
    const value = deepFreeze(withResourceVersion(input, this.revision));
    if (!prev) this.keys.add(key);
    this.data.set(key, { value, modRevision: this.revision });
    if (this.recorded(key)) this.timeline.noteRevision('etcd', this.revision, this.lane, source);
    this.emit({
      revision: this.revision,
      type: 'PUT',
      key,
      value,
      prev,
      requestId: this.currentRequestId,
      at: this.now(),
    });
    return value;
  }

  private emit(event: EtcdEvent): void {
    this.history.push(event);
    const perKey = this.byKey.get(event.key);
    if (perKey) perKey.push(event);
    else this.byKey.set(event.key, [event]);
    for (const listener of this.listeners) listener(event);
  }
}

/** JSON Patch between two stored versions, without the resourceVersion bookkeeping. */
export function diff(from: StoredObject, to: StoredObject): Operation[] {
  return compare(from as object, to as object).filter((op) => op.path !== '/metadata/resourceVersion');
}

/**
 * The version to store: `obj` with the revision as its resourceVersion. What etcd is given is its
 * own from then on (the storage encoder's fresh output, or a copy the caller made): the object and
 * its metadata are stamped in place while they are open — the encoder leaves those two levels to
 * etcd — and copied when frozen (a stored version being deleted, metadata shared with the one
 * before). An assignment puts a new member last, where the spread of a copy puts it.
 */
function withResourceVersion(obj: Record<string, unknown> | StoredObject, revision: number): Record<string, unknown> {
  const resourceVersion = String(revision);
  let metadata = obj.metadata as Record<string, unknown>;
  if (Object.isFrozen(metadata)) metadata = { ...metadata, resourceVersion };
  else metadata.resourceVersion = resourceVersion;
  if (Object.isFrozen(obj)) return { ...obj, metadata };
  (obj as Record<string, unknown>).metadata = metadata;
  return obj as Record<string, unknown>;
}

/**
 * Freezes what is not frozen yet. Versions built by the storage encoder arrive with every part
 * frozen but the object and its metadata, so this stops at their children.
 */
function deepFreeze<T>(obj: T): T {
  if (obj && typeof obj === 'object' && !Object.isFrozen(obj)) {
    Object.freeze(obj);
    // for-in, not Object.values: no array of the members per object (values are plain JSON).
    for (const key in obj) deepFreeze(obj[key]);
  }
  return obj;
}

/**
 * The keys in order, as etcd's index keeps them (mvcc/index.go treeIndex, a btree of keys): a
 * creation or deletion costs O(log keys) and a range read O(log keys + keys in the range), so a
 * read of a few keys under one prefix does not pay for the other resources' keys.
 */
export class KeyIndex {
  private readonly tree: BTree<string, undefined>;

  /** `compare` orders the keys as etcd does (bytewise); tests pass one that counts its calls. */
  constructor(compare: (a: string, b: string) => number = compareKeys) {
    this.tree = new BTree<string, undefined>(undefined, compare);
  }

  add(key: string): void {
    this.tree.set(key, undefined);
  }

  remove(key: string): void {
    this.tree.delete(key);
  }

  /** The keys starting with `prefix`, in order (clientv3.WithPrefix: the range [prefix, prefixEnd)). */
  range(prefix: string): string[] {
    const out: string[] = [];
    // An empty prefix is every key (GetPrefixRangeEnd gives "\x00", etcd's "to the end").
    if (prefix === '') return this.tree.keysArray();
    this.tree.forRange(prefix, prefixEnd(prefix), false, (k) => {
      out.push(k);
    });
    return out;
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The end of a prefix range, exclusive: the prefix with its last character raised by one
 * (clientv3.GetPrefixRangeEnd raises the last byte that is not 0xff). Keys here are paths that
 * end in '/', never in U+FFFF, so the last character can always be raised.
 */
function prefixEnd(prefix: string): string {
  const last = prefix.length - 1;
  return prefix.slice(0, last) + String.fromCharCode(prefix.charCodeAt(last) + 1);
}

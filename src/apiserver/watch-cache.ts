import type { Clock } from '../foundation/clock';
import type { Pod } from '../apimachinery/types';
import type { EtcdEvent } from './etcd';
import type { KubeObject } from '../apimachinery/object';
import { expired } from './list-options';
import type { RevisionReader } from '../foundation/timeline/timeline';
import type { Etcd } from './etcd';
import { toWatchEvent, Watch, type WatchEvent, type WatchFilter } from './watch';
import { builtinKinds } from './kinds';

/**
 * The watch cache's fan-out (staging/src/k8s.io/apiserver/pkg/storage/cacher): which open watches
 * an etcd change is offered to, and the key layout (/registry/<resource>/[<namespace>/]<name>)
 * it is read from.
 */

export const REGISTRY = '/registry/';
export const APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';

/** The resource segment a watch's prefix selects ('' for a prefix above the resources). */
export function bucketOf(prefix: string): string {
  return prefix.startsWith(REGISTRY) && prefix.indexOf('/', REGISTRY.length) > 0 ? resourceOf(prefix) : '';
}

/**
 * The resource a key belongs to: nodes are stored as minions, services and endpoints under
 * services/specs and services/endpoints; a segment with a dot is a group, followed by the plural
 * (CRDs under apiextensions.k8s.io/customresourcedefinitions, custom resources under <group>/<plural>).
 */
export function pluralOf(key: string): string {
  const resource = resourceOf(key);
  if (resource.includes('.')) {
    const start = REGISTRY.length + resource.length + 1;
    const plural = key.slice(start, key.indexOf('/', start));
    return resource === APIEXTENSIONS_GROUP ? plural : `${plural}.${resource}`;
  }
  const moved = STORED_ELSEWHERE.get(resource);
  if (moved === undefined) return resource;
  if (moved.length === 1) return moved[0].resource;
  return moved.find((k) => key.startsWith(`${REGISTRY}${k.etcdPrefix}/`))?.resource ?? resource;
}

/**
 * The kinds whose etcd segment is not their plural (kinds/: nodes as minions, services under
 * services/specs, endpoints under services/endpoints), by that segment; CRDs (under their group)
 * are read as a group segment above.
 */
const STORED_ELSEWHERE: ReadonlyMap<string, readonly { resource: string; etcdPrefix: string }[]> = (() => {
  const bySegment = new Map<string, { resource: string; etcdPrefix: string }[]>();
  for (const k of builtinKinds()) {
    if (k.etcdPrefix === undefined || k.etcdPrefix.includes('.')) continue;
    const segment = k.etcdPrefix.split('/')[0];
    if (segment === k.resource && !k.etcdPrefix.includes('/')) continue;
    bySegment.set(segment, [...(bySegment.get(segment) ?? []), { resource: k.resource, etcdPrefix: k.etcdPrefix }]);
  }
  return bySegment;
})();

/** The resource segment of a key, /registry/<resource>/[<namespace>/]<name>, without splitting it. */
export function resourceOf(key: string): string {
  return key.slice(REGISTRY.length, key.indexOf('/', REGISTRY.length));
}

export function nodeNameOf(o: unknown): string | undefined {
  return (o as Pod | undefined)?.spec?.nodeName;
}

/**
 * The open watches, with those that select pods by spec.nodeName indexed by that node (the watch
 * cache's indexed triggers, cacher NodeNameTriggerFunc): an event is offered only to the watches
 * of the nodes its old and new versions name, plus every unindexed watch.
 */
export class WatchIndex {
  /** The watches not indexed by node, by the resource segment of their prefix ('' for a watch of everything). */
  private readonly unindexed = new Map<string, Set<Watch>>();
  private readonly byNode = new Map<string, Set<Watch>>();

  constructor(
    private readonly clock: Clock,
    private readonly latencyMs: number,
  ) {}

  /**
   * handlers/watch.go + cacher.Watch: a watch of the keys under `prefix` from `resourceVersion`
   * (replaying the history after it), or from now. A revision older than the last compaction
   * answers 410 Expired, as etcd does.
   */
  open(
    etcd: Etcd,
    compactedRevision: () => number,
    prefix: string,
    opts: WatchOptions,
    handler: (e: WatchEvent) => void,
  ): Watch {
    const matches = opts.matches;
    const node = opts.nodeName;
    // fieldSelector spec.nodeName=NODE, as the kubelet asks for its pods.
    const filter: WatchFilter = {
      prefix,
      matches: node === undefined ? matches : (o) => nodeNameOf(o) === node && (!matches || matches(o)),
    };
    const initial = opts.initialState && (opts.resourceVersion === undefined || opts.resourceVersion === '0');
    // A streaming list's resourceVersion is a lower bound on the state it starts from (NotOlderThan),
    // not a point in history: the current state satisfies it, compacted or not.
    const from =
      opts.resourceVersion === undefined || initial || opts.sendInitialEvents
        ? undefined
        : Number(opts.resourceVersion);
    if (from !== undefined && from < compactedRevision()) {
      throw expired(`too old resource version: ${from} (${compactedRevision()})`);
    }
    const w: Watch = new Watch(this.clock, this.latencyMs, filter, handler, () => this.remove(w, node));
    if (opts.sendInitialEvents) {
      const revision = etcd.currentRevision;
      const events: WatchEvent[] = [];
      for (const [key, value] of etcd.listEntries(prefix)) {
        const event = w.eventFor({ revision, type: 'PUT', key, value, requestId: 0, at: this.clock.now() });
        if (event) events.push(event);
      }
      w.initialEvents = { events, revision };
    } else if (from !== undefined) for (const e of etcd.historySince(from)) w.offer(e);
    if (initial && !opts.sendInitialEvents) {
      const revision = etcd.currentRevision;
      for (const [key, value] of etcd.listEntries(prefix))
        w.offer({ revision, type: 'PUT', key, value, requestId: 0, at: this.clock.now() });
    }
    this.add(w, node);
    return w;
  }

  add(w: Watch, node: string | undefined): void {
    if (node === undefined) {
      const bucket = bucketOf(w.filter.prefix);
      let set = this.unindexed.get(bucket);
      if (!set) this.unindexed.set(bucket, (set = new Set()));
      set.add(w);
    } else {
      let set = this.byNode.get(node);
      if (!set) this.byNode.set(node, (set = new Set()));
      set.add(w);
    }
  }

  remove(w: Watch, node: string | undefined): void {
    if (node === undefined) this.unindexed.get(bucketOf(w.filter.prefix))?.delete(w);
    else this.byNode.get(node)?.delete(w);
  }

  /**
   * The zero-latency hand-offs not yet run: the watches and their events in offer order, and how
   * many of them each hand-off delivers. Hand-offs run in the order they were queued, so each
   * takes the next batch from the front: an offer allocates no arrays and no closure of its own.
   */
  private readonly pendingWatches: Watch[] = [];
  private readonly pendingEvents: WatchEvent[] = [];
  private readonly batchSizes: number[] = [];
  private pendingHead = 0;
  private batchHead = 0;
  private readonly deliverBatch = (): void => this.deliverNextBatch();

  /**
   * Offers one change to the watches interested in it (the watches of the event's resource — a
   * pod's change is not offered to the watches of EndpointSlices: the watch cache keeps one
   * cacher per resource —, then the node-indexed ones). With a latency each watch hands it over
   * on its own timer. Without one, a single zero-delay hand-off delivers it to all of them in the
   * same order: their own hand-offs would have been queued back to back (nothing runs between
   * them), and whatever a handler hands off in turn still runs after the last of them.
   */
  offer(e: EtcdEvent): void {
    const a = nodeNameOf(e.value);
    const b = nodeNameOf(e.prev);
    const queued = this.pendingWatches.length;
    this.offerTo(this.unindexed.get(''), e);
    this.offerTo(this.unindexed.get(resourceOf(e.key)), e);
    if (a !== undefined) this.offerTo(this.byNode.get(a), e);
    if (b !== undefined && b !== a) this.offerTo(this.byNode.get(b), e);
    this.sharedChange = undefined;
    this.sharedEvent = undefined;
    const n = this.pendingWatches.length - queued;
    if (n === 0) return;
    this.batchSizes.push(n);
    this.clock.after(0, this.deliverBatch);
  }

  private offerTo(watches: Set<Watch> | undefined, e: EtcdEvent): void {
    if (watches === undefined) return;
    for (const w of watches) {
      if (this.latencyMs > 0) {
        w.offer(e);
        continue;
      }
      const event = w.filter.matches === undefined ? this.unfilteredEventFor(w, e) : w.eventFor(e);
      if (event === undefined) continue;
      this.pendingWatches.push(w);
      this.pendingEvents.push(event);
    }
  }

  /** The change being offered and the event every watch without a predicate gets for it. */
  private sharedChange: EtcdEvent | undefined;
  private sharedEvent: WatchEvent | undefined;

  /**
   * What a watch without a predicate gets depends on the change alone (toWatchEvent): its watches
   * share one event object (no handler writes to an event) instead of one each — a slice write
   * reaches every node's kube-proxy.
   */
  private unfilteredEventFor(w: Watch, e: EtcdEvent): WatchEvent | undefined {
    if (w.isStopped || !e.key.startsWith(w.filter.prefix)) return undefined;
    if (this.sharedChange !== e) {
      this.sharedChange = e;
      this.sharedEvent = toWatchEvent(e, EVERY_KEY);
    }
    return this.sharedEvent;
  }

  private deliverNextBatch(): void {
    const start = this.pendingHead;
    const end = start + this.batchSizes[this.batchHead++];
    const watches = this.pendingWatches;
    const events = this.pendingEvents;
    // Taken off the queue first: a handler that throws ends its batch (as it ended the hand-off
    // before), and the next hand-off still starts at its own batch.
    this.pendingHead = end;
    let i = start;
    try {
      for (; i < end; i++) {
        const w = watches[i];
        const event = events[i];
        // Delivered: the queue no longer holds what it handed over.
        watches[i] = undefined!;
        events[i] = undefined!;
        w.deliver(event);
      }
    } finally {
      // After a throw at i: what the batch had left goes with it.
      for (let j = i + 1; j < end; j++) {
        watches[j] = undefined!;
        events[j] = undefined!;
      }
      this.settleQueue();
    }
  }

  /** Empties the delivered front of the queue: all of it once everything is handed over, else now and then. */
  private settleQueue(): void {
    const watches = this.pendingWatches;
    const events = this.pendingEvents;
    if (this.batchHead === this.batchSizes.length) {
      // Everything handed over (the usual case at the end of each hand-off run): start afresh.
      if (this.pendingHead === watches.length) {
        watches.length = 0;
        events.length = 0;
        this.pendingHead = 0;
      }
      this.batchSizes.length = 0;
      this.batchHead = 0;
    } else if (this.pendingHead > 4096 && this.pendingHead * 2 > watches.length) {
      // Hand-offs that keep queueing more (a long cascade): drop the delivered front now and then.
      watches.splice(0, this.pendingHead);
      events.splice(0, this.pendingHead);
      this.batchSizes.splice(0, this.batchHead);
      this.pendingHead = 0;
      this.batchHead = 0;
    }
  }
}

/** A filter that lets every change through (its prefix was checked before). */
const EVERY_KEY: WatchFilter = { prefix: '' };

/** What a watch asks for besides its resource and namespace. */
export interface WatchOptions<T = KubeObject> {
  resourceVersion?: string;
  matches?: (o: T) => boolean;
  nodeName?: string;
  /**
   * Without a resourceVersion (or with "0"), begin with a synthetic ADDED event for every
   * object that exists now, as the watch cache does for "get state and start at most recent"
   * (cacher.Watch with an unset or zero resourceVersion). In-process callers that list first
   * leave it off.
   */
  initialState?: boolean;
  /**
   * A streaming list (sendInitialEvents=true; cacher.Watch with SendInitialEvents): the
   * current state as ADDED events in key order, handed back at once in `Watch.initialEvents`
   * with the revision they are at (the watch cache serves them from memory, before any live
   * event), and the watch continues from that revision.
   */
  sendInitialEvents?: boolean;
}

/** The watch lane's text of an etcd revision, read back from etcd's history (`MODIFIED pods/web rv=7`). */
export function watchLaneReader(etcd: Etcd): RevisionReader {
  return {
    text: (revision) => {
      const e = etcd.change(revision)!;
      const type = e.type === 'DELETE' ? 'DELETED' : e.prev ? 'MODIFIED' : 'ADDED';
      const plural = pluralOf(e.key);
      return `${type} ${plural}/${e.key.slice(e.key.lastIndexOf('/') + 1)} rv=${revision}`;
    },
    patch: () => undefined,
  };
}

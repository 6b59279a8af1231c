import type { Resource } from '../../apiserver/apiserver';
import type { KubeObject } from '../../apimachinery/object';
import type { Component } from '../../foundation/timeline/event';
import type { Timeline } from '../../foundation/timeline/timeline';
import { keyOf } from '../../client/informer';

/** What the store reads of an informer (consistency.LastSyncRVGetter): the newest resourceVersion it has taken in. */
export interface LastSyncRVGetter {
  readonly lastSyncResourceVersion: number;
}

/**
 * Staleness mitigation of kube-controller-manager (KEP-5647, v1.36): a controller remembers, per
 * object it reconciles (its "owner": a ReplicaSet, StatefulSet, DaemonSet or Job), the newest
 * resourceVersion of each resource it wrote for it — the owner's status, the pods it created or
 * deleted —, and before its next sync of that owner it compares them with the newest
 * resourceVersion its informer of that resource has taken in. While an informer is behind a write,
 * the sync is skipped and the key requeued with the rate limiter's back-off (the sync returns an
 * error), so the controller never acts again on a cache that has not seen its own last write.
 *
 * Upstream: pkg/controller/util/consistency `RealConsistencyStore` (`WroteAt`, `Clear`,
 * `EnsureReady`, `ConsistencyError`), read against client-go's store
 * `LastStoreSyncResourceVersion` (tools/cache/thread_safe_store.go, AtomicFIFO, v1.36);
 * wired into the DaemonSet (kubernetes#134937), Job (#137210), ReplicaSet (#137212) and
 * StatefulSet (#137254) controllers, each behind its own StaleControllerConsistency… gate (β on
 * in v1.36).
 */
export class ConsistencyStore {
  /** Owner key (namespace/name) → the owner's uid and, per resource, the newest resourceVersion written. */
  private readonly writes = new Map<string, { uid: string; versions: Map<Resource, number> }>();

  constructor(
    /** The informers whose resourceVersion a write is compared with, by resource. */
    private readonly stores: Partial<Record<Resource, LastSyncRVGetter>>,
  ) {}

  /**
   * WroteAt: `owner`'s controller wrote `resource` at `resourceVersion`; keeps the newest per
   * resource. A record of another owner with the same name (a different uid) is replaced.
   */
  wroteAt(owner: KubeObject, resource: Resource, resourceVersion: string | undefined): void {
    const rv = Number(resourceVersion);
    // A version that is not a number is never compared (CompareResourceVersion's error: skipped).
    if (!resourceVersion || !Number.isSafeInteger(rv)) return;
    const key = keyOf(owner);
    const uid = owner.metadata.uid ?? '';
    let record = this.writes.get(key);
    if (!record || record.uid !== uid) this.writes.set(key, (record = { uid, versions: new Map() }));
    if ((record.versions.get(resource) ?? -1) < rv) record.versions.set(resource, rv);
  }

  /** Clear: forget `key`'s writes — those of the owner with that uid, or any when no uid is given. */
  clear(key: string, uid?: string): void {
    const record = this.writes.get(key);
    if (record && (uid === undefined || record.uid === uid)) this.writes.delete(key);
  }

  /**
   * EnsureReady: undefined when every informer has taken in at least what was written for `key`
   * (the record is then dropped), otherwise the first resource that is behind.
   */
  ensureReady(key: string): ConsistencyError | undefined {
    const record = this.writes.get(key);
    if (!record) return undefined;
    for (const [resource, wrote] of record.versions) {
      const store = this.stores[resource];
      if (!store) continue;
      const read = store.lastSyncResourceVersion;
      if (wrote > read) return { resource, wrote, read };
    }
    this.writes.delete(key);
    return undefined;
  }
}

/** ConsistencyError: the resource whose informer is behind, what it has read and what was written. */
export interface ConsistencyError {
  readonly resource: Resource;
  readonly read: number;
  readonly wrote: number;
}

/**
 * The "cache is stale, skip" decision at the top of a controller's sync (replica_set.go
 * syncReplicaSet, stateful_set.go sync, daemon_controller.go syncDaemonSet, job_controller.go
 * syncJob, all from v1.36): with its gate on and an informer behind the controller's last write
 * for this owner, the sync does nothing, says so on the timeline, and answers an error, which the
 * work queue turns into AddRateLimited (5 ms, 10 ms, … per key). Undefined: go on with the sync.
 */
export function skipSyncWhileCacheIsStale(args: {
  enabled: boolean;
  store: ConsistencyStore;
  key: string;
  /** The owner as the timeline names it, e.g. `rs/web`. */
  owner: string;
  component: Component;
  actor: string;
  /** The upstream sync function, e.g. `pkg/controller/replicaset/replica_set.go syncReplicaSet`. */
  source: string;
  timeline: Timeline;
}): Error | undefined {
  if (!args.enabled) return undefined;
  const stale = args.store.ensureReady(args.key);
  if (!stale) return undefined;
  const why = `its ${stale.resource} cache has read resourceVersion ${stale.read}, older than its last write ${stale.wrote}`;
  args.timeline.record(
    args.component,
    `skips sync of ${args.owner}: cache older than its last write (${why})`,
    `${args.source} → consistencyStore.EnsureReady (KEP-5647)`,
    { actor: args.actor },
  );
  return new Error(
    `read version: ${stale.read} is not as new as written version: ${stale.wrote} for group resource ${stale.resource}`,
  );
}

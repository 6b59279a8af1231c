import type { Clock } from '../foundation/clock';
import type { EtcdEvent } from './etcd';
import type { KubeObject } from '../apimachinery/object';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Which objects a watch sees: a key prefix plus an optional predicate (field/label selector). */
export interface WatchFilter {
  prefix: string;
  matches?: (obj: KubeObject) => boolean;
}

/**
 * Turns one etcd change into the event a filtered watcher receives (etcd3 watcher.go
 * `transform`/`prepareObjs`, cacher `cacheWatcher.convertToWatchEvent`; R56–R58): an update that
 * makes the object match is ADDED for that watcher, one that makes it stop matching is DELETED
 * carrying the previous state with the update's resourceVersion.
 */
export function toWatchEvent(e: EtcdEvent, filter: WatchFilter): WatchEvent | undefined {
  if (!e.key.startsWith(filter.prefix)) return undefined;
  const match = filter.matches;
  const cur = e.value as unknown as KubeObject;
  const prev = e.prev as unknown as KubeObject | undefined;
  if (e.type === 'DELETE') return prev && (!match || match(prev)) ? { type: 'DELETED', object: cur } : undefined;
  const curMatches = !match || match(cur);
  const prevMatches = prev !== undefined && (!match || match(prev));
  if (curMatches && prevMatches) return { type: 'MODIFIED', object: cur };
  if (curMatches) return { type: 'ADDED', object: cur };
  // R58 — prepareObjs decodes the old object "with the etcd revision for the time at which it gets
  // deleted" (convertToWatchEvent: updateResourceVersion(oldObj, event.ResourceVersion)).
  if (prevMatches) return { type: 'DELETED', object: withResourceVersion(prev, e.revision) };
  return undefined;
}

/**
 * One open watch: events are handed to the client after the watch-delivery latency, always in
 * revision order. Each event rides its own timer (same latency, and timers due at the same
 * instant run in the order they were set), so there is no queue to shift: a burst of N events
 * costs O(N), however many wait.
 */
export class Watch {
  private stopped = false;
  /** A streaming list's initial state (ApiServer.watch with sendInitialEvents), at `revision`. */
  initialEvents: { events: WatchEvent[]; revision: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly latencyMs: number,
    readonly filter: WatchFilter,
    private readonly handler: (e: WatchEvent) => void,
    private readonly unsubscribe: () => void,
  ) {}

  offer(e: EtcdEvent): void {
    const event = this.eventFor(e);
    if (!event) return;
    this.clock.after(this.latencyMs, () => this.deliver(event));
  }

  /** The event this watch gets for a change (undefined when stopped or when the change is not for it). */
  eventFor(e: EtcdEvent): WatchEvent | undefined {
    return this.stopped ? undefined : toWatchEvent(e, this.filter);
  }

  /** Hands an event to the client, unless the watch stopped meanwhile. */
  deliver(event: WatchEvent): void {
    if (!this.stopped) this.handler(event);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

function withResourceVersion(obj: KubeObject, revision: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
}

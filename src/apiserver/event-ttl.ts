import type { Etcd, EtcdEvent } from './etcd';

/** kube-apiserver's --event-ttl default: an Event lives an hour after its last write. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60_000;

const EVENTS_PREFIX = '/registry/events/';

/**
 * R207 — kube-apiserver stores Events with an etcd lease of --event-ttl (pkg/registry/core/event/
 * storage: the store's TTLFunc), renewed by each write; etcd removes the key when its lease runs
 * out, and watchers see it DELETED. Here the leases are the time of each Event's last write, and
 * `expire` removes those that ran out (a `serve` session calls it at each compaction, so an Event
 * may outlive its hour by up to one compaction interval).
 */
export class EventTtl {
  /** Expiry by key, oldest write first (a write moves its key to the end). */
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly etcd: Etcd,
    private readonly ttlMs: number = DEFAULT_EVENT_TTL_MS,
  ) {}

  /** Follows the writes of Events (an etcd subscriber). */
  note(e: EtcdEvent): void {
    if (!e.key.startsWith(EVENTS_PREFIX)) return;
    this.expiries.delete(e.key);
    if (e.type === 'PUT') this.expiries.set(e.key, e.at + this.ttlMs);
  }

  /** Removes the Events whose lease ran out by `now`. */
  expire(now: number): void {
    for (const [key, at] of this.expiries) {
      if (at > now) break;
      const kv = this.etcd.get(key);
      // The delete's own etcd event comes back through note() and forgets the key.
      if (kv) this.etcd.delete(key, kv.modRevision);
      else this.expiries.delete(key);
    }
  }
}

import type { ApiResponse, ApiServer, Resource, ResourceType } from '../../apiserver/apiserver';
import type { Watch, WatchEvent } from '../../apiserver/watch';
import type { Clock, TimerHandle, TimerOptions } from '../../foundation/clock';
import { notFound } from '../../apimachinery/errors';

/** How one component's connection to the apiserver is perturbed. */
export interface ViewPerturbations {
  /** Watch events of these resources reach the component this much later (ms). */
  readonly late: ReadonlyMap<Resource, number>;
  /** Reads (GET, LIST) of these resources answer the state this long ago (ms): a stale cache. */
  readonly stale: ReadonlyMap<Resource, number>;
  /** Watch events of these resources are lost from T+fromMs until a relist at T+relistMs. */
  readonly missed?: ReadonlyMap<Resource, { fromMs: number; relistMs: number }>;
  /** The virtual time of T+0 (what `missed` counts from); undefined until the scenario starts. */
  readonly t0?: () => number | undefined;
  /**
   * Every request of the process takes this long (ms): the process runs that far behind the
   * apiserver — every watch event reaches it that late, every read answers the state of that long
   * ago, its clock reads that long ago — so what it writes lands that long after what it acted on.
   * Upstream: client-go rest/request.go Request.Do blocks its caller (a controller's worker) for
   * the round trip; this is that wait, for the first request of each reaction.
   */
  readonly behindMs?: number;
}

/**
 * One component process's view of the cluster, and the one place perturbations act on it
 * (issue 33): the apiserver as the process reaches it (`api`: its watches delivered late, its
 * reads served from a stale cache) and its clock (`clock`: its timers). `kill()` ends the process
 * as a crash does — its watches close, its pending timers and late deliveries never run — so a
 * restart is a new view and a new instance, which lists again from scratch (client-go's
 * Reflector ListAndWatch on start), with empty work queues and caches.
 *
 * A late watch keeps its order: every event of a resource waits the same time, and timers due at
 * one instant run in the order they were set. A component whose view has no perturbation is given
 * the apiserver and clock themselves: unperturbed runs pay nothing.
 */
export class ClientView {
  readonly api: ApiServer;
  readonly clock: Clock;
  private dead = false;
  private readonly watches = new Set<Watch>();
  private readonly timers = new Set<TimerHandle>();

  constructor(
    private readonly realApi: ApiServer,
    private readonly realClock: Clock,
    private readonly perturbations: ViewPerturbations,
    /** Where to note each resource the process watches (explore's unperturbed run), if anywhere. */
    private readonly watched?: Set<Resource>,
  ) {
    this.api = forwarding(realApi, {
      watch: this.watch.bind(this),
      get: this.get.bind(this),
      list: this.list.bind(this),
    });
    const behindMs = perturbations.behindMs ?? 0;
    // A process behind by D: its "now" is D ago, so a timer it sets for its time X fires at real X + D.
    const now = () => realClock.now() - behindMs;
    this.clock = forwarding(realClock, {
      now,
      after: (delayMs: number, fn: () => void, options?: TimerOptions) => this.timer(delayMs, fn, options),
      at: (atMs: number, fn: () => void, options?: TimerOptions) => this.timer(atMs - now(), fn, options),
    });
  }

  get isDead(): boolean {
    return this.dead;
  }

  /** The process dies: its watches close, and nothing it scheduled runs any more. */
  kill(): void {
    this.dead = true;
    for (const w of this.watches) w.stop();
    this.watches.clear();
    for (const t of this.timers) this.realClock.cancel(t);
    this.timers.clear();
  }

  private timer(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    if (this.dead) return { cancelled: true };
    const handle: TimerHandle = this.realClock.after(
      delayMs,
      () => {
        this.timers.delete(handle);
        if (!this.dead) fn();
      },
      options,
    );
    this.timers.add(handle);
    return handle;
  }

  private watch<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    opts: Parameters<ApiServer['watch']>[2],
    handler: (e: WatchEvent<ResourceType[R]>) => void,
  ): ApiResponse<Watch> {
    this.watched?.add(resource);
    const lateMs = Math.max(this.perturbations.late.get(resource) ?? 0, this.perturbations.behindMs ?? 0);
    let opened: Watch | undefined;
    const deliver =
      lateMs > 0
        ? (e: WatchEvent<ResourceType[R]>) => {
            // On the view's own clock: a late event still in flight when the process dies is lost with it.
            this.timer(lateMs, () => {
              if (!opened?.isStopped) handler(e);
            });
          }
        : handler;
    const missed = this.perturbations.missed?.get(resource);
    const r = this.realApi.watch(
      resource,
      namespace,
      opts as never,
      missed ? this.missing(resource, namespace, opts, missed, deliver, () => opened) : deliver,
    );
    if (r.ok) {
      opened = r.object;
      this.watches.add(opened);
    }
    return r;
  }

  /**
   * A watch that loses its events from T+fromMs on, until a relist at T+relistMs (client-go's
   * Reflector lists again after its watch broke: ListAndWatch → store Replace). The relist hands
   * the handler what changed meanwhile, as the informer's Replace does: ADDED for what is new,
   * MODIFIED for what changed, DELETED (with the last state seen) for what is gone, in key order.
   */
  private missing<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    opts: Parameters<ApiServer['watch']>[2],
    window: { fromMs: number; relistMs: number },
    deliver: (e: WatchEvent<ResourceType[R]>) => void,
    opened: () => Watch | undefined,
  ): (e: WatchEvent<ResourceType[R]>) => void {
    type T = ResourceType[R];
    const node = opts.nodeName;
    const matches = (o: T) =>
      (node === undefined || (o as { spec?: { nodeName?: string } }).spec?.nodeName === node) &&
      (!opts.matches || opts.matches(o));
    const keyOf = (o: T) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    // What the client holds: the state its watch starts from, then every event it was handed.
    const seen = new Map<string, T>();
    const start = opts.resourceVersion
      ? this.realApi.listPage(resource, namespace, {
          resourceVersion: opts.resourceVersion,
          resourceVersionMatch: 'Exact',
        })
      : this.realApi.list(resource, namespace);
    if (start.ok) for (const o of start.object.items) if (matches(o)) seen.set(keyOf(o), o);
    const hand = (e: WatchEvent<T>) => {
      if (e.type === 'DELETED') seen.delete(keyOf(e.object));
      else seen.set(keyOf(e.object), e.object);
      deliver(e);
    };
    let relisted = false;
    const inWindow = () => {
      const t0 = this.perturbations.t0?.();
      if (t0 === undefined || relisted) return false;
      const now = this.realClock.now();
      if (now < t0 + window.fromMs) return false;
      if (now >= t0 + window.relistMs) return false;
      return true;
    };
    const relist = () => {
      relisted = true;
      if (opened()?.isStopped) return;
      const now = this.realApi.list(resource, namespace);
      if (!now.ok) return;
      const current = new Map(now.object.items.filter(matches).map((o) => [keyOf(o), o] as const));
      const keys = [...new Set([...seen.keys(), ...current.keys()])].sort();
      for (const k of keys) {
        const before = seen.get(k);
        const after = current.get(k);
        if (after && !before) hand({ type: 'ADDED', object: after });
        else if (after && before && after.metadata.resourceVersion !== before.metadata.resourceVersion)
          hand({ type: 'MODIFIED', object: after });
        else if (!after && before) hand({ type: 'DELETED', object: before });
      }
    };
    let scheduled = false;
    return (e) => {
      if (!inWindow()) return hand(e);
      if (!scheduled) {
        scheduled = true;
        this.timer(this.perturbations.t0!()! + window.relistMs - this.realClock.now(), relist);
      }
    };
  }

  /** The revision a stale cache of `resource` holds now, or undefined when its reads are fresh. */
  private staleRevision(resource: Resource): number | undefined {
    const staleMs = Math.max(this.perturbations.stale.get(resource) ?? 0, this.perturbations.behindMs ?? 0);
    if (!staleMs) return undefined;
    return this.realApi.etcd.revisionAt(this.realClock.now() - staleMs);
  }

  private get<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    name: string,
  ): ApiResponse<ResourceType[R]> {
    const revision = this.staleRevision(resource);
    if (revision === undefined) return this.realApi.get(resource, namespace, name);
    const r = this.realApi.listPage(resource, namespace, {
      resourceVersion: String(revision),
      resourceVersionMatch: 'Exact',
      fieldSelector: `metadata.name=${name}`,
    });
    if (!r.ok) return r;
    const found = r.object.items[0];
    if (found) return { ...r, object: found };
    // Absent from the stale cache: the NotFound the apiserver answers for a missing object.
    const e = notFound(resource, name);
    return { ok: false, code: e.code, status: e.status, requestId: 0 };
  }

  private list<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    matches: (o: ResourceType[R]) => boolean = () => true,
  ): ApiResponse<{ items: ResourceType[R][]; resourceVersion: string }> {
    const revision = this.staleRevision(resource);
    if (revision === undefined) return this.realApi.list(resource, namespace, matches);
    const r = this.realApi.listPage(resource, namespace, {
      resourceVersion: String(revision),
      resourceVersionMatch: 'Exact',
    });
    if (!r.ok) return r;
    return { ...r, object: { items: r.object.items.filter(matches), resourceVersion: r.object.resourceVersion } };
  }
}

/**
 * An object that answers as `target` does, except for the methods in `overrides`; the target's
 * own methods run bound to it (its private state stays its own).
 */
function forwarding<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      const v = Reflect.get(t, prop, t) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

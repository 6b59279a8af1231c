import type { ApiServer, Resource } from '../../apiserver/apiserver';
import type { Clock } from '../../foundation/clock';
import { ClientView } from './client-view';
import { targetKey, type Perturbation, type Target } from './perturbation';

/**
 * The perturbations of one cluster (issue 33), by the component they act on: which components
 * get a perturbed view of the apiserver (src/cluster/perturbation/client-view.ts), and when which ones
 * restart. Components nothing perturbs talk to the apiserver itself.
 */
export class Perturbations {
  private readonly byTarget = new Map<string, Perturbation[]>();
  /** The virtual time of T+0, once the plan knows it (what `miss` windows count from). */
  private t0?: number;
  /** With `observe`: every component that asked for a view, and the resources it watched (for `explore`'s plans). */
  readonly watched = new Map<string, { target: Target; resources: Set<Resource> }>();

  constructor(
    readonly all: readonly Perturbation[],
    private readonly api: ApiServer,
    private readonly clock: Clock,
    /** Give every component a view, to learn what each watches (explore's unperturbed run). */
    private readonly observe = false,
  ) {
    for (const p of all) {
      const key = targetKey(p.target);
      const list = this.byTarget.get(key);
      if (list) list.push(p);
      else this.byTarget.set(key, [p]);
    }
  }

  /** T+0 is at `atMs` (set when the plan is built: after the warm-up). */
  startAt(atMs: number): void {
    this.t0 = atMs;
  }

  /** Whether anything perturbs `target`. */
  affects(target: Target): boolean {
    return this.byTarget.has(targetKey(target));
  }

  /** A fresh view for (a new process of) `target`, or undefined when nothing perturbs it. */
  viewFor(target: Target): ClientView | undefined {
    const key = targetKey(target);
    const list = this.byTarget.get(key) ?? (this.observe ? [] : undefined);
    if (!list) return undefined;
    let seen: Set<Resource> | undefined;
    if (this.observe) {
      const entry = this.watched.get(key) ?? { target, resources: new Set<Resource>() };
      this.watched.set(key, entry);
      seen = entry.resources;
    }
    const late = new Map<Resource, number>();
    const stale = new Map<Resource, number>();
    const missed = new Map<Resource, { fromMs: number; relistMs: number }>();
    for (const p of list) {
      if (p.type === 'miss') missed.set(p.resource, { fromMs: p.fromMs, relistMs: p.relistMs });
      // An informer's cache is what its watch delivered: a cache D stale sees each change D late too.
      if (p.type === 'late' || p.type === 'stale')
        late.set(p.resource, Math.max(late.get(p.resource) ?? 0, p.type === 'late' ? p.delayMs : p.staleMs));
      if (p.type === 'stale') stale.set(p.resource, p.staleMs);
    }
    const behindMs = Math.max(0, ...list.map((p) => (p.type === 'slow' ? p.delayMs : 0)));
    return new ClientView(this.api, this.clock, { late, stale, missed, t0: () => this.t0, behindMs }, seen);
  }

  /** The apiserver as `target` reaches it. */
  apiFor(target: Target): ApiServer {
    return this.viewFor(target)?.api ?? this.api;
  }

  /** The restarts, in the order they are due (T+atMs). */
  restarts(): { target: Target; atMs: number }[] {
    return this.all
      .flatMap((p) => (p.type === 'restart' ? [{ target: p.target, atMs: p.atMs }] : []))
      .sort((a, b) => a.atMs - b.atMs);
  }
}

import { kindOf, WATCHED_KINDS, type Perturbation } from '../../cluster/perturbation/perturbation';
import type { Observation } from './observation';

/** One plan: the perturbations one rerun of the scenario applies (one for depth 1, two for a pair). */
export type Plan = readonly Perturbation[];

export interface PlanOptions {
  /** The delays a late watch is tried with (ms), smallest first: 1 s and 2 s by default. */
  readonly delaysMs: readonly number[];
  /** 1: single perturbations; 2: pairs too (after every single one held). */
  readonly depth: 1 | 2;
}

/** The delays to try: 1 s and 2 s, and with `--max-delay` every doubling of 2 s up to it (and it). */
export function delaysUpTo(maxDelayMs: number | undefined): number[] {
  const out = [1000, 2000];
  if (maxDelayMs === undefined) return out;
  for (let d = 4000; d < maxDelayMs; d *= 2) out.push(d);
  if (maxDelayMs > 2000) out.push(maxDelayMs);
  return out.filter((d) => d <= Math.max(maxDelayMs, 1000));
}

/**
 * The single perturbations, derived from the unperturbed run as Sieve does: for each component
 * and each kind it watched that changed from T+0 on, see those changes late (each delay); miss
 * the changes of one of its first instants until a relist that delay later; and, for each
 * controller (and the scheduler), its requests slow by each delay, and (controllers) a restart just before and just after each
 * instant a kind it watches changed. Late plans come first, then slow requests, misses, then
 * restarts, in the order the components were seen.
 */
export function singlePlans(o: Observation, options: PlanOptions): Plan[] {
  const late: Plan[] = [];
  const restarts: Plan[] = [];
  const misses: Plan[] = [];
  const slow: Plan[] = [];
  for (const { target, resources } of o.components) {
    // Only kinds a perturbation step can name (a custom resource's changes are not perturbed).
    const changed = resources.filter((r) => (o.changes.get(r)?.length ?? 0) > 0 && kindOf(r) in WATCHED_KINDS);
    for (const resource of changed)
      for (const delayMs of options.delaysMs) late.push([{ type: 'late', target, resource, delayMs }]);
    // Miss a change until a relist: the first few instants of each kind, relisting after each delay.
    if (target.kind !== 'load-balancer') {
      for (const resource of changed) {
        for (const at of o.changes.get(resource)!.slice(0, MISSED_INSTANTS)) {
          for (const delayMs of options.delaysMs)
            misses.push([{ type: 'miss', target, resource, fromMs: at, relistMs: at + delayMs }]);
        }
      }
    }
    if ((target.kind === 'controller' || target.kind === 'scheduler') && changed.length > 0)
      for (const delayMs of options.delaysMs) slow.push([{ type: 'slow', target, delayMs }]);
    if (target.kind !== 'controller' || changed.length === 0) continue;
    const instants = new Set<number>();
    for (const r of changed)
      for (const at of o.changes.get(r)!) {
        if (at >= 1) instants.add(at - 1);
        instants.add(at + 1);
      }
    for (const atMs of [...instants].sort((a, b) => a - b)) restarts.push([{ type: 'restart', target, atMs }]);
  }
  return [...late, ...slow, ...misses, ...restarts];
}

/** How many change instants of one kind a component is made to miss (the first ones from T+0). */
const MISSED_INSTANTS = 3;

/** Pairs of single plans on two different components (a component's two delays of one kind are not a pair). */
export function pairPlans(singles: readonly Plan[]): Plan[] {
  const out: Plan[] = [];
  for (let i = 0; i < singles.length; i++) {
    for (let j = i + 1; j < singles.length; j++) {
      const a = singles[i][0];
      const b = singles[j][0];
      if (a.type === b.type && JSON.stringify(a.target) === JSON.stringify(b.target)) continue;
      out.push([a, b]);
    }
  }
  return out;
}

/**
 * Smaller plans to try when `plan` broke the scenario, most reduced first: each perturbation alone
 * (of a pair), then a late or slow one with a shorter delay (halved, down to 100 ms).
 */
export function reductions(plan: Plan): Plan[] {
  const out: Plan[] = [];
  if (plan.length > 1) for (const p of plan) out.push([p]);
  plan.forEach((p, i) => {
    if (p.type === 'miss') {
      for (let d = Math.floor((p.relistMs - p.fromMs) / 2); d >= 100; d = Math.floor(d / 2))
        out.push(plan.map((q, j) => (j === i ? { ...p, relistMs: p.fromMs + roundDelay(d) } : q)));
      return;
    }
    if (p.type !== 'late' && p.type !== 'slow') return;
    for (let d = Math.floor(p.delayMs / 2); d >= 100; d = Math.floor(d / 2)) {
      out.push(plan.map((q, j) => (j === i ? { ...p, delayMs: roundDelay(d) } : q)));
    }
  });
  return out;
}

/** A delay as a step writes it well: whole hundreds of milliseconds. */
function roundDelay(ms: number): number {
  return Math.max(100, Math.round(ms / 100) * 100);
}

import type { Scheduler } from '../../foundation/clock';
import { Loop } from '../../foundation/loop';

/**
 * A kubelet ticker that others wait on: the PLEG relist (its cache timestamp is the last relist)
 * and the syncLoop's sync ticker (it fires due pod-worker retries). Waiters run at the first
 * tick of the grid after the time they name; with no waiters no timer is scheduled.
 */
export class Ticker {
  private readonly loop: Loop;
  private waiters: { after: number; strict: boolean; fn: () => void }[] = [];

  constructor(
    private readonly clock: Scheduler,
    periodMs: number,
  ) {
    this.loop = new Loop(clock, periodMs, () => this.tick());
  }

  /** The time of the last tick at or before now. */
  lastTick(): number {
    return this.loop.nextTickAfter(this.clock.now()) - this.loop.periodMs;
  }

  /** Run `fn` once a tick strictly after `t` has happened (now, if one already has). */
  afterTickNewerThan(t: number, fn: () => void): void {
    if (this.lastTick() > t) return fn();
    this.waiters.push({ after: t, strict: true, fn });
    this.loop.wakeAt(t);
  }

  /** Run `fn` at the first tick at or after `t`. */
  atTickFrom(t: number, fn: () => void): void {
    this.waiters.push({ after: t, strict: false, fn });
    this.loop.wakeAt(t - 1);
  }

  private tick(): void {
    const now = this.clock.now();
    // One pass: split into due and waiting (no per-waiter search), then wake for the earliest left.
    const due: typeof this.waiters = [];
    const waiting: typeof this.waiters = [];
    for (const w of this.waiters) (w.strict ? w.after < now : w.after <= now) ? due.push(w) : waiting.push(w);
    this.waiters = waiting;
    for (const w of due) w.fn();
    let earliest = Infinity;
    for (const w of this.waiters) earliest = Math.min(earliest, w.strict ? w.after : w.after - 1);
    if (earliest !== Infinity) this.loop.wakeAt(earliest);
  }
}

import { createClock, type Clock as FakeClock, type TimerId } from '@sinonjs/fake-timers';

/** The virtual epoch: every cluster starts here, so timestamps are the same on every run. */
export const EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

export type TimerHandle = TimerId;

/**
 * The one clock of a simulated cluster: a created (never globally installed) fake-timers clock.
 * Equal-time timers run in the order they were scheduled, which keeps every run identical.
 */
export class Clock {
  private readonly fake: FakeClock = createClock(EPOCH_MS, 1_000_000);

  /** Virtual milliseconds since the Unix epoch. */
  now(): number {
    return this.fake.now;
  }

  /** Runs `fn` after `delayMs` of virtual time. */
  after(delayMs: number, fn: () => void): TimerHandle {
    return this.fake.setTimeout(fn, Math.max(0, delayMs));
  }

  /** Runs `fn` at the absolute virtual time `atMs` (or now, if that has passed). */
  at(atMs: number, fn: () => void): TimerHandle {
    return this.after(atMs - this.now(), fn);
  }

  cancel(handle: TimerHandle): void {
    this.fake.clearTimeout(handle);
  }

  /** Advances virtual time by `ms`, running every timer that falls due on the way. */
  tick(ms: number): void {
    this.fake.tick(ms);
  }

  /** Virtual time of the next pending timer, or undefined when nothing is scheduled. */
  nextTimerAt(): number | undefined {
    return this.fake.countTimers() === 0 ? undefined : this.peekNext();
  }

  /** Runs the next pending timer (advancing time to it). */
  runNext(): void {
    this.fake.next();
  }

  private peekNext(): number | undefined {
    // fake-timers keeps its timers in a binary heap (since v15) but exposes no peek; reading the
    // heap's top keeps "what is next?" O(1), which the settle loop and the benchmarks rely on.
    const heap = (this.fake as unknown as { timerHeap?: { peek(): { callAt: number } | undefined } }).timerHeap;
    return heap?.peek()?.callAt;
  }
}

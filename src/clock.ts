import { createClock, type Clock as FakeClock, type TimerId } from '@sinonjs/fake-timers';

/** The virtual epoch: every cluster starts here, so timestamps are the same on every run. */
export const EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

/** More zero-delay hand-offs than any real cascade at one instant: a loop that never yields. */
export const MAX_IMMEDIATES_PER_INSTANT = 1_000_000;

/** Zero-delay work rescheduled itself without end: virtual time could never advance. */
export class RunawayLoopError extends Error {
  constructor(atMs: number, count: number) {
    super(`runaway loop: more than ${count - 1} zero-delay hand-offs at virtual time ${new Date(atMs).toISOString()} without time moving on`);
    this.name = 'RunawayLoopError';
  }
}

/** A scheduled piece of work that can be cancelled. */
export interface TimerHandle {
  cancelled: boolean;
  readonly timer?: TimerId;
}

/**
 * Work is foreground unless it is the idle tick of a periodic loop (a heartbeat, a controller's
 * resync): "the cluster settles" waits for foreground work only.
 */
export interface TimerOptions {
  background?: boolean;
}

/** What a simulated process needs of time: read it, and run something later. */
export interface Scheduler {
  now(): number;
  after(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle;
  at(atMs: number, fn: () => void, options?: TimerOptions): TimerHandle;
  cancel(handle: TimerHandle): void;
  /** Wraps a callback that another process (e.g. the runtime) will call, so it only runs while this one lives. */
  guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
}

/**
 * The one clock of a simulated cluster: a created (never globally installed) fake-timers clock.
 * Timers due at the same instant run in the order they were scheduled. Zero-delay hand-offs
 * (a watch event to its client, a goroutine woken through a channel) run right after the work
 * that made them, before other work due at that instant: fake-timers would push them 1 ms later.
 */
export class Clock implements Scheduler {
  private readonly fake: FakeClock = createClock(EPOCH_MS, 1_000_000);
  private immediates: { fn: () => void; handle: TimerHandle }[] = [];
  /** Pending foreground timers by due time (a min-heap; cancelled and fired entries are dropped lazily). */
  private readonly foreground = new TimerHeap();

  /** Virtual milliseconds since the Unix epoch. */
  now(): number {
    return this.fake.now;
  }

  /** Runs `fn` after `delayMs` of virtual time. */
  after(delayMs: number, fn: () => void, options: TimerOptions = {}): TimerHandle {
    if (delayMs <= 0) {
      const handle: TimerHandle = { cancelled: false };
      this.immediates.push({ fn, handle });
      return handle;
    }
    const handle: { cancelled: boolean; timer?: TimerId } = { cancelled: false };
    handle.timer = this.fake.setTimeout(() => {
      if (handle.cancelled) return;
      handle.cancelled = true; // fired: no longer pending
      fn();
    }, delayMs);
    if (!options.background) this.foreground.push(this.now() + delayMs, handle);
    return handle;
  }

  /** Runs `fn` at the absolute virtual time `atMs` (or now, if that has passed). */
  at(atMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    return this.after(atMs - this.now(), fn, options);
  }

  /** Virtual time of the next foreground work, or undefined when only idle loops are left. */
  nextForegroundAt(): number | undefined {
    if (this.immediates.some((i) => !i.handle.cancelled)) return this.now();
    return this.foreground.peekPending();
  }

  /** Entries held for "what foreground work is next?" (fired ones are dropped as time passes them). */
  get foregroundEntries(): number {
    return this.foreground.size;
  }

  cancel(handle: TimerHandle): void {
    handle.cancelled = true;
    if (handle.timer !== undefined) this.fake.clearTimeout(handle.timer);
  }

  guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
    return fn;
  }

  /** Advances virtual time by `ms`, running every timer that falls due on the way. */
  tick(ms: number): void {
    const target = this.now() + ms;
    for (;;) {
      this.drainImmediates();
      const next = this.nextTimerAt();
      if (next === undefined || next > target) break;
      this.fake.next();
      this.foreground.prune();
    }
    if (this.now() < target) this.fake.tick(target - this.now());
  }

  /** Virtual time of the next pending work, or undefined when nothing is scheduled. */
  nextTimerAt(): number | undefined {
    if (this.immediates.some((i) => !i.handle.cancelled)) return this.now();
    // fake-timers keeps its timers in a binary heap (since v15) but exposes no peek; reading the
    // heap's top keeps "what is next?" O(1), which the settle loop and the benchmarks rely on.
    const heap = (this.fake as unknown as { timerHeap?: { peek(): { callAt: number } | undefined } }).timerHeap;
    return heap?.peek()?.callAt;
  }

  /** Runs the next pending piece of work (advancing time to it). */
  runNext(): void {
    if (this.immediates.length > 0) return this.drainImmediates();
    this.fake.next();
    this.foreground.prune();
  }

  private drainImmediates(): void {
    let ran = 0;
    while (this.immediates.length > 0) {
      const batch = this.immediates;
      this.immediates = [];
      for (const { fn, handle } of batch) {
        if (handle.cancelled) continue;
        // Zero-delay work that keeps making more zero-delay work would never let time move on.
        if (++ran > MAX_IMMEDIATES_PER_INSTANT) throw new RunawayLoopError(this.now(), ran);
        fn();
      }
    }
  }

}

/**
 * The timers of one process (a kubelet): when the process dies, every timer it set dies with it,
 * the way goroutines and their time.After channels vanish with a killed kubelet.
 */
export class ProcessScheduler implements Scheduler {
  private readonly pending = new Set<TimerHandle>();
  private alive = true;

  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  after(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    const handle: TimerHandle = this.clock.after(
      delayMs,
      () => {
        this.pending.delete(handle);
        if (this.alive) fn();
      },
      options,
    );
    this.pending.add(handle);
    return handle;
  }

  at(atMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    return this.after(atMs - this.now(), fn, options);
  }

  cancel(handle: TimerHandle): void {
    this.pending.delete(handle);
    this.clock.cancel(handle);
  }

  guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      if (this.alive) fn(...args);
    };
  }

  get isAlive(): boolean {
    return this.alive;
  }

  /** The process exits: none of its timers will fire. */
  kill(): void {
    this.alive = false;
    for (const h of this.pending) this.clock.cancel(h);
    this.pending.clear();
  }
}

/** A binary min-heap of (due time, insertion order) → handle, for "when is the next foreground work?". */
class TimerHeap {
  private readonly items: { at: number; seq: number; handle: TimerHandle }[] = [];
  private seq = 0;

  push(at: number, handle: TimerHandle): void {
    const items = this.items;
    items.push({ at, seq: this.seq++, handle });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  /** Due time of the earliest entry still pending (fired or cancelled entries are discarded). */
  peekPending(): number | undefined {
    this.prune();
    return this.items[0]?.at;
  }

  /** Drops fired and cancelled entries from the top, so the heap holds about as many entries as timers pending. */
  prune(): void {
    while (this.items.length > 0 && this.items[0].handle.cancelled) this.pop();
  }

  get size(): number {
    return this.items.length;
  }

  private pop(): void {
    const items = this.items;
    const last = items.pop()!;
    if (items.length === 0) return;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && this.less(l, m)) m = l;
      if (r < items.length && this.less(r, m)) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m], items[i]];
      i = m;
    }
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a];
    const y = this.items[b];
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }
}

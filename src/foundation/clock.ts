/**
 * The virtual epoch: every scenario's cluster starts here, so timestamps are the same on every run
 * (`serve` starts its own at the wall-clock time it was started, read once by its command).
 */
export const EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

/** More zero-delay hand-offs than any real cascade at one instant: a loop that never yields. */
export const MAX_IMMEDIATES_PER_INSTANT = 1_000_000;

/** Zero-delay work rescheduled itself without end: virtual time could never advance. */
export class RunawayLoopError extends Error {
  constructor(atMs: number, count: number) {
    super(
      `runaway loop: more than ${count - 1} zero-delay hand-offs at virtual time ${new Date(atMs).toISOString()} without time moving on`,
    );
    this.name = 'RunawayLoopError';
  }
}

/** A scheduled piece of work that can be cancelled. */
export interface TimerHandle {
  cancelled: boolean;
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

/** One scheduled callback: its own handle and its own heap entry (one object per timer). */
class Timer implements TimerHandle {
  /** Set when cancelled or once fired: the heaps drop such entries when they reach the top. */
  cancelled = false;

  constructor(
    readonly at: number,
    /** Scheduling order: timers due at the same instant run in this order. */
    readonly seq: number,
    /** Let go of once the timer is cancelled or has fired (see `settle`). */
    public fn: () => void,
  ) {}

  /**
   * No longer pending. The entry may sit in the heap until its due time (a cancelled grace-period
   * timer: up to the grace period), so it drops its callback now: what the closure holds (a pod,
   * its worker's state) is not kept alive by a timer that will never run it.
   */
  settle(): void {
    this.cancelled = true;
    this.fn = NOTHING;
  }
}

function NOTHING(): void {}

/**
 * The one clock of a simulated cluster. Virtual time has millisecond resolution and moves only
 * when told to (tick, runNext). Timers due at the same instant run in the order they were
 * scheduled. Zero-delay hand-offs (a watch event to its client, a goroutine woken through a
 * channel) run right after the work that made them, before other work due at that instant.
 */
export class Clock implements Scheduler {
  private time: number;
  private seq = 0;
  /** Zero-delay work, first in first out; `head` is the next to run. */
  private immediates: Timer[] = [];
  private head = 0;
  /** Every pending timer by due time (cancelled and fired entries are dropped lazily). */
  private readonly timers = new TimerHeap();
  /** The same, foreground timers only, for "when is the next foreground work?". */
  private readonly foreground = new TimerHeap();

  /** `epoch`: virtual milliseconds since the Unix epoch at which this clock starts. */
  constructor(readonly epoch: number = EPOCH_MS) {
    this.time = epoch;
  }

  /** Virtual milliseconds since the Unix epoch. */
  now(): number {
    return this.time;
  }

  /**
   * Runs `fn` after `delayMs` of virtual time: zero or less is a hand-off that runs at this
   * instant; a fraction of a millisecond is cut off, but positive work waits at least 1 ms.
   */
  after(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    if (delayMs <= 0) {
      const timer = new Timer(this.time, this.seq++, fn);
      this.immediates.push(timer);
      return timer;
    }
    const timer = new Timer(this.time + (Math.trunc(delayMs) || 1), this.seq++, fn);
    this.timers.push(timer);
    if (!options?.background) this.foreground.push(timer);
    return timer;
  }

  /** Runs `fn` at the absolute virtual time `atMs` (or now, if that has passed). */
  at(atMs: number, fn: () => void, options?: TimerOptions): TimerHandle {
    return this.after(atMs - this.time, fn, options);
  }

  /** Virtual time of the next foreground work, or undefined when only idle loops are left. */
  nextForegroundAt(): number | undefined {
    if (this.hasImmediates()) return this.time;
    return this.foreground.peek()?.at;
  }

  /** Entries held for "what foreground work is next?" (fired ones are dropped as time passes them). */
  get foregroundEntries(): number {
    return this.foreground.size;
  }

  /** Entries of the timer heap (pending timers plus cancelled ones not yet reached). */
  get timerEntries(): number {
    return this.timers.size;
  }

  cancel(handle: TimerHandle): void {
    if (handle instanceof Timer) handle.settle();
    else handle.cancelled = true;
  }

  guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
    return fn;
  }

  /** Advances virtual time by `ms`, running every timer that falls due on the way. */
  tick(ms: number): void {
    const target = this.time + Math.trunc(ms);
    for (;;) {
      this.drainImmediates();
      const next = this.timers.peek();
      if (next === undefined || next.at > target) break;
      this.fire(next);
    }
    if (this.time < target) this.time = target;
  }

  /**
   * tick towards virtual time `targetMs`, but run at most `budget` pieces of work (a timer, or one
   * drain of the zero-delay work due now); true when the target was reached. A driver that must
   * stay responsive (serve: its requests and its SIGINT/SIGTERM handlers run between calls) moves
   * time in such bounded steps instead of one `tick` that a cluster full of work could hold for long.
   */
  tickFor(targetMs: number, budget: number): boolean {
    for (let n = 0; n < budget; n++) {
      if (this.head < this.immediates.length) {
        this.drainImmediates();
        continue;
      }
      const next = this.timers.peek();
      if (next === undefined || next.at > targetMs) {
        if (this.time < targetMs) this.time = targetMs;
        return true;
      }
      this.fire(next);
    }
    return false;
  }

  /** Virtual time of the next pending work, or undefined when nothing is scheduled. */
  nextTimerAt(): number | undefined {
    if (this.hasImmediates()) return this.time;
    return this.timers.peek()?.at;
  }

  /** Runs the next pending piece of work (advancing time to it). */
  runNext(): void {
    if (this.head < this.immediates.length) return this.drainImmediates();
    const next = this.timers.peek();
    if (next) this.fire(next);
  }

  /** Runs the timer at the top of the heap, moving time to it. */
  private fire(timer: Timer): void {
    this.timers.pop();
    this.time = timer.at;
    const fn = timer.fn;
    timer.settle(); // fired: no longer pending
    this.foreground.prune();
    fn();
  }

  private hasImmediates(): boolean {
    for (let i = this.head; i < this.immediates.length; i++) if (!this.immediates[i].cancelled) return true;
    return false;
  }

  private drainImmediates(): void {
    this.runImmediates();
    this.immediates.length = 0;
    this.head = 0;
  }

  /**
   * The loop of drainImmediates, on its own: V8 compiles a long-running loop on the stack (OSR)
   * before the code after it has ever run, and such code left the loop through a deoptimization
   * on every later drain (≈ 1 600 times in a 10 000-pod run), so nothing follows the loop here.
   */
  private runImmediates(): void {
    let ran = 0;
    const queue = this.immediates;
    while (this.head < queue.length) {
      const timer = queue[this.head++];
      if (timer.cancelled) continue;
      // Zero-delay work that keeps making more zero-delay work would never let time move on.
      if (++ran > MAX_IMMEDIATES_PER_INSTANT) throw new RunawayLoopError(this.time, ran);
      const fn = timer.fn;
      timer.settle();
      fn();
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

/** A binary min-heap of timers by (due time, scheduling order); cancelled and fired timers are discarded when they reach the top. */
class TimerHeap {
  private readonly items: Timer[] = [];

  push(timer: Timer): void {
    const items = this.items;
    let i = items.push(timer) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, items[parent])) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = timer;
  }

  /** The earliest timer still pending. */
  peek(): Timer | undefined {
    this.prune();
    return this.items[0];
  }

  /** Drops fired and cancelled timers from the top, so the heap holds about as many entries as timers pending. */
  prune(): void {
    while (this.items.length > 0 && this.items[0].cancelled) this.pop();
  }

  get size(): number {
    return this.items.length;
  }

  /** Removes the top entry. */
  pop(): void {
    const items = this.items;
    const last = items.pop()!;
    const n = items.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && before(items[r], items[l]) ? r : l;
      if (!before(items[m], last)) break;
      items[i] = items[m];
      i = m;
    }
    items[i] = last;
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

import type { Scheduler, TimerHandle, TimerOptions } from '../foundation/clock';

/**
 * workqueue.DefaultControllerRateLimiter (client-go util/workqueue/default_rate_limiters.go): the
 * larger of a per-item exponential back-off (5 ms doubling to 1000 s) and an overall token bucket
 * (10 qps, burst 100) — on the virtual clock.
 */
export class DefaultControllerRateLimiter {
  private readonly failures = new Map<string, number>();
  private tokens = 100;
  private refilledAt: number;

  constructor(
    private readonly clock: Scheduler,
    private readonly base = { baseDelayMs: 5, maxDelayMs: 1000_000, qps: 10, burst: 100 },
  ) {
    this.tokens = base.burst;
    this.refilledAt = clock.now();
  }

  /** When: how long `key` waits before it is processed again. */
  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const exponential = Math.min(this.base.baseDelayMs * 2 ** n, this.base.maxDelayMs);
    return Math.max(exponential, this.bucketDelay());
  }

  /** Forget: the key succeeded, its back-off starts over. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** NumRequeues. */
  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** BucketRateLimiter (golang.org/x/time/rate Reserve): a token now, or the wait until one is due. */
  private bucketDelay(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.base.burst, this.tokens + ((now - this.refilledAt) * this.base.qps) / 1000);
    this.refilledAt = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / this.base.qps);
  }
}

/** What a sync handler answers: nothing (done), or an error, which requeues the key with back-off. */
export type SyncHandler = (key: string) => void | Error;

/**
 * A rate-limited, delaying work queue (client-go util/workqueue: Type, delaying_queue.go,
 * rate_limiting_queue.go) and the controller's worker loop around it (processNextWorkItem):
 * a key queued twice before it is processed is processed once; keys are processed in the order
 * they were queued, at the instant they were queued (a worker picks them up at once: the model has
 * no CPU time); a sync that fails is retried with `AddRateLimited`, one that succeeds is forgotten.
 * A key added while it is being processed is processed again afterwards (the queue's dirty set).
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  private readonly waiting = new Map<string, { at: number; handle: TimerHandle }>();
  private processing: string | undefined;
  private scheduled = false;
  readonly rateLimiter: DefaultControllerRateLimiter;

  constructor(
    private readonly clock: Scheduler,
    private readonly sync: SyncHandler,
    rateLimiter?: DefaultControllerRateLimiter,
  ) {
    this.rateLimiter = rateLimiter ?? new DefaultControllerRateLimiter(clock);
  }

  /** Add: queue `key` unless it is queued already. */
  add(key: string): void {
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing === key) return; // picked up again once its current sync is done
    this.queue.push(key);
    this.schedule();
  }

  /**
   * AddAfter: queue `key` once `delayMs` have passed (an earlier pending add of the same key wins).
   * `background`: a check that only repeats itself, which does not keep the cluster from settling.
   */
  addAfter(key: string, delayMs: number, options?: TimerOptions): void {
    if (delayMs <= 0) return this.add(key);
    const at = this.clock.now() + delayMs;
    const pending = this.waiting.get(key);
    if (pending && pending.at <= at) return;
    if (pending) this.clock.cancel(pending.handle);
    const handle = this.clock.after(
      delayMs,
      () => {
        this.waiting.delete(key);
        this.add(key);
      },
      options,
    );
    this.waiting.set(key, { at, handle });
  }

  /** AddRateLimited: queue `key` after the rate limiter's delay. */
  addRateLimited(key: string, options?: TimerOptions): void {
    this.addAfter(key, this.rateLimiter.when(key), options);
  }

  /** Forget. */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Keys queued and not yet processed, plus those waiting for their delay. */
  get length(): number {
    return this.queue.length - this.head + this.waiting.size;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.clock.after(0, () => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** The workers: every queued key, in order, each synced once. */
  private drain(): void {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head++];
      this.dirty.delete(key);
      this.processing = key;
      let result: void | Error;
      try {
        result = this.sync(key);
      } finally {
        this.processing = undefined;
      }
      if (result instanceof Error) this.addRateLimited(key);
      else this.forget(key);
      // Added again during its own sync: Done puts it back at the end of the queue.
      if (this.dirty.has(key)) this.queue.push(key);
    }
    this.queue.length = 0;
    this.head = 0;
  }
}

import type { Scheduler, TimerHandle } from './clock';

/**
 * A periodic kubelet loop (wait.Until / a time.Ticker) that only costs something when it has
 * work: instead of firing every period, it is woken and then runs at the next tick of its grid
 * (multiples of the period since the clock's start), which is when the real loop would notice.
 * So an idle cluster has no timers, and "the cluster settles" is simply "nothing scheduled".
 */
export class Loop {
  private timer?: TimerHandle;
  private scheduledAt?: number;
  private readonly origin: number;

  constructor(
    private readonly clock: Scheduler,
    readonly periodMs: number,
    private readonly run: () => void,
  ) {
    this.origin = clock.now();
  }

  /** The next tick of the grid strictly after `t`. */
  nextTickAfter(t: number): number {
    const n = Math.floor((t - this.origin) / this.periodMs) + 1;
    return this.origin + n * this.periodMs;
  }

  /** Run at the next tick (strictly after now). */
  wake(): void {
    this.wakeAt(this.clock.now());
  }

  /** Run at the first tick strictly after `t`. */
  wakeAt(t: number): void {
    const at = this.nextTickAfter(t);
    if (this.scheduledAt !== undefined && this.scheduledAt <= at) return;
    if (this.timer) this.clock.cancel(this.timer);
    this.scheduledAt = at;
    this.timer = this.clock.at(at, () => {
      this.timer = undefined;
      this.scheduledAt = undefined;
      this.run();
    });
  }

  stop(): void {
    if (this.timer) this.clock.cancel(this.timer);
    this.timer = undefined;
    this.scheduledAt = undefined;
  }
}

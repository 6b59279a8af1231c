import type { EventEmitter } from 'node:events';
import type { Cluster } from '../../cluster/cluster';
import { DurationError, parseDuration } from '../../foundation/duration';

/**
 * How `serve` moves the cluster's virtual clock. This is the only place where wall-clock time
 * touches the simulation: the core only ever sees its virtual clock.
 *
 * - `realtime`: virtual time follows wall time.
 * - `fast=N`: virtual time runs N times as fast as wall time.
 * - `jump` (or `jump=QUIET`, e.g. jump=200ms): virtual time stands still while any client is busy
 *   and jumps ahead while every client waits on a watch (see JumpClock).
 * - `manual`: virtual time moves only when told to (POST /terminating/v1/clock?advance=, or the
 *   harness's advance() and settle()): what a test that drives the clock itself wants (ManualClock).
 */
export type ClockMode =
  | { kind: 'realtime' }
  | { kind: 'fast'; factor: number }
  | { kind: 'jump'; quietMs: number }
  | { kind: 'manual' };

export class ClockModeError extends Error {}

export function parseClockMode(text: string): ClockMode {
  if (text === 'realtime') return { kind: 'realtime' };
  if (text === 'manual') return { kind: 'manual' };
  const fast = /^fast=(\d+(?:\.\d+)?)$/.exec(text);
  if (fast && Number(fast[1]) > 0) return { kind: 'fast', factor: Number(fast[1]) };
  const jump = /^jump(?:=(.*))?$/.exec(text);
  if (jump) {
    if (jump[1] === undefined) return { kind: 'jump', quietMs: JUMP_QUIET_MS };
    try {
      return { kind: 'jump', quietMs: parseDuration(jump[1]) };
    } catch (e) {
      if (!(e instanceof DurationError)) throw e;
      throw new ClockModeError(
        `invalid --clock "${text}": the quiet period of jump=QUIET is a duration (e.g. jump=200ms): ${e.message}`,
      );
    }
  }
  throw new ClockModeError(
    `invalid --clock "${text}": expected jump, jump=QUIET (e.g. jump=200ms), realtime, manual, or fast=N (N times wall time, N > 0, e.g. fast=10)`,
  );
}

export function formatClockMode(mode: ClockMode): string {
  if (mode.kind === 'fast') return `fast=${mode.factor}`;
  if (mode.kind === 'jump' && mode.quietMs !== JUMP_QUIET_MS) return `jump=${mode.quietMs}ms`;
  return mode.kind;
}

/** What the HTTP layer reports about its clients (src/frontends/server/activity.ts ApiActivity). */
export interface ClientActivity extends EventEmitter {
  readonly inFlight: number;
  readonly waitingWatches: number;
}

export interface ClockDriver {
  readonly mode: ClockMode;
  /** A request arrives: bring virtual time up to date before it is served. */
  beforeRequest(): void;
  /** A line went out on a watch stream (a client has something new to react to). */
  watchWritten(): void;
  /** Moves virtual time on by `ms` at once (the clock endpoint), running what falls due. */
  advance(ms: number): void;
  stop(): void;
}

/** Wall-clock milliseconds, monotonic. */
const wallNow = (): number => performance.now();

/** The wall clock a JumpClock paces itself by: monotonic milliseconds; tests pass their own. */
export interface WallClock {
  now(): number;
}
const WALL: WallClock = { now: wallNow };

/** The longest wall-clock wait between two looks at the clock in realtime/fast mode (a timer set far ahead must not fire late when time is re-based). */
const MAX_WALL_WAIT_MS = 1000;

/**
 * realtime / fast=N: virtual time = virtual start + N × wall time elapsed. A wall timer wakes the
 * driver when the next virtual timer falls due; each request first catches the clock up.
 */
export class ScaledClock implements ClockDriver {
  private wallStart = wallNow();
  private virtualStart: number;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  readonly factor: number;

  constructor(
    private readonly cluster: Cluster,
    readonly mode: ClockMode & { kind: 'realtime' | 'fast' },
  ) {
    this.factor = mode.kind === 'fast' ? mode.factor : 1;
    this.virtualStart = cluster.clock.now();
    this.schedule();
  }

  beforeRequest(): void {
    this.catchUp();
  }

  watchWritten(): void {}

  advance(ms: number): void {
    this.catchUp();
    this.cluster.advance(ms);
    this.virtualStart += ms;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /**
   * Moves virtual time towards where wall time says it is, running at most TIMERS_PER_TURN pieces
   * of work: a cluster with more to do than that (however much work an object makes) catches up
   * over several turns of the event loop, so requests and SIGINT/SIGTERM are handled in between
   * (virtual time then lags wall time until it has caught up).
   */
  private catchUp(): void {
    const target = this.virtualStart + Math.floor((wallNow() - this.wallStart) * this.factor);
    const clock = this.cluster.clock;
    if (target <= clock.now()) return;
    if (clock.tickFor(target, TIMERS_PER_TURN) || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.catchUp();
      this.schedule();
    }, 0);
    this.timer.unref();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const next = this.cluster.clock.nextTimerAt();
    const wait =
      next === undefined
        ? MAX_WALL_WAIT_MS
        : Math.min(MAX_WALL_WAIT_MS, Math.max(1, (next - this.cluster.clock.now()) / this.factor));
    this.timer = setTimeout(() => {
      this.catchUp();
      this.schedule();
    }, wait);
    this.timer.unref();
  }
}

/** How long (wall clock) every client must have been quiet before virtual time may jump (the default of `--clock jump`). */
export const JUMP_QUIET_MS = 50;
/** Jumping stops when no foreground work is due within this much virtual time: the cluster has settled (as `When the cluster settles`). */
export const JUMP_SETTLED_MS = 10 * 60_000;
/**
 * The pace of a jump: while clients only wait (on watches, or polling), virtual time moves at most
 * this much per second of wall time — 10 virtual minutes —, after a first burst of as much (a
 * token bucket of virtual time). A watch that never hears anything (a namespace stuck on a
 * finalizer) therefore costs a wall second per 10 virtual minutes instead of running away.
 */
export const JUMP_MAX_VIRTUAL_MS_PER_WALL_S = 10 * 60_000;
/**
 * `terminating serve` starts virtual time this long before the wall-clock time it starts (unless
 * --start says otherwise), and a jump never takes virtual time past the wall clock: every
 * timestamp it hands out lies in the client's past, so ages computed against the wall clock
 * (`kubectl describe`, `kubectl events`) are never negative (`<invalid>`). They read up to this
 * much more than the virtual age.
 */
export const SERVE_HEADROOM_MS = 10 * 60_000;
/** What the jump clock listens to: any of these restarts the quiet period (or stops waiting). */
const ACTIVITY_EVENTS = ['request-start', 'request-end', 'watch-open', 'watch-close', 'watch-done'];
/** Timers run in one go before the event loop gets a turn (so the server stays responsive during a long jump). */
export const TIMERS_PER_TURN = 10_000;
/** A client polls when it GETs the same object this many times, each at least a quiet period after the one before… */
export const POLL_REPEATS = 3;
/** …the last within this much wall time (kubectl drain polls every second). */
export const POLL_WINDOW_MS = 3000;

/**
 * `--clock jump`. Virtual time moves only while every client waits, and no request has started or
 * ended for JUMP_QUIET_MS of wall time. A client waits in one of two ways:
 *
 * - on a watch: no request in flight, at least one watch open that still waits for news (a watch
 *   of one object by name stops waiting once that object's DELETED went out: kubectl's wait ends
 *   there, and a kubectl slow to close the stream must not let time run on). Then the clock runs
 *   its timers in order, as fast as it can, until a line goes out on a watch stream (a client has
 *   something to react to) — then it stops and waits for quiet again — or until the cluster has
 *   settled (no foreground work due within JUMP_SETTLED_MS).
 * - by polling: no request in flight, and a client has GET one object POLL_REPEATS times, each a
 *   quiet period or more after the one before, the last less than POLL_WINDOW_MS ago (`kubectl
 *   drain` GETs each pod every second until it is gone). Then, after each quiet period, the clock
 *   moves to the next instant that has foreground work due (within JUMP_SETTLED_MS) and runs it: one
 *   instant per quiet period, so the client's next GET sees the cluster a few instants further on.
 *
 * Guarantee: if each client sends its next request within JUMP_QUIET_MS of the response or watch
 * event it reacts to (kubectl's DELETE → GET → LIST → WATCH takes a few milliseconds), the same
 * sequence of client requests gives the same timeline on every run: where virtual time stops
 * depends only on what the clients watch, never on wall-clock time. A polling client's GETs fall
 * between instants as wall time has it; the cluster's own events keep their virtual times. One or
 * two GETs of an object (`kubectl get pod web`) never count as polling: time stands still.
 */
export class JumpClock implements ClockDriver {
  private quiet?: NodeJS.Timeout;
  private written = 0;
  private stopped = false;
  /** The virtual milliseconds jumps may still take now (JUMP_MAX_VIRTUAL_MS_PER_WALL_S's bucket), and when it was last filled. */
  private tokens = JUMP_MAX_VIRTUAL_MS_PER_WALL_S;
  private filledAt: number;
  private readonly wall: WallClock;
  /** The latest virtual time a jump may reach, when virtual time maps onto the wall clock (serve's default start). */
  private readonly ceiling?: () => number;
  /** Per object path, the GETs seen in a row and the wall time of the last one (for polling clients). */
  private readonly gets = new Map<string, { count: number; at: number }>();
  private readonly wake = (objectGet?: unknown) => {
    if (typeof objectGet === 'string') this.sawGet(objectGet);
    this.rearm();
  };

  constructor(
    private readonly cluster: Cluster,
    private readonly activity: ClientActivity,
    readonly mode: ClockMode & { kind: 'jump' },
    options: { wall?: WallClock; ceiling?: () => number } = {},
  ) {
    this.wall = options.wall ?? WALL;
    this.ceiling = options.ceiling;
    this.filledAt = this.wall.now();
    for (const e of ACTIVITY_EVENTS) activity.on(e, this.wake);
  }

  /**
   * Before a request is answered, the work due at this very instant runs (what the previous
   * request set off at zero delay: the kubelet's kill after a DELETE, its Killing event): no
   * virtual time moves for it, so a client's next request sees its effect.
   */
  beforeRequest(): void {
    if (!this.stopped) this.cluster.flush();
  }

  watchWritten(): void {
    this.written += 1;
  }

  advance(ms: number): void {
    this.cluster.advance(ms);
    this.rearm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.quiet);
    for (const e of ACTIVITY_EVENTS) this.activity.off(e, this.wake);
  }

  /** A GET of one object: a repeat (a quiet period or more after the last one) counts towards polling. */
  private sawGet(path: string): void {
    const now = wallNow();
    for (const [p, g] of this.gets) if (now - g.at > POLL_WINDOW_MS) this.gets.delete(p);
    const last = this.gets.get(path);
    if (!last) this.gets.set(path, { count: 1, at: now });
    else if (now - last.at >= this.mode.quietMs) this.gets.set(path, { count: last.count + 1, at: now });
  }

  /** A client is polling: some object was GET POLL_REPEATS times, the last within the poll window. */
  private polling(): boolean {
    const now = wallNow();
    for (const g of this.gets.values()) if (g.count >= POLL_REPEATS && now - g.at <= POLL_WINDOW_MS) return true;
    return false;
  }

  /** Any client activity restarts the quiet period. */
  private rearm(): void {
    clearTimeout(this.quiet);
    this.quiet = undefined;
    if (this.stopped || this.activity.inFlight > 0) return;
    if (this.waiting()) this.quiet = setTimeout(() => this.jump(), this.mode.quietMs);
    else if (this.polling()) this.quiet = setTimeout(() => this.step(), this.mode.quietMs);
  }

  private waiting(): boolean {
    return this.activity.inFlight === 0 && this.activity.waitingWatches > 0;
  }

  /** Whether virtual time will move once the quiet period passes (every client waits on a watch, or a client polls). */
  get armed(): boolean {
    return this.quiet !== undefined;
  }

  /**
   * How far a jump may take virtual time now: the pace's bucket (refilled for the wall time since
   * the last look, at most one second's worth) and, when virtual time maps onto the wall clock,
   * no later than the wall clock.
   */
  limit(): { at: number; byWallClock: boolean } {
    const wall = this.wall.now();
    this.tokens = Math.min(
      JUMP_MAX_VIRTUAL_MS_PER_WALL_S,
      this.tokens + ((wall - this.filledAt) * JUMP_MAX_VIRTUAL_MS_PER_WALL_S) / 1000,
    );
    this.filledAt = wall;
    const paced = this.cluster.clock.now() + Math.floor(this.tokens);
    const ceiling = this.ceiling?.();
    return ceiling !== undefined && ceiling < paced
      ? { at: ceiling, byWallClock: true }
      : { at: paced, byWallClock: false };
  }

  /** Virtual time moved on by `ms` under the pace: taken from the bucket. */
  private spend(ms: number): void {
    this.tokens -= ms;
  }

  /**
   * `next` lies beyond the limit: look again once the wall clock has moved enough — as many wall
   * ms as virtual ms are missing under the wall clock, the pace's share of a second otherwise —,
   * and at least once a second.
   */
  private waitFor(next: number, limit: { at: number; byWallClock: boolean }, resume: () => void): void {
    const missing = next - limit.at;
    const wallMs = limit.byWallClock ? missing : (missing * 1000) / JUMP_MAX_VIRTUAL_MS_PER_WALL_S;
    this.quiet = setTimeout(resume, Math.min(1000, Math.max(1, Math.ceil(wallMs))));
  }

  /** Runs timers in order until a watch line goes out, the cluster settles, or the pace (or the wall clock) says wait. */
  private jump(): void {
    this.quiet = undefined;
    const clock = this.cluster.clock;
    const before = this.written;
    for (let n = 0; n < TIMERS_PER_TURN; n++) {
      const next = clock.nextForegroundAt();
      if (this.stopped || !this.waiting() || next === undefined || next > clock.now() + JUMP_SETTLED_MS) return;
      // Where runNext takes time: the next timer of any kind (a foreground one may be cancelled, dropped lazily).
      const due = clock.nextTimerAt() ?? next;
      const limit = this.limit();
      if (due > limit.at) return this.waitFor(due, limit, () => this.jump());
      const from = clock.now();
      clock.runNext();
      this.cluster.flush();
      this.spend(clock.now() - from);
      if (this.written !== before) return this.rearm();
    }
    this.quiet = setTimeout(() => this.jump(), 0);
  }

  /** For a polling client: on to the next instant with foreground work (what is due before it runs too), then quiet again. */
  private step(): void {
    this.quiet = undefined;
    if (this.stopped || this.activity.inFlight > 0) return;
    if (this.waiting()) return this.jump();
    const clock = this.cluster.clock;
    const next = clock.nextForegroundAt();
    if (next === undefined || next > clock.now() + JUMP_SETTLED_MS) return;
    const limit = this.limit();
    if (next > limit.at) return this.waitFor(next, limit, () => this.step());
    // Bounded, as the jump: the rest of the way on a later turn of the event loop.
    const from = clock.now();
    const reached = clock.tickFor(next, TIMERS_PER_TURN);
    this.spend(clock.now() - from);
    if (!reached) {
      this.quiet = setTimeout(() => this.step(), 0);
      return;
    }
    this.rearm();
  }
}

/**
 * `--clock manual`: virtual time stands still; it moves only by advance() (the clock endpoint, or the
 * harness). What is due at the current instant still runs at once (each write is served as a real
 * cluster's controllers would react to it, at the same virtual time): wall time never touches it.
 */
export class ManualClock implements ClockDriver {
  readonly mode = { kind: 'manual' } as const;
  constructor(private readonly cluster: Cluster) {}
  beforeRequest(): void {}
  watchWritten(): void {}
  advance(ms: number): void {
    this.cluster.advance(ms);
  }
  stop(): void {}
}

/** `ceiling`: for `jump`, the latest virtual time a jump may reach (serve's wall-clock start: the wall clock itself). */
export function clockDriver(
  mode: ClockMode,
  cluster: Cluster,
  activity: ClientActivity,
  ceiling?: () => number,
): ClockDriver {
  if (mode.kind === 'manual') return new ManualClock(cluster);
  return mode.kind === 'jump' ? new JumpClock(cluster, activity, mode, { ceiling }) : new ScaledClock(cluster, mode);
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster } from '../../cluster/cluster';
import { createApiHandler } from '../server/api-handler';
import type { ApiActivity } from '../server/activity';
import { CLIENT_BUSY_LIMIT_MS, CLIENT_QUIET_MS } from './controller-limits';
import { kubeconfig } from './kubeconfig';
import { longestCoreWait, mainThreadState, QuietReader } from './program-quiet';

export { CLIENT_BUSY_LIMIT_MS, CLIENT_QUIET_MS, CONTROLLER_STEP_TIMEOUT_MS } from './controller-limits';

/** What the served API reports that restarts the fallback's quiet period (src/frontends/server/activity.ts). */
const ACTIVITY_EVENTS = ['request-start', 'request-end', 'watch-open', 'watch-close', 'watch-done'];

/** The longest wall time between two looks at a busy program (the first comes after 1 ms, each next twice as late). */
const MAX_LOOK_MS = 8;

export class ControllerProcessError extends Error {}

/**
 * A controller program (e.g. examples/database-operator.mjs) run against a scenario's cluster
 * (issue 33 item 5): the cluster is served over HTTP on loopback, the program runs as a child
 * process with a kubeconfig for it, and the scenario's virtual clock moves only while the program
 * is quiet, one instant at a time. Quiet is read, not waited out: no request in flight, nothing
 * left in the server's buffers, and what Linux says of the program (program-quiet.ts): every
 * thread asleep, the event loop waiting with no timer due soon, nothing queued on its
 * connections. Such a program does nothing until the server writes to it again, so for a program
 * that reacts only to what it sees the same scenario gives the same timeline, on an idle machine
 * and on a loaded one. Where /proc cannot be read, quiet falls back to the wall-time rule of
 * `serve --clock jump` (src/frontends/serve/clock-driver.ts): nothing sent or received for
 * CLIENT_QUIET_MS and the main thread not runnable. `stop()` kills the program and closes the server.
 */
export class ControllerProcess {
  private lastActivity = 0;
  private exited?: string;
  private output = '';
  private readonly open = new Set<ServerResponse>();
  /** The server's ends of the program's connections: what they still buffer has not reached it. */
  private readonly sockets = new Set<Socket>();
  /** Connections accepted, and bytes sent and received on those that have closed (with the open ones': what the server has exchanged). */
  private accepted = 0;
  private closedBytes = 0;
  private quiet?: QuietReader;

  private constructor(
    private readonly cluster: Cluster,
    private readonly program: string,
    private readonly server: Server,
    private readonly port: number,
    private readonly activity: ApiActivity,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  /** Serves the cluster, starts `node PROGRAM` with KUBECONFIG set, and waits until it is quiet. */
  static async start(cluster: Cluster, program: string, cwd: string): Promise<ControllerProcess> {
    const { listener, activity } = createApiHandler(cluster);
    let self: ControllerProcess | undefined;
    const server = createServer((req, res) => {
      self?.touch();
      self?.open.add(res);
      res.once('close', () => self?.open.delete(res));
      // A line written on a watch stream is something the program may react to.
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((...args: unknown[]) => {
        self?.touch();
        return write(...args);
      }) as typeof res.write;
      listener(req, res);
    });
    server.on('connection', (socket: Socket) => {
      if (!self) return;
      self.sockets.add(socket);
      self.accepted += 1;
      socket.once('close', () => {
        if (!self) return;
        self.sockets.delete(socket);
        self.closedBytes += socket.bytesRead + socket.bytesWritten;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'terminating-controller-'));
    const config = join(dir, 'kubeconfig');
    writeFileSync(config, kubeconfig(`http://127.0.0.1:${port}`));
    const child = spawn(process.execPath, [program], {
      cwd,
      env: { ...process.env, KUBECONFIG: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    self = new ControllerProcess(cluster, program, server, port, activity, dir, child);
    const process_ = self;
    child.stdout?.on('data', (d: Buffer) => process_.heard(d));
    child.stderr?.on('data', (d: Buffer) => process_.heard(d));
    child.once('exit', (code, signal) => {
      process_.exited = signal ? `killed by ${signal}` : `exited with code ${code}`;
      process_.touch();
    });
    for (const e of ACTIVITY_EVENTS) activity.on(e, () => process_.touch());
    process_.touch();
    try {
      await process_.settle(true);
    } catch (e) {
      await process_.stop();
      throw e;
    }
    return process_;
  }

  /** What the program printed (its last lines), for failure messages. */
  get printed(): string {
    return this.output.trimEnd();
  }

  /**
   * Moves virtual time on by `ms`, one instant at a time: before each instant with work due the
   * program must be quiet, so whatever it does in reaction to the last instant lands before the next.
   */
  async advance(ms: number): Promise<void> {
    const clock = this.cluster.clock;
    const target = clock.now() + ms;
    for (;;) {
      await this.settle();
      const next = clock.nextTimerAt();
      if (next === undefined || next > target) break;
      clock.tickFor(next, Number.POSITIVE_INFINITY);
    }
    clock.tick(target - clock.now());
    await this.settle();
  }

  /** Kills the program (always: a scenario never leaves it running) and closes the server. */
  async stop(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGKILL');
      await gone;
    }
    for (const res of this.open) res.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * The fallback's check of the main thread (where program-quiet.ts says 'unknown' for want of
   * /proc/PID/syscall, its state may still be readable): on a loaded machine a program may take
   * longer than the quiet period to get a core after a watch line woke it; while it is runnable it
   * has not reacted yet, so time must wait. Where /proc cannot be read at all, only the quiet
   * period counts.
   */
  private runnable(): boolean {
    const pid = this.child.pid;
    const state = pid === undefined ? undefined : mainThreadState(pid);
    const runs = state === 'R' || state === 'D';
    if (runs) this.touch();
    return runs;
  }

  private touch(): void {
    this.lastActivity = performance.now();
  }

  private heard(d: Buffer): void {
    this.output = (this.output + d.toString()).slice(-4000);
    this.touch();
  }

  /** Whether the server still holds bytes for the program: a watch line written this turn sits corked until the next tick. */
  private serverHolds(): boolean {
    for (const socket of this.sockets) if (socket.writableLength > 0 || socket.connecting) return true;
    return false;
  }

  /**
   * The program's own busy time since `since`: the wall time, less the longest any thread of it
   * waited for a core meanwhile (read only once the wall time alone exceeds the limit).
   */
  private busyFor(since: number, waitsBefore: Map<string, number> | undefined): number {
    const wall = performance.now() - since;
    if (wall <= CLIENT_BUSY_LIMIT_MS) return wall;
    const waitsNow = waitsBefore && this.reader()?.coreWaits();
    return waitsBefore && waitsNow ? wall - longestCoreWait(waitsBefore, waitsNow) : wall;
  }

  /** What reads the program's state in /proc (once it has a pid). */
  private reader(): QuietReader | undefined {
    const pid = this.child.pid;
    if (pid !== undefined) this.quiet ??= new QuietReader(pid, this.port);
    return this.quiet;
  }

  /** What the server has exchanged with the program so far: connections, and bytes either way (a change means news). */
  private exchanged(): string {
    let bytes = this.closedBytes;
    for (const socket of this.sockets) bytes += socket.bytesRead + socket.bytesWritten;
    return `${this.accepted}:${bytes}`;
  }

  /** What program-quiet.ts reads; where it cannot, the wall-time quiet period and the main thread's state. */
  private programQuiet(): boolean {
    const facts = this.reader()?.read(this.exchanged()) ?? 'unknown';
    if (facts !== 'unknown') return facts === 'quiet';
    return performance.now() - this.lastActivity >= CLIENT_QUIET_MS && !this.runnable();
  }

  /**
   * Waits until the program is quiet; `starting`: until it also waits on a watch (a program still
   * starting up has none open yet). Looks again after 1 ms, then less often up to every
   * MAX_LOOK_MS, while it is busy. Fails naming the program when it exits or stays busy past
   * CLIENT_BUSY_LIMIT_MS of wall time, not counting the time its main thread waited for a core (a
   * node program that starts in 1 s on an idle machine took over 30 s at load 30).
   */
  private async settle(starting = false): Promise<void> {
    const since = performance.now();
    const waitsBefore = this.reader()?.coreWaits();
    for (let wait = 1; ; wait = Math.min(2 * wait, MAX_LOOK_MS)) {
      // This process's own queued work first (corked writes, callbacks of requests just read).
      await new Promise((resolve) => setImmediate(resolve));
      if (this.exited)
        throw new ControllerProcessError(`the controller ${this.program} ${this.exited}:\n${this.printed}`);
      const quiet =
        this.activity.inFlight === 0 &&
        !this.serverHolds() &&
        (!starting || this.activity.waitingWatches > 0) &&
        this.programQuiet();
      if (quiet) return;
      if (this.busyFor(since, waitsBefore) > CLIENT_BUSY_LIMIT_MS)
        throw new ControllerProcessError(
          `the controller ${this.program} was still busy after ${CLIENT_BUSY_LIMIT_MS / 1000}s of wall time (${this.activity.inFlight} requests in flight, ${this.activity.waitingWatches} watches waiting${this.quiet?.busyBecause ? `; ${this.quiet.busyBecause}` : ''}): a program that polls never lets the scenario's clock move${this.printed ? `; it printed:\n${this.printed}` : ''}`,
        );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster } from '../../cluster/cluster';
import { kubeconfig as kubeconfigFor } from '../serve/kubeconfig';
import type { KubectlRequest } from './kubectl';
import { type PinnedKubectlMinor, REAL_KUBECTL_MINOR, realKubectlPath } from './real-kubectl';

/** What one run of the real kubectl printed, how it ended, and the requests it sent (discovery left out). */
export interface RealKubectlRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  requests: KubectlRequest[];
  /** Set when the run was stopped from outside: the virtual or the wall-clock limit was reached. */
  stopped?: string;
}

export interface RealRunLimits {
  /** Virtual time the driver may advance while kubectl waits (the built-in kubectl's wait limit). */
  virtualMs: number;
  /** Wall-clock bound on one run; kubectl is killed after it. */
  wallMs: number;
  /**
   * For a kubectl that polls instead of watching (drain): time may also move once kubectl has had
   * no request in flight for this long (wall time), one due instant at a time, as the jump clock
   * does for polling clients; with nothing due it waits for kubectl's next request.
   */
  pollingQuietMs?: number;
}

/** What a run gets besides its arguments. */
export interface RealRunInput {
  /** Written to kubectl's standard input, which is then closed; without it stdin is empty. */
  stdin?: string;
  /** Extra environment variables (e.g. KUBECTL_INTERACTIVE_DELETE). */
  env?: Readonly<Record<string, string>>;
}

const WAIT_SOURCE = 'staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go IsDeleted';

/** Discovery, OpenAPI and version requests: the real kubectl asks (and caches) what the built-in one knows. */
const DISCOVERY = /^\/(api(\/v1)?|apis(\/[^/]+){0,2}|version|openapi(\/.*)?)\/?$/;

/** A request of the running kubectl, as the server sees it. */
interface Exchange {
  request: KubectlRequest;
  watch: boolean;
  /** For a watch: the server has answered with its headers, so kubectl is blocked reading events. */
  established: boolean;
  /** For a watch: a DELETED event went out on it, or a streaming list showed the object gone (kubectl's wait ends there). */
  deletedSent: boolean;
  /** For a streaming list (sendInitialEvents=true) until its initial-events-end bookmark: the uids of its initial ADDED events. */
  initialEvents?: (string | undefined)[];
  done: boolean;
}

/**
 * The real kubectl against a simulated cluster over HTTP on 127.0.0.1, with the virtual clock
 * driven deterministically: time moves (one timer at a time, as Cluster.runUntil does) only while
 * kubectl has no request in flight and is blocked in a watch that has not yet delivered the
 * DELETED it waits for. Everything kubectl sends is recorded at the server's listener.
 */
export class RealKubectlSession {
  private readonly exchanges: Exchange[] = [];
  /** The uid each DELETE of kubectl's removed or stamped, by path (for its wait, IsDeleted). */
  private readonly deletedUids = new Map<string, string>();
  private wake: () => void = () => {};
  /** Wall time of the last request kubectl sent or finished (for polling runs). */
  private lastActivity = 0;
  private child?: ChildProcess;

  private constructor(
    private cluster: Cluster,
    private handler: RequestListener,
    private readonly server: Server,
    private readonly dir: string,
    private readonly kubeconfig: string,
    private readonly binary: string,
  ) {}

  /** Serves `handler` (the project's HTTP API over `cluster`) on 127.0.0.1:0 and writes a kubeconfig for it; runs kubectl v1.`minor`. */
  static async start(
    cluster: Cluster,
    handler: RequestListener,
    minor: PinnedKubectlMinor = REAL_KUBECTL_MINOR,
  ): Promise<RealKubectlSession> {
    const binary = await realKubectlPath(process.platform, process.arch, minor);
    const dir = mkdtempSync(join(tmpdir(), 'terminating-kubectl-'));
    let session: RealKubectlSession | undefined;
    const server = createServer((req, res) => session?.observe(req, res));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigFor(`http://127.0.0.1:${port}`));
    session = new RealKubectlSession(cluster, handler, server, dir, kubeconfig, binary);
    return session;
  }

  /**
   * Serves another cluster on the same address, so kubectl keeps its discovery cache (it is kept
   * per server address) and the next run sends no discovery requests.
   */
  use(cluster: Cluster, handler: RequestListener): void {
    if (this.child) throw new Error('kubectl is still running against the previous cluster');
    this.cluster = cluster;
    this.handler = handler;
  }

  /** Records one request of kubectl and notes when a watch is established, delivers DELETED, or ends. */
  private observe(req: IncomingMessage, res: ServerResponse): void {
    const handler = this.handler;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = url.search.replace(/^\?/, '');
    const exchange: Exchange = {
      request: { method: req.method as KubectlRequest['method'], path: url.pathname, query },
      watch: url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1',
      established: false,
      deletedSent: false,
      done: false,
    };
    if (exchange.watch && url.searchParams.get('sendInitialEvents') === 'true') exchange.initialEvents = [];
    this.lastActivity = Date.now();
    if (DISCOVERY.test(url.pathname)) {
      res.once('finish', () => (this.lastActivity = Date.now()));
      return handler(req, res);
    }
    this.exchanges.push(exchange);
    // The body, as the handler reads it (every chunk passes through emit('data')).
    const chunks: Buffer[] = [];
    const emit = req.emit.bind(req);
    req.emit = ((event: string, ...args: unknown[]) => {
      if (event === 'data') chunks.push(Buffer.from(args[0] as Buffer));
      if (event === 'end' && chunks.length > 0) exchange.request.body = Buffer.concat(chunks).toString('utf8');
      return emit(event, ...args);
    }) as typeof req.emit;
    const finish = () => {
      if (exchange.done) return;
      exchange.done = true;
      this.lastActivity = Date.now();
      this.wake();
    };
    res.once('finish', finish);
    res.once('close', finish);
    if (req.method === 'DELETE') {
      // The uid of what kubectl deleted: its wait counts an object of that name with another uid as gone.
      const body: Buffer[] = [];
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (args[0] !== undefined && typeof args[0] !== 'function') body.push(Buffer.from(args[0] as string));
        const uid = uidOf(Buffer.concat(body).toString('utf8'));
        if (res.statusCode < 300 && uid) this.deletedUids.set(url.pathname, uid);
        return end(...args);
      }) as typeof res.end;
    }
    if (!exchange.watch && req.method === 'GET') {
      const body: Buffer[] = [];
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (args[0] !== undefined && typeof args[0] !== 'function') body.push(Buffer.from(args[0] as string));
        this.answered(url, res.statusCode, Buffer.concat(body).toString('utf8'));
        return end(...args);
      }) as typeof res.end;
    }
    if (exchange.watch) {
      let pending = '';
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) this.watchEvent(exchange, line);
        return write(chunk, ...rest);
      }) as typeof res.write;
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((...args: unknown[]) => {
        const out = writeHead(...args);
        // A refused watch (kubectl v1.35+'s streaming list, answered 422 by a server without
        // WatchList) is no wait: kubectl falls back to LIST then WATCH, and time must not move meanwhile.
        if ((typeof args[0] === 'number' ? args[0] : res.statusCode) >= 300) return out;
        exchange.established = true;
        const name = /^metadata\.name=(.*)$/.exec(url.searchParams.get('fieldSelector') ?? '')?.[1];
        if (name !== undefined) {
          this.cluster.timeline.record(
            'kubectl',
            `waiting for ${url.pathname.split('/').pop()}/${name} to be deleted`,
            WAIT_SOURCE,
            { actor: 'kubectl' },
          );
        }
        this.wake();
        return out;
      }) as typeof res.writeHead;
    }
    handler(req, res);
  }

  /**
   * The answer to a GET of kubectl's wait (wait/delete.go IsDeleted): the object's GET answering
   * 404, or the informer's LIST by name coming back empty, means kubectl sees it gone.
   */
  private answered(url: URL, code: number, body: string): void {
    const parts = url.pathname.split('/');
    const byName = /^metadata\.name=(.*)$/.exec(url.searchParams.get('fieldSelector') ?? '')?.[1];
    const gone = (resource: string | undefined, name: string | undefined) =>
      this.cluster.timeline.record('kubectl', `${resource}/${name} is gone`, WAIT_SOURCE, { actor: 'kubectl' });
    if (code === 404 && parts.at(-4) === 'namespaces') return void gone(parts.at(-2), parts.at(-1));
    // IsDeleted: the GET finds an object of that name with another uid (a controller made it again).
    const deleted = this.deletedUids.get(url.pathname);
    if (code === 200 && parts.at(-4) === 'namespaces' && deleted !== undefined && uidOf(body) !== deleted)
      return void gone(parts.at(-2), parts.at(-1));
    if (code === 200 && byName !== undefined && (JSON.parse(body) as { items?: unknown[] }).items?.length === 0)
      gone(parts.at(-1), byName);
  }

  /**
   * A line of a watch stream going out to kubectl: a DELETED ends its wait; so does, on a
   * streaming list by name, the initial-events-end bookmark when the initial events held no
   * object of that name with the uid kubectl deleted (wait/delete.go IsDeleted's precondition on
   * the synced store).
   */
  private watchEvent(exchange: Exchange, line: string): void {
    if (line.trim() === '' || exchange.deletedSent) return;
    const event = JSON.parse(line) as WatchLine;
    const resource = exchange.request.path.split('/').pop();
    const byName = /^metadata\.name=(.*)$/.exec(
      new URLSearchParams(exchange.request.query).get('fieldSelector') ?? '',
    )?.[1];
    if (event.type === 'ADDED' && exchange.initialEvents !== undefined)
      exchange.initialEvents.push(event.object?.metadata?.uid);
    const endOfInitialEvents =
      event.type === 'BOOKMARK' && event.object?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true';
    let goneName: string | undefined;
    if (event.type === 'DELETED') goneName = event.object?.metadata?.name;
    else if (endOfInitialEvents && byName !== undefined && exchange.initialEvents !== undefined) {
      const deleted = this.deletedUids.get(`${exchange.request.path}/${byName}`);
      if (!exchange.initialEvents.some((uid) => deleted === undefined || uid === deleted)) goneName = byName;
    }
    if (endOfInitialEvents) exchange.initialEvents = undefined;
    if (goneName === undefined) return;
    exchange.deletedSent = true;
    this.cluster.timeline.record('kubectl', `${resource}/${goneName} is gone`, WAIT_SOURCE, { actor: 'kubectl' });
  }

  /**
   * Runs `kubectl ARGS…` to its end, advancing the virtual clock while it waits. Stops it (and
   * says so in `stopped`) when the virtual or the wall-clock limit is reached.
   */
  async run(args: string[], limits: RealRunLimits, input: RealRunInput = {}): Promise<RealKubectlRun> {
    if (this.child) throw new Error('one kubectl at a time');
    this.exchanges.length = 0;
    const child = spawn(this.binary, args, {
      env: { ...input.env, PATH: process.env.PATH ?? '', HOME: this.dir, KUBECONFIG: this.kubeconfig },
      stdio: [input.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    if (input.stdin !== undefined) child.stdin?.end(input.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const exited = new Promise<number>((resolve) =>
      child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
    );
    let exitCode: number | undefined;
    void exited.then((code) => {
      exitCode = code;
      this.wake();
    });

    let stopped: string | undefined;
    const deadline = this.cluster.clock.now() + limits.virtualMs;
    const quiet = limits.pollingQuietMs;
    const wallTimer = setTimeout(() => {
      stopped = `kubectl did not finish within ${limits.wallMs} ms of wall-clock time`;
      child.kill('SIGKILL');
    }, limits.wallMs);
    try {
      while (exitCode === undefined) {
        // Not before kubectl's first request: starting the process takes longer than the quiet period.
        if (
          quiet !== undefined &&
          this.exchanges.length > 0 &&
          this.exchanges.every((e) => e.done) &&
          Date.now() - this.lastActivity >= quiet
        ) {
          const next = this.cluster.clock.nextTimerAt();
          if (next !== undefined && next <= deadline) {
            // One instant: everything due at the next timer's time, as the jump clock's step.
            const at = next;
            while (this.cluster.clock.nextTimerAt() === at) this.cluster.clock.runNext();
            this.lastActivity = Date.now();
            await new Promise<void>((resolve) => setImmediate(resolve));
            continue;
          }
        }
        if (quiet !== undefined) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, quiet);
            this.wake = () => (clearTimeout(t), resolve());
          });
          continue;
        }
        if (this.mayAdvance()) {
          const next = this.cluster.clock.nextTimerAt();
          if (next === undefined || next > deadline) {
            stopped = `kubectl was still waiting after ${limits.virtualMs / 1000} s of virtual time`;
            child.kill('SIGKILL');
          } else {
            this.cluster.clock.runNext();
          }
          // Let the sockets carry what that step wrote before looking again.
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      clearTimeout(wallTimer);
      this.wake = () => {};
      this.child = undefined;
    }
    return {
      exitCode: exitCode as number,
      stdout,
      stderr,
      requests: this.exchanges.map((e) => e.request),
      ...(stopped !== undefined && { stopped }),
    };
  }

  /** kubectl is blocked in a watch: nothing else in flight, and no DELETED on its way to end the wait. */
  private mayAdvance(): boolean {
    const open = this.exchanges.filter((e) => !e.done);
    return open.length > 0 && open.every((e) => e.watch && e.established && !e.deletedSent);
  }

  /** Kills the kubectl still running, if one is. */
  stop(): void {
    this.child?.kill('SIGKILL');
  }

  /** Kills a kubectl still running, stops the server, removes the kubeconfig and cache. */
  async close(): Promise<void> {
    this.stop();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One JSON line of a watch stream, as far as the session reads it. */
interface WatchLine {
  type?: string;
  object?: { metadata?: { name?: string; uid?: string; annotations?: Record<string, string> } };
}

/** metadata.uid of a JSON object body, if it has one. */
function uidOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { metadata?: { uid?: string } }).metadata?.uid;
  } catch {
    return undefined;
  }
}

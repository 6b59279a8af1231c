import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { Cluster } from '../../cluster/cluster';
import { ClusterPlan, WARMUP_MS } from '../../planning/cluster-plan';
import { DurationError, parseDuration } from '../../foundation/duration';
import { loadManifestFile, ManifestFileError } from '../../planning/manifest-file';
import { DumpError, readDumpFiles, type Dump } from '../../planning/restore/dump';
import type { Release } from '../../foundation/release';
import { createApiHandler } from '../server/api-handler';
import { formatDuration, formatOffset } from '../../foundation/timeline/time';
import { clockDriver, formatClockMode, type ClockDriver, type ClockMode } from './clock-driver';
import { kubeconfig } from './kubeconfig';
import { writeSessionReport, type SessionReportFiles } from './session-report';

/** The cluster `serve` starts with when no manifest file is given. */
export const DEFAULT_CLUSTER_FILE = join(__dirname, 'default-cluster.yaml');

/** Every response carries the cluster's virtual time when the request was served (RFC 3339, milliseconds). */
export const VIRTUAL_TIME_HEADER = 'Terminating-Virtual-Time';

/** The project's own endpoints, beside the Kubernetes API. */
export const CLOCK_PATH = '/terminating/v1/clock';
export const REPORT_PATH = '/terminating/v1/report';

export interface ServeOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /**
   * Manifest file to load (Nodes, Pods, ReplicaSets); undefined: the embedded default cluster. A
   * real cluster's objects (files, comma-separated, whose objects carry a uid) are resumed (src/planning/restore/).
   */
  manifests?: string;
  /** Instead of manifests: a cluster of just these nodes, no pods (the harness, src/frontends/harness.ts). */
  nodes?: readonly string[];
  /** Resumed objects: when they were read (default: the newest time they show, X2). */
  nowMs?: number;
  clock: ClockMode;
  /** The Kubernetes release every component runs (default v1.36). */
  release?: Release;
  /** Where the session report goes (on exit, on SIGUSR2, on POST /terminating/v1/report). */
  reportDir: string;
  /** Where the kubeconfig is written; default: `kubeconfig` in the report directory. */
  kubeconfig?: string;
  /** kube-apiserver's --etcd-compaction-interval (default 5m). */
  etcdCompactionIntervalMs?: number;
  /**
   * The virtual time serving starts at (T+0, after the warm-up), in ms since the Unix epoch: the
   * serve command passes the wall-clock time it started (or --start), so the ages clients compute
   * from timestamps against their own clock are right. Default: the fixed epoch plus the warm-up,
   * as scenarios have it.
   */
  start?: number;
}

/** A running `serve`: the cluster behind its HTTP server. */
export interface ServedCluster {
  readonly cluster: Cluster;
  readonly url: string;
  readonly port: number;
  readonly kubeconfig: string;
  /** Virtual time at which serving started (T+0 of the report). */
  readonly t0: number;
  readonly driver: ClockDriver;
  /** Writes the session report now. */
  report(): SessionReportFiles;
  /** Stops serving: watches end, connections close, the clock stops. Writes no report. */
  close(): Promise<void>;
}

/**
 * Builds the cluster from the manifests (the same ClusterPlan the Given steps use), lets it run
 * for the warm-up, and serves the Kubernetes API for it on 127.0.0.1 with the chosen clock.
 */
export async function serve(options: ServeOptions): Promise<ServedCluster> {
  const dump = options.manifests === undefined ? undefined : resumedObjects(options.manifests.split(','));
  // A resumed dump starts at the time its objects were read (--now); any other cluster at --start (default: now), after its warm-up minute.
  // A session compacts etcd as kube-apiserver does and drops what it compacted, so its memory
  // follows what exists; the session report covers what is kept (since the last compaction).
  const apiserver = {
    dropCompactedHistory: true,
    ...(options.etcdCompactionIntervalMs ? { compactionIntervalMs: options.etcdCompactionIntervalMs } : {}),
  };
  const plan = new ClusterPlan(
    options.release,
    dump || options.start === undefined ? undefined : options.start - WARMUP_MS,
    apiserver,
  );
  if (dump) plan.objects(dump, options.nowMs);
  else if (options.nodes !== undefined && options.manifests === undefined)
    for (const node of options.nodes) plan.node(node);
  else loadManifestFile(options.manifests ?? DEFAULT_CLUSTER_FILE, plan);
  // Served objects carry managedFields from their creation on, as a real cluster's do.
  plan.cluster.apiserver.trackManagedFields();
  plan.start();
  const cluster = plan.cluster;
  cluster.advance(plan.warmupMs);
  const t0 = cluster.clock.now();

  const { listener, activity } = createApiHandler(cluster);
  // A start taken from the wall clock (the serve command's): a jump never takes virtual time past it, so no timestamp lies in a client's future.
  const driver = clockDriver(
    options.clock,
    cluster,
    activity,
    options.start === undefined ? undefined : () => Date.now(),
  );
  const reportDir = resolve(options.reportDir);
  const title = `terminating serve (${options.manifests ?? (options.nodes ? `nodes ${options.nodes.join(', ')}` : 'default cluster')}, Kubernetes ${cluster.release}, --clock ${formatClockMode(options.clock)})`;
  const report = () => writeSessionReport(cluster, t0, reportDir, title);

  /** Responses not finished yet (watch streams, mostly): shutting down ends them cleanly. */
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    driver.beforeRequest();
    res.setHeader(VIRTUAL_TIME_HEADER, new Date(cluster.clock.now()).toISOString());
    const path = (req.url ?? '/').split('?')[0];
    if (path === CLOCK_PATH) return clockEndpoint(req, res);
    if (path === REPORT_PATH) return reportEndpoint(req, res);
    open.add(res);
    res.once('close', () => open.delete(res));
    // A line written on a watch stream while the clock runs is something a client may react to.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      driver.watchWritten();
      return write(...args);
    }) as typeof res.write;
    listener(req, res);
  });

  function clockState() {
    const now = cluster.clock.now();
    return {
      mode: formatClockMode(options.clock),
      now: new Date(now).toISOString(),
      sinceStart: formatOffset(now - t0),
      sinceStartMs: now - t0,
    };
  }

  /** GET: the virtual time; POST ?advance=DURATION: moves it on by that much first. */
  function clockEndpoint(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'GET') return json(res, 200, clockState());
    if (req.method !== 'POST')
      return json(
        res,
        405,
        {
          message: `${req.method} is not supported on ${CLOCK_PATH}: GET reads the virtual time, POST ?advance=30s moves it on`,
        },
        { Allow: 'GET, POST' },
      );
    const advance = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('advance');
    if (advance === null) return json(res, 400, { message: 'POST needs ?advance=DURATION (e.g. ?advance=30s)' });
    let ms: number;
    try {
      ms = parseDuration(advance);
    } catch (e) {
      if (e instanceof DurationError) return json(res, 400, { message: e.message });
      throw e;
    }
    cluster.timeline.record('user', `clock advanced by ${formatDuration(ms)}`, `${CLOCK_PATH} (terminating serve)`);
    driver.advance(ms);
    res.setHeader(VIRTUAL_TIME_HEADER, new Date(cluster.clock.now()).toISOString());
    json(res, 200, clockState());
  }

  /** POST: writes the session report and answers with its files. */
  function reportEndpoint(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST')
      return json(
        res,
        405,
        { message: `${req.method} is not supported on ${REPORT_PATH}: POST writes the session report` },
        { Allow: 'POST' },
      );
    json(res, 200, { files: report() });
  }

  await new Promise<void>((done, fail) => server.once('error', fail).listen(options.port, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const kubeconfigPath = resolve(options.kubeconfig ?? join(reportDir, 'kubeconfig'));
  mkdirSync(dirname(kubeconfigPath), { recursive: true });
  writeFileSync(kubeconfigPath, kubeconfig(url));

  return {
    cluster,
    url,
    port,
    kubeconfig: kubeconfigPath,
    t0,
    driver,
    report,
    close: async () => {
      driver.stop();
      const closed = new Promise<void>((done) => server.close(() => done()));
      // Watch streams end with the chunked terminator, so clients see a closed watch, not a broken connection.
      await Promise.all(
        [...open].map((res) => new Promise<void>((done) => (res.headersSent ? res.end(done) : done()))),
      );
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * The files as a real cluster's objects to resume (src/planning/restore/), when they are one: some object
 * carries a uid, which only a server sets. Otherwise they are manifests of a new cluster.
 */
function resumedObjects(files: string[]): Dump | undefined {
  let dump: Dump;
  try {
    dump = readDumpFiles(files);
  } catch (e) {
    if (!(e instanceof DumpError)) throw e;
    if (files.length > 1) throw new ManifestFileError(e.message);
    return undefined;
  }
  return dump.objects.some((o) => typeof (o.obj.metadata as Record<string, unknown>).uid === 'string')
    ? dump
    : undefined;
}

function json(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

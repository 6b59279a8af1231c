import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dns1123Subdomain } from '../apimachinery/selectors';
import { DurationError, parseDuration } from '../foundation/duration';
import { Release } from '../foundation/release';
import { serve, type ServedCluster } from './serve/serve';
import { writeSessionReport, type SessionReportFiles } from './serve/session-report';
import { formatDuration } from '../foundation/timeline/time';

/**
 * `import { startCluster } from 'terminating'`: a simulated cluster for a controller's tests — the
 * `serve` command's cluster and HTTP server (src/frontends/serve/serve.ts, no second server), started with
 * `--clock manual`: virtual time stands still until the test moves it, so what the test sees never
 * depends on wall time. Its declaration for users is index.d.ts (checked against this file by
 * src/frontends/harness.types.ts under `npm run typecheck`).
 */

export interface StartClusterOptions {
  /** The Kubernetes release every component models: '1.NN' or 'v1.NN' (default: the project's default release). */
  kubernetes?: string;
  /** The nodes: their names, or how many (named node-1, node-2, …). Default: one node, node-1. */
  nodes?: readonly string[] | number;
}

export interface SettleResult {
  /** True when nothing is due within 10 virtual minutes; false when work still retries after one virtual hour. */
  settled: boolean;
  /** What keeps it busy when it did not settle (stuck volumes, finalizers, crash loops, …), in words. */
  blockers: string[];
}

export interface TestCluster {
  /** Path of a kubeconfig for the cluster (kubectl, client-go, @kubernetes/client-node, the Python client read it). */
  readonly kubeconfig: string;
  /** The API server's URL (plain HTTP on 127.0.0.1; no authentication). */
  readonly url: string;
  /** The Kubernetes release it models, e.g. "v1.33". */
  readonly kubernetes: string;
  /** The cluster's virtual time. */
  now(): Date;
  /** Moves virtual time on by a duration ("30s", "1m30s", "250ms") or a number of milliseconds, running what falls due; resolves with the new time. */
  advance(duration: string | number): Promise<Date>;
  /** Runs the cluster until nothing is due within 10 virtual minutes (the scenario step "the cluster settles"). */
  settle(): Promise<SettleResult>;
  /** Writes the session report (index.html, timeline.txt, timeline.json, final-objects.yaml) into `dir`. */
  report(dir: string): SessionReportFiles;
  /** Stops the server (open watches end cleanly) and removes the kubeconfig. */
  stop(): Promise<void>;
}

/** A bad option: one message naming what to write instead. */
export class StartClusterError extends Error {
  override readonly name = 'StartClusterError';
}

function nodeNames(nodes: StartClusterOptions['nodes']): string[] {
  if (nodes === undefined) return ['node-1'];
  if (typeof nodes === 'number') {
    if (!Number.isInteger(nodes) || nodes < 0)
      throw new StartClusterError(
        `nodes: ${nodes} is not a number of nodes (a whole number, 0 or more, or a list of names)`,
      );
    return Array.from({ length: nodes }, (_, i) => `node-${i + 1}`);
  }
  if (!Array.isArray(nodes)) throw new StartClusterError('nodes: expected a list of node names or a number of nodes');
  const seen = new Set<string>();
  for (const name of nodes) {
    // A Node's name is a DNS subdomain (ValidateNodeName = NameIsDNSSubdomain, pkg/apis/core/validation).
    const invalid = typeof name === 'string' ? dns1123Subdomain(name) : 'must be a string';
    if (invalid) throw new StartClusterError(`nodes: Invalid value: ${JSON.stringify(name)}: ${invalid}`);
    if (seen.has(name)) throw new StartClusterError(`nodes: node "${name}" is listed twice`);
    seen.add(name);
  }
  return [...nodes];
}

function release(kubernetes: string | undefined): Release | undefined {
  if (kubernetes === undefined) return undefined;
  try {
    return Release.parse(String(kubernetes));
  } catch (e) {
    throw new StartClusterError(`kubernetes: ${(e as Error).message}`);
  }
}

function durationMs(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0)
      throw new StartClusterError(
        `advance: ${duration} is not a duration (milliseconds, 0 or more, or a string such as "30s")`,
      );
    return duration;
  }
  try {
    return parseDuration(duration);
  } catch (e) {
    if (e instanceof DurationError) throw new StartClusterError(`advance: ${e.message}`);
    throw e;
  }
}

/** Lets the event loop run once: responses and watch lines the cluster's work produced go out before the promise resolves. */
const turn = () => new Promise<void>((done) => setImmediate(done));

/** Starts a simulated cluster on a free port of 127.0.0.1 (see TestCluster). */
export async function startCluster(options: StartClusterOptions = {}): Promise<TestCluster> {
  const nodes = nodeNames(options.nodes);
  const kubernetes = release(options.kubernetes);
  const dir = mkdtempSync(join(tmpdir(), 'terminating-'));
  let served: ServedCluster;
  try {
    served = await serve({
      port: 0,
      nodes,
      clock: { kind: 'manual' },
      release: kubernetes,
      reportDir: dir,
      kubeconfig: join(dir, 'kubeconfig'),
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { cluster } = served;
  let stopped = false;
  const running = (what: string) => {
    if (stopped) throw new StartClusterError(`${what}: the cluster was stopped`);
  };
  return {
    kubeconfig: served.kubeconfig,
    url: served.url,
    kubernetes: String(cluster.release),
    now: () => new Date(cluster.clock.now()),
    async advance(duration) {
      running('advance');
      const ms = durationMs(duration);
      await turn();
      // As the clock endpoint records it (src/frontends/serve/serve.ts): the report shows who moved time.
      cluster.timeline.record(
        'user',
        `clock advanced by ${formatDuration(ms)}`,
        'advance() (terminating startCluster)',
      );
      served.driver.advance(ms);
      await turn();
      return new Date(cluster.clock.now());
    },
    async settle() {
      running('settle');
      await turn();
      const result = cluster.settle();
      await turn();
      return result.settled ? { settled: true, blockers: [] } : { settled: false, blockers: result.blockers };
    },
    report: (reportDir) =>
      writeSessionReport(
        cluster,
        served.t0,
        reportDir,
        `terminating startCluster (Kubernetes ${cluster.release}, nodes ${nodes.join(', ') || 'none'})`,
      ),
    async stop() {
      if (stopped) return;
      stopped = true;
      await served.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

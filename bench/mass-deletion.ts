import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Cluster, USER } from '../src/cluster/cluster';
import type { Recording } from '../src/foundation/timeline/timeline';

export interface MassDeletionResult {
  /** Timeline events recorded (kept, or only counted in summary mode). */
  events: number;
  virtualMs: number;
  setupSeconds: number;
  /** From the first node to the last pod gone: what the simulation took (the hash below comes after). */
  seconds: number;
  /** The process's CPU time (user + system, module loading included) and its peak RSS, taken when the last pod is gone. */
  cpuSeconds: number;
  peakRssMB: number;
  /** A hash of what etcd holds at the end: the same in both recording modes (a check, not timed). */
  finalState: string;
  /** The cluster as the run left it (kept by the script to its exit, so that a heap profile shows what a run keeps). */
  cluster: Cluster;
}

/**
 * Mass deletion: N pods spread over `nodes` nodes, each deleted gracefully (30 s grace; the
 * container exits 1 s after SIGTERM), simulated until every pod is gone.
 */
export function massDeletion(
  pods: number,
  nodes = 100,
  record: Recording = 'full',
  progress: (line: string) => void = () => {},
  services = 0,
): MassDeletionResult {
  const setupStart = process.hrtime.bigint();
  const c = new Cluster({ record });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  // With services: pod i is behind service svc-(i mod services), and clients send each service a
  // request every 100 ms from T+0 on, through the nodes' kube-proxies.
  for (let s = 0; s < services; s++) {
    const r = c.apiserver.create(USER, 'services', 'default', {
      metadata: { name: `svc-${s}` },
      spec: { selector: { app: `svc-${s}` }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    if (!r.ok) throw new Error(r.status.message);
  }
  const network = services > 0 ? c.network() : undefined;
  const behaviour = { sigterm: { kind: 'exits', afterMs: 1000 }, preStopMs: 0 } as const;
  for (let i = 0; i < pods; i++) {
    const nodeName = `node-${i % nodes}`;
    const labels = services > 0 ? { labels: { app: `svc-${i % services}` } } : {};
    const r = c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: `pod-${i}`, ...labels },
      spec: { nodeName, containers: [{ name: 'app' }] },
    });
    if (!r.ok) throw new Error(r.status.message);
    c.node(nodeName).containerBehaviours.set(`${r.object.metadata.uid} app`, behaviour);
  }
  c.flush();
  c.advance(60_000);
  const t0 = c.clock.now();
  for (let s = 0; s < services; s++)
    network!.clients.add({ service: `svc-${s}`, namespace: 'default', everyMs: 100, takesMs: 0, external: false }, t0);
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  progress(
    `${pods} pods created on ${nodes} nodes${services ? ` behind ${services} services` : ''} and running for a virtual minute (${setupSeconds.toFixed(1)} s); deleting them all`,
  );
  for (let i = 0; i < pods; i++) c.apiserver.delete(USER, 'pods', 'default', `pod-${i}`, {});
  let left = pods;
  c.apiserver.etcd.subscribe((e) => {
    if (e.type === 'DELETE' && e.key.startsWith('/registry/pods/')) left -= 1;
  });
  const gone = () => left === 0;
  if (!c.runUntil(gone, t0 + 10 * 60_000)) throw new Error('mass deletion did not finish within 10 virtual minutes');
  const seconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  const { user, system } = process.cpuUsage();
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  progress(
    `every pod gone after ${(c.clock.now() - t0) / 1000} virtual s (${seconds.toFixed(1)} s in all); hashing the final state`,
  );
  // Serialising every remaining object for the hash costs ≈ 2–4 % of a run (more at 100 000 pods,
  // with their Events): it checks the run, so it is not part of what the run is timed for.
  const state = createHash('sha256');
  for (const r of ['pods', 'nodes', 'events', 'leases'] as const)
    state.update(JSON.stringify(c.apiserver.list(r, undefined)));
  return {
    events: c.timeline.recorded,
    virtualMs: c.clock.now() - t0,
    setupSeconds,
    seconds,
    cpuSeconds: (user + system) / 1e6,
    peakRssMB,
    finalState: state.digest('hex').slice(0, 16),
    cluster: c,
  };
}

export interface MassDeletionArgs {
  pods: number;
  nodes: number;
  record: Recording;
  /** --services N: the pods behind N services, each with clients (0: none, the plain case). */
  services?: number;
}

export const USAGE =
  'node -r ./scripts/ts-hook.js bench/mass-deletion.ts PODS [NODES] [--record full|summary] [--services N]';

/** `PODS [NODES] [--record full|summary]` (1 000 pods on 100 nodes, full recording, by default); a bad argument throws one line naming it. */
export function parseMassDeletionArgs(argv: string[]): MassDeletionArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { record: { type: 'string', default: 'full' }, services: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 2)
    throw new Error(`expected PODS [NODES], got ${positionals.length} arguments: ${positionals.join(' ')}`);
  const count = (what: string, text: string | undefined, fallback: number): number => {
    if (text === undefined) return fallback;
    if (!/^[1-9]\d*$/.test(text)) throw new Error(`${what} is a whole number of at least 1, not "${text}"`);
    return Number(text);
  };
  const record = values.record;
  if (record !== 'full' && record !== 'summary') throw new Error(`--record is full or summary, not "${record}"`);
  const services = values.services === undefined ? undefined : count('--services', values.services, 0);
  return {
    pods: count('PODS', positionals[0], 1000),
    nodes: count('NODES', positionals[1], 100),
    record,
    ...(services !== undefined ? { services } : {}),
  };
}

if (require.main === module) {
  let args: MassDeletionArgs;
  try {
    args = parseMassDeletionArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`mass-deletion: ${(e as Error).message}\nusage: ${USAGE}`);
    process.exit(2);
  }
  const { pods, nodes, record, services = 0 } = args;
  // Progress on standard error (a 100 000-pod run takes half a minute); the result is the one line on standard output.
  const r = massDeletion(pods, nodes, record, (line) => process.stderr.write(`mass-deletion: ${line}\n`), services);
  // seconds: the whole run (creating the pods and letting them run, then the deletion);
  // deleteSeconds: from the first DELETE until every pod is gone; cpuSeconds: the process's CPU
  // time (user + system, loading included), which a busy machine does not inflate as it does wall time.
  // Held until the process exits: a heap profile (node --heap-prof, written at exit) then shows what the run keeps.
  process.on('exit', () => r.cluster);
  const { seconds, cpuSeconds, peakRssMB } = r;
  const failed = services > 0 ? { failedRequests: r.cluster.network().clients.failures.length } : {};
  console.log(
    JSON.stringify({
      pods,
      nodes,
      record,
      ...(services > 0 ? { services } : {}),
      ...failed,
      seconds,
      deleteSeconds: seconds - r.setupSeconds,
      events: r.events,
      virtualSeconds: r.virtualMs / 1000,
      finalState: r.finalState,
      peakRssMB,
      cpuSeconds,
    }),
  );
}

import { createHash } from 'node:crypto';
import type { Resource } from '../src/apiserver/apiserver';
import type { Cluster } from '../src/cluster/cluster';
import type { Recording } from '../src/foundation/timeline/timeline';
import { parseMassDeletionArgs, USAGE, type MassDeletionResult } from './mass-deletion';

/**
 * The end of a workload bench run (bench/rollout.ts, bench/drain.ts): its figures in
 * bench/mass-deletion.ts's shape, the final state hashed over `resources` (the same every run).
 */
export function finishRun(
  c: Cluster,
  t0: number,
  setupStart: bigint,
  setupSeconds: number,
  resources: readonly Resource[],
): MassDeletionResult {
  const seconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  const { user, system } = process.cpuUsage();
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  const state = createHash('sha256');
  for (const res of resources) state.update(JSON.stringify(c.apiserver.list(res, undefined)));
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

/**
 * A workload bench script's command line: PODS [NODES] [--record …] as bench/mass-deletion.ts
 * takes them (a wrong one: one line naming it, exit 2), progress on standard error, and the same
 * JSON line on standard output; deleteSeconds is the run's second phase (`phase`).
 */
export function workloadMain(
  name: string,
  run: (pods: number, nodes: number, record: Recording, progress: (line: string) => void) => MassDeletionResult,
): void {
  let args;
  try {
    args = parseMassDeletionArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${name}: ${(e as Error).message}\nusage: ${USAGE.replace('mass-deletion', name)}`);
    process.exit(2);
  }
  const { pods, nodes, record } = args;
  const r = run(pods, nodes, record, (line) => process.stderr.write(`${name}: ${line}\n`));
  // Held until the process exits: a heap profile (node --heap-prof, written at exit) then shows what the run keeps.
  process.on('exit', () => r.cluster);
  console.log(
    JSON.stringify({
      pods,
      nodes,
      record,
      seconds: r.seconds,
      deleteSeconds: r.seconds - r.setupSeconds,
      events: r.events,
      virtualSeconds: r.virtualMs / 1000,
      finalState: r.finalState,
      peakRssMB: r.peakRssMB,
      cpuSeconds: r.cpuSeconds,
    }),
  );
}

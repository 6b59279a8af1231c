import { parseArgs } from 'node:util';
import { Cluster, USER } from '../src/cluster/cluster';
import { runKubectl } from '../src/frontends/kubectl/kubectl';
import type { Recording } from '../src/foundation/timeline/timeline';
import type { MassDeletionResult } from './mass-deletion';
import { finishRun } from './workload-run';

/** Pods per workload: a namespace holding one ReplicaSet of this many replicas under a PodDisruptionBudget of maxUnavailable 5 %. */
const WORKLOAD_PODS = 100;

/**
 * `kubectl drain` (the built-in kubectl, on the virtual clock) of `drained` nodes, one after the
 * other, in a cluster of `pods` pods on `nodes` nodes — the supported maximum's drain (issue 37):
 * 150 000 pods on 5 000 nodes, 100 of them drained.
 *
 * The cluster is built as a long-running one looks, not through its history: many workloads of
 * WORKLOAD_PODS pods, each in its own namespace (a ReplicaSet, then its pods already bound
 * round-robin to the nodes — `spec.nodeName`, the ReplicaSet as their controller owner, so the
 * ReplicaSet controller's first sync finds its replicas and creates none), running for a virtual
 * minute; then a PodDisruptionBudget per workload. (Scheduling 150 000 pods one by one over 5 000
 * nodes is not what this measures.) A drained node's pods belong to different workloads, so no
 * eviction is refused: the figure is the cost of the drain's steps at that scale. The drain then
 * goes through everything a real one does: kubectl's cordon, LIST and evictions, each eviction
 * asking its budget (D5), the ReplicaSet controller replacing the evicted pods, the scheduler
 * placing each replacement over the remaining nodes, the kubelets terminating the evicted pods
 * (each container exits 1 s after SIGTERM) and starting the replacements. Time and CPU are taken
 * when the last drain has finished.
 */
export function drainAtScale(
  pods: number,
  nodes: number,
  drained: number,
  record: Recording = 'summary',
  progress: (line: string) => void = () => {},
): MassDeletionResult {
  if (drained > nodes) throw new Error(`cannot drain ${drained} of ${nodes} nodes`);
  const setupStart = process.hrtime.bigint();
  const c = new Cluster({ record });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  const workloads = Math.ceil(pods / WORKLOAD_PODS);
  const replicas = WORKLOAD_PODS;
  const behaviour = { sigterm: { kind: 'exits', afterMs: 1000 }, preStopMs: 0 } as const;
  const name = 'app';
  const labels = { app: name };
  let i = 0;
  for (let w = 0; w < workloads; w++) {
    const namespace = `ns-${w}`;
    const ns = c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: namespace } });
    if (!ns.ok) throw new Error(ns.status.message);
    const rs = c.apiserver.create(USER, 'replicasets', namespace, {
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'app' }] } },
      },
    });
    if (!rs.ok) throw new Error(rs.status.message);
    const owner = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name,
      uid: rs.object.metadata.uid!,
      controller: true,
      blockOwnerDeletion: true,
    };
    for (let r = 0; r < replicas; r++, i++) {
      const p = c.apiserver.create(USER, 'pods', namespace, {
        metadata: { name: `${name}-${r}`, labels, ownerReferences: [owner] },
        spec: { nodeName: `node-${i % nodes}`, containers: [{ name: 'app' }] },
      });
      if (!p.ok) throw new Error(p.status.message);
      c.node(`node-${i % nodes}`).containerBehaviours.set(`${p.object.metadata.uid} app`, behaviour);
    }
  }
  c.flush();
  c.advance(60_000);
  for (let w = 0; w < workloads; w++) {
    const b = c.apiserver.create(USER, 'poddisruptionbudgets', `ns-${w}`, {
      metadata: { name },
      spec: { maxUnavailable: '5%', selector: { matchLabels: labels } },
    });
    if (!b.ok) throw new Error(b.status.message);
  }
  c.advance(10_000);
  const list = c.apiserver.list('pods', undefined);
  const count = list.ok ? list.object.items.length : 0;
  if (count !== replicas * workloads)
    throw new Error(`${count} pods instead of ${replicas * workloads} before the drain`);
  const t0 = c.clock.now();
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  progress(
    `${count} pods of ${workloads} ReplicaSets under budgets on ${nodes} nodes running (${setupSeconds.toFixed(1)} s); draining ${drained} nodes one after the other`,
  );
  let refused = 0;
  for (let n = 0; n < drained; n++) {
    const r = runKubectl(c, `kubectl drain node-${n} --ignore-daemonsets --timeout=1h`);
    if (r.exitCode !== 0) throw new Error(`kubectl drain node-${n} failed: ${r.stderr}`);
    refused += r.stderr.split('\n').filter((l) => l.includes('Cannot evict pod')).length;
  }
  const result = finishRun(c, t0, setupStart, setupSeconds, ['replicasets', 'poddisruptionbudgets', 'pods']);
  progress(
    `${drained} nodes drained after ${(c.clock.now() - t0) / 1000} virtual s, ${refused} evictions refused with 429 (${result.seconds.toFixed(1)} s in all)`,
  );
  return result;
}

export const DRAIN_AT_SCALE_USAGE =
  'node -r ./scripts/ts-hook.js bench/drain-at-scale.ts PODS NODES --drain N [--record full|summary]';

/** `PODS NODES --drain N [--record …]`; a bad argument throws one line naming it. */
export function parseDrainAtScaleArgs(argv: string[]): {
  pods: number;
  nodes: number;
  drained: number;
  record: Recording;
} {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { record: { type: 'string', default: 'summary' }, drain: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) throw new Error(`expected PODS NODES, got ${positionals.length} arguments`);
  const count = (what: string, text: string | undefined): number => {
    if (text === undefined || !/^[1-9]\d*$/.test(text))
      throw new Error(`${what} is a whole number of at least 1, not "${text ?? ''}"`);
    return Number(text);
  };
  const record = values.record;
  if (record !== 'full' && record !== 'summary') throw new Error(`--record is full or summary, not "${record}"`);
  const nodes = count('NODES', positionals[1]);
  const drained = count('--drain', values.drain);
  if (drained > nodes) throw new Error(`--drain ${drained} is more than the ${nodes} nodes`);
  return { pods: count('PODS', positionals[0]), nodes, drained, record };
}

if (require.main === module) {
  let args: ReturnType<typeof parseDrainAtScaleArgs>;
  try {
    args = parseDrainAtScaleArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`drain-at-scale: ${(e as Error).message}\nusage: ${DRAIN_AT_SCALE_USAGE}`);
    process.exit(2);
  }
  const { pods, nodes, drained, record } = args;
  const r = drainAtScale(pods, nodes, drained, record, (line) => process.stderr.write(`drain-at-scale: ${line}\n`));
  // Held until the process exits: a heap profile (node --heap-prof, written at exit) then shows what the run keeps.
  process.on('exit', () => r.cluster);
  console.log(
    JSON.stringify({
      pods,
      nodes,
      drained,
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

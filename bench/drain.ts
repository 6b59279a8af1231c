import { Cluster, USER } from '../src/cluster/cluster';
import { runKubectl } from '../src/frontends/kubectl/kubectl';
import type { Recording } from '../src/foundation/timeline/timeline';
import type { MassDeletionResult } from './mass-deletion';
import { finishRun, workloadMain } from './workload-run';

/** Deployments the pods belong to: each of `pods / DEPLOYMENTS` replicas, under a budget of maxUnavailable 5 %. */
const DEPLOYMENTS = 10;

/**
 * `kubectl drain` (the built-in kubectl, on the virtual clock) of every node of a cluster of
 * `pods` pods — DEPLOYMENTS Deployments, each under a PodDisruptionBudget of maxUnavailable 5 %, whose
 * pods turn Ready 10 s after they start (a readiness probe's initial delay) —
 * on `nodes` nodes, one node after the other, once as many fresh nodes joined: each eviction asks
 * its budget (D5), many are refused with 429 and retried every 5 s, the ReplicaSets replace the
 * evicted pods on the fresh nodes and the disruption controller lets the next ones go as the
 * replacements turn Ready. The run lasts until every drain has finished.
 */
export function drainUnderBudgets(
  pods: number,
  nodes = 10,
  record: Recording = 'full',
  progress: (line: string) => void = () => {},
): MassDeletionResult {
  const setupStart = process.hrtime.bigint();
  const c = new Cluster({ record });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  const replicas = Math.ceil(pods / DEPLOYMENTS);
  for (let d = 0; d < DEPLOYMENTS; d++) {
    const labels = { app: `app-${d}` };
    const r = c.apiserver.create(USER, 'deployments', 'default', {
      metadata: { name: `app-${d}` },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              {
                name: 'app',
                readinessProbe: { httpGet: { path: '/ready', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 5 },
              },
            ],
          },
        },
      },
    });
    if (!r.ok) throw new Error(r.status.message);
    const b = c.apiserver.create(USER, 'poddisruptionbudgets', 'default', {
      metadata: { name: `app-${d}` },
      spec: { maxUnavailable: '5%', selector: { matchLabels: labels } },
    });
    if (!b.ok) throw new Error(b.status.message);
  }
  // Two virtual minutes: every pod created, scheduled, started and Ready (checked once, not at every step).
  c.advance(120_000);
  const list = c.apiserver.list('pods', 'default');
  const ready = list.ok
    ? list.object.items.filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))
        .length
    : 0;
  if (ready !== replicas * DEPLOYMENTS)
    throw new Error(`${ready} of ${replicas * DEPLOYMENTS} pods Ready after two virtual minutes`);
  for (let n = 0; n < nodes; n++) c.addNode(`fresh-${n}`);
  c.advance(10_000);
  const t0 = c.clock.now();
  const setupSeconds = Number(process.hrtime.bigint() - setupStart) / 1e9;
  progress(
    `${replicas * DEPLOYMENTS} pods under ${DEPLOYMENTS} budgets on ${nodes} nodes running (${setupSeconds.toFixed(1)} s); draining them one after the other`,
  );
  let refused = 0;
  for (let n = 0; n < nodes; n++) {
    const r = runKubectl(c, `kubectl drain node-${n} --ignore-daemonsets --timeout=1h`);
    if (r.exitCode !== 0) throw new Error(`kubectl drain node-${n} failed: ${r.stderr}`);
    refused += r.stderr.split('\n').filter((l) => l.includes('Cannot evict pod')).length;
  }
  const result = finishRun(c, t0, setupStart, setupSeconds, ['deployments', 'poddisruptionbudgets', 'pods']);
  progress(
    `${nodes} nodes drained after ${(c.clock.now() - t0) / 1000} virtual s, ${refused} evictions refused with 429 (${result.seconds.toFixed(1)} s in all)`,
  );
  return result;
}

if (require.main === module) workloadMain('drain', drainUnderBudgets);

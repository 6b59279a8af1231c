// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { formatTimeline } from '../../foundation/timeline/text';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * `kubectl drain` with the real kubectl v1.36 against `terminating serve`. Drain cordons the node,
 * finds pods/eviction in discovery and POSTs an Eviction (JSON) for each pod (R78); with
 * `--disable-eviction` it DELETEs them instead, through client-go's typed client, whose body is
 * DeleteOptions in protobuf (R77). Either way it then polls each pod with a GET every second until
 * it is gone. It never waits on a watch: in jump mode (the default) virtual time moves for it once
 * it has polled a pod a few times (JumpClock, POLL_REPEATS), one instant per quiet period; the
 * other tests run with `--clock fast=N`.
 */
const running: ServedCluster[] = [];
after(() => Promise.all(running.map((s) => s.close())));

async function served(clock = 'fast=60'): Promise<ServedCluster> {
  const s = await serve({
    port: 0,
    clock: parseClockMode(clock),
    reportDir: mkdtempSync(join(tmpdir(), 'drain-test-')),
  });
  running.push(s);
  return s;
}

async function kubectl(s: ServedCluster, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const binary = await realKubectlPath();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'drain-home-')),
    KUBECONFIG: s.kubeconfig,
  };
  return new Promise((resolve) => {
    execFile(binary, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function drain(
  args: string[],
  clock?: string,
): Promise<{ served: ServedCluster; code: number; stdout: string; stderr: string }> {
  const s = await served(clock);
  return { served: s, ...(await kubectl(s, ['drain', ...args])) };
}

const podsOn = (s: ServedCluster, node: string): string[] => {
  const list = s.cluster.apiserver.list('pods', 'default');
  return list.ok ? list.object.items.filter((p) => p.spec?.nodeName === node).map((p) => p.metadata.name!) : [];
};

/** Whether a pod's history holds the DisruptionTarget condition an eviction writes. */
const evictedByApi = (s: ServedCluster, pod: string): boolean =>
  s.cluster.apiserver.etcd
    .keyHistory(s.cluster.apiserver.keyFor('pods', 'default', pod))
    .some((e) =>
      ((e.value.status as { conditions?: { type: string; reason?: string }[] } | undefined)?.conditions ?? []).some(
        (c) => c.type === 'DisruptionTarget' && c.reason === 'EvictionByEvictionAPI',
      ),
    );

describe('kubectl drain (the real kubectl v1.36) against the served cluster (R77, R78)', () => {
  it('cordons node-1 and evicts its pods: DisruptionTarget EvictionByEvictionAPI, then a graceful delete with the grace period given', async () => {
    const { served, code, stdout, stderr } = await drain(['node-1', '--force', '--grace-period=5']);
    expect(code, stderr).to.equal(0);
    expect(stderr).to.include('Warning: deleting Pods that declare no controller: default/api, default/web');
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('node/node-1 cordoned');
    expect(lines.slice(1, -1)).to.have.members([
      'evicting pod default/api',
      'evicting pod default/frontend-1',
      'evicting pod default/web',
      'pod/api evicted',
      'pod/frontend-1 evicted',
      'pod/web evicted',
    ]);
    expect(lines.at(-1)).to.equal('node/node-1 drained');
    expect(podsOn(served, 'node-1')).to.deep.equal([]);
    // The ReplicaSet controller replaces the evicted frontend-1 (W6); the scheduler puts the
    // replacement on node-2, the only schedulable node left (W2).
    const onNode2 = podsOn(served, 'node-2');
    expect(onNode2.filter((p) => !/^frontend-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(p))).to.have.members([
      'data',
      'frontend-2',
      'held',
    ]);
    expect(onNode2).to.have.length(4);
    const node = served.cluster.apiserver.get('nodes', undefined, 'node-1');
    expect(node.ok && node.object.spec?.unschedulable).to.equal(true);
    const timeline = formatTimeline(served.cluster.timeline.since(served.t0), served.t0);
    for (const pod of ['api', 'frontend-1', 'web']) {
      expect(timeline).to.match(new RegExp(`CREATE pods/${pod}/eviction gracePeriodSeconds=5\\b`));
      expect(evictedByApi(served, pod), pod).to.equal(true);
    }
  });

  it('--disable-eviction: DELETEs each pod with protobuf DeleteOptions carrying the grace period, and no condition', async () => {
    const { served, code, stdout, stderr } = await drain([
      'node-1',
      '--force',
      '--disable-eviction',
      '--grace-period=5',
    ]);
    expect(code, stderr).to.equal(0);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(1, -1)).to.have.members(['pod/api deleted', 'pod/frontend-1 deleted', 'pod/web deleted']);
    expect(lines.at(-1)).to.equal('node/node-1 drained');
    expect(podsOn(served, 'node-1')).to.deep.equal([]);
    const timeline = formatTimeline(served.cluster.timeline.since(served.t0), served.t0);
    for (const pod of ['api', 'frontend-1', 'web']) {
      expect(timeline).to.match(new RegExp(`DELETE pods/${pod} gracePeriodSeconds=5\\b`));
      expect(evictedByApi(served, pod), pod).to.equal(false);
    }
  });

  it('a PodDisruptionBudget that allows nothing: kubectl get pdb shows it, and drain retries the 429 every 5 s until its --timeout (D5, D6)', async () => {
    const s = await served();
    const created = s.cluster.apiserver.create(
      { name: 'kubectl', component: 'kubectl' },
      'poddisruptionbudgets',
      'default',
      { metadata: { name: 'frontend' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'frontend' } } } },
    );
    expect(created.ok).to.equal(true);
    s.cluster.flush();
    const get = await kubectl(s, ['get', 'pdb']);
    expect(get.stdout.split('\n')[0]).to.match(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
    expect(get.stdout.split('\n')[1]).to.match(/^frontend\s+2\s+N\/A\s+0\s+\S+$/);
    const { code, stderr } = await kubectl(s, ['drain', 'node-1', '--force', '--grace-period=5', '--timeout=3s']);
    expect(code).to.equal(1);
    expect(stderr).to.include(
      `error when evicting pods/"frontend-1" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
    );
    expect(podsOn(s, 'node-1')).to.include('frontend-1');
    const refused = s.cluster.timeline
      .since(s.t0)
      .filter((e) => e.text.startsWith('CREATE pods/frontend-1/eviction') && e.outcome === '429 TooManyRequests');
    expect(refused.length).to.be.greaterThan(0);
  });

  it('K81 in jump mode (no --clock fast): the drain completes, its pods killed at the virtual times their grace gives', async () => {
    const { served, code, stdout, stderr } = await drain(['node-1', '--force', '--grace-period=20'], 'jump');
    expect(code, stderr).to.equal(0);
    expect(stdout.trim().split('\n').at(-1)).to.equal('node/node-1 drained');
    expect(podsOn(served, 'node-1')).to.deep.equal([]);
    const timeline = formatTimeline(served.cluster.timeline.since(served.t0), served.t0);
    // web ignores SIGTERM: its SIGKILL comes at the end of the 20 s, whatever wall time the drain took.
    expect(timeline).to.match(/T\+20s\s+runtime\s+SIGKILL app pods\/web/);
  });
});

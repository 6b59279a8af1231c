// It spawns the real kubectl against a served cluster: this file runs in a process of its own (scripts/unit-tests.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { formatTimeline } from '../timeline/text';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * `kubectl drain` with the real kubectl v1.33 against `terminating serve`. Drain cordons the node,
 * finds pods/eviction in discovery and POSTs an Eviction (JSON) for each pod (R78); with
 * `--disable-eviction` it DELETEs them instead, through client-go's typed client, whose body is
 * DeleteOptions in protobuf (R77). Either way it then polls each pod with a GET every second until
 * it is gone. It never waits on a watch, so it runs with `--clock fast=N` (in jump mode virtual
 * time stands still until a client waits on a watch).
 */
const running: ServedCluster[] = [];
after(() => Promise.all(running.map((s) => s.close())));

async function drain(args: string[]): Promise<{ served: ServedCluster; code: number; stdout: string; stderr: string }> {
  const served = await serve({ port: 0, clock: parseClockMode('fast=60'), reportDir: mkdtempSync(join(tmpdir(), 'drain-test-')) });
  running.push(served);
  const kubectl = await realKubectlPath();
  const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'drain-home-')), KUBECONFIG: served.kubeconfig };
  return new Promise((resolve) => {
    execFile(kubectl, ['drain', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ served, code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const podsOn = (s: ServedCluster, node: string): string[] => {
  const list = s.cluster.apiserver.list('pods', 'default');
  return list.ok ? list.object.items.filter((p) => p.spec?.nodeName === node).map((p) => p.metadata.name!) : [];
};

/** Whether a pod's history holds the DisruptionTarget condition an eviction writes. */
const evictedByApi = (s: ServedCluster, pod: string): boolean =>
  s.cluster.apiserver.etcd
    .keyHistory(s.cluster.apiserver.keyFor('pods', 'default', pod))
    .some((e) => ((e.value.status as { conditions?: { type: string; reason?: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.reason === 'EvictionByEvictionAPI'));

describe('kubectl drain (the real kubectl v1.33) against the served cluster (R77, R78)', () => {
  it('cordons node-1 and evicts its pods: DisruptionTarget EvictionByEvictionAPI, then a graceful delete with the grace period given', async () => {
    const { served, code, stdout, stderr } = await drain(['node-1', '--force', '--grace-period=5']);
    expect(code, stderr).to.equal(0);
    expect(stderr).to.include('Warning: deleting Pods that declare no controller: default/api, default/web');
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('node/node-1 cordoned');
    expect(lines.slice(1, -1)).to.have.members(['evicting pod default/api', 'evicting pod default/frontend-1', 'evicting pod default/web', 'pod/api evicted', 'pod/frontend-1 evicted', 'pod/web evicted']);
    expect(lines.at(-1)).to.equal('node/node-1 drained');
    expect(podsOn(served, 'node-1')).to.deep.equal([]);
    // The ReplicaSet controller replaces the evicted frontend-1 (W6); the scheduler puts the
    // replacement on node-2, the only schedulable node left (W2).
    const onNode2 = podsOn(served, 'node-2');
    expect(onNode2.filter((p) => !/^frontend-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(p))).to.have.members(['data', 'frontend-2', 'held']);
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
    const { served, code, stdout, stderr } = await drain(['node-1', '--force', '--disable-eviction', '--grace-period=5']);
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
});

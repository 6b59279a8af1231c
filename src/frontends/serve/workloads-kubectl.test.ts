// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { USER } from '../../cluster/cluster';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * The real kubectl v1.36 against `terminating serve` with a StatefulSet, a DaemonSet and a Job:
 * `kubectl get` prints kube-apiserver's Table columns for them (R130, V50), and `kubectl drain`
 * refuses DaemonSet pods without `--ignore-daemonsets` and leaves them with it (W62;
 * kubectl/pkg/drain filters.go daemonSetFilter, which GETs the owning DaemonSet).
 */
let served: ServedCluster;
let env: NodeJS.ProcessEnv;
let kubectl: string;

before(async () => {
  served = await serve({
    port: 0,
    clock: parseClockMode('fast=60'),
    reportDir: mkdtempSync(join(tmpdir(), 'workloads-test-')),
  });
  kubectl = await realKubectlPath();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'workloads-home-')),
    KUBECONFIG: served.kubeconfig,
  };
  const api = served.cluster.apiserver;
  const template = (app: string) => ({
    metadata: { labels: { app } },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  });
  for (const r of [
    api.create(USER, 'statefulsets', 'default', {
      metadata: { name: 'db' },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
    }),
    api.create(USER, 'daemonsets', 'default', {
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
    }),
    api.create(USER, 'jobs', 'default', {
      metadata: { name: 'pi' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'perl' }] } } },
    }),
  ]) {
    if (!r.ok) throw new Error(r.status.message);
  }
  // A few virtual seconds (fast=60) for the controllers, the scheduler and the kubelets.
  await new Promise((r) => setTimeout(r, 300));
});
after(() => served.close());

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const agentOn = (node: string) => {
  const list = served.cluster.apiserver.list(
    'pods',
    'default',
    (p) => p.spec?.nodeName === node && p.metadata.labels?.app === 'agent',
  );
  return list.ok ? list.object.items : [];
};

describe('the real kubectl with StatefulSets, DaemonSets and Jobs (R130, V50, W62)', () => {
  it('kubectl get statefulsets,daemonsets,jobs prints their columns', async () => {
    const { code, stdout, stderr } = await run(['get', 'statefulsets,daemonsets,jobs']);
    expect(code, stderr).to.equal(0);
    const lines = stdout.split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(lines[0]).to.deep.equal(['NAME', 'READY', 'AGE']);
    expect(lines[1].slice(0, 2)).to.deep.equal(['statefulset.apps/db', '2/2']);
    const ds = lines.findIndex((l) => l[0] === 'NAME' && l[1] === 'DESIRED');
    expect(lines[ds]).to.deep.equal([
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'NODE SELECTOR',
      'AGE',
    ]);
    expect(lines[ds + 1].slice(0, 7)).to.deep.equal(['daemonset.apps/agent', '2', '2', '2', '2', '2', '<none>']);
    const job = lines.findIndex((l) => l[0] === 'NAME' && l[1] === 'STATUS');
    expect(lines[job]).to.deep.equal(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
    // Its pod (restartPolicy Never, no behaviour given) exits 0 after 10 virtual seconds (R98), well inside the 18 s before() waited.
    expect(lines[job + 1].slice(0, 3)).to.deep.equal(['job.batch/pi', 'Complete', '1/1']);
  });

  it('kubectl drain refuses DaemonSet pods without --ignore-daemonsets, and leaves them with it', async () => {
    const refused = await run(['drain', 'node-1', '--force']);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(
      /cannot delete DaemonSet-managed Pods \(use --ignore-daemonsets to ignore\): default\/agent-[a-z0-9]{5}/,
    );
    const drained = await run(['drain', 'node-1', '--force', '--ignore-daemonsets']);
    expect(drained.code, drained.stderr).to.equal(0);
    // kubectl joins its warnings in one line: `Warning: deleting Pods that declare no controller: …; ignoring DaemonSet-managed Pods: …`.
    expect(drained.stderr).to.match(/^Warning: .*ignoring DaemonSet-managed Pods: default\/agent-[a-z0-9]{5}/m);
    expect(drained.stdout.trim().split('\n').at(-1)).to.equal('node/node-1 drained');
    const [agent] = agentOn('node-1');
    expect(agent?.metadata.deletionTimestamp).to.equal(undefined);
  });
});

// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { type ServedKubectl, serveWithRealKubectl } from './kubectl-testing';
import type { ServedCluster } from './serve';

/**
 * The real kubectl v1.36 against `terminating serve` for the workloads (W6, W8): `scale` through
 * the autoscaling/v1 scale subresource, `create -f` of a Deployment, `rollout status` (it watches the
 * Deployment), `rollout restart` (a template annotation), `rollout undo` (the previous
 * ReplicaSet's template, a JSON patch), and `get deploy,rs` with the Table columns. One served
 * cluster for all, in jump mode (virtual time runs while kubectl waits on a watch).
 */
let served: ServedCluster;
let run: ServedKubectl['run'];
before(async () => {
  ({ served, run } = await serveWithRealKubectl({ prefix: 'workloads', clock: 'jump' }));
});
after(() => served.close());

const requests = (text: RegExp) =>
  served.cluster.timeline
    .all()
    .filter((e) => e.component === 'apiserver' && text.test(e.text))
    .map((e) => e.text);

describe('the real kubectl v1.36 with ReplicaSets and Deployments against the served cluster (W6, W8)', () => {
  it('W6 kubectl scale rs: a PATCH of replicasets/NAME/scale; the ReplicaSet controller makes the pod', async () => {
    const r = await run('scale', 'rs', 'frontend', '--replicas=3');
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('replicaset.apps/frontend scaled');
    expect(requests(/^PATCH replicasets\/frontend\/scale/)).to.have.length(1);
    const rs = served.cluster.apiserver.get('replicasets', 'default', 'frontend');
    expect(rs.ok && rs.object.spec?.replicas).to.equal(3);
  });

  it('W8 create deployment, rollout status, rollout restart, rollout undo, scale deployment and get deploy,rs', async () => {
    // `kubectl create deployment` sends protobuf (a typed client), which this apiserver does not
    // decode; `create -f` sends JSON.
    const file = join(mkdtempSync(join(tmpdir(), 'workloads-manifest-')), 'api.yaml');
    writeFileSync(
      file,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  labels: {app: api}\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n        - {name: app, image: nginx:1.27}\n',
    );
    const created = await run('create', '-f', file);
    expect(created.code, created.stderr).to.equal(0);
    const status = await run('rollout', 'status', 'deployment/api', '--timeout=60s');
    expect(status.code, status.stderr).to.equal(0);
    expect(status.stdout).to.contain('deployment "api" successfully rolled out');
    const restart = await run('rollout', 'restart', 'deployment/api');
    expect(restart.code, restart.stderr).to.equal(0);
    expect(restart.stdout.trim()).to.equal('deployment.apps/api restarted');
    expect((await run('rollout', 'status', 'deployment/api', '--timeout=60s')).code).to.equal(0);
    const undo = await run('rollout', 'undo', 'deployment/api');
    expect(undo.code, undo.stderr).to.equal(0);
    expect(undo.stdout.trim()).to.equal('deployment.apps/api rolled back');
    const scale = await run('scale', 'deployment/api', '--replicas=3');
    expect(scale.stdout.trim()).to.equal('deployment.apps/api scaled');
    expect((await run('rollout', 'status', 'deployment/api', '--timeout=60s')).code).to.equal(0);
    const get = await run('get', 'deploy,rs', '-l', 'app=api');
    expect(get.code, get.stderr).to.equal(0);
    const lines = get.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
    expect(lines[1]).to.match(/^deployment\.apps\/api\s+3\/3\s+3\s+3\s+/);
    // Three templates, two ReplicaSets: the undo went back to the first one's (revision 3 now).
    const sets = lines.filter((l) => l.startsWith('replicaset.apps/api-'));
    expect(sets).to.have.length(2);
    expect(sets.map((l) => l.split(/\s+/).slice(1, 4).join(' ')).sort()).to.deep.equal(['0 0 0', '3 3 3']);
  });

  it('C2 kubectl delete deployment --cascade=foreground: the Deployment waits, held by foregroundDeletion, until the garbage collector has deleted its ReplicaSets and their pods', async () => {
    const r = await run('delete', 'deployment', 'api', '--cascade=foreground');
    expect(r.code, r.stderr).to.equal(0);
    // kubectl v1.34+ names the namespace (kubernetes#126619).
    expect(r.stdout.trim()).to.equal('deployment.apps "api" deleted from default namespace');
    expect(requests(/^DELETE deployments\/api/)[0]).to.contain('propagationPolicy=Foreground');
    // kubectl waited for the Deployment to be gone: its ReplicaSets and their pods went first.
    const left = (res: 'deployments' | 'replicasets' | 'pods') => {
      const l = served.cluster.apiserver.list(res, 'default');
      return l.ok
        ? l.object.items
            .filter((o) => o.metadata.name === 'api' || o.metadata.name?.startsWith('api-'))
            .map((o) => o.metadata.name)
        : ['?'];
    };
    // (the default cluster's own pod "api" is no Deployment's)
    expect([left('deployments'), left('replicasets'), left('pods')]).to.deep.equal([[], [], ['api']]);
  });
});

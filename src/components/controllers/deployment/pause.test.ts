/** W9 — `kubectl rollout pause`: a paused Deployment is scaled but not rolled out (deployment_controller.go syncDeployment, sync.go checkPausedConditions). */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Deployment } from '../../../apimachinery/types';
import { Cluster, USER } from '../../../cluster/cluster';
import { bindNewPods } from '../workload-testing';

function cluster(): Cluster {
  const c = new Cluster();
  c.addNode('node-1');
  bindNewPods(c, 'node-1');
  c.advance(10_000);
  c.apiserver.create(USER, 'deployments', 'default', {
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } },
    },
  });
  c.advance(10_000);
  return c;
}

const patch = (c: Cluster, body: object) => {
  const r = c.apiserver.patch(USER, 'deployments', 'default', 'web', 'merge', body);
  if (!r.ok) expect.fail(r.status.message);
  c.advance(5000);
};
const deployment = (c: Cluster): Deployment => {
  const r = c.apiserver.get('deployments', 'default', 'web');
  if (!r.ok) throw new Error('no deployment');
  return r.object;
};
const progressing = (c: Cluster) => {
  const p = (deployment(c).status?.conditions ?? []).find((x) => x.type === 'Progressing');
  return [p?.status, p?.reason, p?.message];
};
const replicaSets = (c: Cluster): string[] => {
  const r = c.apiserver.list('replicasets', 'default');
  return r.ok ? r.object.items.map((rs) => `${rs.metadata.name}=${rs.spec?.replicas}`).sort() : [];
};

describe('W9 a paused Deployment (rollout pause)', () => {
  it('W9 paused: Progressing Unknown DeploymentPaused; a new template starts no rollout, a new replica count is still applied; resumed: DeploymentResumed, then the rollout', () => {
    const c = cluster();
    const before = replicaSets(c);
    expect(before).to.have.length(1);
    patch(c, { spec: { paused: true } });
    expect(progressing(c)).to.deep.equal(['Unknown', 'DeploymentPaused', 'Deployment is paused']);
    patch(c, { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } });
    expect(replicaSets(c), 'no new ReplicaSet while paused').to.deep.equal(before);
    patch(c, { spec: { replicas: 3 } });
    expect(replicaSets(c)).to.deep.equal([before[0].replace('=2', '=3')]);
    expect(progressing(c)[1]).to.equal('DeploymentPaused');
    patch(c, { spec: { paused: false } });
    c.advance(30_000);
    const after = replicaSets(c);
    expect(after).to.have.length(2);
    expect(after.filter((x) => x.endsWith('=3'))).to.have.length(1);
    expect(progressing(c)).to.deep.equal([
      'True',
      'NewReplicaSetAvailable',
      `ReplicaSet "${after.find((x) => x.endsWith('=3'))!.split('=')[0]}" has successfully progressed.`,
    ]);
    const lane = c.timeline
      .all()
      .filter((e) => e.component === 'deployment')
      .map((e) => e.text);
    expect(lane).to.include('deployments/web is paused: it is only scaled, no rollout goes on');
    expect(lane).to.include('deployments/web is resumed');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { rollout } from './rollout';

describe('bench/rollout.ts', () => {
  it('rolls a Deployment over to its new template: the new ReplicaSet has every pod, the old one none', () => {
    const r = rollout(20, 2);
    const sets = r.cluster.apiserver.list('replicasets', 'default');
    const replicas = (sets.ok ? sets.object.items : [])
      .map((rs) => [
        rs.metadata.annotations?.['deployment.kubernetes.io/revision'],
        rs.spec?.replicas,
        rs.status?.availableReplicas,
      ])
      .sort();
    expect(replicas).to.deep.equal([
      ['1', 0, 0],
      ['2', 20, 20],
    ]);
    const pods = r.cluster.apiserver.list('pods', 'default');
    expect(pods.ok && pods.object.items.length).to.equal(20);
  });
});

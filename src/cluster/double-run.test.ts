import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from './cluster';

describe('DoubleRunWatch (no upstream component: the simulation notices one pod running twice)', () => {
  it('tells pods apart by namespace: two pods named alike in two namespaces, on two nodes, are not one pod running twice', () => {
    const c = new Cluster();
    c.addNode('node-1');
    c.addNode('node-2');
    for (const [namespace, node] of [
      ['a', 'node-1'],
      ['b', 'node-2'],
      ['c', 'node-1'],
    ]) {
      expect(c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: namespace } }).ok).to.equal(true);
      const r = c.apiserver.create(USER, 'pods', namespace, {
        metadata: { name: 'web' },
        spec: { nodeName: node, containers: [{ name: 'app' }] },
      });
      expect(r.ok).to.equal(true);
    }
    c.advance(5000);
    expect(
      c.timeline
        .all()
        .filter((e) => e.text.startsWith('double run'))
        .map((e) => e.text),
    ).to.deep.equal([]);
    const sandboxes = ['node-1', 'node-2'].flatMap((n) => c.node(n).runtime.allSandboxes());
    expect(sandboxes.map((s) => `${s.namespace}/${s.podRef} ${s.state}`).sort()).to.deep.equal([
      'a/pods/web ready',
      'b/pods/web ready',
      'c/pods/web ready',
    ]);
  });
});

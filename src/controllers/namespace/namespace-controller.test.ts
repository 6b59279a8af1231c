import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Namespace } from '../../apiserver/types';
import { Cluster, USER } from '../../cluster';
import { Release } from '../../release';
import { formatTimeline } from '../../timeline/text';

function cluster(release?: Release) {
  const c = new Cluster(release ? { release } : {});
  c.apiserver.ensureSystemNamespaces();
  c.addNode('node-1');
  c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'team' } } as Namespace);
  return c;
}
const ns = (c: Cluster) => {
  const r = c.apiserver.get('namespaces', undefined, 'team');
  return r.ok ? r.object : undefined;
};

describe('the namespace controller (pkg/controller/namespace)', () => {
  it('scratch', () => {
    const c = cluster();
    c.apiserver.create(USER, 'pods', 'team', { metadata: { name: 'web', finalizers: ['example.com/hold'] }, spec: { nodeName: 'node-1', containers: [{ name: 'app' }] } });
    c.advance(60_000);
    const t0 = c.clock.now();
    const r = c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
    expect(r.ok, r.ok ? '' : r.status.message).to.equal(true);
    c.advance(120_000);
    console.log(formatTimeline(c.timeline.since(t0), t0).split('\n').filter((l) => !/ (etcd|watch) /.test(l)).join('\n'));
    console.log(JSON.stringify(ns(c), null, 1));
  });
});

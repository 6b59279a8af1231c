/**
 * R246 — the serviceaccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
 * every active namespace gets its `default` ServiceAccount, made again when deleted.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../../cluster/cluster';

describe('R246 serviceaccounts controller', () => {
  it('a namespace gets a ServiceAccount "default"; deleted, it is made again; a namespace being deleted gets none', () => {
    const c = new Cluster();
    c.apiserver.ensureSystemNamespaces();
    c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'shop' } });
    c.advance(1000);
    for (const ns of ['default', 'kube-system', 'shop'])
      expect(c.apiserver.get('serviceaccounts', ns, 'default').ok, ns).to.equal(true);
    expect(c.apiserver.delete(USER, 'serviceaccounts', 'shop', 'default', {}).ok).to.equal(true);
    c.advance(1000);
    expect(c.apiserver.get('serviceaccounts', 'shop', 'default').ok, 'made again').to.equal(true);
    c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'gone', finalizers: ['example.com/hold'] } });
    c.advance(1000);
    c.apiserver.delete(USER, 'namespaces', undefined, 'gone', {});
    c.apiserver.delete(USER, 'serviceaccounts', 'gone', 'default', {});
    c.advance(1000);
    expect(c.apiserver.get('serviceaccounts', 'gone', 'default').ok, 'not made in a terminating namespace').to.equal(
      false,
    );
  });

  it('without Namespace objects (a scenario that declares none) there is nothing to do', () => {
    const c = new Cluster();
    c.advance(1000);
    const listed = c.apiserver.list('serviceaccounts', undefined);
    expect(listed.ok && listed.object.items).to.deep.equal([]);
  });
});

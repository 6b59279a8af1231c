/** C10 — the NamespaceContentRemaining condition names a custom resource by its GroupResource, once. */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { KubeObject } from '../../../apimachinery/object';
import { databaseCRD } from '../../../apiserver/apiextensions/testing';
import { Cluster, USER } from '../../../cluster/cluster';

describe('namespace conditions name custom resources as GroupResource.String() does', () => {
  it('C10 a Database held by a finalizer: "databases.example.com has 1 resource instances", the group not doubled', () => {
    const c = new Cluster();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.flush();
    c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'shop' } });
    const db = c.apiserver.create(USER, 'databases.example.com', 'shop', {
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders', finalizers: ['example.com/backup'] },
      spec: { engine: 'postgres' },
    } as KubeObject);
    expect(db.ok).to.equal(true);
    c.apiserver.delete(USER, 'namespaces', undefined, 'shop', {});
    c.advance(30_000);
    const ns = c.apiserver.get('namespaces', undefined, 'shop');
    const conditions = ns.ok ? (ns.object.status?.conditions ?? []) : [];
    const remaining = conditions.find((x) => x.type === 'NamespaceContentRemaining');
    expect(remaining?.message).to.equal('Some resources are remaining: databases.example.com has 1 resource instances');
    const finalizers = conditions.find((x) => x.type === 'NamespaceFinalizersRemaining');
    expect(finalizers?.message).to.equal(
      'Some content in the namespace has finalizers remaining: example.com/backup in 1 resource instances',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import type { KubeObject } from '../../apimachinery/object';
import { databaseCRD } from './testing';

/** The Database CRD with `spec.users` a list of the given list type (map: keyed by name). */
function cluster(listType: 'map' | undefined) {
  const crd = databaseCRD();
  const schema = crd.spec.versions[0].schema!.openAPIV3Schema as {
    properties: { spec: { properties: Record<string, unknown> } };
  };
  schema.properties.spec.properties.users = {
    type: 'array',
    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, role: { type: 'string' } } },
    ...(listType ? { 'x-kubernetes-list-type': listType, 'x-kubernetes-list-map-keys': ['name'] } : {}),
  };
  const c = new Cluster({});
  c.apiserver.ensureSystemNamespaces();
  c.apiserver.trackManagedFields();
  c.apiserver.create(USER, 'customresourcedefinitions', undefined, crd);
  c.flush();
  return c;
}
const applied = (users: object[], engine?: string) =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Database',
    metadata: { name: 'db' },
    spec: { ...(engine ? { engine } : {}), users },
  }) as unknown as KubeObject;
const apply = (c: Cluster, manager: string, body: KubeObject) =>
  c.apiserver.apply(USER, 'databases.example.com', 'default', 'db', body, { fieldManager: manager });

describe("A6 server-side apply walks a custom resource with its CRD's schema (the crdHandler's type converter)", () => {
  it('a list-type map merges the items two managers apply, keyed by name; a field another manager owns conflicts', () => {
    const c = cluster('map');
    expect(apply(c, 'alice', applied([{ name: 'a', role: 'admin' }], 'postgres')).code).to.equal(201);
    const second = apply(c, 'bob', applied([{ name: 'b', role: 'reader' }]));
    expect(second.ok && (second.object as unknown as { spec: { users: unknown } }).spec.users).to.deep.equal([
      { name: 'a', role: 'admin' },
      { name: 'b', role: 'reader' },
    ]);
    const conflict = apply(c, 'bob', applied([{ name: 'b', role: 'reader' }], 'mysql'));
    expect(conflict.ok ? '' : `${conflict.code} ${conflict.status.message}`).to.equal(
      '409 Apply failed with 1 conflict: conflict with "alice": .spec.engine',
    );
  });

  it('without a list type the list is atomic: the second manager conflicts on the whole list', () => {
    const c = cluster(undefined);
    apply(c, 'alice', applied([{ name: 'a', role: 'admin' }]));
    const second = apply(c, 'bob', applied([{ name: 'b', role: 'reader' }]));
    expect(second.ok ? '' : `${second.code} ${second.status.message}`).to.equal(
      '409 Apply failed with 1 conflict: conflict with "alice": .spec.users',
    );
  });
});

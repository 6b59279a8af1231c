import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import type { KubeObject } from '../../apimachinery/object';
import { databaseCRD } from './testing';
import type { CustomResourceDefinition } from './types';
import { Release } from '../../foundation/release';

function cluster(release?: Release) {
  const c = new Cluster(release ? { release } : {});
  c.apiserver.ensureSystemNamespaces();
  return c;
}
const crd = (c: Cluster) => {
  const r = c.apiserver.get('customresourcedefinitions', undefined, 'databases.example.com');
  return r.ok ? r.object : undefined;
};
const conditions = (c: Cluster) =>
  Object.fromEntries((crd(c)?.status?.conditions ?? []).map((x) => [x.type, `${x.status} ${x.reason}: ${x.message}`]));
const db = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Database',
    metadata: { name, ...extra },
    spec: { engine: 'postgres' },
  }) as KubeObject;

describe('CustomResourceDefinitions (apiextensions-apiserver)', () => {
  it('A2 A3 A4 a new CRD gets its names accepted and is Established; its custom resources are then served', () => {
    const c = cluster();
    expect(c.apiserver.create(USER, 'databases.example.com', 'default', db('a')).code).to.equal(404);
    const r = c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    c.flush();
    expect(conditions(c)).to.deep.equal({
      NamesAccepted: 'True NoConflicts: no conflicts found',
      Established: 'True InitialNamesAccepted: the initial names have been accepted',
    });
    expect(crd(c)?.status?.acceptedNames).to.deep.include({
      plural: 'databases',
      kind: 'Database',
      listKind: 'DatabaseList',
      singular: 'database',
    });
    expect(crd(c)?.status?.storedVersions).to.deep.equal(['v1']);
    const created = c.apiserver.create(USER, 'databases.example.com', 'default', {
      ...db('a'),
      status: { phase: 'Ready' },
    } as KubeObject);
    expect(created.ok && created.object).to.deep.include({ apiVersion: 'example.com/v1', kind: 'Database' });
    // With a status subresource, a create drops the status it was sent.
    expect(created.ok && (created.object as KubeObject & { status?: unknown }).status).to.equal(undefined);
    expect(c.apiserver.keyFor('databases.example.com', 'default', 'a')).to.equal(
      '/registry/example.com/databases/default/a',
    );
  });

  it('A1 a CRD whose name is not <plural>.<group>, or with two storage versions, is invalid', () => {
    const c = cluster();
    const bad = databaseCRD();
    bad.metadata.name = 'dbs.example.com';
    bad.spec.versions.push({ ...bad.spec.versions[0], name: 'v2' });
    const r = c.apiserver.create(USER, 'customresourcedefinitions', undefined, bad);
    expect(r.ok).to.equal(false);
    expect(!r.ok && r.status.message).to.equal(
      'CustomResourceDefinition.apiextensions.k8s.io "dbs.example.com" is invalid: [metadata.name: Invalid value: "dbs.example.com": must be spec.names.plural+"."+spec.group, spec.versions: Invalid value: ' +
        '[]apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:true, …}, apiextensions.CustomResourceDefinitionVersion{Name:"v2", Served:true, Storage:true, …}}' +
        ': must have exactly one version marked as storage version]',
    );
  });

  it('A2 a second CRD of the group asking for names in use is not accepted (the last conflict found is the reason) and not served', () => {
    const c = cluster();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.flush();
    const other: CustomResourceDefinition = {
      ...databaseCRD(),
      metadata: { name: 'dbs.example.com' },
      spec: { ...databaseCRD().spec, names: { plural: 'dbs', kind: 'Database' } },
    };
    expect(c.apiserver.create(USER, 'customresourcedefinitions', undefined, other).ok).to.equal(true);
    c.flush();
    const got = c.apiserver.get('customresourcedefinitions', undefined, 'dbs.example.com');
    const conds = got.ok ? got.object.status?.conditions : [];
    expect(conds?.map((x) => `${x.type} ${x.status} ${x.reason}: ${x.message}`)).to.deep.equal([
      'NamesAccepted False ListKindConflict: "DatabaseList" is already in use',
      'Established False NotAccepted: not all names are accepted',
    ]);
    expect(c.apiserver.create(USER, 'dbs.example.com', 'default', db('x')).code).to.equal(404);
  });

  it('A5 deleting a CRD deletes its custom resources (InstanceDeletionInProgress), is held by their finalizers, then goes', () => {
    const c = cluster();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.flush();
    c.apiserver.create(USER, 'databases.example.com', 'default', db('a', { finalizers: ['example.com/cleanup'] }));
    c.apiserver.create(USER, 'databases.example.com', 'default', db('b'));
    const d = c.apiserver.delete(USER, 'customresourcedefinitions', undefined, 'databases.example.com');
    expect(d.code).to.equal(200);
    expect((d.ok && (d.object as KubeObject).metadata.finalizers) || []).to.deep.equal([
      'customresourcecleanup.apiextensions.k8s.io',
    ]);
    c.flush();
    expect(conditions(c).Terminating).to.equal(
      'True InstanceDeletionInProgress: CustomResource deletion is in progress',
    );
    expect(c.apiserver.get('databases.example.com', 'default', 'b').code).to.equal(404);
    const a = c.apiserver.get('databases.example.com', 'default', 'a');
    expect(a.ok && a.object.metadata.deletionTimestamp).to.be.a('string');
    // No new instances while it terminates.
    const refused = c.apiserver.create(USER, 'databases.example.com', 'default', db('c'));
    // From v1.34 (the default v1.36) a 403; up to v1.33 a 405 (the test below).
    expect(!refused.ok && `${refused.code} ${refused.status.message}`).to.equal(
      '403 databases.example.com "c" is forbidden: create not allowed while custom resource definition is terminating',
    );
    c.advance(60_000);
    expect(conditions(c).Terminating).to.equal(
      'True InstanceDeletionCheck: could not confirm zero CustomResources remaining: context deadline exceeded',
    );
    expect(crd(c)).to.not.equal(undefined);
    // The instance's own finalizer goes: the CRD finalizer's next poll finds none and releases the CRD.
    const latest = c.apiserver.get('databases.example.com', 'default', 'a');
    c.apiserver.update(USER, 'databases.example.com', 'default', {
      ...(latest.ok ? latest.object : db('a')),
      metadata: { ...(latest.ok ? latest.object.metadata : {}), finalizers: [] },
    });
    c.advance(10_000);
    expect(crd(c)).to.equal(undefined);
    expect(c.apiserver.get('databases.example.com', 'default', 'a').code).to.equal(404);
  });

  it('A5 while the CRD terminates: up to v1.33 a POST is a 405 but a server-side apply creates; from v1.34 both are 403 (kubernetes#132467)', () => {
    for (const [minor, post, apply] of [
      [33, '405 create not allowed while custom resource definition is terminating', '201'],
      [
        34,
        '403 databases.example.com "c" is forbidden: create not allowed while custom resource definition is terminating',
        '403',
      ],
    ] as const) {
      const c = cluster(Release.parse(`1.${minor}`));
      c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
      c.flush();
      c.apiserver.create(USER, 'databases.example.com', 'default', db('held', { finalizers: ['example.com/cleanup'] }));
      c.apiserver.delete(USER, 'customresourcedefinitions', undefined, 'databases.example.com');
      c.flush();
      const r = c.apiserver.create(USER, 'databases.example.com', 'default', db('c'));
      expect(r.ok ? '201' : `${r.code} ${r.status.message}`, `v1.${minor} POST`).to.equal(post);
      const applied = c.apiserver.apply(USER, 'databases.example.com', 'default', 'd', db('d'), {
        fieldManager: 'kubectl',
      });
      expect(String(applied.code), `v1.${minor} apply`).to.equal(apply);
    }
  });

  it('A4 a namespace being deleted is emptied of its custom resources too (the namespace controller reads them from discovery)', () => {
    const c = cluster();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'team' } });
    c.flush();
    c.apiserver.create(USER, 'databases.example.com', 'team', db('a'));
    c.apiserver.delete(USER, 'namespaces', undefined, 'team');
    c.advance(30_000);
    expect(c.apiserver.get('databases.example.com', 'team', 'a').code).to.equal(404);
    expect(c.apiserver.get('namespaces', undefined, 'team').code).to.equal(404);
  });
});

import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { databaseCRD } from '../../apiserver/apiextensions/testing';
import { request, startServer, type TestServer } from './testing';

/**
 * Custom resources over HTTP (A3, A6), in process: discovery of an Established CRD, its
 * resources JSON-only, the Table with its printer columns, and its OpenAPI v3 document.
 */
let s: TestServer;
const DB = '/apis/example.com/v1/namespaces/default/databases';
before(async () => {
  s = await startServer([]);
  const crd = await request(s.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: databaseCRD({ scale: true }),
  });
  expect(crd.status, crd.text).to.equal(201);
  const created = await request(s.base, 'POST', DB, {
    body: {
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders' },
      spec: { engine: 'postgres', replicas: 2 },
    },
  });
  expect(created.status, created.text).to.equal(201);
});
after(() => s.close());

describe('A6 custom resources over HTTP', () => {
  it('A3 discovery lists an Established CRD: its group after the built-in ones, the resource with its verbs, short names and status subresource', async () => {
    const groups = await request(s.base, 'GET', '/apis');
    expect(groups.json.groups.at(-1)).to.deep.equal({
      name: 'example.com',
      versions: [{ groupVersion: 'example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
    });
    const list = await request(s.base, 'GET', '/apis/example.com/v1');
    expect(list.json.resources).to.deep.equal([
      {
        name: 'databases',
        singularName: 'database',
        namespaced: true,
        kind: 'Database',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        shortNames: ['db'],
      },
      {
        name: 'databases/status',
        singularName: '',
        namespaced: true,
        kind: 'Database',
        verbs: ['get', 'patch', 'update'],
      },
      {
        name: 'databases/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const aggregated = await request(s.base, 'GET', '/apis', {
      headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const group = aggregated.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'example.com');
    expect(group.versions[0].resources[0]).to.deep.include({
      resource: 'databases',
      scope: 'Namespaced',
      responseKind: { group: 'example.com', version: 'v1', kind: 'Database' },
    });
  });

  it('answers JSON to a client that also accepts protobuf, 406 to one that accepts only protobuf', async () => {
    const both = await request(s.base, 'GET', `${DB}/orders`, {
      headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' },
    });
    expect(both.headers['content-type']).to.equal('application/json');
    const only = await request(s.base, 'GET', `${DB}/orders`, {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect([only.status, only.json.message]).to.deep.equal([
      406,
      'only the following media types are accepted: application/json, application/yaml',
    ]);
  });

  it('prints the Table with the printer columns, cells read at their JSONPath', async () => {
    const table = await request(s.base, 'GET', DB, {
      headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
    });
    expect(
      table.json.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`),
    ).to.deep.equal(['Name:string', 'Engine:string']);
    expect(table.json.rows.map((r: { cells: unknown[] }) => r.cells)).to.deep.equal([['orders', 'postgres']]);
  });

  it('describes the kind in OpenAPI v3 with the CRD schema, listed in the root document', async () => {
    const root = await request(s.base, 'GET', '/openapi/v3');
    expect(root.json.paths['apis/example.com/v1'].serverRelativeURL).to.match(
      /^\/openapi\/v3\/apis\/example.com\/v1\?hash=/,
    );
    const doc = await request(s.base, 'GET', '/openapi/v3/apis/example.com/v1');
    const schema = doc.json.components.schemas['com.example.v1.Database'];
    expect(schema['x-kubernetes-group-version-kind']).to.deep.equal([
      { group: 'example.com', version: 'v1', kind: 'Database' },
    ]);
    expect(schema.properties.spec.properties.engine).to.deep.equal({ type: 'string' });
    expect(Object.keys(doc.json.paths)).to.include('/apis/example.com/v1/namespaces/{namespace}/databases/{name}');
  });

  it("A4 the scale subresource reads and writes the replicas at the CRD's paths", async () => {
    const scale = await request(s.base, 'GET', `${DB}/orders/scale`);
    expect(scale.json).to.deep.include({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 0 },
    });
    const patched = await request(s.base, 'PATCH', `${DB}/orders/scale`, {
      body: { spec: { replicas: 5 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect([patched.status, patched.json.spec]).to.deep.equal([200, { replicas: 5 }]);
    const db = s.cluster.apiserver.get('databases.example.com', 'default', 'orders');
    expect(db.ok && (db.object as { spec?: { replicas?: number } }).spec?.replicas).to.equal(5);
    const negative = await request(s.base, 'PATCH', `${DB}/orders/scale`, {
      body: { spec: { replicas: -1 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect([negative.status, negative.json.message]).to.deep.equal([
      422,
      'Scale.autoscaling "orders" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('A6 the schema judges custom resources: a wrong type is a 422, unknown fields are refused by Strict and pruned by Warn, defaults are applied', async () => {
    const bad = await request(s.base, 'POST', DB, {
      body: { apiVersion: 'example.com/v1', kind: 'Database', metadata: { name: 'bad' }, spec: { replicas: 'two' } },
    });
    expect([bad.status, bad.json.message]).to.deep.equal([
      422,
      'Database.example.com "bad" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    const body = {
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: { name: 'extra' },
      spec: { engine: 'mysql', colour: 'blue' },
    };
    const strict = await request(s.base, 'POST', `${DB}?fieldValidation=Strict`, { body });
    expect([strict.status, strict.json.message]).to.deep.equal([
      400,
      'Database in version "v1" cannot be handled as a Database: strict decoding error: unknown field "spec.colour"',
    ]);
    const warned = await request(s.base, 'POST', DB, { body });
    expect(warned.status, warned.text).to.equal(201);
    expect(warned.headers.warning).to.equal('299 - "unknown field \\"spec.colour\\""');
    expect(warned.json.spec).to.deep.equal({ engine: 'mysql' });
  });

  it('A1 a CRD whose schema is not structural is invalid', async () => {
    const crd = databaseCRD();
    crd.metadata.name = 'caches.example.com';
    crd.spec.names = { plural: 'caches', kind: 'Cache' };
    crd.spec.versions[0].schema = {
      openAPIV3Schema: { type: 'object', properties: { spec: { properties: { size: { type: 'integer' } } } } },
    };
    const r = await request(s.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    expect([r.status, r.json.message]).to.deep.equal([
      422,
      'CustomResourceDefinition.apiextensions.k8s.io "caches.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('A4 several served versions: discovery prefers the GA one, and an object is served in each version it is read through, stored as the storage version', async () => {
    const crd = databaseCRD();
    crd.metadata.name = 'widgets.example.org';
    crd.spec.group = 'example.org';
    crd.spec.names = { plural: 'widgets', kind: 'Widget' };
    const v1 = crd.spec.versions[0];
    crd.spec.versions = [
      { ...v1, name: 'v1beta1', storage: false },
      { ...v1, name: 'v1' },
    ];
    expect(
      (await request(s.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status,
    ).to.equal(201);
    const group = await request(s.base, 'GET', '/apis/example.org');
    expect(group.json.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1', 'v1beta1']);
    const created = await request(s.base, 'POST', '/apis/example.org/v1beta1/namespaces/default/widgets', {
      body: { apiVersion: 'example.org/v1beta1', kind: 'Widget', metadata: { name: 'w' } },
    });
    expect([created.status, created.json.apiVersion]).to.deep.equal([201, 'example.org/v1beta1']);
    const stored = s.cluster.apiserver.get('widgets.example.org', 'default', 'w');
    expect(stored.ok && stored.object.apiVersion).to.equal('example.org/v1');
    expect(
      (await request(s.base, 'GET', '/apis/example.org/v1/namespaces/default/widgets/w')).json.apiVersion,
    ).to.equal('example.org/v1');
  });

  it('A5 a deleted CRD leaves discovery and its resources are no longer served', async () => {
    const deleted = await request(
      s.base,
      'DELETE',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/databases.example.com',
    );
    expect(deleted.status, deleted.text).to.equal(200);
    s.cluster.advance(1000);
    expect((await request(s.base, 'GET', `${DB}/orders`)).status).to.equal(404);
    expect((await request(s.base, 'GET', '/apis/example.com/v1')).status).to.equal(404);
  });
});

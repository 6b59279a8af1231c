import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { USER } from '../../cluster/cluster';
import { openWatch, podManifest, request, startServer, type TestServer } from './testing';

const names = (r: { json: { items: { metadata: { name: string } }[] } }) => r.json.items.map((i) => i.metadata.name);

describe('HTTP API: LIST pages and resource versions (R71; selectors R70)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['a', 'b', 'c', 'd', 'e'])));
  after(() => s.close());

  it('limit/continue pages through the list at one revision, with remainingItemCount', async () => {
    const first = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?limit=2');
    expect(names(first)).to.deep.equal(['a', 'b']);
    expect(first.json.metadata.remainingItemCount).to.equal(3);
    const rv = first.json.metadata.resourceVersion;
    // A change after the first page does not show in the later pages (a consistent snapshot).
    await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/d?gracePeriodSeconds=0');
    s.cluster.settle();
    const second = await request(
      s.base,
      'GET',
      `/api/v1/namespaces/default/pods?limit=2&continue=${first.json.metadata.continue}`,
    );
    expect(names(second)).to.deep.equal(['c', 'd']);
    expect(second.json.metadata.resourceVersion).to.equal(rv);
    const third = await request(
      s.base,
      'GET',
      `/api/v1/namespaces/default/pods?limit=2&continue=${second.json.metadata.continue}`,
    );
    expect(names(third)).to.deep.equal(['e']);
    expect(third.json.metadata).to.not.have.property('continue');
  });

  it('resourceVersionMatch=Exact reads an older revision; resourceVersion=0 ignores limit', async () => {
    const rv = s.cluster.apiserver.etcd.currentRevision;
    s.cluster.apiserver.create(USER, 'pods', 'default', podManifest('f'));
    const exact = await request(
      s.base,
      'GET',
      `/api/v1/namespaces/default/pods?resourceVersion=${rv}&resourceVersionMatch=Exact`,
    );
    expect(names(exact)).to.not.include('f');
    expect(exact.json.metadata.resourceVersion).to.equal(String(rv));
    const any = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?resourceVersion=0&limit=1');
    expect(names(any)).to.include('f');
  });

  it('inconsistent options are 422, a future resourceVersion 504, a bad continue token 400, a compacted one 410', async () => {
    const forbidden = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?resourceVersionMatch=Exact');
    expect(forbidden.status).to.equal(422);
    expect(forbidden.json.message).to.equal(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    const future = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?resourceVersion=999999');
    expect(future.status).to.equal(504);
    expect(future.json.message).to.equal(
      `Too large resource version: 999999, current: ${s.cluster.apiserver.etcd.currentRevision}`,
    );
    const garbage = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?continue=xyz');
    expect(garbage.status).to.equal(400);
    expect(garbage.json.message).to.match(/^invalid continue token: continue key is not valid/);
    const page = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?limit=1');
    s.cluster.advance(11 * 60_000);
    const stale = await request(
      s.base,
      'GET',
      `/api/v1/namespaces/default/pods?limit=1&continue=${page.json.metadata.continue}`,
    );
    expect(stale.status).to.equal(410);
    expect(stale.json.reason).to.equal('Expired');
  });
});

describe('HTTP API: update, patch (R74), status, deletecollection, other kinds', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web', 'db', 'cache'])));
  after(() => s.close());

  it('PATCH as strategic merge (default of kubectl patch), JSON merge and JSON Patch', async () => {
    const strategic = await request(s.base, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      body: { metadata: { finalizers: ['example.com/hold'] } },
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(strategic.status).to.equal(200);
    expect(strategic.json.metadata.finalizers).to.deep.equal(['example.com/hold']);
    const merge = await request(s.base, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      body: { metadata: { labels: { tier: 'front' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(merge.json.metadata.labels).to.deep.equal({ app: 'web', tier: 'front' });
    const json = await request(s.base, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      body: [{ op: 'remove', path: '/metadata/finalizers' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect(json.json.metadata).to.not.have.property('finalizers');
    expect(s.cluster.timeline.all().filter((e) => e.text === 'PATCH pods/web' && e.actor === 'kubectl')).to.have.length(
      3,
    );
  });

  it('PUT replaces the object; a stale resourceVersion is a 409 Conflict', async () => {
    const current = (await request(s.base, 'GET', '/api/v1/namespaces/default/pods/db')).json;
    current.metadata.labels = { app: 'db', v: '2' };
    const put = await request(s.base, 'PUT', '/api/v1/namespaces/default/pods/db', { body: current });
    expect(put.status).to.equal(200);
    expect(put.json.metadata.labels.v).to.equal('2');
    const stale = await request(s.base, 'PUT', '/api/v1/namespaces/default/pods/db', { body: current });
    expect(stale.status).to.equal(409);
    expect(stale.json.message).to.equal(
      'Operation cannot be fulfilled on pods "db": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('the status subresource: GET reads the pod, PATCH goes through the status strategy', async () => {
    const get = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/db/status');
    expect(get.json.kind).to.equal('Pod');
    const patch = await request(s.base, 'PATCH', '/api/v1/namespaces/default/pods/db/status', {
      body: { status: { conditions: [{ type: 'Example', status: 'True' }] } },
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(patch.status).to.equal(200);
    expect(patch.json.status.conditions.map((c: { type: string }) => c.type)).to.include.members(['Example', 'Ready']);
    expect(s.cluster.timeline.all().some((e) => e.text === 'PATCH pods/db/status' && e.actor === 'kubectl')).to.equal(
      true,
    );
    expect((await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/db/status')).status).to.equal(405);
  });

  it("DELETE of a collection deletes what the label selector matches, with the body's options", async () => {
    const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods?labelSelector=app%20in%20(db,cache)', {
      body: { gracePeriodSeconds: 5 },
    });
    expect(r.status).to.equal(200);
    expect(r.json.kind).to.equal('PodList');
    expect(names(r)).to.deep.equal(['cache', 'db']);
    expect(
      s.cluster.timeline
        .all()
        .some((e) => e.text === 'DELETECOLLECTION pods gracePeriodSeconds=5' && e.actor === 'kubectl'),
    ).to.equal(true);
    s.cluster.settle();
    expect(names(await request(s.base, 'GET', '/api/v1/namespaces/default/pods'))).to.deep.equal(['web']);
  });

  it('nodes, namespaces and events are served; events also as events.k8s.io/v1 with its field names', async () => {
    const nodes = await request(s.base, 'GET', '/api/v1/nodes', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(nodes.json.rows[0].cells.slice(0, 3)).to.deep.equal(['node-1', 'Ready', '<none>']);
    const ns = await request(s.base, 'GET', '/api/v1/namespaces');
    expect(names(ns)).to.deep.equal(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const core = await request(
      s.base,
      'GET',
      '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=db,reason=Killing',
    );
    expect(core.json.items).to.have.length(1);
    expect(core.json.items[0]).to.include({ reason: 'Killing', message: 'Stopping container app' });
    const v1 = await request(s.base, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events');
    const killing = v1.json.items.find(
      (e: { reason: string; regarding: { name: string } }) => e.reason === 'Killing' && e.regarding.name === 'db',
    );
    expect(killing).to.include({ note: 'Stopping container app' });
    expect(killing).to.not.have.property('message');
    expect(v1.json).to.include({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
  });

  it('metadata-only answers: PartialObjectMetadataList for a LIST, PartialObjectMetadata for a GET, 406 for the wrong one', async () => {
    const list = await request(s.base, 'GET', '/api/v1/namespaces/default/pods', {
      headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    expect(list.json.kind).to.equal('PartialObjectMetadataList');
    expect(list.json.items[0]).to.have.keys('kind', 'apiVersion', 'metadata');
    const one = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web', {
      headers: { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' },
    });
    expect(one.json).to.have.keys('kind', 'apiVersion', 'metadata');
    const wrong = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web', {
      headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    expect(wrong.status).to.equal(406);
  });

  it('dryRun=All answers as if written and writes nothing; another dryRun value is 422', async () => {
    const before = s.cluster.apiserver.etcd.currentRevision;
    const created = await request(s.base, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', {
      body: podManifest('ghost'),
    });
    expect(created.status).to.equal(201);
    expect(created.json.metadata.name).to.equal('ghost');
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/ghost')).status).to.equal(404);
    const bad = await request(s.base, 'POST', '/api/v1/namespaces/default/pods?dryRun=Some', {
      body: podManifest('ghost'),
    });
    expect(bad.status).to.equal(422);
    expect(bad.json.message).to.equal(
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"',
    );
    expect(s.cluster.apiserver.etcd.currentRevision).to.equal(before);
  });

  it('leases and replicasets are served under their groups', async () => {
    const leases = await request(
      s.base,
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1',
    );
    expect(leases.json).to.deep.include({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' });
    const rs = await request(s.base, 'POST', '/apis/apps/v1/namespaces/default/replicasets', {
      body: {
        metadata: { name: 'front' },
        spec: {
          selector: { matchLabels: { app: 'front' } },
          template: { metadata: { labels: { app: 'front' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
        },
      },
    });
    expect(rs.status).to.equal(201);
    // The ReplicaSet controller has made its one pod (replicas defaults to 1), and it runs.
    const table = await request(s.base, 'GET', '/apis/apps/v1/namespaces/default/replicasets', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.json.rows[0].cells).to.deep.equal(['front', 1, 1, 1, '0s', 'app', 'nginx', 'app=front']);
  });
});

describe('HTTP API: create details (R76), legacy watch, table watch', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());

  it('generateName gives a name; a name that is not a DNS subdomain is 422; a missing namespace is 404', async () => {
    const generated = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', {
      body: { metadata: { generateName: 'job-' }, spec: { nodeName: 'node-1', containers: [{ name: 'app' }] } },
    });
    expect(generated.status).to.equal(201);
    expect(generated.json.metadata.name).to.match(/^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(s.cluster.timeline.all().some((e) => e.text === `CREATE pods/${generated.json.metadata.name}`)).to.equal(
      true,
    );
    const bad = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', { body: podManifest('Web_1') });
    expect(bad.status).to.equal(422);
    expect(bad.json.message).to.match(
      /^Pod "Web_1" is invalid: metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of/,
    );
    const unnamed = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', {
      body: { spec: { containers: [{ name: 'app' }] } },
    });
    expect(unnamed.json.message).to.equal(
      'Pod "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    const nowhere = await request(s.base, 'POST', '/api/v1/namespaces/nowhere/pods', { body: podManifest('x') });
    expect(nowhere.status).to.equal(404);
    expect(nowhere.json.message).to.equal('namespaces "nowhere" not found');
  });

  it('events.k8s.io/v1 creates a core Event from the newer field names', async () => {
    const r = await request(s.base, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      body: {
        metadata: { name: 'web.demo' },
        regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
        note: 'hello',
        reason: 'Demo',
        type: 'Normal',
        action: 'Testing',
        reportingController: 'example.com/ctl',
        reportingInstance: 'ctl-1',
        eventTime: '2025-01-01T00:01:00.000000Z',
      },
    });
    expect(r.status).to.equal(201);
    expect(r.json).to.include({ apiVersion: 'events.k8s.io/v1', note: 'hello' });
    const core = await request(s.base, 'GET', '/api/v1/namespaces/default/events/web.demo');
    expect(core.json).to.include({ message: 'hello', reportingComponent: 'example.com/ctl', reason: 'Demo' });
    expect(core.json.involvedObject).to.include({ kind: 'Pod', name: 'web' });
  });

  it('the legacy /watch/ path watches one object; a Table watch sends the columns with the first event only', async () => {
    const one = await openWatch(s.base, '/api/v1/watch/namespaces/default/pods/web');
    await one.until(1);
    expect(one.events.map((e) => `${e.type} ${e.object.metadata.name}`)).to.deep.equal(['ADDED web']);
    const table = await openWatch(
      s.base,
      '/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dweb',
      { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    );
    await table.until(1);
    await request(s.base, 'PATCH', '/api/v1/namespaces/default/pods/web', {
      body: { metadata: { labels: { x: 'y' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    await table.until(2);
    expect(table.events[0].object.columnDefinitions).to.have.length(9);
    expect(table.events[1].object).to.not.have.property('columnDefinitions');
    expect(table.events[1].type).to.equal('MODIFIED');
    expect(table.events[1].object.rows[0].cells[0]).to.equal('web');
    one.close();
    table.close();
  });
});

describe('HTTP API: pods/eviction (R78)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web', 'api'])));
  after(() => s.close());
  const EVICT = '/api/v1/namespaces/default/pods/web/eviction';
  const body = (o: object = {}) => ({
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: 'web', namespace: 'default' },
    ...o,
  });

  it('is in discovery as kube-apiserver lists it: pods/eviction, create, policy/v1 Eviction; and in OpenAPI as a POST', async () => {
    const list = await request(s.base, 'GET', '/api/v1');
    expect(list.json.resources.find((r: { name: string }) => r.name === 'pods/eviction')).to.deep.equal({
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    const openapi = await request(s.base, 'GET', '/openapi/v3/api/v1');
    expect(Object.keys(openapi.json.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'])).to.deep.equal([
      'post',
    ]);
  });

  it('refuses what is not an Eviction of the pod in the URL (400), a pod that does not exist (404), any verb but POST (405)', async () => {
    const kind = await request(s.base, 'POST', EVICT, { body: { ...body(), kind: 'Pod' } });
    expect([kind.status, kind.json.message]).to.deep.equal([
      400,
      'the object provided is unrecognized (must be of type Eviction): Pod in version "policy/v1" cannot be handled as a Eviction',
    ]);
    const name = await request(s.base, 'POST', EVICT, { body: body({ metadata: { name: 'api' } }) });
    expect([name.status, name.json.message]).to.deep.equal([400, 'name in URL does not match name in Eviction object']);
    const ns = await request(s.base, 'POST', EVICT, { body: body({ metadata: { name: 'web', namespace: 'other' } }) });
    expect([ns.status, ns.json.message]).to.deep.equal([
      400,
      'the namespace of the provided object does not match the namespace sent on the request',
    ]);
    const missing = await request(s.base, 'POST', '/api/v1/namespaces/default/pods/nope/eviction', {
      body: body({ metadata: { name: 'nope' } }),
    });
    expect([missing.status, missing.json.reason]).to.deep.equal([404, 'NotFound']);
    expect((await request(s.base, 'GET', EVICT)).status).to.equal(405);
    const web = s.cluster.apiserver.get('pods', 'default', 'web');
    expect(web.ok && web.object.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('evicts: 201 with a Success Status, the pod marked DisruptionTarget and deleted gracefully with the given grace period', async () => {
    const r = await request(s.base, 'POST', EVICT, { body: body({ deleteOptions: { gracePeriodSeconds: 5 } }) });
    expect([r.status, r.json]).to.deep.equal([
      201,
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
    ]);
    const got = s.cluster.apiserver.get('pods', 'default', 'web');
    expect(got.ok && got.object.metadata.deletionGracePeriodSeconds).to.equal(5);
    expect(got.ok && got.object.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason).to.equal(
      'EvictionByEvictionAPI',
    );
  });
});

describe('HTTP API: a PUT whose body names no namespace (R90)', () => {
  let s: TestServer;
  before(async () => (s = await startServer([])));
  after(() => s.close());

  it('takes the namespace of the request, as Helm stores its releases in Secrets', async () => {
    const path = '/api/v1/namespaces/default/secrets';
    const created = await request(s.base, 'POST', path, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sh.helm.release.v1.demo.v1', labels: { owner: 'helm', status: 'pending-install' } },
        data: { release: 'eA==' },
      },
    });
    expect(created.status).to.equal(201);
    const { namespace: _ns, ...metadata } = created.json.metadata;
    const updated = await request(s.base, 'PUT', `${path}/sh.helm.release.v1.demo.v1`, {
      body: { ...created.json, metadata: { ...metadata, labels: { owner: 'helm', status: 'deployed' } } },
    });
    expect([updated.status, updated.json.metadata.namespace, updated.json.metadata.labels.status]).to.deep.equal([
      200,
      'default',
      'deployed',
    ]);
  });
});

import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { eventually, openWatch, podManifest, request, startServer, stateHash, type TestServer } from './testing';

const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json;q=0.9';

describe('HTTP API: version, health, discovery', () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it('/version reports the modelled release and /healthz, /readyz, /livez answer ok', async () => {
    const v = await request(s.base, 'GET', '/version');
    expect(v.json).to.include({ major: '1', minor: '36' });
    expect(v.json.gitVersion).to.match(/^v1\.36\.\d+$/);
    for (const path of ['/healthz', '/readyz', '/livez'])
      expect((await request(s.base, 'GET', path)).text).to.equal('ok');
  });

  it('legacy discovery lists the served resources with their verbs, short names and subresources', async () => {
    const core = await request(s.base, 'GET', '/api/v1');
    expect(core.json.kind).to.equal('APIResourceList');
    const pods = core.json.resources.find((r: { name: string }) => r.name === 'pods');
    expect(pods).to.deep.include({ namespaced: true, kind: 'Pod', shortNames: ['po'], categories: ['all'] });
    expect(pods.verbs).to.have.members([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(core.json.resources.map((r: { name: string }) => r.name)).to.include('pods/status');
    const groups = await request(s.base, 'GET', '/apis');
    expect(groups.json.groups.map((g: { name: string }) => g.name)).to.deep.equal([
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'batch',
      'networking.k8s.io',
      'policy',
      'storage.k8s.io',
      'admissionregistration.k8s.io',
      'apiextensions.k8s.io',
      'coordination.k8s.io',
      'discovery.k8s.io',
    ]);
    expect((await request(s.base, 'GET', '/apis/apps/v1')).json.resources[0]).to.include({
      name: 'replicasets',
      kind: 'ReplicaSet',
    });
    expect((await request(s.base, 'GET', '/api')).json.versions).to.deep.equal(['v1']);
  });

  it('aggregated discovery answers kubectl v1.33 with APIGroupDiscoveryList and says so in the Content-Type', async () => {
    const r = await request(s.base, 'GET', '/api', { headers: { Accept: AGGREGATED } });
    expect(r.headers['content-type']).to.equal('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(r.json.kind).to.equal('APIGroupDiscoveryList');
    const pods = r.json.items[0].versions[0].resources.find((x: { resource: string }) => x.resource === 'pods');
    expect(pods).to.deep.include({
      scope: 'Namespaced',
      singularResource: 'pod',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
    });
    expect(pods.subresources).to.deep.equal([
      {
        subresource: 'eviction',
        responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
        verbs: ['create'],
      },
      {
        subresource: 'exec',
        responseKind: { group: '', version: 'v1', kind: 'PodExecOptions' },
        verbs: ['create', 'get'],
      },
      { subresource: 'log', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
      {
        subresource: 'status',
        responseKind: { group: '', version: 'v1', kind: 'Pod' },
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const apis = await request(s.base, 'GET', '/apis', { headers: { Accept: AGGREGATED } });
    expect(apis.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).to.deep.equal([
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'batch',
      'networking.k8s.io',
      'policy',
      'storage.k8s.io',
      'admissionregistration.k8s.io',
      'apiextensions.k8s.io',
      'coordination.k8s.io',
      'discovery.k8s.io',
    ]);
  });

  it('OpenAPI v3 tells kubectl that PATCH takes fieldValidation (server-side field validation)', async () => {
    const root = await request(s.base, 'GET', '/openapi/v3');
    const url = root.json.paths['api/v1'].serverRelativeURL;
    expect(url).to.match(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]+$/);
    const doc = await request(s.base, 'GET', url);
    const patch = doc.json.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: '', version: 'v1', kind: 'Pod' });
    expect(patch.parameters.map((p: { name: string }) => p.name)).to.include('fieldValidation');
  });

  it('unknown paths and resources are 404 Status; protobuf-only clients of discovery get 406, of resources protobuf (R77)', async () => {
    const r = await request(s.base, 'GET', '/api/v1/namespaces/default/widgets');
    expect(r.status).to.equal(404);
    expect(r.json).to.deep.include({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
      code: 404,
    });
    expect((await request(s.base, 'GET', '/nope')).status).to.equal(404);
    const proto = await request(s.base, 'GET', '/api', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(proto.status).to.equal(406);
    expect(proto.json.reason).to.equal('NotAcceptable');
    const list = await request(s.base, 'GET', '/api/v1/namespaces/default/pods', {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect([list.status, list.headers['content-type'], list.text.slice(0, 4)]).to.deep.equal([
      200,
      'application/vnd.kubernetes.protobuf',
      'k8s\0',
    ]);
  });
});

describe('HTTP API: pods (printing R73)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web', 'db'])));
  after(() => s.close());

  it('GET answers the pod; a missing one is NotFound with upstream message', async () => {
    const r = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web');
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.include({ apiVersion: 'v1', kind: 'Pod' });
    expect(r.json.status.phase).to.equal('Running');
    const missing = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/nope');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.include({
      reason: 'NotFound',
      message: 'pods "nope" not found',
      details: { name: 'nope', kind: 'pods' },
    });
  });

  it('LIST answers a PodList (items without type meta) and filters by label and field selectors', async () => {
    const all = await request(s.base, 'GET', '/api/v1/namespaces/default/pods');
    expect(all.json).to.include({ kind: 'PodList', apiVersion: 'v1' });
    expect(all.json.items.map((p: { metadata: { name: string } }) => p.metadata.name)).to.deep.equal(['db', 'web']);
    expect(all.json.items[0]).to.not.have.property('kind');
    expect(Number(all.json.metadata.resourceVersion)).to.equal(s.cluster.apiserver.etcd.currentRevision);
    const byLabel = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?labelSelector=app%20in%20(web,x)');
    expect(byLabel.json.items.map((p: { metadata: { name: string } }) => p.metadata.name)).to.deep.equal(['web']);
    const byField = await request(s.base, 'GET', '/api/v1/pods?fieldSelector=metadata.name!=web,spec.nodeName=node-1');
    expect(byField.json.items.map((p: { metadata: { name: string } }) => p.metadata.name)).to.deep.equal(['db']);
  });

  it('server-side printing: the pod Table has kube-apiserver columns, wide ones at priority 1, age on the virtual clock', async () => {
    const r = await request(s.base, 'GET', '/api/v1/namespaces/default/pods', { headers: { Accept: TABLE } });
    expect(r.json.kind).to.equal('Table');
    expect(
      r.json.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`),
    ).to.deep.equal([
      'Name:0',
      'Ready:0',
      'Status:0',
      'Restarts:0',
      'Age:0',
      'IP:1',
      'Node:1',
      'Nominated Node:1',
      'Readiness Gates:1',
    ]);
    expect(r.json.rows[1].cells).to.deep.equal([
      'web',
      '1/1',
      'Running',
      '0',
      '60s',
      '10.244.0.2',
      'node-1',
      '<none>',
      '<none>',
    ]);
    expect(r.json.rows[1].object).to.deep.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
  });

  it("POST creates a pod (201) and the request is on the timeline as kubectl's", async () => {
    const r = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', { body: podManifest('new') });
    expect(r.status).to.equal(201);
    expect(r.json.metadata).to.include({ name: 'new', namespace: 'default' });
    const event = s.cluster.timeline.all().find((e) => e.text === 'CREATE pods/new');
    expect(event?.actor).to.equal('kubectl');
    expect(event?.component).to.equal('apiserver');
    const again = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', { body: podManifest('new') });
    expect(again.status).to.equal(409);
    expect(again.json).to.deep.include({ reason: 'AlreadyExists', message: 'pods "new" already exists' });
  });

  it('DELETE with DeleteOptions in the body stamps the pod; the Table says Terminating while the phase is not terminal', async () => {
    const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/db', {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 30 },
    });
    expect(r.status).to.equal(200);
    expect(r.json.metadata.deletionGracePeriodSeconds).to.equal(30);
    const event = s.cluster.timeline.all().find((e) => e.text === 'DELETE pods/db gracePeriodSeconds=30');
    expect(event?.actor).to.equal('kubectl');
    const table = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/db', { headers: { Accept: TABLE } });
    const phase = (await request(s.base, 'GET', '/api/v1/namespaces/default/pods/db')).json.status.phase;
    // The kubelet may already have written the terminal phase within the same virtual instant.
    expect(table.json.rows[0].cells[2]).to.equal(phase === 'Failed' ? 'Error' : 'Terminating');
    s.cluster.settle();
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/db')).status).to.equal(404);
  });

  it('another client is named after its User-Agent product on the timeline', async () => {
    const r = await request(s.base, 'POST', '/api/v1/namespaces/default/pods', {
      body: podManifest('mine'),
      headers: { 'User-Agent': 'my-operator/0.1 (linux)' },
    });
    expect(r.status).to.equal(201);
    const event = s.cluster.timeline.all().find((e) => e.text === 'CREATE pods/mine');
    expect([event?.actor, event?.component]).to.deep.equal(['my-operator', 'apiserver']);
  });

  it('DELETE with options in the query string', async () => {
    const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/new?gracePeriodSeconds=0');
    expect(r.status, r.text).to.equal(200);
    expect(s.cluster.timeline.all().some((e) => e.text === 'DELETE pods/new gracePeriodSeconds=0')).to.equal(true);
    const bad = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/web?gracePeriodSeconds=soon');
    expect(bad.status).to.equal(400);
    expect(bad.json.message).to.equal('strconv.ParseInt: parsing "soon": invalid syntax');
  });
});

describe('HTTP API: watch (R72)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());

  it('streams ADDED for what exists, then every change of a graceful deletion in revision order, until DELETED', async () => {
    const w = await openWatch(s.base, '/api/v1/namespaces/default/pods?watch=true');
    expect(w.status).to.equal(200);
    await w.until(1);
    expect(w.events[0].type).to.equal('ADDED');
    expect(s.handler.activity.openWatches).to.equal(1);
    const from = s.cluster.apiserver.etcd.currentRevision;
    await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/web');
    s.cluster.settle();
    const history = s.cluster.apiserver.etcd
      .fullHistory()
      .filter((e) => e.revision > from && e.key === '/registry/pods/default/web');
    await w.until(1 + history.length);
    expect(w.events.slice(1).map((e) => e.object.metadata.resourceVersion)).to.deep.equal(
      history.map((e) => String(e.revision)),
    );
    expect(w.events.at(-1)!.type).to.equal('DELETED');
    w.close();
    await eventually(() => s.handler.activity.openWatches === 0, 'the disconnected watch is released');
  });

  it('a compacted resourceVersion gives one ERROR event with a 410 Expired Status', async () => {
    s.cluster.advance(11 * 60_000);
    const w = await openWatch(s.base, '/api/v1/namespaces/default/pods?watch=true&resourceVersion=1');
    await w.ended;
    expect(w.events).to.have.length(1);
    expect(w.events[0].type).to.equal('ERROR');
    expect(w.events[0].object).to.deep.include({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(w.events[0].object.message).to.match(/^too old resource version: 1 \(\d+\)$/);
  });

  it('timeoutSeconds ends the stream (wall time)', async () => {
    const w = await openWatch(s.base, '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=0');
    await w.ended;
    await eventually(() => s.handler.activity.openWatches === 0, 'the timed-out watch is released');
  });
});

describe('HTTP API: bad input leaves the cluster unchanged (R75)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'], { maxRequestBodyBytes: 1024 })));
  after(() => s.close());

  const cases: [
    string,
    string,
    string,
    { body?: unknown; headers?: Record<string, string> },
    number,
    string,
    string | RegExp,
  ][] = [
    [
      'malformed JSON',
      'POST',
      '/api/v1/namespaces/default/pods',
      { body: '{"metadata": {' },
      400,
      'BadRequest',
      /^couldn't get version\/kind; json parse error: /,
    ],
    [
      'malformed YAML',
      'POST',
      '/api/v1/namespaces/default/pods',
      { body: 'metadata: [unclosed', headers: { 'Content-Type': 'application/yaml' } },
      400,
      'BadRequest',
      /^error converting YAML to JSON: yaml: /,
    ],
    [
      'a body over the limit',
      'POST',
      '/api/v1/namespaces/default/pods',
      { body: JSON.stringify({ metadata: { name: 'x'.repeat(2000) } }) },
      413,
      'RequestEntityTooLarge',
      'Request entity too large: limit is 1024',
    ],
    [
      'an unsupported patch type',
      'PATCH',
      '/api/v1/namespaces/default/pods/web',
      { body: '{}', headers: { 'Content-Type': 'text/plain' } },
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    ],
    [
      'server-side apply without a fieldManager (R113)',
      'PATCH',
      '/api/v1/namespaces/default/pods/web',
      { body: '{}', headers: { 'Content-Type': 'application/apply-patch+yaml' } },
      422,
      'Invalid',
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    ],
    [
      'server-side apply of another kind',
      'PATCH',
      '/api/v1/namespaces/default/pods/web?fieldManager=me',
      { body: 'apiVersion: v1\nkind: Node\n', headers: { 'Content-Type': 'application/apply-patch+yaml' } },
      400,
      'BadRequest',
      'invalid object type: /v1, Kind=Node',
    ],
    [
      'force on a merge patch',
      'PATCH',
      '/api/v1/namespaces/default/pods/web?force=true',
      { body: '{}', headers: { 'Content-Type': 'application/merge-patch+json' } },
      422,
      'Invalid',
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    ],
    [
      'a label selector that does not parse',
      'GET',
      '/api/v1/namespaces/default/pods?labelSelector=app%20web',
      {},
      400,
      'BadRequest',
      "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt",
    ],
    [
      'an unknown field selector',
      'GET',
      '/api/v1/namespaces/default/pods?fieldSelector=spec.color=red',
      {},
      400,
      'BadRequest',
      'field label not supported: spec.color',
    ],
    [
      'a name that is not a path segment',
      'DELETE',
      '/api/v1/namespaces/default/pods/..',
      {},
      400,
      'BadRequest',
      'invalid resource name "..": [may not be \'..\']',
    ],
    // R120: namespaces serve delete, not deletecollection.
    [
      'an unsupported verb',
      'DELETE',
      '/api/v1/namespaces',
      {},
      405,
      'MethodNotAllowed',
      'deletecollection is not supported on resources of kind "namespaces"',
    ],
    [
      'a body of another kind',
      'POST',
      '/api/v1/namespaces/default/pods',
      { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } } },
      400,
      'BadRequest',
      /^the object provided is unrecognized \(must be of type Pod\)/,
    ],
    [
      "a namespace that is not the URL's",
      'POST',
      '/api/v1/namespaces/default/pods',
      { body: { metadata: { name: 'x', namespace: 'other' }, spec: { containers: [{ name: 'a' }] } } },
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    ],
    [
      "a PUT whose name is not the URL's",
      'PUT',
      '/api/v1/namespaces/default/pods/web',
      { body: { metadata: { name: 'other' }, spec: { containers: [{ name: 'a' }] } } },
      400,
      'BadRequest',
      'the name of the object (other) does not match the name on the URL (web)',
    ],
  ];
  for (const [what, method, path, options, code, reason, message] of cases) {
    it(`${what}: ${code} ${reason}`, async () => {
      const before = stateHash(s.cluster);
      const r = await request(s.base, method, path, options);
      expect(r.status, r.text).to.equal(code);
      expect(r.json).to.deep.include({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
      if (typeof message === 'string') expect(r.json.message).to.equal(message);
      else expect(r.json.message).to.match(message);
      expect(stateHash(s.cluster)).to.equal(before);
    });
  }
});

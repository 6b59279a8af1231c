import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { request, startServer, type TestServer } from './testing';

describe('R96 R97 reviews, pods/log and pods/exec over HTTP', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());

  it('R96 a SelfSubjectAccessReview is allowed, a rules review lists everything, a SelfSubjectReview names the user; none is stored, only created', async () => {
    const attributes = { namespace: 'default', verb: 'delete', resource: 'pods' };
    const ssar = await request(s.base, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        spec: { resourceAttributes: attributes },
      },
    });
    expect([ssar.status, ssar.json]).to.deep.equal([
      201,
      {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        // V74: no `creationTimestamp: null` from v1.34.
        metadata: {},
        spec: { resourceAttributes: attributes },
        status: { allowed: true, reason: 'the simulation authorises every request' },
      },
    ]);
    const rules = await request(s.base, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      body: { spec: { namespace: 'default' } },
    });
    expect(rules.json.status).to.deep.equal({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const whoami = await request(s.base, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {} });
    expect(whoami.json.status).to.deep.equal({
      userInfo: { username: 'terminating', groups: ['system:masters', 'system:authenticated'] },
    });
    expect((await request(s.base, 'GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status).to.equal(
      405,
    );
    const wrong = await request(s.base, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { kind: 'Pod', apiVersion: 'v1' },
    });
    expect([wrong.status, wrong.json.reason]).to.deep.equal([400, 'BadRequest']);
    const discovery = await request(s.base, 'GET', '/apis/authorization.k8s.io/v1');
    expect(
      discovery.json.resources.map((r: { name: string; verbs: string[] }) => `${r.name}:${r.verbs}`),
    ).to.deep.equal(['selfsubjectaccessreviews:create', 'selfsubjectrulesreviews:create']);
  });

  it('R97 pods/log and pods/exec: 404 for a missing pod, 400 for a container it does not have, else a 400 saying the simulated containers have no logs or shell', async () => {
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/nope/log')).json).to.deep.include({
      code: 404,
      reason: 'NotFound',
      message: 'pods "nope" not found',
    });
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web/log?container=db')).json).to.deep.include(
      { code: 400, message: 'container db is not valid for pod web' },
    );
    const log = await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web/log');
    expect(log.json).to.deep.include({
      kind: 'Status',
      status: 'Failure',
      code: 400,
      reason: 'BadRequest',
      message:
        'container "app" in pod "web" has no logs: the simulated containers run no processes (terminating models their lifecycle only)',
    });
    const exec = await request(
      s.base,
      'POST',
      '/api/v1/namespaces/default/pods/web/exec?command=sh&container=app&stdin=true',
    );
    expect(exec.json.message).to.equal(
      'container "app" in pod "web" has no shell to exec into: the simulated containers run no processes (terminating models their lifecycle only)',
    );
  });
  it('V74 up to v1.33 a review and the aggregated discovery carry `creationTimestamp: null`', async () => {
    const old = await startServer([], {}, { release: Release.of(33) });
    try {
      const r = await request(old.base, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        body: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
      });
      expect(r.json.metadata).to.deep.equal({ creationTimestamp: null });
      const discovery = await request(old.base, 'GET', '/api', {
        headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
      });
      expect(discovery.json.items[0].metadata).to.deep.equal({ creationTimestamp: null });
      const current = await request(s.base, 'GET', '/api', {
        headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
      });
      expect(current.json.items[0].metadata).to.deep.equal({});
    } finally {
      await old.close();
    }
  });
});

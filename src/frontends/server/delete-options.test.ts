import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { request, startServer, type TestServer } from './testing';

/** The answer kube-apiserver v1.34 gave a string gracePeriodSeconds (quoted in kubernetes#139491). */
const GRACE_AS_STRING =
  'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64';

describe('V7 — DeleteOptions of the wrong JSON types: 500 up to v1.34, 400 from v1.35', () => {
  const servers: Record<number, TestServer> = {};
  before(async () => {
    for (const minor of [34, 35]) servers[minor] = await startServer(['web', 'db'], {}, { release: Release.of(minor) });
  });
  after(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it('v1.34: the decoder error is a bare 500 without a reason, and the pod stays', async () => {
    const s = servers[34];
    const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/web', {
      body: { gracePeriodSeconds: '30' },
    });
    expect(r.status).to.equal(500);
    expect(r.json).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: GRACE_AS_STRING,
      code: 500,
    });
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web')).json.metadata).to.not.have.property(
      'deletionTimestamp',
    );
  });

  it('v1.35: the same body is 400 BadRequest with the same message, and the pod stays', async () => {
    const s = servers[35];
    const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/web', {
      body: { gracePeriodSeconds: '30' },
    });
    expect(r.status).to.equal(400);
    expect(r.json).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: GRACE_AS_STRING,
      reason: 'BadRequest',
      code: 400,
    });
    expect((await request(s.base, 'GET', '/api/v1/namespaces/default/pods/web')).json.metadata).to.not.have.property(
      'deletionTimestamp',
    );
  });

  it('names each field with its Go type, including DELETE of a collection (YAML bodies decode the same)', async () => {
    const s = servers[35];
    const cases: [unknown, string][] = [
      [{ dryRun: 'All' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string'],
      [
        { propagationPolicy: 1 },
        'json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation',
      ],
      [
        { orphanDependents: 'yes' },
        'json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool',
      ],
      [
        { preconditions: 'x' },
        'json: cannot unmarshal string into Go struct field DeleteOptions.preconditions of type v1.Preconditions',
      ],
      [
        { gracePeriodSeconds: 1.5 },
        'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods', { body });
      expect([r.status, r.json.message]).to.deep.equal([400, message]);
    }
    const yaml = await request(s.base, 'DELETE', '/api/v1/namespaces/default/pods/db', {
      body: 'gracePeriodSeconds: "5"\n',
      headers: { 'Content-Type': 'application/yaml' },
    });
    expect([yaml.status, yaml.json.message]).to.deep.equal([400, GRACE_AS_STRING]);
  });

  it('well-typed options (and nulls) are unaffected on both releases', async () => {
    for (const minor of [34, 35]) {
      const r = await request(servers[minor].base, 'DELETE', '/api/v1/namespaces/default/pods/db', {
        body: { gracePeriodSeconds: 5, preconditions: null },
      });
      expect(r.status).to.equal(200);
      expect(r.json.metadata.deletionGracePeriodSeconds).to.equal(5);
    }
  });
});

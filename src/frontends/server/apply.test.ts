import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { request, startServer, type TestServer } from './testing';

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const POD = '/api/v1/namespaces/default/pods';
const yaml = (image: string, extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ssa\nspec:\n  containers:\n  - name: app\n    image: ${image}\n${extra}`;

describe('R113 — server-side apply over HTTP (patch.go applyPatcher)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());

  it('creates (201) an object that does not exist; a dry run stores nothing', async () => {
    const dry = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=me&dryRun=All`, {
      body: yaml('a'),
      headers: APPLY,
    });
    expect(dry.status).to.equal(201);
    expect((await request(s.base, 'GET', `${POD}/ssa`)).status).to.equal(404);
    const created = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=me`, { body: yaml('a'), headers: APPLY });
    expect(created.status).to.equal(201);
    expect(
      created.json.metadata.managedFields.map(
        (e: { manager: string; operation: string }) => `${e.manager} ${e.operation}`,
      ),
    ).to.deep.equal(['me Apply']);
    // The scheduler binds the new pod and the kubelet reports it: the re-apply is compared with the version it finds.
    const before = await request(s.base, 'GET', `${POD}/ssa`);
    const again = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=me`, { body: yaml('a'), headers: APPLY });
    expect([again.status, again.json.metadata.resourceVersion]).to.deep.equal([
      200,
      before.json.metadata.resourceVersion,
    ]);
  });

  it('a conflict is a 409 with a FieldManagerConflict cause per field; force=true takes them', async () => {
    const r = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=other`, { body: yaml('b'), headers: APPLY });
    expect(r.status).to.equal(409);
    expect(r.json).to.deep.include({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "me": .spec.containers[name="app"].image',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "me"',
            field: '.spec.containers[name="app"].image',
          },
        ],
      },
    });
    const forced = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=other&force=true`, {
      body: yaml('b'),
      headers: APPLY,
    });
    expect([forced.status, forced.json.spec.containers[0].image]).to.deep.equal([200, 'b']);
  });

  it('pods/status applies the status only, recording the subresource; a body that is not YAML is a 400', async () => {
    const status = await request(s.base, 'PATCH', `${POD}/ssa/status?fieldManager=probe`, {
      body: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ssa\nstatus:\n  message: hello\n',
      headers: APPLY,
    });
    expect(status.status).to.equal(200);
    expect(status.json.status.message).to.equal('hello');
    expect(status.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'probe')).to.deep.include({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:message': {} } },
    });
    const bad = await request(s.base, 'PATCH', `${POD}/ssa?fieldManager=me`, { body: 'a: [', headers: APPLY });
    expect([bad.status, bad.json.reason]).to.deep.equal([400, 'BadRequest']);
    expect(bad.json.message).to.match(/^error decoding YAML: /);
  });
});

import { after, beforeEach, describe, it } from 'node:test';
import { expect } from 'chai';
import { request, startServer, type TestServer } from './testing';
import { SERVED_RUN_TO_COMPLETION_MS } from './behaviours';

const POD = '/api/v1/namespaces/default/pods';

function pod(name: string, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations },
    spec: {
      nodeName: 'node-1',
      terminationGracePeriodSeconds: 20,
      volumes: [{ name: 'data', emptyDir: {} }],
      containers: [{ name: 'app', image: 'nginx' }],
    },
  };
}

/** Virtual seconds from the DELETE until the pod is gone from the API. */
async function secondsToDelete(s: TestServer, name: string): Promise<number> {
  const start = s.cluster.clock.now();
  expect((await request(s.base, 'DELETE', `${POD}/${name}`)).status).to.equal(200);
  for (let t = 0; t < 120; t++) {
    if (!s.cluster.apiserver.get('pods', 'default', name).ok) return Math.round((s.cluster.clock.now() - start) / 1000);
    s.cluster.advance(1000);
  }
  throw new Error(`${name} was not deleted within 120 s`);
}

describe('R98 terminating.sim/ annotations on pods written through the API', () => {
  let s: TestServer;
  beforeEach(async () => {
    await s?.close();
    s = await startServer([]);
  });
  after(() => s.close());

  it('created with sigterm: ignore, the pod lasts its whole grace period; without, it dies at once', async () => {
    expect((await request(s.base, 'POST', POD, { body: pod('plain') })).status).to.equal(201);
    expect(
      (await request(s.base, 'POST', POD, { body: pod('stubborn', { 'terminating.sim/sigterm.app': 'ignore' }) }))
        .status,
    ).to.equal(201);
    s.cluster.advance(5000);
    expect(await secondsToDelete(s, 'plain')).to.be.below(3);
    expect(await secondsToDelete(s, 'stubborn')).to.be.within(20, 22);
  });

  it('patched in after creation (as apply and Helm upgrades do): exit after 8s, and a volume that takes 5s to unmount', async () => {
    expect((await request(s.base, 'POST', POD, { body: pod('web') })).status).to.equal(201);
    s.cluster.advance(5000);
    const patch = {
      metadata: {
        annotations: { 'terminating.sim/sigterm.app': 'exit after 8s', 'terminating.sim/unmount.data': '5s' },
      },
    };
    expect(
      (
        await request(s.base, 'PATCH', `${POD}/web`, {
          body: patch,
          headers: { 'Content-Type': 'application/merge-patch+json' },
        })
      ).status,
    ).to.equal(200);
    expect(await secondsToDelete(s, 'web')).to.be.within(13, 15);
  });

  it("an annotation that cannot take effect is refused on create with the manifest loader's explanation", async () => {
    const bad = await request(s.base, 'POST', POD, {
      body: pod('bad', { 'terminating.sim/sigterm.db': 'ignore', 'terminating.sim/prestop.app': 'soon' }),
    });
    expect([bad.status, bad.json.reason]).to.deep.equal([422, 'Invalid']);
    expect(bad.json.message).to.equal(
      'Pod "bad" is invalid: [metadata.annotations[terminating.sim/sigterm.db]: Invalid value: "ignore": the pod has no container "db" (its containers: app), metadata.annotations[terminating.sim/prestop.app]: Invalid value: "soon": expected a DURATION (e.g. 10s) or `never`]',
    );
  });
});

describe('R98 a pod that runs to completion (restartPolicy Never or OnFailure) and has no behaviour given exits 0 after SERVED_RUN_TO_COMPLETION_MS', () => {
  let s: TestServer;
  beforeEach(async () => {
    await s?.close();
    s = await startServer([]);
  });
  after(() => s.close());

  it('a Job created over the API (as kubectl create job does) completes; a restartPolicy Always pod keeps running', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
    };
    expect((await request(s.base, 'POST', '/apis/batch/v1/namespaces/default/jobs', { body: job })).status).to.equal(
      201,
    );
    expect((await request(s.base, 'POST', POD, { body: pod('web') })).status).to.equal(201);
    s.cluster.advance(SERVED_RUN_TO_COMPLETION_MS - 2000);
    const early = s.cluster.apiserver.get('jobs', 'default', 'pi');
    expect(early.ok && early.object.status?.succeeded).to.equal(undefined);
    s.cluster.advance(10_000);
    const done = s.cluster.apiserver.get('jobs', 'default', 'pi');
    expect(done.ok && done.object.status?.succeeded).to.equal(1);
    expect(done.ok && (done.object.status?.conditions ?? []).map((c) => c.type)).to.include('Complete');
    const web = s.cluster.apiserver.get('pods', 'default', 'web');
    expect(web.ok && web.object.status?.phase).to.equal('Running');
  });
});

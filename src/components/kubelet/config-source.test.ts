import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ApiServer } from '../../apiserver/apiserver';
import { ApiClient } from '../../client/client';
import type { Pod } from '../../apimachinery/types';
import { Clock } from '../../foundation/clock';
import { USER } from '../../cluster/cluster';
import { Timeline } from '../../foundation/timeline/timeline';
import { checkAndUpdatePod, PodConfig, type PodUpdate } from './config-source';

/** An apiserver and the config source of node n1; `batches` holds each delivery as "OP name" strings. */
function harness(names: string[] = []) {
  const clock = new Clock();
  const timeline = new Timeline(clock);
  const api = new ApiServer(clock, timeline);
  const state = { connected: true };
  const batches: string[][] = [];
  const delivered: PodUpdate[] = [];
  const config = new PodConfig(
    new ApiClient(api, { name: 'kubelet/n1', component: 'kubelet' }, () => state.connected),
    timeline,
    'n1',
    (updates) => {
      batches.push(updates.map((u) => `${u.op} ${u.pod.metadata.name}`));
      delivered.push(...updates);
    },
  );
  const create = (name: string, node = 'n1') =>
    api.create(USER, 'pods', 'default', {
      metadata: { name },
      spec: { nodeName: node, containers: [{ name: 'app' }] },
    });
  for (const n of names) create(n);
  const get = (name: string): Pod => {
    const r = api.get('pods', 'default', name);
    if (!r.ok) return expect.fail(`${name} gone`);
    return structuredClone(r.object);
  };
  return { clock, api, config, state, batches, delivered, create, get, flush: () => clock.tick(0) };
}

const base: Pod = {
  metadata: { name: 'web', uid: 'u1', resourceVersion: '5', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app' }] },
  status: { phase: 'Running' },
};
const change = (f: (p: Pod) => void): Pod => {
  const p = structuredClone(base);
  f(p);
  return p;
};

describe('checkAndUpdatePod (K10)', () => {
  it('K10 spec, labels, annotations or the deletion fields changed: UPDATE, or DELETE once the pod has a deletionTimestamp', () => {
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.metadata.labels = { app: 'other' })),
      ),
    ).to.equal('UPDATE');
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.metadata.annotations = { a: 'b' })),
      ),
    ).to.equal('UPDATE');
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.spec!.containers[0].image = 'x')),
      ),
    ).to.equal('UPDATE');
    expect(
      checkAndUpdatePod(
        base,
        change((p) =>
          Object.assign(p.metadata, { deletionTimestamp: '2025-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 }),
        ),
      ),
    ).to.equal('DELETE');
    const deleting = change((p) =>
      Object.assign(p.metadata, { deletionTimestamp: '2025-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 }),
    );
    expect(
      checkAndUpdatePod(deleting, {
        ...deleting,
        metadata: { ...deleting.metadata, deletionTimestamp: '2025-01-01T00:00:30Z', deletionGracePeriodSeconds: 0 },
      }),
    ).to.equal('DELETE');
  });

  it('K10 only the status changed: RECONCILE; finalizers or resourceVersion only: nothing', () => {
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.status = { phase: 'Failed' })),
      ),
    ).to.equal('RECONCILE');
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.metadata.finalizers = ['example.com/hold'])),
      ),
    ).to.equal(undefined);
    expect(
      checkAndUpdatePod(
        base,
        change((p) => (p.metadata.resourceVersion = '6')),
      ),
    ).to.equal(undefined);
  });
});

describe('the apiserver config source (K9, K10, K44)', () => {
  it("K9 each watch event makes the config diff the full snapshot of the node's pods: ADD, then only ops for what changed; other nodes' pods are not seen", () => {
    const h = harness(['a', 'b']);
    h.create('elsewhere', 'n2');
    h.config.start();
    h.api.delete(USER, 'pods', 'default', 'a', {});
    h.flush();
    h.create('c');
    h.flush();
    expect(h.batches).to.deep.equal([['ADD a', 'ADD b'], ['DELETE a'], ['ADD c']]);
  });

  it('K10 a graceful deletion: DELETE for the first MODIFIED, DELETE again for the grace-0 one, REMOVE for DELETED (S1)', () => {
    const h = harness(['web']);
    h.config.start();
    h.api.delete(USER, 'pods', 'default', 'web', {});
    h.flush();
    h.api.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    h.flush();
    expect(h.batches).to.deep.equal([['ADD web'], ['DELETE web'], ['DELETE web'], ['REMOVE web']]);
  });

  it('K10 one merge delivers its ops in the order REMOVE, ADD, UPDATE, DELETE, RECONCILE (a relist after the watch expired)', () => {
    const h = harness(['gone', 'relabelled', 'deleting', 'reported']);
    h.config.start();
    h.state.connected = false;
    h.config.disconnect();
    h.clock.tick(60_000);
    h.api.delete(USER, 'pods', 'default', 'gone', { gracePeriodSeconds: 0 });
    h.create('new');
    const relabelled = h.get('relabelled');
    relabelled.metadata.labels = { v: '2' };
    h.api.update(USER, 'pods', 'default', relabelled);
    h.api.delete(USER, 'pods', 'default', 'deleting', {});
    h.api.patch(
      USER,
      'pods',
      'default',
      'reported',
      'merge',
      { status: { phase: 'Running' } },
      { subresource: 'status' },
    );
    h.clock.tick(11 * 60_000);
    h.state.connected = true;
    h.config.reconnect();
    h.flush();
    expect(h.batches.at(-1)).to.deep.equal([
      'REMOVE gone',
      'ADD new',
      'UPDATE relabelled',
      'DELETE deleting',
      'RECONCILE reported',
    ]);
  });

  it('K44 after a relist a pod force-deleted meanwhile arrives only as REMOVE, carrying the last copy the kubelet had (no deletionTimestamp)', () => {
    const h = harness(['web']);
    h.config.start();
    h.state.connected = false;
    h.config.disconnect();
    h.api.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    h.clock.tick(11 * 60_000);
    h.state.connected = true;
    h.config.reconnect();
    h.flush();
    expect(h.batches.at(-1)).to.deep.equal(['REMOVE web']);
    expect(h.delivered.at(-1)?.pod.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('K44 a short outage resumes the watch from the last resourceVersion and replays what was missed (MODIFIED before DELETED)', () => {
    const h = harness(['web']);
    h.config.start();
    h.state.connected = false;
    h.config.disconnect();
    h.api.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    h.clock.tick(20_000);
    h.state.connected = true;
    h.config.reconnect();
    h.flush();
    expect(h.batches.slice(1)).to.deep.equal([['DELETE web'], ['REMOVE web']]);
  });
});

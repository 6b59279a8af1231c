/**
 * D1, D2, D3, D4 — the disruption controller (pkg/controller/disruption/disruption.go) in a whole cluster:
 * pods started by the kubelet turn Ready, the controller counts them through the shared
 * informers and writes the budget's status; evictions spend what it allows.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../../apimachinery/object';
import type { PodDisruptionBudget } from '../../../apimachinery/types';
import { Cluster, USER } from '../../../cluster/cluster';
import { createPod, NODE, WARMUP_MS } from '../../kubelet/testing';
import { DELETION_TIMEOUT_MS, scaledValue } from './disruption';

const LABELS = { app: 'web' };

function cluster(
  pods: string[],
  spec: PodDisruptionBudget['spec'],
  podMetadata: Record<string, unknown> = {},
): Cluster {
  const c = new Cluster();
  c.addNode(NODE);
  for (const name of pods) createPod(c, name, { metadata: { labels: LABELS, ...podMetadata } });
  const r = c.apiserver.create(USER, 'poddisruptionbudgets', 'default', { metadata: { name: 'web-pdb' }, spec });
  if (!r.ok) throw new Error(r.status.message);
  c.advance(WARMUP_MS);
  return c;
}

const status = (c: Cluster) => {
  const r = c.apiserver.get('poddisruptionbudgets', 'default', 'web-pdb');
  if (!r.ok) throw new Error(r.status.message);
  return r.object.status!;
};
const evict = (c: Cluster, name: string) => {
  const r = c.apiserver.evict(USER, 'default', name, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: 'default' },
  });
  c.flush();
  return r;
};

describe('the disruption controller (disruption.go)', () => {
  it('minAvailable as a number: expectedPods are the selected pods, desiredHealthy the number; disruptionsAllowed what is healthy beyond it, with its condition', () => {
    const c = cluster(['web-1', 'web-2', 'web-3'], { minAvailable: 2, selector: { matchLabels: LABELS } });
    const s = status(c);
    expect(s).to.deep.include({
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      disruptionsAllowed: 1,
      observedGeneration: 1,
    });
    expect(s.conditions?.map((x) => [x.type, x.status, x.reason])).to.deep.equal([
      ['DisruptionAllowed', 'True', 'SufficientPods'],
    ]);
    expect(
      c.timeline
        .all()
        .some(
          (e) =>
            e.component === 'disruption' &&
            e.text === 'pdb web-pdb allows 1 (currentHealthy=3 desiredHealthy=2 expectedPods=3)',
        ),
    ).to.equal(true);
  });

  it('an eviction spends the disruption; a deleting pod is not healthy; a second eviction is 429 until the pod is replaced by a ready one', () => {
    const c = cluster(['web-1', 'web-2', 'web-3'], { minAvailable: 2, selector: { matchLabels: LABELS } });
    expect(evict(c, 'web-1').code).to.equal(201);
    expect(status(c)).to.deep.include({ currentHealthy: 2, disruptionsAllowed: 0 });
    expect(status(c).disruptedPods, 'the deleting pod leaves the map: it is no longer counted anyway').to.equal(
      undefined,
    );
    expect(evict(c, 'web-2').code).to.equal(429);
    createPod(c, 'web-4', { metadata: { labels: LABELS } });
    c.advance(5_000);
    expect(status(c)).to.deep.include({ currentHealthy: 3, disruptionsAllowed: 1 });
    expect(evict(c, 'web-2').code).to.equal(201);
  });

  it("maxUnavailable (or a percentage) counts the scale of the pods' controllers; unmanaged pods give an Event and count nothing", () => {
    const c = new Cluster();
    c.addNode(NODE);
    // The ReplicaSet controller creates the four pods, the scheduler binds them, the kubelet starts them.
    c.apiserver.create(USER, 'replicasets', 'default', {
      metadata: { name: 'web' },
      spec: {
        replicas: 4,
        selector: { matchLabels: LABELS },
        template: { metadata: { labels: LABELS }, spec: { containers: [{ name: 'app' }] } },
      },
    });
    c.apiserver.create(USER, 'poddisruptionbudgets', 'default', {
      metadata: { name: 'web-pdb' },
      spec: { maxUnavailable: '50%', selector: { matchLabels: LABELS } },
    });
    c.advance(WARMUP_MS);
    expect(status(c), '4 wanted, 50% of 4 may be missing: 2 must be healthy, 4 are').to.deep.include({
      expectedPods: 4,
      desiredHealthy: 2,
      currentHealthy: 4,
      disruptionsAllowed: 2,
    });

    const bare = cluster(['web-1', 'web-2'], { maxUnavailable: 1, selector: { matchLabels: LABELS } });
    expect(status(bare)).to.deep.include({
      expectedPods: 0,
      desiredHealthy: 0,
      currentHealthy: 2,
      disruptionsAllowed: 0,
    });
    const events = bare.apiserver.list('events', 'default');
    expect(events.ok && events.object.items.map((e) => e.reason)).to.include('UnmanagedPods');
  });

  it('the scale of a Deployment (through its ReplicaSet) and of a StatefulSet (getPodDeployment, getPodStatefulSet)', () => {
    const c = new Cluster();
    c.addNode(NODE);
    const template = { metadata: { labels: LABELS }, spec: { containers: [{ name: 'app' }] } };
    c.apiserver.create(USER, 'deployments', 'default', {
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: LABELS }, template },
    });
    c.apiserver.create(USER, 'statefulsets', 'default', {
      metadata: { name: 'db' },
      spec: {
        replicas: 2,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { ...template, metadata: { labels: { app: 'db' } } },
      },
    });
    c.apiserver.create(USER, 'poddisruptionbudgets', 'default', {
      metadata: { name: 'web-pdb' },
      spec: { maxUnavailable: 1, selector: { matchLabels: LABELS } },
    });
    c.apiserver.create(USER, 'poddisruptionbudgets', 'default', {
      metadata: { name: 'db-pdb' },
      spec: { minAvailable: '50%', selector: { matchLabels: { app: 'db' } } },
    });
    c.advance(WARMUP_MS);
    expect(status(c), 'the Deployment wants 3: 2 must be healthy').to.deep.include({
      expectedPods: 3,
      desiredHealthy: 2,
      currentHealthy: 3,
      disruptionsAllowed: 1,
    });
    const db = c.apiserver.get('poddisruptionbudgets', 'default', 'db-pdb');
    expect(db.ok && db.object.status, 'the StatefulSet wants 2: 50% is 1').to.deep.include({
      expectedPods: 2,
      desiredHealthy: 1,
      currentHealthy: 2,
      disruptionsAllowed: 1,
    });
  });

  it('a controller of a kind it cannot map makes the budget allow nothing (failSafe: DisruptionAllowed False, SyncFailed, with the error)', () => {
    const owner = { apiVersion: 'example.com/v1', kind: 'Database', name: 'db', uid: 'db-uid', controller: true };
    const c = cluster(
      ['web-1'],
      { minAvailable: '50%', selector: { matchLabels: LABELS } },
      { ownerReferences: [owner] },
    );
    const s = status(c);
    expect(s.disruptionsAllowed).to.equal(0);
    expect(s.conditions?.map((x) => [x.status, x.reason, x.message])).to.deep.equal([
      ['False', 'SyncFailed', 'no matches for kind "Database" in group "example.com"'],
    ]);
  });

  it('an approved eviction not seen deleting within two minutes is dropped from disruptedPods, with a NotDeleted Event, on the recheck', () => {
    const c = cluster(['web-1', 'web-2', 'web-3'], { minAvailable: 2, selector: { matchLabels: LABELS } });
    const pdb = c.apiserver.get('poddisruptionbudgets', 'default', 'web-pdb');
    if (!pdb.ok) throw new Error('no pdb');
    const approvedAt = new Date(c.clock.now()).toISOString().replace('.000Z', 'Z');
    c.apiserver.update(
      USER,
      'poddisruptionbudgets',
      'default',
      {
        ...pdb.object,
        status: { ...pdb.object.status!, disruptionsAllowed: 0, disruptedPods: { 'web-1': approvedAt } },
      },
      { subresource: 'status' },
    );
    c.flush();
    expect(status(c), 'web-1 does not count while its eviction is pending').to.deep.include({
      currentHealthy: 2,
      disruptionsAllowed: 0,
    });
    c.advance(DELETION_TIMEOUT_MS + 1_000);
    expect(status(c)).to.deep.include({ currentHealthy: 3, disruptionsAllowed: 1 });
    expect(status(c).disruptedPods).to.equal(undefined);
    const events = c.apiserver.list('events', 'default');
    expect(events.ok && events.object.items.find((e) => e.reason === 'NotDeleted')?.message).to.equal(
      "Pod was expected by PDB default/default to be deleted but it wasn't",
    );
  });

  it('a DisruptionTarget condition left on a pod that is not deleting is reset to False after two minutes (stalePodDisruption)', () => {
    const c = cluster(['web-1'], { minAvailable: 1, selector: { matchLabels: LABELS } });
    const pod = c.apiserver.get('pods', 'default', 'web-1');
    if (!pod.ok) throw new Error('no pod');
    c.apiserver.update(
      USER,
      'pods',
      'default',
      {
        ...pod.object,
        status: {
          ...pod.object.status,
          conditions: [
            ...(pod.object.status?.conditions ?? []),
            {
              type: 'DisruptionTarget',
              status: 'True',
              reason: 'EvictionByEvictionAPI',
              message: 'Eviction API: evicting',
              lastTransitionTime: toTime(c.clock.now()),
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    c.flush();
    const t = c.clock.now();
    c.advance(125_000);
    const after = c.apiserver.get('pods', 'default', 'web-1');
    expect(after.ok && after.object.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.status).to.equal(
      'False',
    );
    const reset = c.timeline
      .all()
      .find((e) => e.component === 'disruption' && e.text === 'reset DisruptionTarget of pods/web-1');
    expect(reset && reset.at - t).to.equal(120_000);
  });

  it('scales a percentage up (intstr.GetScaledValueFromIntOrPercent, roundUp)', () => {
    expect([scaledValue(2, 10), scaledValue('50%', 3), scaledValue('10%', 1), scaledValue('0%', 5)]).to.deep.equal([
      2, 2, 1, 0,
    ]);
  });
});

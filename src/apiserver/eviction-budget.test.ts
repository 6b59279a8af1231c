import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../foundation/release';
import { checkAndDecrement, checkPodDisruptionBudgets, podDisruptionBudgetsFor } from './eviction';
import type { Pod, PodDisruptionBudget } from '../apimachinery/types';
import { apiCreatePod, at, failure, meta, newSim, NS, ok, podKey, stored, USER, type Sim } from './testing';

/**
 * D5, D6, D7 — the PodDisruptionBudget check of pods/eviction (pkg/registry/core/pod/storage/eviction.go
 * EvictionREST.Create, checkAndDecrement, getPodDisruptionBudgets).
 */
const READY = { type: 'Ready', status: 'True' };
const NOT_READY = { type: 'Ready', status: 'False' };

const pod = (name: string, ready = true, labels: Record<string, string> = { app: 'web' }): Pod => ({
  metadata: { name, namespace: NS, labels, resourceVersion: '7' },
  spec: { containers: [{ name: 'app' }] },
  status: { phase: 'Running', conditions: [ready ? READY : NOT_READY] },
});

function budget(
  name: string,
  status: Partial<PodDisruptionBudget['status']> = {},
  spec: PodDisruptionBudget['spec'] = { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
  generation = 1,
): PodDisruptionBudget {
  return {
    metadata: { name, namespace: NS, generation },
    spec,
    status: {
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
      expectedPods: 3,
      observedGeneration: 1,
      ...status,
    },
  };
}

const R33 = Release.of(33);
const statusOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { status: unknown }).status;
  }
  throw new Error('did not throw');
};

describe('pods/eviction and PodDisruptionBudgets (eviction.go)', () => {
  it('getPodDisruptionBudgets: same namespace, selector matching the labels; no selector matches nothing, an empty one everything, one that does not parse nothing', () => {
    const budgets = [
      budget('by-label'),
      budget('other-ns', {}, { selector: { matchLabels: { app: 'web' } } }),
      budget('no-selector', {}, {}),
      budget('empty', {}, { selector: {} }),
      budget('bad', {}, { selector: { matchExpressions: [{ key: 'app', operator: 'Sometimes' }] } }),
      budget('other-app', {}, { selector: { matchLabels: { app: 'db' } } }),
    ];
    budgets[1].metadata.namespace = 'other';
    expect(podDisruptionBudgetsFor(pod('web-1'), budgets).map((b) => b.metadata.name)).to.deep.equal([
      'by-label',
      'empty',
    ]);
  });

  it('checkAndDecrement spends one disruption, records the pod in disruptedPods, and turns the condition False once none is left', () => {
    const updated = checkAndDecrement('web-1', budget('pdb'), Date.UTC(2025, 0, 1, 0, 1, 0));
    expect(updated.status).to.include({ disruptionsAllowed: 0 });
    expect(updated.status!.disruptedPods).to.deep.equal({ 'web-1': '2025-01-01T00:01:00Z' });
    expect(updated.status!.conditions).to.deep.equal([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: '2025-01-01T00:01:00Z',
      },
    ]);
  });

  it('refuses: 429 naming what the budget needs when it allows nothing, 429 with Retry-After 10 when its status is older than its spec, 403 when negative or too many evictions wait', () => {
    expect(
      statusOf(() => checkAndDecrement('web-1', budget('pdb', { disruptionsAllowed: 0, currentHealthy: 2 }), 0)),
    ).to.deep.include({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          { reason: 'DisruptionBudget', message: 'The disruption budget pdb needs 2 healthy pods and has 2 currently' },
        ],
      },
    });
    expect(statusOf(() => checkAndDecrement('web-1', budget('pdb', {}, undefined, 2), 0))).to.deep.include({
      code: 429,
      details: {
        retryAfterSeconds: 10,
        causes: [
          { reason: 'DisruptionBudget', message: 'The disruption budget pdb is still being processed by the server.' },
        ],
      },
    });
    expect(statusOf(() => checkAndDecrement('web-1', budget('pdb', { disruptionsAllowed: -1 }), 0))).to.deep.include({
      code: 403,
      reason: 'Forbidden',
      message: 'poddisruptionbudget.policy "pdb" is forbidden: pdb disruptions allowed is negative',
    });
    const crowded = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, '2025-01-01T00:00:00Z']));
    expect(statusOf(() => checkAndDecrement('web-1', budget('pdb', { disruptedPods: crowded }), 0))).to.deep.include({
      code: 403,
      message:
        'poddisruptionbudget.policy "pdb" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    });
  });

  it('a pod that is not ready goes without spending a disruption under AlwaysAllow (from v1.27 by default), or IfHealthyBudget while the budget has its desired healthy pods', () => {
    const always = budget(
      'pdb',
      { disruptionsAllowed: 0, currentHealthy: 1 },
      { minAvailable: 2, selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    );
    expect(checkPodDisruptionBudgets(pod('web-1', false), [always], 0, R33).kind).to.equal('unhealthy');
    expect(
      () => checkPodDisruptionBudgets(pod('web-1', false), [always], 0, Release.of(26)),
      'v1.26: the alpha gate is off',
    ).to.throw("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(
      checkPodDisruptionBudgets(
        pod('web-1', false),
        [budget('pdb', { disruptionsAllowed: 0, currentHealthy: 2 })],
        0,
        R33,
      ).kind,
    ).to.equal('unhealthy');
    expect(() =>
      checkPodDisruptionBudgets(
        pod('web-1', false),
        [budget('pdb', { disruptionsAllowed: 0, currentHealthy: 1 })],
        0,
        R33,
      ),
    ).to.throw('would violate');
    expect(checkPodDisruptionBudgets(pod('web-1', true), [budget('pdb')], 0, R33).kind).to.equal('decrement');
    expect(statusOf(() => checkPodDisruptionBudgets(pod('web-1'), [budget('a'), budget('b')], 0, R33))).to.deep.include(
      {
        code: 500,
        message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      },
    );
  });
});

describe('ApiServer.evict with PodDisruptionBudgets (D5–D7)', () => {
  const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS } });
  /** A pod the kubelet reported Running and Ready (its status written through pods/status, as the status manager does). */
  const readyPod = (sim: Sim, name: string) => {
    const created = apiCreatePod(sim, name, { metadata: { labels: { app: 'web' } } });
    ok(
      sim.api.update(
        USER,
        'pods',
        NS,
        { ...created, status: { phase: 'Running', conditions: [READY] } },
        { subresource: 'status' },
      ),
    );
  };

  function simWithBudget(status: Partial<PodDisruptionBudget['status']>): Sim {
    const sim = newSim();
    for (const name of ['web-1', 'web-2', 'web-3']) readyPod(sim, name);
    ok(
      sim.api.create(USER, 'poddisruptionbudgets', NS, {
        metadata: { name: 'pdb' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      }),
    );
    const stored = ok(sim.api.get('poddisruptionbudgets', NS, 'pdb'));
    ok(
      sim.api.update(
        USER,
        'poddisruptionbudgets',
        NS,
        {
          ...stored,
          status: {
            currentHealthy: 3,
            desiredHealthy: 2,
            disruptionsAllowed: 1,
            expectedPods: 3,
            observedGeneration: 1,
            ...status,
          },
        },
        { subresource: 'status' },
      ),
    );
    return sim;
  }

  it("spends the disruption in the budget's status, then deletes the pod; the next eviction is 429 and the pod untouched", () => {
    const sim = simWithBudget({});
    sim.clock.tick(5_000);
    expect(sim.api.evict(USER, NS, 'web-1', eviction('web-1')).code).to.equal(201);
    expect(ok(sim.api.get('poddisruptionbudgets', NS, 'pdb')).status).to.deep.include({
      disruptionsAllowed: 0,
      disruptedPods: { 'web-1': at(5) },
    });
    expect(meta(stored(sim.api.etcd, podKey('web-1'))!)).to.include({ deletionTimestamp: at(35) });
    const refused = failure(sim.api.evict(USER, NS, 'web-2', eviction('web-2')), 429, 'TooManyRequests');
    expect(refused.message).to.equal("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(meta(stored(sim.api.etcd, podKey('web-2'))!).deletionTimestamp).to.equal(undefined);
  });

  it('a dry run checks the budget and writes nothing; a budget whose spec changed since its status is 429 until the controller catches up', () => {
    const sim = simWithBudget({});
    const before = sim.api.etcd.currentRevision;
    expect(sim.api.evict(USER, NS, 'web-1', eviction('web-1'), { dryRun: true }).code).to.equal(201);
    expect(sim.api.etcd.currentRevision).to.equal(before);
    const pdb = ok(sim.api.get('poddisruptionbudgets', NS, 'pdb'));
    ok(sim.api.update(USER, 'poddisruptionbudgets', NS, { ...pdb, spec: { ...pdb.spec, minAvailable: 1 } }));
    expect(
      ok(sim.api.get('poddisruptionbudgets', NS, 'pdb')).metadata.generation,
      'a spec change moves the generation',
    ).to.equal(2);
    expect(
      failure(sim.api.evict(USER, NS, 'web-1', eviction('web-1')), 429, 'TooManyRequests').details,
    ).to.deep.include({ retryAfterSeconds: 10 });
  });

  it('the budget API: a new budget starts with an empty status, a status write keeps the spec, minAvailable and maxUnavailable together are refused', () => {
    const sim = newSim();
    const created = ok(
      sim.api.create(USER, 'poddisruptionbudgets', NS, {
        metadata: { name: 'pdb' },
        spec: { maxUnavailable: '50%', selector: {} },
        status: { disruptionsAllowed: 9 },
      } as PodDisruptionBudget),
    );
    expect(created.status).to.deep.equal({
      currentHealthy: 0,
      desiredHealthy: 0,
      disruptionsAllowed: 0,
      expectedPods: 0,
    });
    const statusWrite = ok(
      sim.api.update(
        USER,
        'poddisruptionbudgets',
        NS,
        { ...created, spec: { maxUnavailable: 1 }, status: { ...created.status!, disruptionsAllowed: 1 } },
        { subresource: 'status' },
      ),
    );
    expect(statusWrite.spec).to.deep.equal({ maxUnavailable: '50%', selector: {} });
    expect(statusWrite.metadata.generation).to.equal(1);
    const both = failure(
      sim.api.create(USER, 'poddisruptionbudgets', NS, {
        metadata: { name: 'x' },
        spec: { minAvailable: 1, maxUnavailable: 1 },
      }),
      422,
      'Invalid',
    );
    expect(both.message).to.contain('minAvailable and maxUnavailable cannot be both set');
    const over = failure(
      sim.api.create(USER, 'poddisruptionbudgets', NS, { metadata: { name: 'y' }, spec: { minAvailable: '120%' } }),
      422,
      'Invalid',
    );
    expect(over.message).to.equal(
      'PodDisruptionBudget.policy "y" is invalid: spec.minAvailable: Invalid value: "120%": must not be greater than 100%',
    );
  });
});

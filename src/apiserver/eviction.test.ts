import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../foundation/release';
import type { Pod } from '../apimachinery/types';
import {
  apiCreatePod,
  at,
  failure,
  meta,
  newSim,
  NS,
  ok,
  podKey,
  stored,
  track,
  types,
  USER,
  type Sim,
} from './testing';

/** R78 — pods/eviction (eviction.go EvictionREST.Create, addConditionAndDeletePod), without PodDisruptionBudgets. */
const running = (sim: Sim, name = 'web'): Pod => apiCreatePod(sim, name, { status: { phase: 'Running' } });

const eviction = (name: string, deleteOptions?: object) => ({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name, namespace: NS },
  ...(deleteOptions ? { deleteOptions } : {}),
});

const disruptionTarget = (pod: Pod | undefined) => pod?.status?.conditions?.find((c) => c.type === 'DisruptionTarget');

describe('pods/eviction (R78)', () => {
  it('writes DisruptionTarget (EvictionByEvictionAPI) to the status, then deletes the pod gracefully, in one request answered 201 Success', () => {
    const sim = newSim();
    running(sim);
    sim.clock.tick(5_000);
    const { result, writes } = track(sim.api.etcd, () => sim.api.evict(USER, NS, 'web', eviction('web')));
    expect(ok(result)).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect(result.code).to.equal(201);
    expect(types(writes)).to.deep.equal(['PUT', 'PUT']);
    expect(new Set(writes.map((w) => w.requestId))).to.deep.equal(new Set([result.requestId]));
    const pod = stored(sim.api.etcd, podKey('web'));
    expect(disruptionTarget(pod)).to.deep.equal({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
      lastTransitionTime: at(5),
    });
    expect(meta(pod!)).to.include({ deletionTimestamp: at(35), deletionGracePeriodSeconds: 30 });
    expect(sim.api.lastRequest).to.include({ verb: 'CREATE', resource: 'pods', name: 'web' });
  });

  it("deletes with the eviction's DeleteOptions (a grace period), and the request's ?dryRun writes nothing", () => {
    const sim = newSim();
    running(sim);
    ok(sim.api.evict(USER, NS, 'web', eviction('web', { gracePeriodSeconds: 5 })));
    expect(meta(stored(sim.api.etcd, podKey('web'))!)).to.include({
      deletionTimestamp: at(5),
      deletionGracePeriodSeconds: 5,
    });

    const dry = newSim();
    running(dry);
    const { result, writes } = track(dry.api.etcd, () =>
      dry.api.evict(USER, NS, 'web', eviction('web'), { dryRun: true }),
    );
    expect(result.code).to.equal(201);
    expect(writes).to.deep.equal([]);
  });

  it('with PodDisruptionConditions off (possible up to v1.30) only deletes', () => {
    const sim = newSim(Release.of(30, { PodDisruptionConditions: false }));
    running(sim);
    const { writes } = track(sim.api.etcd, () => ok(sim.api.evict(USER, NS, 'web', eviction('web'))));
    expect(writes).to.have.length(1);
    expect(disruptionTarget(stored(sim.api.etcd, podKey('web')))).to.equal(undefined);
  });

  it('a Pending pod is deleted under a resourceVersion precondition, carried past the condition write (an unscheduled pod goes at once, R7)', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { spec: { nodeName: undefined } });
    const { writes } = track(sim.api.etcd, () => ok(sim.api.evict(USER, NS, 'web', eviction('web'))));
    // The condition, the stamp (grace 0: never scheduled, R7), the removal.
    expect(types(writes)).to.deep.equal(['PUT', 'PUT', 'DELETE']);
    expect(disruptionTarget(writes[0].value as unknown as Pod)?.reason).to.equal('EvictionByEvictionAPI');
  });

  it('refuses a name that is not the URL\'s (400), a pod that does not exist (404), a UID precondition of another pod (409 on "Pod")', () => {
    const sim = newSim();
    running(sim);
    const { result, writes } = track(sim.api.etcd, () => sim.api.evict(USER, NS, 'web', eviction('api')));
    expect(failure(result, 400, 'BadRequest').message).to.equal('name in URL does not match name in Eviction object');
    expect(writes).to.deep.equal([]);
    expect(failure(sim.api.evict(USER, NS, 'nope', eviction('nope')), 404, 'NotFound').message).to.equal(
      'pods "nope" not found',
    );
    const uid = failure(
      sim.api.evict(USER, NS, 'web', eviction('web', { preconditions: { uid: 'another' } })),
      409,
      'Conflict',
    );
    expect(uid.message).to.match(
      /^Operation cannot be fulfilled on Pod "web": the UID in the precondition \(another\) does not match the UID in record \(.+\)\. The object might have been deleted and then recreated$/,
    );
  });

  it('a pod already terminating is evicted again: the condition stays as it was, the delete follows the shortening rules (R23: T+30 − 30 s + 5 s is past, so now and grace 1)', () => {
    const sim = newSim();
    running(sim);
    ok(sim.api.evict(USER, NS, 'web', eviction('web')));
    sim.clock.tick(10_000);
    ok(sim.api.evict(USER, NS, 'web', eviction('web', { gracePeriodSeconds: 5 })));
    const pod = stored(sim.api.etcd, podKey('web'));
    expect(disruptionTarget(pod)?.lastTransitionTime).to.equal(at(0));
    expect(meta(pod!)).to.include({ deletionTimestamp: at(10), deletionGracePeriodSeconds: 1 });
  });
});

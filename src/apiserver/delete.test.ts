import { describe, it } from 'node:test';
import { expect } from 'chai';
import { EPOCH_MS } from '../foundation/clock';
import { beforeDelete, type BeforeDeleteResult } from './delete';
import { StatusError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import { podStrategy } from './pod-strategy';
import { DEFAULT_RELEASE, Release } from '../foundation/release';
import { at } from './testing';
import type { DeleteOptions, Pod, ReplicaSet } from '../apimachinery/types';

/** A scheduled, running pod with spec grace 30, generation 1, as stored. */
function pod(
  meta: Partial<Pod['metadata']> = {},
  spec: Partial<NonNullable<Pod['spec']>> = {},
  phase = 'Running',
): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7', generation: 1, ...meta },
    spec: { nodeName: 'n1', terminationGracePeriodSeconds: 30, containers: [{ name: 'app' }], ...spec },
    status: { phase },
  };
}

/** A pod whose first DELETE already happened: deletionTimestamp dT, deletionGracePeriodSeconds dGP. */
function terminating(dT: string, dGP: number | undefined, extra: Partial<Pod['metadata']> = {}): Pod {
  return pod({ deletionTimestamp: dT, deletionGracePeriodSeconds: dGP, ...extra });
}

/** Runs BeforeDelete at `nowSeconds` after the epoch; returns its answer and the (mutated) inputs. */
function run(
  obj: Pod,
  options: DeleteOptions = {},
  nowSeconds = 0,
  release = DEFAULT_RELEASE,
): BeforeDeleteResult & { obj: Pod; options: DeleteOptions } {
  const r = beforeDelete(podStrategy, obj, options, EPOCH_MS + nowSeconds * 1000, release);
  return { ...r, obj, options };
}

const V1_32 = Release.of(32);

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  return expect.fail('expected a StatusError');
}

describe('BeforeDelete: option validation and early preconditions', () => {
  it('R2 BeforeDelete repeats option validation for callers that bypass the handler (422 DeleteOptions)', () => {
    const e = thrown(() => run(pod(), { orphanDependents: true, propagationPolicy: 'Orphan' }));
    expect([e.code, e.reason]).to.deep.equal([422, 'Invalid']);
    expect(e.message).to.match(/^DeleteOptions\.meta\.k8s\.io "" is invalid/);
  });

  it('R41 a UID precondition that does not match the object read fails with 409 naming the kind', () => {
    const e = thrown(() => run(pod(), { preconditions: { uid: 'other' } }));
    expect([e.code, e.reason]).to.deep.equal([409, 'Conflict']);
    expect(e.message).to.equal(
      'Operation cannot be fulfilled on Pod "web": the UID in the precondition (other) does not match the UID in record (u1). The object might have been deleted and then recreated',
    );
    expect(e.status.details).to.deep.include({ kind: 'Pod', name: 'web' });
  });

  it('R41 a resourceVersion precondition that does not match fails with 409 and its own wording', () => {
    const e = thrown(() => run(pod(), { preconditions: { resourceVersion: '6' } }));
    expect(e.code).to.equal(409);
    expect(e.message).to.equal(
      'Operation cannot be fulfilled on Pod "web": the ResourceVersion in the precondition (6) does not match the ResourceVersion in record (7). The object might have been modified',
    );
  });

  it('R41 the precondition check comes before the pending no-op of an already terminating pod', () => {
    expect(thrown(() => run(terminating(at(30), 30), { preconditions: { uid: 'other' } })).code).to.equal(409);
  });

  it('R41 matching preconditions pass', () => {
    expect(run(pod(), { preconditions: { uid: 'u1', resourceVersion: '7' } }).graceful).to.equal(true);
  });
});

describe('BeforeDelete: first DELETE (§B/§C)', () => {
  it('R12 stamps deletionTimestamp = now + period, deletionGracePeriodSeconds = period, generation + 1', () => {
    const r = run(pod(), {}, 4);
    expect(r).to.deep.include({ graceful: true, pending: false });
    expect(r.obj.metadata).to.deep.include({
      deletionTimestamp: at(34),
      deletionGracePeriodSeconds: 30,
      generation: 2,
    });
  });

  it('R12 a pod at generation 0 (written by an older apiserver) is not bumped', () => {
    expect(run(pod({ generation: 0 })).obj.metadata.generation).to.equal(0);
    expect(run(pod({ generation: undefined })).obj.metadata.generation).to.equal(undefined);
  });

  it('R5 a negative requested grace becomes 1 before any grace logic', () => {
    const r = run(pod(), { gracePeriodSeconds: -10 });
    expect(r.options.gracePeriodSeconds).to.equal(1);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(1), deletionGracePeriodSeconds: 1 });
  });

  it('R10 the computed period is written back into the options (here from the spec)', () => {
    expect(run(pod({}, { terminationGracePeriodSeconds: 12 })).options.gracePeriodSeconds).to.equal(12);
  });

  it('R10 a pod takes the graceful path even with period 0 (stamped dT = now, dGP = 0)', () => {
    const r = run(pod(), { gracePeriodSeconds: 0 }, 3);
    expect(r.graceful).to.equal(true);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(3), deletionGracePeriodSeconds: 0, generation: 2 });
  });

  it('R54 the stamped deletionTimestamp drops the sub-second part of now + period', () => {
    const obj = pod();
    beforeDelete(podStrategy, obj, { gracePeriodSeconds: 30 }, EPOCH_MS + 1900, DEFAULT_RELEASE);
    expect(obj.metadata.deletionTimestamp).to.equal(at(31));
  });

  it('R40 a strategy without graceful deletion (ReplicaSet) is never stamped by BeforeDelete', () => {
    const rs: ReplicaSet = { metadata: { name: 'rs', uid: 'r1', generation: 3 } };
    const strategy = genericStrategy<ReplicaSet>({
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      resource: 'replicasets',
      namespaced: true,
    });
    expect(beforeDelete(strategy, rs, { gracePeriodSeconds: 30 }, EPOCH_MS, DEFAULT_RELEASE)).to.deep.equal({
      graceful: false,
      pending: false,
    });
    expect(rs.metadata).to.deep.equal({ name: 'rs', uid: 'r1', generation: 3 });
  });
});

describe('BeforeDelete: pod already terminating (§D)', () => {
  it('R19 stored deletionGracePeriodSeconds nil: not graceful, not pending, nothing changed', () => {
    const r = run(terminating(at(0), undefined), { gracePeriodSeconds: 10 }, 5);
    expect(r).to.deep.include({ graceful: false, pending: false });
    expect(r.obj.metadata).to.deep.include({
      deletionTimestamp: at(0),
      deletionGracePeriodSeconds: undefined,
      generation: 1,
    });
  });

  it('R19 stored deletionGracePeriodSeconds 0: not graceful, not pending, no generation bump', () => {
    const r = run(terminating(at(0), 0), {}, 5);
    expect(r).to.deep.include({ graceful: false, pending: false });
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(0), deletionGracePeriodSeconds: 0, generation: 1 });
  });

  it('R21 a longer or equal grace is a pending no-op that changes nothing', () => {
    for (const g of [30, 60]) {
      const r = run(terminating(at(30), 30), { gracePeriodSeconds: g }, 5);
      expect(r).to.deep.include({ graceful: false, pending: true });
      expect(r.obj.metadata).to.deep.include({
        deletionTimestamp: at(30),
        deletionGracePeriodSeconds: 30,
        generation: 1,
      });
    }
  });

  it('R22 no grace in the request: the stored grace is copied into the options and the DELETE is pending', () => {
    const r = run(terminating(at(30), 30), {}, 5);
    expect(r).to.deep.include({ graceful: false, pending: true });
    expect(r.options.gracePeriodSeconds).to.equal(30);
  });

  it('R23 a shorter grace is anchored to the first request: dT - dGP + g; no generation bump', () => {
    const r = run(terminating(at(30), 30, { generation: 2 }), { gracePeriodSeconds: 10 }, 5);
    expect(r).to.deep.include({ graceful: true, pending: false });
    expect(r.obj.metadata).to.deep.include({
      deletionTimestamp: at(10),
      deletionGracePeriodSeconds: 10,
      generation: 2,
    });
  });

  it('R23 V1 up to v1.32 the shortened deletionTimestamp may already lie in the past, with the grace asked', () => {
    const r = run(terminating(at(30), 30), { gracePeriodSeconds: 2 }, 20, V1_32);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(2), deletionGracePeriodSeconds: 2 });
  });

  it('R23 V1 v1.33 (rest.BeforeDelete, kubernetes#122646): a time before now becomes now, and a graceful request keeps 1 s', () => {
    const r = run(terminating(at(30), 30), { gracePeriodSeconds: 2 }, 20);
    expect(r).to.deep.include({ graceful: true, pending: false });
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(20), deletionGracePeriodSeconds: 1, generation: 1 });
  });

  it("R23 R26 V1 v1.33: a grace-0 request whose time lies in the past stamps now with grace 0 (the kubelet's final DELETE)", () => {
    const r = run(terminating(at(30), 30), { gracePeriodSeconds: 0 }, 34);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(34), deletionGracePeriodSeconds: 0 });
    const old = run(terminating(at(30), 30), { gracePeriodSeconds: 0 }, 34, V1_32);
    expect(old.obj.metadata, 'v1.32: back to the first request').to.deep.include({
      deletionTimestamp: at(0),
      deletionGracePeriodSeconds: 0,
    });
  });

  it('R23 V1 v1.33: a shortening still in the future is not clamped (the grace asked is kept)', () => {
    const r = run(terminating(at(30), 30), { gracePeriodSeconds: 10 }, 5);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(10), deletionGracePeriodSeconds: 10 });
  });

  it('R5 a negative grace on a terminating pod counts as 1 (so it shortens a 30 s grace to 1 s)', () => {
    const r = run(terminating(at(30), 30), { gracePeriodSeconds: -1 }, 5, V1_32);
    expect(r.graceful).to.equal(true);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(1), deletionGracePeriodSeconds: 1 });
    const clamped = run(terminating(at(30), 30), { gracePeriodSeconds: -1 }, 5);
    expect(clamped.obj.metadata, 'v1.33: at(1) lies before now').to.deep.include({
      deletionTimestamp: at(5),
      deletionGracePeriodSeconds: 1,
    });
  });

  it('R20 a stored negative deletionGracePeriodSeconds counts as 1: g = 0 shortens (dT moves back 1 s)', () => {
    const r = run(terminating(at(10), -5), { gracePeriodSeconds: 0 }, 5);
    expect(r.graceful).to.equal(true);
    expect(r.obj.metadata).to.deep.include({ deletionTimestamp: at(9), deletionGracePeriodSeconds: 0 });
  });

  it('R20 a stored negative deletionGracePeriodSeconds counts as 1: no grace asked is pending with g = 1', () => {
    const r = run(terminating(at(10), -5), {}, 5);
    expect(r.pending).to.equal(true);
    expect(r.options.gracePeriodSeconds).to.equal(1);
    expect(r.obj.metadata.deletionGracePeriodSeconds).to.equal(1);
  });

  it('R24 pod rules are not re-applied: a terminating pod that is unscheduled or Succeeded stays pending', () => {
    expect(
      run(pod({ deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 }, { nodeName: undefined })).pending,
    ).to.equal(true);
    expect(run(pod({ deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 }, {}, 'Succeeded')).pending).to.equal(
      true,
    );
  });

  it('R54 shortening works on the stored whole second, not on the instant of the first request', () => {
    // First DELETE at T+1.9s with g=30 stored 00:00:31Z; g=0 later lands on 00:00:01Z, not 1.9 s (v1.32: no clamp).
    const r = run(terminating(at(31), 30), { gracePeriodSeconds: 0 }, 10, V1_32);
    expect(r.obj.metadata.deletionTimestamp).to.equal(at(1));
  });
});

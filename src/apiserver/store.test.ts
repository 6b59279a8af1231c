import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { StoredObject } from './etcd';

import {
  at,
  editRaw,
  interleave,
  meta,
  newStorage,
  NS,
  podKey,
  stamp,
  stored,
  track,
  trackError,
  types,
} from './testing';
import type { Pod } from '../apimachinery/types';

import { X, deletePod, outcome, withPod, withRawPod, setPhase, rvOf, type Outcome } from './store-testing';

describe('Store.Delete intake', () => {
  it('R3 an in-process caller passing no options gets "grace 0": the pod is removed at once', () => {
    expect(deletePod(withPod(), undefined)).to.deep.equal(outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }));
  });

  it('R4 a missing pod is NotFound before anything else (even a failing precondition)', () => {
    const s = newStorage();
    const { error, writes } = trackError(s.etcd, () => s.pods.delete(NS, 'web', { preconditions: { uid: 'x' } }));
    expect([error.code, error.message]).to.deep.equal([404, 'pods "web" not found']);
    expect(writes).to.deep.equal([]);
  });
});

describe('§B grace for a pod not yet terminating, end to end', () => {
  it('R6 request grace set: dT = now + g, dGP = g, generation + 1, one write, the pod stays', () => {
    expect(deletePod(withPod(), { gracePeriodSeconds: 5 })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(7), dGP: 5 }),
    );
  });

  it('R6 request grace unset: the spec grace (30, defaulted at create) is used', () => {
    expect(deletePod(withPod(), {})).to.deep.equal(outcome({ writes: ['PUT'], dT: at(32), dGP: 30 }));
  });

  it('R6 request grace above the spec grace is not capped', () => {
    expect(deletePod(withPod(), { gracePeriodSeconds: 90 })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(92), dGP: 90 }),
    );
  });

  it('R6 nil spec grace (pod stored without defaults) and no request grace: 0, removed at once', () => {
    const s = withRawPod({ nodeName: 'n1', containers: [{ name: 'app' }] });
    expect(deletePod(s, {})).to.deep.equal(outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }));
  });

  it('R6 nil spec grace but a request grace: the request grace is used', () => {
    const s = withRawPod({ nodeName: 'n1', containers: [{ name: 'app' }] });
    expect(deletePod(s, { gracePeriodSeconds: 4 })).to.deep.equal(outcome({ writes: ['PUT'], dT: at(6), dGP: 4 }));
  });

  it('R7 an unscheduled pod is removed at once, whatever grace is asked', () => {
    expect(deletePod(withPod({ spec: { nodeName: undefined } }), { gracePeriodSeconds: 30 })).to.deep.equal(
      outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }),
    );
  });

  for (const phase of ['Succeeded', 'Failed']) {
    it(`R8 a ${phase} pod is removed at once, whatever grace is asked`, () => {
      const s = withPod();
      setPhase(s, phase);
      expect(deletePod(s, { gracePeriodSeconds: 30 })).to.deep.equal(
        outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }),
      );
    });
  }

  it('R5 a negative request grace becomes 1', () => {
    expect(deletePod(withPod(), { gracePeriodSeconds: -7 })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(3), dGP: 1 }),
    );
  });

  it('R9 a negative spec grace (stored without validation) becomes 1', () => {
    const s = withRawPod({ nodeName: 'n1', terminationGracePeriodSeconds: -5, containers: [{ name: 'app' }] });
    expect(deletePod(s, {})).to.deep.equal(outcome({ writes: ['PUT'], dT: at(3), dGP: 1 }));
  });

  it('R9 a negative spec grace on an unscheduled pod gives 0, not 1: removed at once', () => {
    const s = withRawPod({ terminationGracePeriodSeconds: -5, containers: [{ name: 'app' }] });
    expect(deletePod(s, {})).to.deep.equal(outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }));
  });

  it('R11 a pod with spec grace 0 is removed by a DELETE that names no grace, but not by one that does', () => {
    expect(deletePod(withPod({ spec: { terminationGracePeriodSeconds: 0 } }), {})).to.deep.equal(
      outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }),
    );
    expect(deletePod(withPod({ spec: { terminationGracePeriodSeconds: 0 } }), { gracePeriodSeconds: 3 })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(5), dGP: 3 }),
    );
  });
});

describe('§C first DELETE of a pod', () => {
  it('R12 a pod at generation 0 (older apiserver) is stamped without a generation bump', () => {
    const s = withRawPod({ nodeName: 'n1', terminationGracePeriodSeconds: 30, containers: [{ name: 'app' }] }, 0);
    expect(deletePod(s, {})).to.deep.equal(outcome({ writes: ['PUT'], dT: at(32), dGP: 30, generation: 0 }));
  });

  it('R13 the stamping is recomputed on the freshest copy when a concurrent write moves the revision', () => {
    const s = withPod();
    interleave(s.etcd, 'update', { nth: 1 }, () =>
      editRaw(s.etcd, podKey('web'), (p) => (p.metadata.labels = { concurrent: 'yes' })),
    );
    const o = deletePod(s, {});
    expect(o.writes).to.deep.equal(['PUT', 'PUT']);
    expect(meta(stored(s.etcd, podKey('web'))!)).to.deep.include({
      labels: { concurrent: 'yes' },
      deletionTimestamp: at(32),
      deletionGracePeriodSeconds: 30,
      generation: 2,
    });
  });

  it('R14 with finalizers the stamped pod is written and kept even at period 0; the answer is the written pod', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }));
    expect(types(writes)).to.deep.equal(['PUT']);
    expect(result.wasDeleted).to.equal(false);
    expect(result.object).to.deep.equal(stored(s.etcd, podKey('web')));
  });

  it('R14 with period > 0 the answer is the freshly written pod (new resourceVersion)', () => {
    const s = withPod();
    const before = rvOf(stored(s.etcd, podKey('web')));
    const { result } = track(s.etcd, () => s.pods.delete(NS, 'web', {}));
    expect(rvOf(result.object as Pod))
      .to.equal(String(s.etcd.currentRevision))
      .and.not.equal(before);
  });

  it('R15 removal answers with the last stored state (dT, dGP 0) carrying the deletion revision', () => {
    const s = withPod();
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }));
    const [put, del] = writes;
    expect(result.object).to.deep.equal({
      ...put.value,
      metadata: { ...meta(put.value), resourceVersion: String(del.revision) },
    });
    expect(del.revision).to.equal(put.revision + 1);
  });

  it('R16 grace 0 without finalizers: exactly two revisions, MODIFIED (dT = now, dGP 0, gen + 1) then DELETED with the same content', () => {
    const s = withPod();
    const { writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }));
    expect(types(writes)).to.deep.equal(['PUT', 'DELETE']);
    expect(meta(writes[0].value)).to.deep.include({
      deletionTimestamp: at(2),
      deletionGracePeriodSeconds: 0,
      generation: 2,
    });
    const strip = (v: StoredObject) => ({ ...v, metadata: { ...meta(v), resourceVersion: undefined } });
    expect(strip(writes[1].value)).to.deep.equal(strip(writes[0].value));
  });

  it('R17 if another actor removed the pod between the stamping write and the removal, the DELETE still succeeds (empty resourceVersion)', () => {
    const s = withPod();
    const key = podKey('web');
    interleave(s.etcd, 'get', { nth: 3, key }, () => s.etcd.delete(key, s.etcd.get(key)!.modRevision));
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }));
    expect(types(writes)).to.deep.equal(['PUT', 'DELETE']);
    expect(result.wasDeleted).to.equal(true);
    expect(meta(result.object as Pod)).to.deep.include({ deletionTimestamp: at(2), deletionGracePeriodSeconds: 0 });
    expect(meta(result.object as Pod).resourceVersion, 'etcd3 updateState cleared it').to.equal(undefined);
  });

  it('R17 the race is tolerated only on the graceful path: removing an already {dT, dGP 0} pod that vanished is 404', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0);
    const key = podKey('web');
    interleave(s.etcd, 'get', { nth: 2, key }, () => s.etcd.delete(key, s.etcd.get(key)!.modRevision));
    expect(trackError(s.etcd, () => s.pods.delete(NS, 'web', {})).error.code).to.equal(404);
  });

  it('R18 nothing happens inside the apiserver when deletionTimestamp passes', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 5 });
    const { writes } = track(s.etcd, () => s.clock.tick(3600_000));
    expect(writes).to.deep.equal([]);
    expect(meta(stored(s.etcd, podKey('web'))!).deletionTimestamp).to.equal(at(7));
  });
});

describe('§D DELETE of a pod that already has a deletionTimestamp (stored dGP × request grace)', () => {
  const UNSET = undefined;
  // [rule, stored dT, stored dGP, request g, label, expected outcome]; every pod was created at T+0
  // (generation 1, never bumped again) and the DELETE runs at T+5s.
  const rows: Array<[string, string, number | undefined, number | undefined, string, Outcome]> = [];
  for (const [dGP, dT] of [
    [undefined, at(0)],
    [0, at(0)],
  ] as const) {
    for (const [g, label] of [
      [UNSET, 'unset'],
      [0, 'zero'],
      [10, 'larger'],
      [-3, 'negative'],
    ] as const) {
      rows.push([
        'R19',
        dT,
        dGP,
        g,
        label,
        { writes: ['DELETE'], wasDeleted: true, dT, dGP, generation: 1, exists: false },
      ]);
    }
  }
  const pending = (dT: string, dGP: number): Outcome => ({
    writes: [],
    wasDeleted: false,
    dT,
    dGP,
    generation: 1,
    exists: true,
  });
  rows.push(
    ['R20 R22', at(10), -5, UNSET, 'unset', pending(at(10), 1)],
    [
      'R20 R23',
      at(10),
      -5,
      0,
      'smaller',
      { writes: ['PUT', 'DELETE'], wasDeleted: true, dT: at(9), dGP: 0, generation: 1, exists: false },
    ],
    ['R20 R21', at(10), -5, 1, 'equal', pending(at(10), 1)],
    ['R20 R21', at(10), -5, 10, 'larger', pending(at(10), 1)],
    ['R20 R5', at(10), -5, -3, 'negative', pending(at(10), 1)],
    ['R22', at(30), 30, UNSET, 'unset', pending(at(30), 30)],
    [
      'R23',
      at(30),
      30,
      10,
      'smaller',
      { writes: ['PUT'], wasDeleted: false, dT: at(10), dGP: 10, generation: 1, exists: true },
    ],
    ['R21', at(30), 30, 30, 'equal', pending(at(30), 30)],
    ['R21', at(30), 30, 60, 'larger', pending(at(30), 30)],
    // v1.33 (kubernetes#122646): a shortened time before now (T+5s) becomes now; grace 1 unless 0 was asked.
    [
      'R5 R23',
      at(30),
      30,
      -1,
      'negative',
      { writes: ['PUT'], wasDeleted: false, dT: at(5), dGP: 1, generation: 1, exists: true },
    ],
    [
      'R23 R26',
      at(30),
      30,
      0,
      'zero',
      { writes: ['PUT', 'DELETE'], wasDeleted: true, dT: at(5), dGP: 0, generation: 1, exists: false },
    ],
  );

  for (const [rule, dT, dGP, g, label, expected] of rows) {
    it(`${rule} stored dGP ${dGP ?? 'nil'}, request grace ${g ?? 'unset'} (${label}) → ${expected.writes.join('+') || 'no write'}`, () => {
      const s = withPod({}, 0);
      stamp(s.etcd, 'web', dT, dGP);
      s.clock.tick(5000);
      expect(deletePod(s, g === undefined ? {} : { gracePeriodSeconds: g })).to.deep.equal(expected);
    });
  }

  it('R20 the normalised dGP lives only in memory: the stored -5 is untouched by a pending DELETE', () => {
    const s = withPod({}, 0);
    stamp(s.etcd, 'web', at(10), -5);
    deletePod(s, {});
    expect(meta(stored(s.etcd, podKey('web'))!).deletionGracePeriodSeconds).to.equal(-5);
  });

  it('R21 a pending DELETE answers the pod as read: same resourceVersion, no revision', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    const before = stored(s.etcd, podKey('web'));
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 60 }));
    expect(writes).to.deep.equal([]);
    expect(result.object).to.deep.equal(before);
  });

  it('R24 a terminating pod that became Succeeded is not shortened by a DELETE without grace', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    setPhase(s, 'Succeeded');
    expect(deletePod(s, {})).to.deep.equal({
      writes: [],
      wasDeleted: false,
      dT: at(32),
      dGP: 30,
      generation: 2,
      exists: true,
    });
  });

  it('R24 ... but a smaller grace still shortens it (no phase rule is applied)', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    setPhase(s, 'Succeeded');
    expect(deletePod(s, { gracePeriodSeconds: 10 })).to.deep.equal({
      writes: ['PUT'],
      wasDeleted: false,
      dT: at(12),
      dGP: 10,
      generation: 2,
      exists: true,
    });
  });

  it('R19 the recovery path with finalizers left: no write at all, the pod stays', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0, [X]);
    expect(deletePod(s, {})).to.deep.equal({
      writes: [],
      wasDeleted: false,
      dT: at(0),
      dGP: 0,
      generation: 1,
      exists: true,
    });
  });
});

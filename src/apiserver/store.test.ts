import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { StoredObject } from './etcd';
import { genericStrategy } from './generic-strategy';
import type { KubeObject } from '../apimachinery/object';
import { podStatusStrategy } from './pod-strategy';
import { Store } from './store';
import {
  at,
  createPod,
  editRaw,
  interleave,
  meta,
  newStorage,
  NS,
  podKey,
  putRawPod,
  replicaSetManifest,
  stamp,
  stored,
  track,
  trackError,
  types,
  type PodOverrides,
  type Storage,
} from './testing';
import type { DeleteOptions, Pod, ReplicaSet } from '../apimachinery/types';

const X = 'example.com/x';
const Y = 'example.com/y';

/** What one DELETE did: its writes, Store.Delete's answer and the state it answered with. */
interface Outcome {
  writes: string[];
  wasDeleted: boolean;
  dT: string | undefined;
  dGP: number | undefined;
  generation: number | undefined;
  exists: boolean;
}

function deletePod(s: Storage, options: DeleteOptions | undefined, name = 'web'): Outcome {
  const { result, writes } = track(s.etcd, () => s.pods.delete(NS, name, options));
  const m = meta(result.object as Pod);
  return {
    writes: types(writes),
    wasDeleted: result.wasDeleted,
    dT: m.deletionTimestamp,
    dGP: m.deletionGracePeriodSeconds,
    generation: m.generation,
    exists: s.etcd.get(podKey(name)) !== undefined,
  };
}

/** An outcome with the defaults of a first DELETE of a generation-1 pod. */
function outcome(o: Partial<Outcome> & Pick<Outcome, 'writes'>): Outcome {
  const removed = o.writes.includes('DELETE');
  return { wasDeleted: removed, dT: undefined, dGP: undefined, generation: 2, exists: !removed, ...o };
}

/** A fresh store with pod `web` created at T+0 (with `o`), and the clock at T+`nowSeconds`. */
function withPod(o: PodOverrides = {}, nowSeconds = 2): Storage {
  const s = newStorage();
  createPod(s, 'web', o);
  s.clock.tick(nowSeconds * 1000);
  return s;
}

/** A pod stored without API defaulting (e.g. no terminationGracePeriodSeconds), clock at T+2s. */
function withRawPod(spec: NonNullable<Pod['spec']>, generation = 1): Storage {
  const s = newStorage();
  putRawPod(s.etcd, { metadata: { name: 'web', generation }, spec, status: { phase: 'Running' } });
  s.clock.tick(2000);
  return s;
}

function setPhase(s: Storage, phase: string, name = 'web'): void {
  s.pods.update(NS, name, (p) => ({ ...p, status: { ...p.status, phase } }), { strategy: podStatusStrategy });
}

function finalizersOf(obj: StoredObject | KubeObject | undefined): string[] {
  return (obj && meta(obj).finalizers) ?? [];
}

function rvOf(obj: StoredObject | KubeObject | undefined): string | undefined {
  return obj && meta(obj).resourceVersion;
}

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

describe('§E finalizers and updates', () => {
  it('R27 finalizers block removal, not stamping: g=0 writes dT/dGP 0 and answers wasDeleted=false', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    expect(deletePod(s, { gracePeriodSeconds: 0, propagationPolicy: 'Background' })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(2), dGP: 0 }),
    );
    expect(finalizersOf(stored(s.etcd, podKey('web')))).to.deep.equal([X]);
  });

  it('R28 any update of a stored {dT, dGP 0, no finalizers} pod deletes it, even through pods/status', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0);
    const { result, writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, status: { ...p.status, phase: 'Failed' } }), {
        strategy: podStatusStrategy,
      }),
    );
    expect(types(writes)).to.deep.equal(['DELETE']);
    expect(result.deletedDuringUpdate).to.equal(true);
  });

  it('R28 a stored dT with nil dGP counts like dGP 0: an update without finalizers deletes it', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), undefined, [X]);
    const { writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })),
    );
    expect(types(writes)).to.deep.equal(['DELETE']);
  });

  it('R28 removing the last finalizer of a pod whose dGP is 0 deletes it: no PUT, one DELETE', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    const { writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })),
    );
    expect(types(writes)).to.deep.equal(['DELETE']);
  });

  it('R28 an update keeping a finalizer does not delete', () => {
    const s = withPod({ metadata: { finalizers: [X, Y] } });
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    const { writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [Y] } })),
    );
    expect(types(writes)).to.deep.equal(['PUT']);
  });

  it('R29 removing the last finalizer while dGP > 0 is an ordinary update; a later g=0 DELETE stamps and removes', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', {});
    const { writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })),
    );
    expect(types(writes)).to.deep.equal(['PUT']);
    expect(meta(stored(s.etcd, podKey('web'))!)).to.deep.include({
      deletionTimestamp: at(32),
      deletionGracePeriodSeconds: 30,
    });
    expect(finalizersOf(stored(s.etcd, podKey('web')))).to.deep.equal([]);
    expect(deletePod(s, { gracePeriodSeconds: 0 })).to.deep.equal(
      outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }),
    );
  });

  it("R30 delete-during-update: the DELETED state is the stored one (still lists the finalizer, none of the client's edits); the answer is the submitted object", () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    const before = stored(s.etcd, podKey('web'))!;
    const { result, writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({
        ...p,
        metadata: { ...p.metadata, finalizers: [], labels: { edited: 'yes' } },
      })),
    );
    expect(types(writes)).to.deep.equal(['DELETE']);
    expect(writes[0].value).to.deep.equal({
      ...before,
      metadata: { ...before.metadata, resourceVersion: String(writes[0].revision) },
    });
    expect(meta(result.object)).to.deep.include({ finalizers: [], labels: { edited: 'yes' } });
  });

  it("R30 the removal is conditioned on the update's UID precondition (a PUT body's uid): a stale one is 409", () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    const drop = (p: Pod) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } });
    const { error, writes } = trackError(s.etcd, () =>
      s.pods.update(NS, 'web', drop, { preconditions: { uid: 'stale' } }),
    );
    expect([error.code, writes.length]).to.deep.equal([409, 0]);
    expect(error.message).to.contain('Precondition failed: UID in precondition: stale');
  });

  it('R30 if another client removed the pod first (NotFound), the emptying update still succeeds', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    const key = podKey('web');
    interleave(s.etcd, 'get', { nth: 2, key }, () => s.etcd.delete(key, s.etcd.get(key)!.modRevision));
    const { result } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })),
    );
    expect(result.deletedDuringUpdate).to.equal(true);
  });

  it('R31 adding a finalizer to a terminating pod is 422 Invalid and writes nothing; removing is fine', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', {});
    const { error, writes } = trackError(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [X, Y] } })),
    );
    expect([error.code, error.reason]).to.deep.equal([422, 'Invalid']);
    expect(error.message).to.contain('no new finalizers can be added if the object is being deleted');
    expect(writes).to.deep.equal([]);
  });

  it('R31 "orphan" together with "foregroundDeletion" is 422 on create and on update', () => {
    const s = newStorage();
    expect(
      trackError(s.etcd, () => createPod(s, 'a', { metadata: { finalizers: ['orphan', 'foregroundDeletion'] } })).error
        .code,
    ).to.equal(422);
    createPod(s, 'b', { metadata: { finalizers: ['orphan'] } });
    const { error } = trackError(s.etcd, () =>
      s.pods.update(NS, 'b', (p) => ({
        ...p,
        metadata: { ...p.metadata, finalizers: ['orphan', 'foregroundDeletion'] },
      })),
    );
    expect(error.code).to.equal(422);
  });

  it('R32 an update cannot set a deletionTimestamp on a pod that has none (422)', () => {
    const s = withPod();
    const { error } = trackError(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, deletionTimestamp: at(0) } })),
    );
    expect([error.code, error.message]).to.deep.equal([
      422,
      `Pod "web" is invalid: metadata.deletionTimestamp: Invalid value: "${at(0)}": field is immutable`,
    ]);
  });

  it('R32 a submitted dT is replaced by the stored one; an omitted dGP comes back; a different dGP is 422', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    s.pods.update(NS, 'web', (p) => ({
      ...p,
      metadata: {
        ...p.metadata,
        deletionTimestamp: at(999),
        deletionGracePeriodSeconds: undefined,
        labels: { a: 'b' },
      },
    }));
    expect(meta(stored(s.etcd, podKey('web'))!)).to.deep.include({
      deletionTimestamp: at(32),
      deletionGracePeriodSeconds: 30,
      labels: { a: 'b' },
    });
    const { error } = trackError(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, deletionGracePeriodSeconds: 0 } })),
    );
    expect(error.code).to.equal(422);
  });

  it('R32 a deletionTimestamp sent through pods/status is discarded, not rejected', () => {
    const s = withPod();
    const { writes } = track(s.etcd, () =>
      s.pods.update(
        NS,
        'web',
        (p) => ({
          ...p,
          metadata: { ...p.metadata, deletionTimestamp: at(0) },
          status: { ...p.status, phase: 'Running' },
        }),
        { strategy: podStatusStrategy },
      ),
    );
    expect(types(writes)).to.deep.equal(['PUT']);
    expect(meta(stored(s.etcd, podKey('web'))!).deletionTimestamp).to.equal(undefined);
  });

  it('R33 markAsDeleting on a pod already at {dT ≤ now, dGP 0} with finalizers is a no-op: no write, the stored pod', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0, [X]);
    const before = stored(s.etcd, podKey('web'));
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }));
    expect(writes).to.deep.equal([]);
    expect(result.object).to.deep.equal(before);
  });

  it('R33 markAsDeleting moves a later deletionTimestamp back to now, never forward', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(60), 0, [X]);
    expect(deletePod(s, {})).to.deep.equal({
      writes: ['PUT'],
      wasDeleted: false,
      dT: at(2),
      dGP: 0,
      generation: 1,
      exists: true,
    });
  });

  it('R33 a ReplicaSet with a finalizer is marked deleting (dT = now, dGP 0, generation + 1); a later DELETE keeps that dT', () => {
    const s = newStorage();
    s.replicasets.create(
      { ...replicaSetManifest('rs', { finalizers: [X] }), metadata: { name: 'rs', namespace: NS, finalizers: [X] } },
      { uid: 'rs-1' },
    );
    s.clock.tick(2000);
    const first = track(s.etcd, () => s.replicasets.delete(NS, 'rs', {}));
    expect(types(first.writes)).to.deep.equal(['PUT']);
    expect(meta(first.result.object as ReplicaSet)).to.deep.include({
      deletionTimestamp: at(2),
      deletionGracePeriodSeconds: 0,
      generation: 2,
    });
    s.clock.tick(10_000);
    expect(track(s.etcd, () => s.replicasets.delete(NS, 'rs', {})).writes).to.deep.equal([]);
  });

  it('R34 creating a pod whose name is held by a terminating pod is AlreadyExists "object is being deleted: …"', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', {});
    const { error } = trackError(s.etcd, () => createPod(s, 'web'));
    expect([error.code, error.reason, error.message]).to.deep.equal([
      409,
      'AlreadyExists',
      'object is being deleted: pods "web" already exists',
    ]);
  });

  it('R34 a live pod with the name gives plain AlreadyExists; CREATE drops client-supplied dT/dGP', () => {
    const s = withPod();
    expect(trackError(s.etcd, () => createPod(s, 'web')).error.message).to.equal('pods "web" already exists');
    const p = createPod(s, 'other', { metadata: { deletionTimestamp: at(5), deletionGracePeriodSeconds: 5 } });
    expect(p.metadata.deletionTimestamp).to.equal(undefined);
    expect(p.metadata.deletionGracePeriodSeconds).to.equal(undefined);
  });
});

describe('§F propagation policy and GC finalizers', () => {
  // [rule, finalizers before, options, finalizers after] for a pod deleted with its spec grace (it stays).
  const table: Array<[string, string[], DeleteOptions, string[]]> = [
    ['R35 R36 no policy, no GC finalizer: nothing changes', [], {}, []],
    ['R35 R38 Orphan installs "orphan"', [], { propagationPolicy: 'Orphan' }, ['orphan']],
    [
      'R36 R38 Foreground installs "foregroundDeletion"',
      [],
      { propagationPolicy: 'Foreground' },
      ['foregroundDeletion'],
    ],
    ['R38 Background strips both GC finalizers', ['orphan', X], { propagationPolicy: 'Background' }, [X]],
    [
      'R37 R38 Foreground replaces "orphan"; other finalizers keep their order',
      [X, 'orphan', Y],
      { propagationPolicy: 'Foreground' },
      [X, Y, 'foregroundDeletion'],
    ],
    [
      'R37 R38 Orphan replaces "foregroundDeletion"',
      ['foregroundDeletion', X],
      { propagationPolicy: 'Orphan' },
      [X, 'orphan'],
    ],
    ['R35 R38 orphanDependents=false strips "orphan"', ['orphan', X], { orphanDependents: false }, [X]],
    ['R35 orphanDependents=true installs "orphan"', [X], { orphanDependents: true }, [X, 'orphan']],
    [
      'R36 orphanDependents set (either value) means no foreground',
      [X, 'foregroundDeletion'],
      { orphanDependents: true },
      [X, 'orphan'],
    ],
    [
      'R35 R36 without options the existing GC finalizer decides',
      ['foregroundDeletion', X],
      {},
      ['foregroundDeletion', X],
    ],
    ['R37 an unchanged set keeps the old order', ['orphan', X], { propagationPolicy: 'Orphan' }, ['orphan', X]],
  ];
  for (const [name, before, options, after] of table) {
    it(name, () => {
      const s = withPod({ metadata: { finalizers: before } });
      const { result } = track(s.etcd, () => s.pods.delete(NS, 'web', options));
      expect(finalizersOf(result.object as Pod)).to.deep.equal(after);
    });
  }

  it('R38 a force delete with Background clears a stuck "foregroundDeletion" and removes the pod in the same request', () => {
    const s = withPod({ metadata: { finalizers: ['foregroundDeletion'] } });
    const { result, writes } = track(s.etcd, () =>
      s.pods.delete(NS, 'web', { gracePeriodSeconds: 0, propagationPolicy: 'Background' }),
    );
    expect(types(writes)).to.deep.equal(['PUT', 'DELETE']);
    expect(finalizersOf(writes[0].value)).to.deep.equal([]);
    expect(result.wasDeleted).to.equal(true);
  });

  it('R38 Foreground with g=0 installs "foregroundDeletion" and so keeps the pod', () => {
    expect(deletePod(withPod(), { gracePeriodSeconds: 0, propagationPolicy: 'Foreground' })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(2), dGP: 0 }),
    );
  });

  it('R25 R39 a pending DELETE ignores the propagation options', () => {
    const s = withPod({ metadata: { finalizers: [X] } });
    s.pods.delete(NS, 'web', {});
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { propagationPolicy: 'Orphan' }));
    expect(writes).to.deep.equal([]);
    expect(finalizersOf(result.object as Pod)).to.deep.equal([X]);
  });

  it('R39 R25 a shortening DELETE applies them', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    const { result, writes } = track(s.etcd, () =>
      s.pods.delete(NS, 'web', { gracePeriodSeconds: 10, propagationPolicy: 'Foreground' }),
    );
    expect(types(writes)).to.deep.equal(['PUT']);
    expect(finalizersOf(result.object as Pod)).to.deep.equal(['foregroundDeletion']);
  });

  it('R39 R25 a DELETE of a pod at {dT, dGP 0} (R19) applies them', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0, [X]);
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { propagationPolicy: 'Orphan' }));
    expect(types(writes)).to.deep.equal(['PUT']);
    expect(meta(result.object as Pod)).to.deep.include({
      finalizers: [X, 'orphan'],
      deletionTimestamp: at(0),
      deletionGracePeriodSeconds: 0,
    });
  });

  it("R39 the kubelet's final DELETE (g=0, UID, no policy) keeps existing GC finalizers, so the pod stays", () => {
    const s = withPod({ metadata: { finalizers: ['foregroundDeletion'] } });
    const uid = s.pods.delete(NS, 'web', {}).object as Pod;
    const o = deletePod(s, { gracePeriodSeconds: 0, preconditions: { uid: uid.metadata.uid } });
    expect(o).to.deep.equal(outcome({ writes: ['PUT'], dT: at(2), dGP: 0 }));
    expect(finalizersOf(stored(s.etcd, podKey('web')))).to.deep.equal(['foregroundDeletion']);
  });

  it('R40 a pod deleted with Foreground still gets dT = now + period and dGP = period', () => {
    expect(deletePod(withPod(), { propagationPolicy: 'Foreground' })).to.deep.equal(
      outcome({ writes: ['PUT'], dT: at(32), dGP: 30 }),
    );
  });

  describe('a ReplicaSet (no graceful deletion, default policy DeleteDependents)', () => {
    function withReplicaSet(finalizers: string[] = []): Storage {
      const s = newStorage();
      s.replicasets.create(
        { ...replicaSetManifest('rs'), metadata: { name: 'rs', namespace: NS, finalizers } },
        { uid: 'rs-1' },
      );
      s.clock.tick(2000);
      return s;
    }
    const rsKey = `/registry/replicasets/${NS}/rs`;

    it('R40 a DELETE without options removes it at once: one revision, no stamping write', () => {
      const s = withReplicaSet();
      const { result, writes } = track(s.etcd, () => s.replicasets.delete(NS, 'rs', { gracePeriodSeconds: 30 }));
      expect(types(writes)).to.deep.equal(['DELETE']);
      expect(result.wasDeleted).to.equal(true);
    });

    it('R36 R40 Foreground: "foregroundDeletion" with dT = now and dGP = 0 (markAsDeleting), it stays', () => {
      const s = withReplicaSet();
      const { writes } = track(s.etcd, () => s.replicasets.delete(NS, 'rs', { propagationPolicy: 'Foreground' }));
      expect(types(writes)).to.deep.equal(['PUT']);
      expect(meta(stored<ReplicaSet>(s.etcd, rsKey)!)).to.deep.include({
        finalizers: ['foregroundDeletion'],
        deletionTimestamp: at(2),
        deletionGracePeriodSeconds: 0,
        generation: 2,
      });
    });

    it('R35 Orphan installs "orphan"', () => {
      const s = withReplicaSet();
      s.replicasets.delete(NS, 'rs', { propagationPolicy: 'Orphan' });
      expect(finalizersOf(stored<ReplicaSet>(s.etcd, rsKey))).to.deep.equal(['orphan']);
    });

    it('R38 Background on an orphaning ReplicaSet strips "orphan" and removes it without writing the change', () => {
      const s = withReplicaSet();
      s.replicasets.delete(NS, 'rs', { propagationPolicy: 'Orphan' });
      const { writes } = track(s.etcd, () => s.replicasets.delete(NS, 'rs', { propagationPolicy: 'Background' }));
      expect(types(writes)).to.deep.equal(['DELETE']);
      expect(finalizersOf(writes[0].value)).to.deep.equal(['orphan']);
    });

    it('R35 with garbage collection disabled the propagation options are ignored', () => {
      const s = newStorage({ garbageCollection: false });
      s.replicasets.create({ ...replicaSetManifest('rs'), metadata: { name: 'rs', namespace: NS } }, { uid: 'rs-1' });
      expect(
        types(track(s.etcd, () => s.replicasets.delete(NS, 'rs', { propagationPolicy: 'Orphan' })).writes),
      ).to.deep.equal(['DELETE']);
      createPod(s, 'web');
      expect(finalizersOf(s.pods.delete(NS, 'web', { propagationPolicy: 'Foreground' }).object as Pod)).to.deep.equal(
        [],
      );
    });

    it('R35 R36 a resource whose GC policy is Unsupported never gets GC finalizers, and loses existing ones', () => {
      const s = newStorage();
      const strategy = genericStrategy<ReplicaSet>({
        kind: 'Thing',
        apiVersion: 'example.com/v1',
        resource: 'things',
        namespaced: true,
        gcPolicy: 'Unsupported',
      });
      const things = new Store<ReplicaSet>(s.etcd, s.clock, strategy);
      things.create({ metadata: { name: 't', namespace: NS, finalizers: ['orphan', X] } }, { uid: 't-1' });
      things.delete(NS, 't', { propagationPolicy: 'Orphan' });
      expect(finalizersOf(stored<ReplicaSet>(s.etcd, `/registry/things/${NS}/t`))).to.deep.equal([X]);
    });
  });
});

describe('§G preconditions', () => {
  it('R41 the early check runs before the pending no-op: a stale UID on a terminating pod is 409, nothing written', () => {
    const s = withPod();
    s.pods.delete(NS, 'web', {});
    const { error, writes } = trackError(s.etcd, () => s.pods.delete(NS, 'web', { preconditions: { uid: 'stale' } }));
    expect([error.code, error.reason]).to.deep.equal([409, 'Conflict']);
    expect(error.message).to.contain('the UID in the precondition (stale) does not match the UID in record');
    expect(error.status.details?.kind).to.equal('Pod');
    expect(writes).to.deep.equal([]);
  });

  it('R41 a stale resourceVersion precondition is 409 with the ResourceVersion wording', () => {
    const s = withPod();
    const { error } = trackError(s.etcd, () => s.pods.delete(NS, 'web', { preconditions: { resourceVersion: '1' } }));
    expect(error.message).to.contain(
      'the ResourceVersion in the precondition (1) does not match the ResourceVersion in record',
    );
  });

  it('R42 a concurrent write between the read and the update fails an RV precondition with the storage wording', () => {
    const s = withPod();
    const rv = rvOf(stored(s.etcd, podKey('web')))!;
    interleave(s.etcd, 'get', { nth: 2, key: podKey('web') }, () =>
      editRaw(s.etcd, podKey('web'), (p) => (p.metadata.labels = { c: 'd' })),
    );
    const { error, writes } = trackError(s.etcd, () =>
      s.pods.delete(NS, 'web', { preconditions: { resourceVersion: rv } }),
    );
    expect([error.code, error.reason]).to.deep.equal([409, 'Conflict']);
    expect(error.message).to.equal(
      `Operation cannot be fulfilled on pods "web": StorageError: invalid object, Code: 4, Key: ${podKey('web')}, ResourceVersion: 0, ` +
        `AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${Number(rv) + 1}`,
    );
    expect(error.status.details?.kind).to.equal('pods');
    expect(writes.length).to.equal(1); // only the concurrent writer's
  });

  it('R42 a pod deleted and recreated between the stamping write and the removal is not removed (UID re-checked)', () => {
    const s = withPod();
    const uid = meta(stored(s.etcd, podKey('web'))!).uid!;
    const key = podKey('web');
    interleave(s.etcd, 'get', { nth: 3, key }, () => {
      s.etcd.delete(key, s.etcd.get(key)!.modRevision);
      putRawPod(s.etcd, {
        metadata: { name: 'web', uid: 'new-uid' },
        spec: { nodeName: 'n1', containers: [{ name: 'app' }] },
      });
    });
    const { error } = trackError(s.etcd, () =>
      s.pods.delete(NS, 'web', { gracePeriodSeconds: 0, preconditions: { uid } }),
    );
    expect(error.code).to.equal(409);
    expect(error.message).to.contain(`Precondition failed: UID in precondition: ${uid}, UID in object meta: new-uid`);
    expect(meta(stored(s.etcd, key)!).uid).to.equal('new-uid');
  });

  it('R43 grace 0 with the correct RV precondition succeeds: the removal is conditioned on the RV just written', () => {
    const s = withPod();
    const rv = rvOf(stored(s.etcd, podKey('web')))!;
    expect(deletePod(s, { gracePeriodSeconds: 0, preconditions: { resourceVersion: rv } })).to.deep.equal(
      outcome({ writes: ['PUT', 'DELETE'], dT: at(2), dGP: 0 }),
    );
  });

  it('R44 a stale kubelet (old UID) cannot delete a recreated pod of the same name', () => {
    const s = withPod();
    const oldUid = meta(stored(s.etcd, podKey('web'))!).uid!;
    s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 });
    createPod(s, 'web');
    const { error, writes } = trackError(s.etcd, () =>
      s.pods.delete(NS, 'web', { gracePeriodSeconds: 0, preconditions: { uid: oldUid } }),
    );
    expect(error.code).to.equal(409);
    expect(error.message).to.contain('The object might have been deleted and then recreated');
    expect(writes).to.deep.equal([]);
  });
});

describe('§H dry run', () => {
  const DRY: DeleteOptions = { dryRun: ['All'] };

  it('R46 R45 a graceful dry run answers the would-be pod (dT, dGP, gen + 1, old RV), wasDeleted=false, and writes nothing', () => {
    const s = withPod();
    const before = stored(s.etcd, podKey('web'));
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', DRY));
    expect(writes).to.deep.equal([]);
    expect(result.wasDeleted).to.equal(false);
    expect(meta(result.object as Pod)).to.deep.include({
      deletionTimestamp: at(32),
      deletionGracePeriodSeconds: 30,
      generation: 2,
      resourceVersion: rvOf(before),
    });
    expect(stored(s.etcd, podKey('web'))).to.deep.equal(before);
  });

  it('R47 a dry run with period 0 answers the would-be stamped pod with wasDeleted=true; the pod still exists', () => {
    const s = withPod();
    const before = stored(s.etcd, podKey('web'));
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', { ...DRY, gracePeriodSeconds: 0 }));
    expect(writes).to.deep.equal([]);
    expect(result.wasDeleted).to.equal(true);
    expect(meta(result.object as Pod)).to.deep.include({
      deletionTimestamp: at(2),
      deletionGracePeriodSeconds: 0,
      resourceVersion: rvOf(before),
    });
    expect(stored(s.etcd, podKey('web'))).to.deep.equal(before);
  });

  it('R47 a dry run of a pod at {dT, dGP 0} simulates the removal: wasDeleted=true, nothing removed', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0);
    const { result, writes } = track(s.etcd, () => s.pods.delete(NS, 'web', DRY));
    expect([writes.length, result.wasDeleted, s.etcd.get(podKey('web')) !== undefined]).to.deep.equal([0, true, true]);
  });

  it('R45 a dry-run update that would delete-during-update removes nothing', () => {
    const s = withPod();
    stamp(s.etcd, 'web', at(0), 0, [X]);
    const { result, writes } = track(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } }), { dryRun: true }),
    );
    expect([writes.length, result.deletedDuringUpdate, s.etcd.get(podKey('web')) !== undefined]).to.deep.equal([
      0,
      true,
      true,
    ]);
  });

  it('R48 dry-run errors are real: 404 for a missing pod, 409 for a precondition, 422 for bad options', () => {
    const s = withPod();
    expect(trackError(s.etcd, () => s.pods.delete(NS, 'missing', DRY)).error.code).to.equal(404);
    expect(
      trackError(s.etcd, () => s.pods.delete(NS, 'web', { ...DRY, preconditions: { uid: 'x' } })).error.code,
    ).to.equal(409);
    expect(trackError(s.etcd, () => s.pods.delete(NS, 'web', { dryRun: ['Server'] })).error.code).to.equal(422);
  });
});

describe('§I/§J responses, revisions and writes', () => {
  it('R49 pending → the pod as read; deferred → the pod as written; removed → the last state with the deletion RV', () => {
    const s = withPod();
    const deferred = s.pods.delete(NS, 'web', {}).object as Pod;
    expect(deferred).to.deep.equal(stored(s.etcd, podKey('web')));
    const pendingAnswer = s.pods.delete(NS, 'web', {}).object as Pod;
    expect(pendingAnswer).to.deep.equal(deferred);
    const removed = s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 }).object as Pod;
    expect(removed.metadata.resourceVersion).to.equal(String(s.etcd.currentRevision));
  });

  it('R53 an update that changes nothing writes nothing and answers the stored object', () => {
    const s = withPod();
    const before = stored(s.etcd, podKey('web'))!;
    const { result, writes } = track(s.etcd, () => s.pods.update(NS, 'web', (p) => p));
    expect(writes).to.deep.equal([]);
    expect(result.object).to.deep.equal(before);
  });

  it('R53 setting finalizers to [] on a pod without finalizers is the same bytes: no write', () => {
    const s = withPod();
    expect(
      track(s.etcd, () => s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })))
        .writes,
    ).to.deep.equal([]);
  });

  it('R54 the stored deletionTimestamp is a whole second, and shortening works from it', () => {
    const s = newStorage();
    createPod(s);
    s.clock.tick(1900);
    expect(deletePod(s, {}).dT).to.equal(at(31));
    s.clock.tick(8000);
    // From the stored 00:00:31Z: 31 - 30 + 10 = 00:00:11Z, not 11.9 s (still after now, 9.9 s: no clamp).
    expect(deletePod(s, { gracePeriodSeconds: 10 })).to.deep.equal(outcome({ writes: ['PUT'], dT: at(11), dGP: 10 }));
    // Grace 0 would land on 00:00:01Z, before now: v1.33 stamps now, cut to its whole second (kubernetes#122646).
    expect(deletePod(s, { gracePeriodSeconds: 0 })).to.deep.equal(
      outcome({ writes: ['PUT', 'DELETE'], dT: at(9), dGP: 0 }),
    );
  });

  it('R55 writes per DELETE: pending 0, deferred 1, finalizer-blocked 1 (no-op 0), immediate 2, {dT, dGP 0} 1, delete-during-update 1', () => {
    const count = (s: Storage, fn: (s: Storage) => unknown) => track(s.etcd, () => fn(s)).writes.length;
    const graceful = withPod();
    expect(
      count(graceful, (s) => s.pods.delete(NS, 'web', {})),
      'deferred',
    ).to.equal(1);
    expect(
      count(graceful, (s) => s.pods.delete(NS, 'web', {})),
      'pending',
    ).to.equal(0);
    const blocked = withPod({ metadata: { finalizers: [X] } });
    expect(
      count(blocked, (s) => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 })),
      'finalizer-blocked',
    ).to.equal(1);
    expect(
      count(blocked, (s) => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 })),
      'blocked no-op',
    ).to.equal(0);
    expect(
      count(blocked, (s) => s.pods.update(NS, 'web', (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } }))),
      'delete-during-update',
    ).to.equal(1);
    expect(
      count(withPod(), (s) => s.pods.delete(NS, 'web', { gracePeriodSeconds: 0 })),
      'immediate',
    ).to.equal(2);
    const recovered = withPod();
    stamp(recovered.etcd, 'web', at(0), 0);
    expect(
      count(recovered, (s) => s.pods.delete(NS, 'web', {})),
      '{dT, dGP 0}',
    ).to.equal(1);
  });

  it('Store.Update with a stale resourceVersion is a 409 Conflict (optimistic lock)', () => {
    const s = withPod();
    const { error } = trackError(s.etcd, () =>
      s.pods.update(NS, 'web', (p) => ({
        ...p,
        metadata: { ...p.metadata, resourceVersion: '1', labels: { a: 'b' } },
      })),
    );
    expect(error.message).to.equal(
      'Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
});

describe('§L DeleteCollection (Store.DeleteCollection)', () => {
  function threePods(): Storage {
    const s = newStorage();
    createPod(s, 'a');
    createPod(s, 'b', { spec: { terminationGracePeriodSeconds: 5 } });
    createPod(s, 'c', { spec: { nodeName: undefined } });
    return s;
  }

  it('R61 each pod gets its own copy of the options: per-pod grace does not leak; the answer lists the items as they were', () => {
    const s = threePods();
    const items = s.pods.deleteCollection(NS, {}, () => true);
    expect(items.map((p) => [p.metadata.name, p.metadata.deletionTimestamp])).to.deep.equal([
      ['a', undefined],
      ['b', undefined],
      ['c', undefined],
    ]);
    expect(meta(stored(s.etcd, podKey('a'))!).deletionGracePeriodSeconds).to.equal(30);
    expect(meta(stored(s.etcd, podKey('b'))!).deletionGracePeriodSeconds).to.equal(5);
    expect(stored(s.etcd, podKey('c'))).to.equal(undefined);
  });

  it('R61 a pod that vanished meanwhile (NotFound) is skipped', () => {
    const s = threePods();
    interleave(s.etcd, 'get', { nth: 1, key: podKey('b') }, () =>
      s.etcd.delete(podKey('b'), s.etcd.get(podKey('b'))!.modRevision),
    );
    expect(s.pods.deleteCollection(NS, {}, () => true).length).to.equal(3);
    expect(meta(stored(s.etcd, podKey('a'))!).deletionGracePeriodSeconds).to.equal(30);
  });

  it('R61 the first other error stops it; earlier items stay deleted, later ones untouched', () => {
    const s = threePods();
    const uidA = meta(stored(s.etcd, podKey('a'))!).uid;
    const { error } = trackError(s.etcd, () =>
      s.pods.deleteCollection(NS, { preconditions: { uid: uidA } }, () => true),
    );
    expect(error.code).to.equal(409);
    expect(meta(stored(s.etcd, podKey('a'))!).deletionTimestamp).to.equal(at(30));
    expect(meta(stored(s.etcd, podKey('c'))!).deletionTimestamp).to.equal(undefined);
  });

  it('R61 invalid options are 422 before any pod is touched', () => {
    const s = threePods();
    const { error, writes } = trackError(s.etcd, () =>
      s.pods.deleteCollection(NS, { propagationPolicy: 'Sideways' }, () => true),
    );
    expect([error.code, writes.length]).to.deep.equal([422, 0]);
  });
});

describe('etcd keys', () => {
  it('are /registry/<resource>/<namespace>/<name>, or without the namespace for cluster-scoped kinds; a name in two namespaces has two keys', () => {
    const s = newStorage();
    expect(s.pods.key(NS, 'web')).to.equal(`/registry/pods/${NS}/web`);
    expect(s.pods.key('other', 'web')).to.equal('/registry/pods/other/web');
    expect(s.pods.key(NS, 'web')).to.equal(`/registry/pods/${NS}/web`);
    expect(s.pods.key(NS, 'web2')).to.equal(`/registry/pods/${NS}/web2`);
    const nodes = new Store(
      s.etcd,
      s.clock,
      genericStrategy({ kind: 'Node', apiVersion: 'v1', resource: 'nodes', etcdPrefix: 'minions', namespaced: false }),
    );
    expect(nodes.key(undefined, 'n1')).to.equal('/registry/minions/n1');
  });
});

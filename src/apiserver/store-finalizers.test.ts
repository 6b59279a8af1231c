import { describe, it } from 'node:test';
import { expect } from 'chai';

import { genericStrategy } from './generic-strategy';

import { podStatusStrategy } from './pod-strategy';
import { Store } from './store';
import {
  at,
  createPod,
  interleave,
  meta,
  newStorage,
  NS,
  podKey,
  replicaSetManifest,
  stamp,
  stored,
  track,
  trackError,
  types,
  type Storage,
} from './testing';
import type { DeleteOptions, Pod, ReplicaSet } from '../apimachinery/types';

import { X, Y, deletePod, outcome, withPod, finalizersOf } from './store-testing';

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

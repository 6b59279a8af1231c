import { describe, it } from 'node:test';
import { expect } from 'chai';

import { genericStrategy } from './generic-strategy';

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
  stamp,
  stored,
  track,
  trackError,
  type Storage,
} from './testing';
import type { DeleteOptions, Pod } from '../apimachinery/types';

import { X, deletePod, outcome, withPod, rvOf } from './store-testing';

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

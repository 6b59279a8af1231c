import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { Etcd, EtcdConflict, KeyIndex, type EtcdEvent } from './etcd';

function fresh(recorded?: (key: string) => boolean): { etcd: Etcd; timeline: Timeline; clock: Clock } {
  const clock = new Clock();
  const timeline = new Timeline(clock);
  return { etcd: new Etcd(timeline, () => clock.now(), recorded), timeline, clock };
}

function obj(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name }, ...extra };
}

function rv(v: unknown): string | undefined {
  return (v as { metadata: { resourceVersion?: string } }).metadata.resourceVersion;
}

const A = '/registry/pods/default/a';
const B = '/registry/replicasets/default/b';

describe('Etcd revisions', () => {
  it('R52 one revision counter for all keys: every create, update and delete takes the next revision', () => {
    const { etcd } = fresh();
    const start = etcd.currentRevision;
    etcd.create(A, obj('a'));
    etcd.create(B, obj('b'));
    etcd.update(A, obj('a', { x: 1 }), start + 1);
    etcd.delete(B, start + 2);
    expect(etcd.fullHistory().map((e) => [e.type, e.key, e.revision])).to.deep.equal([
      ['PUT', A, start + 1],
      ['PUT', B, start + 2],
      ['PUT', A, start + 3],
      ['DELETE', B, start + 4],
    ]);
    expect(etcd.currentRevision).to.equal(start + 4);
  });

  it("R52 an object's resourceVersion is the revision of its last write", () => {
    const { etcd } = fresh();
    etcd.create(B, obj('b'));
    const created = etcd.create(A, obj('a'));
    const updated = etcd.update(A, obj('a', { x: 1 }), Number(rv(created)));
    expect(rv(created)).to.equal(String(etcd.currentRevision - 1));
    expect(rv(updated)).to.equal(String(etcd.currentRevision));
    expect(etcd.get(A)!.modRevision).to.equal(etcd.currentRevision);
  });

  it('R15 a delete returns the last stored state with the deletion revision as resourceVersion', () => {
    const { etcd } = fresh();
    const created = etcd.create(A, obj('a', { spec: { x: 1 } }));
    const deleted = etcd.delete(A, Number(rv(created)));
    expect(deleted).to.deep.equal({
      metadata: { name: 'a', resourceVersion: String(Number(rv(created)) + 1) },
      spec: { x: 1 },
    });
    expect(etcd.get(A)).to.equal(undefined);
  });

  it('R57 the DELETE history event carries the last state with the deletion revision, and the previous value', () => {
    const { etcd } = fresh();
    const created = etcd.create(A, obj('a'));
    etcd.delete(A, Number(rv(created)));
    const e = etcd.fullHistory().at(-1)!;
    expect(e.type).to.equal('DELETE');
    expect(rv(e.value)).to.equal(String(e.revision));
    expect(rv(e.prev)).to.equal(rv(created));
    expect(e.revision).to.be.greaterThan(Number(rv(created)));
  });

  it('R13 update and delete are compare-and-swap on the modRevision (a stale revision is a conflict)', () => {
    const { etcd } = fresh();
    const created = etcd.create(A, obj('a'));
    etcd.update(A, obj('a', { x: 1 }), Number(rv(created)));
    expect(() => etcd.update(A, obj('a', { x: 2 }), Number(rv(created)))).to.throw(EtcdConflict);
    expect(() => etcd.delete(A, Number(rv(created)))).to.throw(EtcdConflict);
    expect(() => etcd.create(A, obj('a'))).to.throw(EtcdConflict);
    expect(() => etcd.update('/registry/pods/default/none', obj('none'), 0)).to.throw(EtcdConflict);
  });
});

describe('Etcd history and listeners', () => {
  it('historySince replays every change after a revision, across keys', () => {
    const { etcd } = fresh();
    etcd.create(A, obj('a'));
    const mid = etcd.currentRevision;
    etcd.create(B, obj('b'));
    etcd.delete(A, mid);
    expect(etcd.historySince(mid).map((e) => e.revision)).to.deep.equal([mid + 1, mid + 2]);
    expect(etcd.historySince(1).length).to.equal(3);
  });

  it('keyHistory lists the changes of one key, oldest first', () => {
    const { etcd } = fresh();
    const c = etcd.create(A, obj('a'));
    etcd.create(B, obj('b'));
    etcd.update(A, obj('a', { x: 1 }), Number(rv(c)));
    expect(etcd.keyHistory(A).map((e) => e.type)).to.deep.equal(['PUT', 'PUT']);
  });

  it('revisionAt finds the revision current at a virtual time', () => {
    const { etcd, clock } = fresh();
    const t0 = clock.now();
    etcd.create(A, obj('a'));
    clock.tick(1000);
    etcd.create(B, obj('b'));
    expect(etcd.revisionAt(t0 - 1)).to.equal(1);
    expect(etcd.revisionAt(t0 + 500)).to.equal(2);
    expect(etcd.revisionAt(t0 + 1000)).to.equal(3);
  });

  it('listeners see each change synchronously, in revision order', () => {
    const { etcd } = fresh();
    const seen: EtcdEvent[] = [];
    const unsubscribe = etcd.subscribe((e) => seen.push(e));
    etcd.create(A, obj('a'));
    unsubscribe();
    etcd.create(B, obj('b'));
    expect(seen.map((e) => e.key)).to.deep.equal([A]);
  });

  it('stored values are frozen: nobody can change history behind the store', () => {
    const { etcd } = fresh();
    const v = etcd.create(A, obj('a', { spec: { x: 1 } })) as { spec: { x: number } };
    expect(() => {
      v.spec.x = 2;
    }).to.throw(TypeError);
  });

  it('list returns values under a prefix in key order', () => {
    const { etcd } = fresh();
    etcd.create('/registry/pods/default/b', obj('b'));
    etcd.create('/registry/pods/default/a', obj('a'));
    etcd.create('/registry/pods/other/c', obj('c'));
    expect(etcd.list('/registry/pods/default/').map((v) => (v.metadata as { name: string }).name)).to.deep.equal([
      'a',
      'b',
    ]);
  });

  it('list keeps key order through deletions and re-creations between reads', () => {
    const { etcd } = fresh();
    const names = ['d', 'b', 'e', 'a', 'c'];
    const rvs = new Map(names.map((n) => [n, Number(rv(etcd.create(`/registry/pods/default/${n}`, obj(n))))]));
    const listed = () => etcd.list('/registry/pods/').map((v) => (v.metadata as { name: string }).name);
    expect(listed()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    etcd.delete('/registry/pods/default/b', rvs.get('b')!);
    etcd.create('/registry/pods/default/b', obj('b'));
    const f = etcd.create('/registry/pods/default/f', obj('f'));
    etcd.delete('/registry/pods/default/f', Number(rv(f)));
    etcd.delete('/registry/pods/default/d', rvs.get('d')!);
    etcd.create('/registry/replicasets/default/a', obj('a'));
    expect(listed()).to.deep.equal(['a', 'b', 'c', 'e']);
    expect(etcd.listEntries('/registry/').map(([k]) => k)).to.deep.equal([
      '/registry/pods/default/a',
      '/registry/pods/default/b',
      '/registry/pods/default/c',
      '/registry/pods/default/e',
      '/registry/replicasets/default/a',
    ]);
  });

  it('change(revision) is the history entry written at that revision', () => {
    const { etcd } = fresh();
    const c = etcd.create(A, obj('a'));
    const u = etcd.update(A, obj('a', { x: 1 }), Number(rv(c)));
    const e = etcd.change(Number(rv(u)))!;
    expect([e.type, e.key, e.value, e.prev]).to.deep.equal(['PUT', A, u, c]);
    expect(etcd.change(Number(rv(c)))!.prev).to.equal(undefined);
    expect(etcd.change(1)).to.equal(undefined);
    expect(etcd.change(etcd.currentRevision + 1)).to.equal(undefined);
  });

  it('writes appear on the etcd lane as PUT/DELETE with the key, with a JSON patch for updates; unrecorded keys stay off it', () => {
    const { etcd, timeline } = fresh((k) => !k.startsWith('/registry/events/'));
    const c = etcd.create(A, obj('a'));
    etcd.update(A, obj('a', { x: 1 }), Number(rv(c)));
    etcd.create('/registry/events/default/e', obj('e'));
    etcd.delete(A, Number(rv(c)) + 1);
    const rows = timeline.all().map((e) => [e.component, e.text.split(' rev=')[0]]);
    expect(rows).to.deep.equal([
      ['etcd', `PUT ${A}`],
      ['etcd', `PUT ${A}`],
      ['etcd', `DELETE ${A}`],
    ]);
    expect(timeline.all()[1].patch).to.deep.equal([{ op: 'add', path: '/x', value: 1 }]);
  });
});

describe('KeyIndex', () => {
  it('a write and a read cost O(log keys), not a pass over every key', () => {
    let comparisons = 0;
    const index = new KeyIndex((a, b) => {
      comparisons += 1;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    const n = 20000;
    for (let i = 0; i < n; i++) index.add(`/registry/pods/default/pod-${i}`);
    index.add('/registry/poddisruptionbudgets/default/budget');
    expect(comparisons).to.be.below(n * Math.log2(n) * 1.5);
    // A pod created and one deleted between reads of another resource, as each eviction does.
    const before = comparisons;
    const rounds = 500;
    for (let i = 0; i < rounds; i++) {
      index.add(`/registry/pods/default/new-${i}`);
      index.remove(`/registry/pods/default/pod-${i}`);
      expect(index.range('/registry/poddisruptionbudgets/default/')).to.deep.equal([
        '/registry/poddisruptionbudgets/default/budget',
      ]);
    }
    expect(index.range('/registry/pods/default/')).to.have.length(n);
    const perRound = (comparisons - before) / rounds;
    expect(perRound).to.be.below(6 * Math.log2(n) * 4);
  });

  it('range walks only the keys under the prefix', () => {
    const index = new KeyIndex();
    for (const k of ['/registry/pods/b', '/registry/minions/n', '/registry/pods/a', '/registry/podsx/c']) index.add(k);
    expect(index.range('/registry/pods/')).to.deep.equal(['/registry/pods/a', '/registry/pods/b']);
    expect(index.range('/registry/none/')).to.deep.equal([]);
    index.remove('/registry/pods/a');
    expect(index.range('/registry/pods/')).to.deep.equal(['/registry/pods/b']);
    expect(index.range('')).to.deep.equal(['/registry/minions/n', '/registry/pods/b', '/registry/podsx/c']);
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import type { EtcdEvent, StoredObject } from './etcd';
import type { KubeObject } from '../apimachinery/object';
import { toWatchEvent, Watch, type WatchEvent, type WatchFilter } from './watch';

const KEY = '/registry/pods/default/web';
const ALL: WatchFilter = { prefix: '/registry/pods/default/' };
/** A field-selector-like filter: pods bound to node n1. */
const ON_N1: WatchFilter = {
  prefix: '/registry/pods/',
  matches: (o) => (o as { spec?: { nodeName?: string } }).spec?.nodeName === 'n1',
};

function pod(rv: number, nodeName?: string, extra: Record<string, unknown> = {}): StoredObject {
  return { metadata: { name: 'web', resourceVersion: String(rv), ...extra }, spec: { nodeName } };
}

function put(revision: number, value: StoredObject, prev?: StoredObject): EtcdEvent {
  return { revision, type: 'PUT', key: KEY, value, prev, requestId: 1, at: 0 };
}

function del(revision: number, prev: StoredObject): EtcdEvent {
  const value = { ...prev, metadata: { ...(prev.metadata as object), resourceVersion: String(revision) } };
  return { revision, type: 'DELETE', key: KEY, value, prev, requestId: 1, at: 0 };
}

function summary(e: WatchEvent | undefined): [string, string | undefined, string | undefined] | undefined {
  return (
    e && [
      e.type,
      e.object.metadata.resourceVersion,
      (e.object as KubeObject & { spec?: { nodeName?: string } }).spec?.nodeName,
    ]
  );
}

describe('toWatchEvent (etcd3 watcher transform, cacher filtering)', () => {
  it('R56 a create is ADDED, an update MODIFIED, a removal DELETED', () => {
    expect(summary(toWatchEvent(put(2, pod(2, 'n1')), ALL))).to.deep.equal(['ADDED', '2', 'n1']);
    expect(summary(toWatchEvent(put(3, pod(3, 'n1'), pod(2, 'n1')), ALL))).to.deep.equal(['MODIFIED', '3', 'n1']);
    expect(summary(toWatchEvent(del(4, pod(3, 'n1')), ALL))).to.deep.equal(['DELETED', '4', 'n1']);
  });

  it('R57 DELETED carries the last stored state with the deletion revision', () => {
    const last = pod(3, 'n1', { deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 });
    const e = toWatchEvent(del(4, last), ALL)!;
    expect(e.object.metadata).to.deep.equal({
      name: 'web',
      resourceVersion: '4',
      deletionTimestamp: '2025-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
    });
  });

  it('R58 an update that makes the object start matching is ADDED with the new state', () => {
    expect(summary(toWatchEvent(put(3, pod(3, 'n1'), pod(2, undefined)), ON_N1))).to.deep.equal(['ADDED', '3', 'n1']);
  });

  it("R58 an update that makes the object stop matching is DELETED with the previous state and the update's revision", () => {
    expect(summary(toWatchEvent(put(3, pod(3, 'n2'), pod(2, 'n1')), ON_N1))).to.deep.equal(['DELETED', '3', 'n1']);
  });

  it('R58 changes of objects that match neither before nor after are not delivered', () => {
    expect(toWatchEvent(put(3, pod(3, 'n2'), pod(2, 'n2')), ON_N1)).to.equal(undefined);
    expect(toWatchEvent(put(2, pod(2, 'n2')), ON_N1)).to.equal(undefined);
    expect(toWatchEvent(del(4, pod(3, 'n2')), ON_N1)).to.equal(undefined);
  });

  it('R58 a removal is delivered when the last state matched', () => {
    expect(summary(toWatchEvent(del(4, pod(3, 'n1')), ON_N1))).to.deep.equal(['DELETED', '4', 'n1']);
  });

  it('keys outside the watched prefix are ignored', () => {
    expect(toWatchEvent({ ...put(2, pod(2, 'n1')), key: '/registry/pods/other/web' }, ALL)).to.equal(undefined);
  });
});

describe('Watch delivery', () => {
  function open(latencyMs: number): { clock: Clock; got: WatchEvent[]; w: Watch; unsubscribed: () => boolean } {
    const clock = new Clock();
    const got: WatchEvent[] = [];
    let unsubscribed = false;
    const w = new Watch(
      clock,
      latencyMs,
      ALL,
      (e) => got.push(e),
      () => (unsubscribed = true),
    );
    return { clock, got, w, unsubscribed: () => unsubscribed };
  }

  it('events arrive after the watch latency, in revision order', () => {
    const { clock, got, w } = open(100);
    w.offer(put(2, pod(2, 'n1')));
    w.offer(put(3, pod(3, 'n1'), pod(2, 'n1')));
    clock.tick(99);
    expect(got).to.deep.equal([]);
    clock.tick(1);
    expect(got.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED']);
  });

  it('with latency 0 delivery still waits for the clock (tick(0)), never inside the write', () => {
    const { clock, got, w } = open(0);
    w.offer(put(2, pod(2, 'n1')));
    expect(got.length).to.equal(0);
    clock.tick(0);
    expect(got.length).to.equal(1);
  });

  it('a stopped watch delivers nothing more and unsubscribes', () => {
    const { clock, got, w, unsubscribed } = open(10);
    w.offer(put(2, pod(2, 'n1')));
    w.stop();
    w.offer(put(3, pod(3, 'n1'), pod(2, 'n1')));
    clock.tick(100);
    expect(got).to.deep.equal([]);
    expect(unsubscribed()).to.equal(true);
    expect(w.isStopped).to.equal(true);
  });

  it('deliveries are the frozen stored versions: a handler cannot change stored state', () => {
    const { clock, got, w } = open(0);
    const value = Object.freeze({ ...pod(2, 'n1'), metadata: Object.freeze({ ...(pod(2, 'n1').metadata as object) }) });
    w.offer(put(2, value));
    clock.tick(0);
    expect(() => {
      (got[0].object.metadata as { name: string }).name = 'changed';
    }).to.throw(TypeError);
    expect((value.metadata as { name: string }).name).to.equal('web');
  });
});

describe('Watch delivery cost', () => {
  it('a burst of events to one watch shifts no queue (Array.shift copies the whole array past ≈ 16 k entries)', () => {
    const clock = new Clock();
    const got: WatchEvent[] = [];
    const w = new Watch(
      clock,
      0,
      ALL,
      (e) => got.push(e),
      () => undefined,
    );
    const events = Array.from({ length: 20_000 }, (_, i) => put(i + 3, pod(i + 3, 'n1'), pod(i + 2, 'n1')));
    // Counting calls is exact where a timing would depend on the machine: a queue shifted per
    // delivery made a 200 000-event burst take 20 s instead of 0.6 s.
    const shift = Array.prototype.shift;
    let shifts = 0;
    Array.prototype.shift = function (this: unknown[]) {
      shifts += 1;
      return shift.call(this);
    };
    try {
      for (const e of events) w.offer(e);
      clock.tick(0);
    } finally {
      Array.prototype.shift = shift;
    }
    expect(got.map((e) => e.object.metadata.resourceVersion)).to.deep.equal(events.map((e) => String(e.revision)));
    expect(shifts).to.be.below(100);
  });
});

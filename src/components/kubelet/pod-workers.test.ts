import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../../apimachinery/types';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { DEFAULT_RELEASE, Release } from '../../foundation/release';
import { calculateEffectiveGracePeriod, PodWorkers, type PodSyncer, type UpdatePodOptions } from './pod-workers';
import { Ticker } from './ticker';

type Fn = 'syncPod' | 'syncTerminatingPod' | 'syncTerminatingRuntimePod' | 'syncTerminatedPod';

interface Call {
  fn: Fn;
  /** Seconds since the clock's start. */
  at: number;
  pod: Pod;
  grace?: number;
  done: (err?: string, isTerminal?: boolean) => void;
}

/**
 * Pod workers on a fresh clock with a 1 s PLEG and sync ticker and a scripted syncer: every call
 * is recorded; with `auto` it completes at once (an error for the fns listed in `fail`, once each),
 * otherwise the test ends it with `finish`.
 */
function harness(o: { auto?: boolean; podCacheTerminal?: (uid: string) => boolean } = {}) {
  const clock = new Clock();
  const start = clock.now();
  const timeline = new Timeline(clock);
  const pleg = new Ticker(clock, 1000);
  const syncTicker = new Ticker(clock, 1000);
  const calls: Call[] = [];
  const failOnce = new Set<Fn>();
  const record = (fn: Fn, pod: Pod, done: Call['done'], grace?: number) => {
    const call: Call = { fn, at: (clock.now() - start) / 1000, pod, grace, done };
    calls.push(call);
    if (o.auto ?? true) {
      const err = failOnce.delete(fn) ? `${fn} failed` : undefined;
      done(err);
    }
  };
  const syncer: PodSyncer = {
    syncPod: (pod, done) => record('syncPod', pod, done),
    syncTerminatingPod: (pod, grace, done) => record('syncTerminatingPod', pod, done, grace),
    syncTerminatingRuntimePod: (pod, done) => record('syncTerminatingRuntimePod', pod, done),
    syncTerminatedPod: (pod, done) => record('syncTerminatedPod', pod, done),
  };
  const workers = new PodWorkers(
    clock,
    timeline,
    'n1',
    { backOffPeriodMs: 10_000, resyncIntervalMs: 60_000, release: DEFAULT_RELEASE },
    syncer,
    (t, ready) => pleg.afterTickNewerThan(t, ready),
    (t, fn) => syncTicker.atTickFrom(t, fn),
    o.podCacheTerminal,
  );
  return {
    clock,
    timeline,
    workers,
    calls,
    failOnce,
    /** Calls so far as [fn, seconds]. */
    seen: () => calls.map((c) => [c.fn, c.at] as const),
    advance: (ms: number) => clock.tick(ms),
    update: (u: Omit<UpdatePodOptions, 'pod'> & { pod?: Pod }) => workers.updatePod({ pod: pod(), ...u }),
  };
}

/** Pod `web` (uid u1), spec grace 30 unless overridden. */
function pod(
  meta: Partial<Pod['metadata']> = {},
  spec: Partial<NonNullable<Pod['spec']>> = {},
  phase = 'Running',
): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', ...meta },
    spec: { nodeName: 'n1', terminationGracePeriodSeconds: 30, containers: [{ name: 'app' }], ...spec },
    status: { phase },
  };
}
const deleted = (dGP = 30) => pod({ deletionTimestamp: '2025-01-01T00:01:00Z', deletionGracePeriodSeconds: dGP });

describe('pod worker states (K14)', () => {
  it('K14 sync → terminating → terminated → finished, each step once; a finished worker ignores updates until SyncKnownPods forgets its uid', () => {
    const h = harness();
    h.update({ updateType: 'create' });
    h.advance(500);
    h.update({ updateType: 'update', pod: deleted() });
    h.advance(10_000);
    expect(h.seen()).to.deep.equal([
      ['syncPod', 0],
      ['syncTerminatingPod', 1],
      ['syncTerminatedPod', 2],
    ]);
    const s = h.workers.status('u1')!;
    expect([s.workType, s.finished, s.terminatedAt! - s.terminatingAt!]).to.deep.equal(['terminated', true, 500]);
    h.update({ updateType: 'update', pod: deleted(0) });
    h.update({ updateType: 'kill' });
    h.workers.syncKnownPods(new Set(['u1']));
    h.update({ updateType: 'sync' });
    h.advance(10_000);
    expect(h.calls).to.have.length(3);
    // Once housekeeping forgets the uid (not in config), the uid is new again.
    expect([...h.workers.syncKnownPods(new Set()).keys()]).to.deep.equal([]);
    h.update({ updateType: 'create' });
    expect(h.calls.at(-1)?.fn).to.equal('syncPod');
  });
});

describe('what starts termination (K15)', () => {
  it('K15 a deletionTimestamp starts termination and marks the pod deleted; terminatingAt is now; it never goes back to sync', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create' });
    h.calls[0].done();
    h.advance(2500);
    h.update({ updateType: 'update', pod: deleted() });
    const s = h.workers.status('u1')!;
    expect([s.workType, s.deleted, s.evicted, s.terminatingAt! - h.clock.now()]).to.deep.equal([
      'terminating',
      true,
      false,
      0,
    ]);
    h.update({ updateType: 'sync', pod: pod() });
    expect(s.workType).to.equal('terminating');
  });

  it('K15 a terminal phase starts termination without marking the pod deleted', () => {
    const h = harness();
    h.update({ updateType: 'create' });
    h.update({ updateType: 'update', pod: pod({}, {}, 'Failed') });
    const s = h.workers.status('u1')!;
    expect([s.workType, s.deleted]).to.deep.equal(['terminating', false]);
  });

  it('K15 a kill marks the pod evicted only when the options say so; a REMOVE-driven kill sets neither flag until housekeeping (K43)', () => {
    const h = harness();
    h.update({ updateType: 'create', pod: pod({ uid: 'evicted' }) });
    h.update({ updateType: 'kill', pod: pod({ uid: 'evicted' }), killPodOptions: { evict: true } });
    h.update({ updateType: 'create' });
    h.update({ updateType: 'kill' });
    const flags = (uid: string) => [
      h.workers.status(uid)?.workType,
      h.workers.status(uid)?.evicted,
      h.workers.status(uid)?.deleted,
    ];
    expect(flags('evicted')).to.deep.equal(['terminating', true, false]);
    expect(flags('u1')).to.deep.equal(['terminating', false, false]);
    h.workers.syncKnownPods(new Set(['evicted']));
    expect(flags('u1')).to.deep.equal(['terminating', false, true]);
  });

  it('K15 a runtime-only kill (an orphan without config) marks the pod deleted', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'kill', runningPod: true, killPodOptions: { gracePeriodOverride: 1 } });
    expect(h.workers.status('u1')).to.include({ workType: 'terminating', deleted: true, observedRuntime: true });
  });
});

describe('effective grace period (K16)', () => {
  const grace = (current: number, p: Pod, override?: number) =>
    calculateEffectiveGracePeriod(
      { gracePeriod: current },
      p,
      override === undefined ? undefined : { gracePeriodOverride: override },
    );

  it('K16 nothing set: the spec grace; API grace 0 or override 0: 1 s (never 0, never the spec)', () => {
    expect(grace(0, pod())).to.deep.equal({ gracePeriod: 30, shortened: false });
    expect(grace(0, deleted(0))).to.deep.equal({ gracePeriod: 1, shortened: false });
    expect(grace(0, pod(), 0)).to.deep.equal({ gracePeriod: 1, shortened: false });
    expect(grace(0, pod({}, { terminationGracePeriodSeconds: undefined }))).to.deep.equal({
      gracePeriod: 1,
      shortened: false,
    });
  });

  it('V22 K16 before v1.31 an explicit 0 (force delete, hard eviction override) fell back to the spec grace; from v1.31 it is 1 s (#124063)', () => {
    const v130 = Release.of(30);
    const v131 = Release.of(31);
    expect(calculateEffectiveGracePeriod({ gracePeriod: 0 }, deleted(0), undefined, v130).gracePeriod).to.equal(30);
    expect(
      calculateEffectiveGracePeriod({ gracePeriod: 0 }, pod(), { gracePeriodOverride: 0 }, v130).gracePeriod,
    ).to.equal(30);
    expect(calculateEffectiveGracePeriod({ gracePeriod: 0 }, deleted(0), undefined, v131).gracePeriod).to.equal(1);
    expect(
      calculateEffectiveGracePeriod({ gracePeriod: 0 }, pod(), { gracePeriodOverride: 0 }, v131).gracePeriod,
    ).to.equal(1);
    // A non-zero value is used as it is on both sides.
    expect(calculateEffectiveGracePeriod({ gracePeriod: 0 }, deleted(5), undefined, v130).gracePeriod).to.equal(5);
  });

  it('K16 the smallest of current, deletionGracePeriodSeconds and the override wins; the value only goes down; "shortened" only when a non-zero value changes', () => {
    expect(grace(0, deleted(20), 10)).to.deep.equal({ gracePeriod: 10, shortened: false });
    expect(grace(0, deleted(10), 20)).to.deep.equal({ gracePeriod: 10, shortened: false });
    expect(grace(30, deleted(5))).to.deep.equal({ gracePeriod: 5, shortened: true });
    expect(grace(10, deleted(20))).to.deep.equal({ gracePeriod: 10, shortened: false });
    expect(grace(10, pod(), 60)).to.deep.equal({ gracePeriod: 10, shortened: false });
    expect(grace(10, pod())).to.deep.equal({ gracePeriod: 10, shortened: false });
  });
});

describe('updates while terminating (K17, K20)', () => {
  it('K17 every update while terminating is a kill carrying the recomputed grace: a plain sync keeps 30, a shorter deletion grace gives 10', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'update', pod: deleted(30) });
    h.advance(0);
    expect(h.calls.map((c) => [c.fn, c.grace])).to.deep.equal([['syncTerminatingPod', 30]]);
    h.update({ updateType: 'sync', pod: deleted(30) });
    expect(h.workers.status('u1')?.pendingUpdate?.killPodOptions).to.deep.equal({ gracePeriodOverride: 30 });
    h.update({ updateType: 'update', pod: deleted(10) });
    expect(h.workers.status('u1')?.pendingUpdate?.killPodOptions).to.deep.equal({ gracePeriodOverride: 10 });
    h.update({ updateType: 'sync', pod: deleted(30) });
    expect(h.workers.status('u1')?.pendingUpdate?.killPodOptions).to.deep.equal({ gracePeriodOverride: 10 });
  });

  it('K20 a shorter grace does not interrupt the running kill: when it succeeds the pod is terminated and the shorter value is never used', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'update', pod: deleted(30) });
    h.advance(10_000);
    h.update({ updateType: 'update', pod: deleted(5) });
    expect(h.timeline.all().some((e) => e.text.startsWith('grace shortened pods/web to 5s'))).to.equal(true);
    h.advance(20_000);
    h.calls[0].done();
    h.advance(5000);
    h.calls[1].done();
    expect(h.calls.map((c) => [c.fn, c.grace ?? null, c.at])).to.deep.equal([
      ['syncTerminatingPod', 30, 0],
      ['syncTerminatedPod', null, 31],
    ]);
  });

  it('K20 only a retry after a failed kill uses the shorter grace (the wait starts from zero)', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'update', pod: deleted(30) });
    h.advance(10_000);
    h.update({ updateType: 'update', pod: deleted(5) });
    h.advance(20_000);
    h.calls[0].done('CRI violation');
    h.advance(1000);
    expect(h.calls.map((c) => [c.fn, c.grace, c.at])).to.deep.equal([
      ['syncTerminatingPod', 30, 0],
      ['syncTerminatingPod', 5, 31],
    ]);
  });
});

describe('worker loop timing (K18, K19)', () => {
  it('K18 each call waits for a PLEG relist newer than the end of the previous call; phase transitions are queued at once', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create' });
    h.advance(300);
    h.calls[0].done();
    h.advance(100);
    h.update({ updateType: 'update', pod: deleted() });
    h.advance(2000);
    h.calls[1].done();
    h.advance(1500);
    h.calls[2].done();
    expect(h.seen()).to.deep.equal([
      ['syncPod', 0],
      ['syncTerminatingPod', 1],
      ['syncTerminatedPod', 3],
    ]);
    expect(h.workers.status('u1')?.finished).to.equal(true);
  });

  it('K18 a pod that completes by itself (SyncPod says terminal) goes on to SyncTerminatingPod without a new update', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create' });
    h.calls[0].done(undefined, true);
    h.advance(1000);
    h.calls[1].done();
    h.advance(5000);
    expect(h.seen()).to.deep.equal([
      ['syncPod', 0],
      ['syncTerminatingPod', 1],
      ['syncTerminatedPod', 2],
    ]);
    // The replayed update carries no override: the runtime uses the pod's own grace.
    expect(h.calls[1].grace).to.equal(undefined);
  });

  it("K19 an error is retried after the back-off (10 s) at a sync tick, through the kubelet's work queue (onWorkDue); a queued update runs at once instead", () => {
    const h = harness();
    h.failOnce.add('syncTerminatingPod');
    h.update({ updateType: 'update', pod: deleted() });
    h.advance(30_000);
    expect(h.seen()).to.deep.equal([
      ['syncTerminatingPod', 0],
      ['syncTerminatingPod', 10],
      ['syncTerminatedPod', 11],
    ]);

    const q = harness({ auto: false });
    q.update({ updateType: 'update', pod: deleted() });
    q.advance(2000);
    q.update({ updateType: 'sync', pod: deleted() });
    q.calls[0].done('failed');
    q.advance(1000);
    expect(q.seen()).to.deep.equal([
      ['syncTerminatingPod', 0],
      ['syncTerminatingPod', 3],
    ]);
  });

  it('K19 a pod the work queue does not hand back (no longer in the pod manager) is not retried by the worker itself', () => {
    const h = harness();
    h.workers.onWorkDue = () => undefined;
    h.failOnce.add('syncTerminatedPod');
    h.update({ updateType: 'update', pod: deleted() });
    h.advance(60_000);
    expect(h.seen()).to.deep.equal([
      ['syncTerminatingPod', 0],
      ['syncTerminatedPod', 1],
    ]);
  });
});

describe('first sight and re-creation (K21, K22)', () => {
  it('K21 a pod first seen Failed with nothing running starts as terminated: only SyncTerminatedPod runs, and it is known terminated at once', () => {
    const h = harness({ podCacheTerminal: () => true });
    const terminated: string[] = [];
    h.workers.onTerminated = (s) => terminated.push(s.uid);
    h.update({
      updateType: 'create',
      pod: pod({ deletionTimestamp: '2025-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 }, {}, 'Failed'),
    });
    expect([
      h.workers.isPodKnownTerminated('u1'),
      h.workers.couldHaveRunningContainers('u1'),
      terminated,
    ]).to.deep.equal([true, false, ['u1']]);
    h.advance(5000);
    expect(h.seen()).to.deep.equal([['syncTerminatedPod', 0]]);
  });

  it('K21 the shortcut needs the runtime to be quiet: with something running the pod goes through SyncTerminatingPod', () => {
    const h = harness({ podCacheTerminal: () => false });
    h.update({ updateType: 'create', pod: pod({}, {}, 'Failed') });
    h.advance(5000);
    expect(h.seen().map(([fn]) => fn)).to.deep.equal(['syncTerminatingPod', 'syncTerminatedPod']);
  });

  it('K22 a create for a uid that is terminating only sets restartRequested; once finished, housekeeping purges the worker although the uid is desired, so the next create starts it', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create' });
    h.calls[0].done();
    h.update({ updateType: 'kill' });
    h.advance(1000);
    h.update({ updateType: 'create' });
    expect(h.workers.status('u1')).to.include({ restartRequested: true, workType: 'terminating' });
    expect(h.workers.status('u1')?.pendingUpdate).to.equal(undefined);
    // Not finished yet: kept.
    expect([...h.workers.syncKnownPods(new Set(['u1'])).keys()]).to.deep.equal(['u1']);
    h.calls[1].done();
    h.advance(1000);
    h.calls[2].done();
    expect(h.workers.status('u1')?.finished).to.equal(true);
    expect([...h.workers.syncKnownPods(new Set(['u1'])).keys()]).to.deep.equal([]);
    h.update({ updateType: 'create' });
    h.advance(1000);
    expect(h.calls.at(-1)?.fn).to.equal('syncPod');
  });
});

describe('housekeeping: SyncKnownPods (K43)', () => {
  it('K43 an orphan that is still syncing starts terminating with the grace of its last known pod and is driven on without any update', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create', pod: pod({}, { terminationGracePeriodSeconds: 45 }) });
    h.calls[0].done();
    h.advance(3000);
    const known = h.workers.syncKnownPods(new Set());
    expect(known.get('u1')).to.deep.equal({ state: 'terminating', orphan: true });
    expect(h.workers.status('u1')).to.include({ workType: 'terminating', deleted: true, gracePeriod: 45 });
    h.calls[1].done();
    h.advance(1000);
    expect(h.seen()).to.deep.equal([
      ['syncPod', 0],
      ['syncTerminatingPod', 3],
      ['syncTerminatedPod', 4],
    ]);
    // The replayed update is the last sync: no override, the runtime uses the pod's own grace (setTerminationGracePeriod).
    expect(h.calls[1].grace).to.equal(undefined);
  });

  it('K43 a terminating orphan whose sync failed is re-driven by each housekeeping pass (its last update replayed), not by the work queue', () => {
    const h = harness();
    h.workers.onWorkDue = () => undefined;
    h.failOnce.add('syncTerminatingPod');
    h.update({ updateType: 'kill' });
    h.advance(2000);
    h.workers.syncKnownPods(new Set());
    h.advance(2000);
    expect(h.seen()).to.deep.equal([
      ['syncTerminatingPod', 0],
      ['syncTerminatingPod', 2],
      ['syncTerminatedPod', 3],
    ]);
  });

  it('K43 a finished orphan is forgotten (onRemoved); until the first SyncKnownPods an unknown pod could still have running containers', () => {
    const h = harness();
    const removed: string[] = [];
    h.workers.onRemoved = (s) => removed.push(s.uid);
    expect(h.workers.couldHaveRunningContainers('other')).to.equal(true);
    h.update({ updateType: 'kill' });
    h.advance(5000);
    expect(h.workers.status('u1')?.finished).to.equal(true);
    expect(h.workers.syncKnownPods(new Set()).size).to.equal(0);
    expect(removed).to.deep.equal(['u1']);
    expect([h.workers.couldHaveRunningContainers('other'), h.workers.shouldPodRuntimeBeRemoved('other')]).to.deep.equal(
      [false, true],
    );
  });
});

describe('runtime-only pods (K30)', () => {
  it('K30 a runtime-only kill runs SyncTerminatingRuntimePod at once (no PLEG wait, no status) and the worker is forgotten when it succeeds', () => {
    const h = harness({ auto: false });
    h.advance(400);
    h.update({ updateType: 'kill', runningPod: true, killPodOptions: { gracePeriodOverride: 1 } });
    expect(h.seen()).to.deep.equal([['syncTerminatingRuntimePod', 0.4]]);
    h.advance(2000);
    h.calls[0].done();
    expect(h.workers.status('u1')).to.equal(undefined);
  });

  it('K30 a runtime-only kill of a pod whose config the worker has kills that pod with its spec instead', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'create', pod: pod({ labels: { real: 'yes' } }) });
    h.calls[0].done();
    h.update({
      updateType: 'kill',
      runningPod: true,
      pod: pod({ labels: {} }, { containers: [] }),
      killPodOptions: { gracePeriodOverride: 1 },
    });
    h.advance(1000);
    expect(h.calls[1].fn).to.equal('syncTerminatingPod');
    expect(h.calls[1].pod.metadata.labels).to.deep.equal({ real: 'yes' });
    expect(h.calls[1].grace).to.equal(1);
  });
});

describe('what other loops ask the workers', () => {
  it('K41 content may be removed once the pod is evicted, or deleted and terminated; a terminated pod that was not deleted keeps it', () => {
    const h = harness({ auto: false });
    h.update({ updateType: 'update', pod: deleted() });
    h.update({ updateType: 'update', pod: pod({ uid: 'done' }, {}, 'Succeeded') });
    h.update({ updateType: 'kill', pod: pod({ uid: 'evicted' }), killPodOptions: { evict: true } });
    expect(['u1', 'done', 'evicted'].map((u) => h.workers.shouldPodContentBeRemoved(u))).to.deep.equal([
      false,
      false,
      true,
    ]);
    h.calls[0].done();
    h.calls[1].done();
    expect(
      ['u1', 'done'].map((u) => [h.workers.shouldPodRuntimeBeRemoved(u), h.workers.shouldPodContentBeRemoved(u)]),
    ).to.deep.equal([
      [true, true],
      [true, false],
    ]);
  });
});

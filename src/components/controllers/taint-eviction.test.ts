/**
 * The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go): the toleration
 * arithmetic as pure functions, and evictions through a whole cluster. A node that loses the
 * apiserver at T+0 is Ready=Unknown at T+55 and gets the unreachable NoExecute taint at T+60
 * (node-lifecycle.test.ts); pods admitted with the default 300 s toleration go at T+360.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../apiserver/admission';
import { toTime } from '../../apimachinery/object';
import type { Taint, Toleration } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { at, createPod, expectNo, expectTimeline, NODE, stored, versions, WARMUP_MS } from '../kubelet/testing';
import type { SimNode } from '../../cluster/node';
import { Release } from '../../foundation/release';
import { TAINT_OUT_OF_SERVICE } from './pod-gc';
import { toleratesTaint } from '../../helpers/taints';
import { getMatchingTolerations, getMinTolerationTime, minTolerationSeconds } from './taint-eviction';

const TEC = 'taint-eviction-controller';
const UNREACHABLE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };
const NOT_READY: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };
const OUT_OF_SERVICE: Taint = { key: TAINT_OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' };
const tol = (key: string | undefined, seconds?: number, extra: Partial<Toleration> = {}): Toleration => ({
  ...(key ? { key } : {}),
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
  ...extra,
});

function requestsBy(c: Cluster, t0: number, actor: string): string[] {
  return c.timeline
    .since(t0)
    .filter((e) => e.component === 'apiserver' && e.actor === actor)
    .map((e) => e.text);
}

/** Pods (name → tolerations; undefined = the admission defaults) running a minute on a node that loses the apiserver at T+0. */
// The offsets below are v1.33's (the NoExecute taint one monitor pass after Unknown); from v1.34 it comes 5 s earlier (V5).
function partitioned(
  pods: Record<string, Toleration[] | undefined> = { web: undefined },
  release: Release = Release.of(33),
  spec: Record<string, unknown> = {},
): { c: Cluster; node: SimNode; t0: number } {
  const c = new Cluster({ release });
  const node = c.addNode(NODE);
  for (const [name, tolerations] of Object.entries(pods))
    createPod(c, name, { spec: { ...spec, ...(tolerations ? { tolerations } : {}) } });
  c.advance(WARMUP_MS);
  const t0 = c.clock.now();
  node.setReachable(false);
  c.flush();
  return { c, node, t0 };
}

function addTaint(c: Cluster, taint: Taint): void {
  const got = c.apiserver.get('nodes', undefined, NODE);
  if (!got.ok) expect.fail(got.status.message);
  c.apiserver.patch(USER, 'nodes', undefined, NODE, 'merge', {
    spec: { taints: [...(got.object.spec?.taints ?? []), taint] },
  });
  c.flush();
}

describe('taint eviction: toleration arithmetic', () => {
  it('K47 ToleratesTaint: effect, key and operator (Exists with no key matches every taint; Equal compares values)', () => {
    expect(toleratesTaint(tol(TAINT_UNREACHABLE), UNREACHABLE)).to.equal(true);
    expect(toleratesTaint(tol(TAINT_UNREACHABLE, undefined, { effect: 'NoSchedule' }), UNREACHABLE)).to.equal(false);
    expect(toleratesTaint({ operator: 'Exists' }, OUT_OF_SERVICE)).to.equal(true);
    expect(
      toleratesTaint({ key: TAINT_OUT_OF_SERVICE, operator: 'Equal', value: 'nodeshutdown' }, OUT_OF_SERVICE),
    ).to.equal(true);
    expect(toleratesTaint({ key: TAINT_OUT_OF_SERVICE, value: 'other' }, OUT_OF_SERVICE)).to.equal(false);
    expect(toleratesTaint(tol(TAINT_NOT_READY), UNREACHABLE)).to.equal(false);
  });

  it('K47 getMinTolerationTime: 0 without tolerations or with one ≤ 0, Infinity when none limits the time, else the minimum', () => {
    expect(getMinTolerationTime([])).to.equal(0);
    expect(getMinTolerationTime([tol(TAINT_UNREACHABLE)])).to.equal(Number.POSITIVE_INFINITY);
    expect(getMinTolerationTime([tol(TAINT_UNREACHABLE, 300), tol(TAINT_NOT_READY, 60)])).to.equal(60);
    expect(getMinTolerationTime([tol(TAINT_UNREACHABLE, 300), tol(TAINT_NOT_READY, 0)])).to.equal(0);
    expect(getMinTolerationTime([tol(TAINT_UNREACHABLE, -5)])).to.equal(0);
    expect(getMinTolerationTime([tol(TAINT_UNREACHABLE), tol(TAINT_NOT_READY, 120)])).to.equal(120);
  });

  it('K47 GetMatchingTolerations: only the first toleration that matches a taint counts; an untolerated taint means evict now', () => {
    // The forever toleration comes first, so the 60 s one is never looked at.
    expect(minTolerationSeconds([tol(TAINT_UNREACHABLE), tol(TAINT_UNREACHABLE, 60)], [UNREACHABLE])).to.equal(
      Number.POSITIVE_INFINITY,
    );
    expect(minTolerationSeconds([tol(TAINT_UNREACHABLE, 60), tol(TAINT_UNREACHABLE)], [UNREACHABLE])).to.equal(60);
    // A toleration for a taint the node does not have is not used.
    expect(minTolerationSeconds([tol(TAINT_UNREACHABLE, 300), tol(TAINT_NOT_READY, 10)], [UNREACHABLE])).to.equal(300);
    // Two taints: the shortest of the tolerations used.
    expect(
      minTolerationSeconds([tol(TAINT_UNREACHABLE, 300), tol(TAINT_NOT_READY, 10)], [UNREACHABLE, NOT_READY]),
    ).to.equal(10);
    expect(minTolerationSeconds([tol(TAINT_UNREACHABLE, 300)], [UNREACHABLE, OUT_OF_SERVICE])).to.equal(undefined);
    expect(minTolerationSeconds([], [UNREACHABLE])).to.equal(undefined);
    expect(getMatchingTolerations([], [])).to.deep.equal([]);
  });
});

describe('taint eviction through the cluster', () => {
  it('K47 processPodOnNode + addConditionAndDeletePod: with the default 300 s toleration the pod is evicted exactly 300 s after the NoExecute taint; on an unreachable node it only becomes Terminating', () => {
    const { c, t0 } = partitioned();
    expect(stored(c, 'web')?.spec?.tolerations, 'DefaultTolerationSeconds admission').to.deep.include({
      key: TAINT_UNREACHABLE,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    });
    c.advance(359_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(undefined);
    c.advance(1000);
    expect(at(c, t0, 'nodelifecycle', `node ${NODE} tainted ${TAINT_UNREACHABLE}:NoExecute`)).to.equal(60);
    expect(at(c, t0, 'nodelifecycle', 'eviction of pods/web scheduled in 300s')).to.equal(60);
    expectTimeline(c, t0, [
      [360, 'events', 'TaintManagerEviction pods/web: Marking for deletion Pod default/web'],
      [360, 'nodelifecycle', 'taint eviction pods/web: deleting due to NoExecute taint'],
      [360, 'apiserver', 'PATCH pods/web/status'],
      [360, 'apiserver', 'DELETE pods/web'],
    ]);
    expect(requestsBy(c, t0, TEC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web']);
    const pod = stored(c, 'web');
    expect(pod?.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).to.deep.equal({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
      lastTransitionTime: toTime(t0 + 360_000),
    });
    // DELETE with empty options: the spec's grace; nobody on the node finishes it (K46).
    expect(pod?.metadata).to.include({ deletionTimestamp: toTime(t0 + 390_000), deletionGracePeriodSeconds: 30 });
    c.advance(30 * 60_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 390_000));
    expect(requestsBy(c, t0, TEC), 'the fired eviction is kept: the pod is not evicted again').to.have.length(2);
    const events = c.apiserver.list('events', 'default', (e) => e.reason === 'TaintManagerEviction');
    expect(events.ok && events.object.items.map((e) => e.message)).to.deep.equal([
      'Marking for deletion Pod default/web',
    ]);
  });

  it('V10 addConditionAndDeletePod with PodDisruptionConditions disabled (v1.30): no GET, no DisruptionTarget, just the DELETE', () => {
    const { c, t0 } = partitioned({ web: undefined }, Release.of(30, { PodDisruptionConditions: false }));
    c.advance(360_000);
    expect(requestsBy(c, t0, TEC)).to.deep.equal(['DELETE pods/web']);
    // v1.30: the 40 s node monitor grace, so the taint comes at T+50 and the eviction at T+350.
    const evicted = at(c, t0, 'nodelifecycle', 'taint eviction pods/web: deleting due to NoExecute taint')!;
    expect(evicted - at(c, t0, 'nodelifecycle', 'eviction of pods/web scheduled in 300s')!).to.equal(300);
    const pod = stored(c, 'web');
    expect(pod?.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).to.equal(undefined);
    expect(pod?.metadata.deletionTimestamp).to.equal(toTime(t0 + (evicted + 30) * 1000));
    // The same release with the gate at its default (β on) adds the condition first.
    const on = partitioned({ web: undefined }, Release.of(30));
    on.c.advance(360_000);
    expect(requestsBy(on.c, on.t0, TEC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web']);
  });

  it('V12 up to v1.28 the condition is a forced server-side apply by "TaintManager"; a pod with duplicate env names is never deleted (5 attempts, 10 ms apart)', () => {
    const { c, t0 } = partitioned({ web: undefined }, Release.of(28));
    c.advance(360_000);
    expect(requestsBy(c, t0, TEC)).to.deep.equal([
      'PATCH pods/web/status fieldManager=TaintManager force=true',
      'DELETE pods/web',
    ]);
    expect(stored(c, 'web')?.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.reason).to.equal(
      'DeletionByTaintManager',
    );

    const duplicateEnv = {
      containers: [
        {
          name: 'app',
          env: [
            { name: 'MODE', value: 'a' },
            { name: 'MODE', value: 'b' },
          ],
        },
      ],
    };
    const stuck = partitioned({ web: undefined }, Release.of(28), duplicateEnv);
    stuck.c.advance(360_000);
    const patches = stuck.c.timeline.since(stuck.t0).filter((e) => e.component === 'apiserver' && e.actor === TEC);
    expect(patches.map((e) => e.text)).to.deep.equal(
      Array(5).fill('PATCH pods/web/status fieldManager=TaintManager force=true'),
    );
    expect(patches.map((e) => e.at - patches[0]!.at)).to.deep.equal([0, 10, 20, 30, 40]);
    expect(stored(stuck.c, 'web')?.metadata.deletionTimestamp).to.equal(undefined);

    const fixed = partitioned({ web: undefined }, Release.of(29), duplicateEnv);
    fixed.c.advance(360_000);
    expect(requestsBy(fixed.c, fixed.t0, TEC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web']);
  });

  it('K47 processPodOnNode: each pod goes after its own shortest toleration: 60 s, at once (tolerationSeconds 0), or never (no tolerationSeconds)', () => {
    const { c, t0 } = partitioned({
      short: [tol(TAINT_UNREACHABLE, 60)],
      zero: [tol(TAINT_UNREACHABLE, 0)],
      forever: [tol(TAINT_UNREACHABLE)],
    });
    c.advance(30 * 60_000);
    expect(at(c, t0, 'nodelifecycle', 'taint eviction pods/short')).to.equal(120);
    expect(at(c, t0, 'nodelifecycle', 'taint eviction pods/zero')).to.equal(60);
    expectNo(c, t0, 'nodelifecycle', 'eviction of pods/forever');
    expect(stored(c, 'forever')?.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('K47 processPodOnNode: a taint that is not tolerated cancels the scheduled eviction (an Event says so) and evicts at once', () => {
    const { c, t0 } = partitioned();
    c.advance(90_000);
    addTaint(c, OUT_OF_SERVICE);
    expectTimeline(c, t0, [
      [60, 'nodelifecycle', 'eviction of pods/web scheduled in 300s'],
      [90, 'events', 'TaintManagerEviction pods/web: Cancelling deletion of Pod default/web'],
      [
        90,
        'nodelifecycle',
        `eviction of pods/web scheduled in 0s: NoExecute taint ${TAINT_UNREACHABLE}, ${TAINT_OUT_OF_SERVICE} on node ${NODE} is not tolerated`,
      ],
      [90, 'nodelifecycle', 'taint eviction pods/web'],
      [90, 'apiserver', 'DELETE pods/web'],
    ]);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 120_000));
  });

  it('K47 handleNodeUpdate: the NoExecute taint lifted before the toleration runs out cancels the eviction', () => {
    const { c, node, t0 } = partitioned();
    c.advance(120_000);
    node.setReachable(true);
    c.advance(10 * 60_000);
    expectTimeline(c, t0, [
      [60, 'nodelifecycle', 'eviction of pods/web scheduled in 300s'],
      [125, 'nodelifecycle', `node ${NODE} is Ready again`],
      [125, 'events', 'TaintManagerEviction pods/web: Cancelling deletion of Pod default/web'],
    ]);
    expectNo(c, t0, 'nodelifecycle', 'taint eviction');
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('K47 processPodOnNode looks at no deletionTimestamp: a pod the user deleted first is "evicted" too — the condition is added, the DELETE (no options) changes nothing', () => {
    const { c, t0 } = partitioned();
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    c.flush();
    c.advance(360_000);
    expect(requestsBy(c, t0, TEC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web']);
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.reason).to.equal(
      'DeletionByTaintManager',
    );
    expect(last?.metadata).to.include({ deletionTimestamp: toTime(t0 + 30_000), deletionGracePeriodSeconds: 30 });
  });

  it('K47 handlePodUpdate: a pod created on a node that is already tainted gets its own 300 s from its creation', () => {
    const { c, t0 } = partitioned({});
    c.advance(100_000);
    createPod(c, 'late');
    c.advance(300_000);
    expect(at(c, t0, 'nodelifecycle', 'eviction of pods/late scheduled in 300s')).to.equal(100);
    expect(at(c, t0, 'nodelifecycle', 'taint eviction pods/late')).to.equal(400);
  });
});

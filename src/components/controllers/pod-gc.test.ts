/**
 * The pod garbage collector (pkg/controller/podgc/gc_controller.go) through a whole cluster. Its
 * loop runs every 20 s from the cluster's start, so with the one-minute warm-up a tick falls on
 * T+0 (before the test acts) and the next ones on T+20, T+40, …
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../apimachinery/object';
import type { Pod } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { at, createPod, expectNo, expectTimeline, NODE, stored, versions, WARMUP_MS } from '../kubelet/testing';
import { DEFAULT_POD_GC_CONFIG, TAINT_OUT_OF_SERVICE } from './pod-gc';
import { Release } from '../../foundation/release';
import { UNSERVED_SCHEDULER } from '../scheduler/scheduler';

const PODGC = 'pod-garbage-collector';

function requestsBy(c: Cluster, t0: number, actor: string): string[] {
  return c.timeline
    .since(t0)
    .filter((e) => e.component === 'apiserver' && e.actor === actor)
    .map((e) => e.text);
}

/** A cluster whose node's pod `web` has run for a minute; the node lost the apiserver at the start if `unreachable`. */
function running(o: { unreachable?: boolean; pod?: Parameters<typeof createPod>[2]; release?: Release } = {}): {
  c: Cluster;
  t0: number;
} {
  const c = new Cluster(o.release ? { release: o.release } : {});
  const node = c.addNode(NODE);
  createPod(c, 'web', o.pod);
  if (o.unreachable) node.setReachable(false);
  c.advance(WARMUP_MS);
  return { c, t0: c.clock.now() };
}

/** A pod bound to no node, moved by hand to a terminal phase (nobody else writes its status). */
function terminatedPod(c: Cluster, name: string, phase: 'Succeeded' | 'Failed', reason?: string): void {
  const r = c.apiserver.create(USER, 'pods', 'default', {
    metadata: { name },
    spec: { containers: [{ name: 'app' }] },
  });
  if (!r.ok) expect.fail(r.status.message);
  const s = c.apiserver.patch(
    USER,
    'pods',
    'default',
    name,
    'merge',
    { status: { phase, ...(reason ? { reason } : {}) } },
    { subresource: 'status' },
  );
  if (!s.ok) expect.fail(s.status.message);
  c.flush();
}

function condition(p: Pod | undefined, type: string) {
  return p?.status?.conditions?.find((c) => c.type === type);
}

function taintOutOfService(c: Cluster): void {
  const got = c.apiserver.get('nodes', undefined, NODE);
  if (!got.ok) expect.fail(got.status.message);
  c.apiserver.patch(USER, 'nodes', undefined, NODE, 'merge', {
    spec: {
      taints: [
        ...(got.object.spec?.taints ?? []),
        { key: TAINT_OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' },
      ],
    },
  });
  c.flush();
}

describe('PodGC gcOrphaned', () => {
  it('K48 gcOrphaned: pods of a vanished node are failed and force-deleted after the 40 s quarantine', () => {
    const { c, t0 } = running({ unreachable: true });
    c.advance(5000);
    c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
    c.flush();
    c.advance(115_000);
    // Noticed at the first tick after the deletion (T+20, 15 s later); acted on at the tick that
    // finds the quarantine over: 40 s after noticing, 55 s after the deletion.
    const noticed = at(c, t0, 'podgc', `node ${NODE} not found: quarantined for 40s`)!;
    const acted = at(c, t0, 'podgc', 'force delete pods/web: node node-1 no longer exists')!;
    expect(noticed).to.equal(20);
    expect(acted - noticed).to.equal(40);
    expect(acted - 5).to.be.within(40, 60);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web gracePeriodSeconds=0']);
    // markFailedAndDeletePodWithCondition: phase Failed plus DisruptionTarget, then removal (no finalizer, grace 0).
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(condition(last, 'DisruptionTarget')).to.deep.equal({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
      lastTransitionTime: toTime(t0 + acted * 1000),
    });
    expect(stored(c, 'web')).to.equal(undefined);
    expectTimeline(c, t0, [
      [60, 'apiserver', 'PATCH pods/web/status'],
      [60, 'apiserver', 'DELETE pods/web gracePeriodSeconds=0'],
      [60, 'etcd', 'DELETE /registry/pods/default/web'],
    ]);
  });

  it("V9 the Failed mark needs PodDisruptionConditions or JobPodReplacementPolicy; the orphan's condition needs PodDisruptionConditions", () => {
    const orphan = (release: Release) => {
      const { c, t0 } = running({ unreachable: true, release });
      c.advance(5000);
      c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
      c.flush();
      c.advance(115_000);
      const last = versions(c, 'web').at(-1);
      return {
        requests: requestsBy(c, t0, PODGC),
        phase: last?.status?.phase,
        condition: condition(last, 'DisruptionTarget')?.reason,
      };
    };
    const deleteOnly = ['DELETE pods/web gracePeriodSeconds=0'];
    const marked = ['PATCH pods/web/status', 'DELETE pods/web gracePeriodSeconds=0'];
    // v1.28: JobPodReplacementPolicy is alpha (off), so PodDisruptionConditions alone decides (the write is an apply, V12).
    const applied = ['PATCH pods/web/status fieldManager=PodGC force=true', 'DELETE pods/web gracePeriodSeconds=0'];
    expect(orphan(Release.of(28, { PodDisruptionConditions: false }))).to.deep.equal({
      requests: deleteOnly,
      phase: 'Running',
      condition: undefined,
    });
    expect(orphan(Release.of(28))).to.deep.equal({ requests: applied, phase: 'Failed', condition: 'DeletionByPodGC' });
    expect(orphan(Release.of(28, { PodDisruptionConditions: false, JobPodReplacementPolicy: true }))).to.deep.equal({
      requests: applied,
      phase: 'Failed',
      condition: undefined,
    });
    // v1.29–v1.30: JobPodReplacementPolicy is beta (on): Failed without the condition.
    expect(orphan(Release.of(29, { PodDisruptionConditions: false }))).to.deep.equal({
      requests: marked,
      phase: 'Failed',
      condition: undefined,
    });
    expect(orphan(Release.of(30, { PodDisruptionConditions: false, JobPodReplacementPolicy: false }))).to.deep.equal({
      requests: deleteOnly,
      phase: 'Running',
      condition: undefined,
    });
    expect(orphan(Release.of(31, { JobPodReplacementPolicy: false }))).to.deep.equal({
      requests: marked,
      phase: 'Failed',
      condition: 'DeletionByPodGC',
    });
  });

  it('V12 up to v1.28 the mark is a forced server-side apply by "PodGC"; from v1.29 a status PATCH (kubernetes#121103)', () => {
    const orphan = (release: Release, pod?: Parameters<typeof createPod>[2]) => {
      const { c, t0 } = running({ unreachable: true, release, pod });
      c.advance(5000);
      c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
      c.flush();
      c.advance(115_000);
      return { c, t0, requests: requestsBy(c, t0, PODGC), last: versions(c, 'web').at(-1) };
    };
    const v28 = orphan(Release.of(28));
    expect(v28.requests).to.deep.equal([
      'PATCH pods/web/status fieldManager=PodGC force=true',
      'DELETE pods/web gracePeriodSeconds=0',
    ]);
    // The applied condition and phase are merged into the status as the PATCH would write them.
    expect(v28.last?.status?.phase).to.equal('Failed');
    expect(condition(v28.last, 'DisruptionTarget')).to.deep.equal({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
      lastTransitionTime: toTime(v28.t0 + 60_000),
    });
    expect(condition(v28.last, 'Ready'), "the kubelet's conditions stay").to.not.equal(undefined);
    expect(orphan(Release.of(29)).requests).to.deep.equal([
      'PATCH pods/web/status',
      'DELETE pods/web gracePeriodSeconds=0',
    ]);
  });

  it('V12 v1.26–v1.28: a pod with two env vars of one name cannot be applied to (500), so pod GC never deletes it; v1.29 deletes it', () => {
    const duplicateEnv = {
      spec: {
        containers: [
          {
            name: 'app',
            env: [
              { name: 'MODE', value: 'a' },
              { name: 'MODE', value: 'b' },
            ],
          },
        ],
      },
    };
    const message =
      'failed to create manager for existing fields: failed to convert new object (default/web; /v1, Kind=Pod) to smd typed: .spec.containers[name="app"].env: duplicate entries for key [name="MODE"]';
    for (const minor of [26, 28]) {
      const { c, t0 } = running({ unreachable: true, release: Release.of(minor), pod: duplicateEnv });
      c.advance(5000);
      c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
      c.flush();
      c.advance(115_000);
      // Acted on at T+60 and again after the next quarantine (T+120), never reaching the DELETE.
      expect(requestsBy(c, t0, PODGC), `v1.${minor}`).to.deep.equal(
        Array(2).fill('PATCH pods/web/status fieldManager=PodGC force=true'),
      );
      const lastId = c.timeline
        .since(t0)
        .filter((e) => e.component === 'apiserver' && e.actor === PODGC)
        .at(-1)?.requestId;
      const failed = c.apiserver.request(lastId ?? 0)?.response;
      expect(failed?.ok === false && [failed.code, failed.status.reason, failed.status.message]).to.deep.equal([
        500,
        '',
        message,
      ]);
      expect(stored(c, 'web')?.status?.phase, 'nothing was written').to.equal('Running');
    }
    const { c, t0 } = running({ unreachable: true, release: Release.of(29), pod: duplicateEnv });
    c.advance(5000);
    c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
    c.flush();
    c.advance(115_000);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web gracePeriodSeconds=0']);
    expect(stored(c, 'web')).to.equal(undefined);
  });

  it('V12 v1.28: an orphan already Failed still gets the condition applied (the apply always carries it); v1.29 sends nothing but the DELETE', () => {
    const failedOrphan = (release: Release) => {
      const c = new Cluster({ release });
      c.apiserver.create(USER, 'pods', 'default', {
        metadata: { name: 'done' },
        spec: { nodeName: 'gone', containers: [{ name: 'app' }] },
      });
      c.apiserver.patch(
        USER,
        'pods',
        'default',
        'done',
        'merge',
        { status: { phase: 'Failed' } },
        { subresource: 'status' },
      );
      c.flush();
      const t0 = c.clock.now();
      c.advance(120_000);
      return requestsBy(c, t0, PODGC);
    };
    expect(failedOrphan(Release.of(28))).to.deep.equal([
      'PATCH pods/done/status fieldManager=PodGC force=true',
      'DELETE pods/done gracePeriodSeconds=0',
    ]);
    expect(failedOrphan(Release.of(29))).to.deep.equal(['DELETE pods/done gracePeriodSeconds=0']);
  });

  it('K48 discoverDeletedNodes: a node that is back when the quarantine ends keeps its pods (checked against the informer, then a live GET)', () => {
    const { c, t0 } = running({ unreachable: true });
    const node = c.apiserver.get('nodes', undefined, NODE);
    if (!node.ok) expect.fail(node.status.message);
    c.apiserver.delete(USER, 'nodes', undefined, NODE, {});
    c.advance(30_000);
    c.apiserver.create(USER, 'nodes', undefined, { metadata: { name: NODE }, spec: {}, status: node.object.status });
    c.advance(120_000);
    expect(at(c, t0, 'podgc', `node ${NODE} not found`)).to.equal(20);
    expectNo(c, t0, 'podgc', 'force delete');
    expect(requestsBy(c, t0, PODGC)).to.deep.equal([]);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(undefined);
  });
});

/** One second apart: old (Succeeded), middle (Failed), new (Succeeded), evicted (Failed, Evicted). */
function fourTerminatedPods(c: Cluster): void {
  for (const [name, phase, reason] of [
    ['old', 'Succeeded'],
    ['middle', 'Failed'],
    ['new', 'Succeeded'],
    ['evicted', 'Failed', 'Evicted'],
  ] as const) {
    c.advance(1000);
    terminatedPod(c, name, phase, reason);
  }
}

describe('PodGC gcTerminated', () => {
  it('K50 gcTerminated: with a small threshold the excess terminated pods go at the next tick, evicted ones first, then the oldest (DELETE gracePeriodSeconds=0, no status patch)', () => {
    const c = new Cluster();
    c.podGC.config.terminatedPodThreshold = 2;
    fourTerminatedPods(c);
    c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'pending' },
      spec: { containers: [{ name: 'app' }] },
    }); // Pending: not counted
    const t0 = c.clock.now();
    c.advance(20_000);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal([
      'DELETE pods/evicted gracePeriodSeconds=0',
      'DELETE pods/old gracePeriodSeconds=0',
    ]);
    expect(['old', 'middle', 'new', 'evicted', 'pending'].filter((n) => stored(c, n))).to.deep.equal([
      'middle',
      'new',
      'pending',
    ]);
    expect(at(c, t0, 'podgc', 'force delete pods/evicted: 4 terminated pods exceed the threshold of 2')).to.equal(16);
  });

  it('V15 up to v1.26 gcTerminated goes by creation time alone: the evicted pod is not taken first (kubernetes#116167, v1.27)', () => {
    const collected = (release: Release) => {
      const c = new Cluster({ release });
      c.podGC.config.terminatedPodThreshold = 2;
      fourTerminatedPods(c);
      const t0 = c.clock.now();
      c.advance(20_000);
      return requestsBy(c, t0, PODGC);
    };
    expect(collected(Release.of(26))).to.deep.equal([
      'DELETE pods/old gracePeriodSeconds=0',
      'DELETE pods/middle gracePeriodSeconds=0',
    ]);
    expect(collected(Release.of(27))).to.deep.equal([
      'DELETE pods/evicted gracePeriodSeconds=0',
      'DELETE pods/old gracePeriodSeconds=0',
    ]);
  });

  it('K50 gc: a threshold of 0 turns gcTerminated off', () => {
    const c = new Cluster();
    c.podGC.config.terminatedPodThreshold = 0;
    terminatedPod(c, 'done', 'Succeeded');
    const t0 = c.clock.now();
    c.advance(60_000);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal([]);
    expect(stored(c, 'done')).not.to.equal(undefined);
  });

  it('K50 a scenario that changes the threshold changes its own cluster only', () => {
    const c = new Cluster();
    c.podGC.config.terminatedPodThreshold = 1;
    expect(DEFAULT_POD_GC_CONFIG.terminatedPodThreshold).to.equal(12_500);
    expect(new Cluster().podGC.config.terminatedPodThreshold).to.equal(12_500);
  });
});

describe('PodGC gcUnscheduledTerminating', () => {
  it('K50 gcUnscheduledTerminating: a terminating pod that never got a node is failed and force-deleted at the next tick (a finalizer still holds it)', () => {
    const c = new Cluster();
    c.addNode(NODE);
    const r = c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'unbound', finalizers: ['example.com/hold'] },
      spec: { containers: [{ name: 'app' }], schedulerName: UNSERVED_SCHEDULER },
    });
    if (!r.ok) expect.fail(r.status.message);
    c.advance(WARMUP_MS + 5000);
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'pods', 'default', 'unbound', {});
    c.flush();
    // Unscheduled: the apiserver stamps grace 0 at once (R7); only the finalizer keeps it.
    expect(stored(c, 'unbound')?.metadata.deletionGracePeriodSeconds).to.equal(0);
    c.advance(15_000);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal([
      'PATCH pods/unbound/status',
      'DELETE pods/unbound gracePeriodSeconds=0',
    ]);
    expect(at(c, t0, 'podgc', 'force delete pods/unbound: terminating and never scheduled')).to.equal(15);
    const pod = stored(c, 'unbound');
    expect(pod?.status?.phase).to.equal('Failed');
    expect(condition(pod, 'DisruptionTarget')).to.equal(undefined);
    // The next ticks delete again; the phase is terminal now, so no further status patch.
    c.advance(40_000);
    expect(requestsBy(c, t0, PODGC).filter((r) => r.startsWith('PATCH'))).to.have.length(1);
    expect(requestsBy(c, t0, PODGC).filter((r) => r.startsWith('DELETE'))).to.have.length(3);
  });
});

describe('PodGC gcTerminating', () => {
  it('K49 gcTerminating: a terminating pod on a NotReady node with the out-of-service taint is failed (no condition) and force-deleted at the next tick', () => {
    const { c, t0 } = running({ unreachable: true });
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    c.advance(25_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp, 'nobody finishes the delete on an unreachable node').to.equal(
      toTime(t0 + 30_000),
    );
    const node = c.apiserver.get('nodes', undefined, NODE);
    expect(
      node.ok && node.object.status?.conditions?.find((x) => x.type === 'Ready')?.status,
      'the node lost the apiserver a minute before T+0',
    ).to.equal('Unknown');
    taintOutOfService(c);
    c.advance(20_000);
    const acted = at(
      c,
      t0,
      'podgc',
      'force delete pods/web: terminating on node node-1, which is not ready and tainted node.kubernetes.io/out-of-service',
    );
    expect(acted).to.equal(40);
    expect(requestsBy(c, t0, PODGC)).to.deep.equal(['PATCH pods/web/status', 'DELETE pods/web gracePeriodSeconds=0']);
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(
      condition(last, 'DisruptionTarget')?.reason,
      'only the taint eviction controller added a condition',
    ).to.equal('DeletionByTaintManager');
    expect(stored(c, 'web')).to.equal(undefined);
  });

  it('V14 with NodeOutOfServiceVolumeDetach disabled (possible up to v1.27) gcTerminating does not run: the out-of-service taint changes nothing', () => {
    const outOfService = (release: Release) => {
      const { c, t0 } = running({ unreachable: true, release });
      c.apiserver.delete(USER, 'pods', 'default', 'web', {});
      c.advance(25_000);
      taintOutOfService(c);
      c.advance(60_000);
      return {
        requests: requestsBy(c, t0, PODGC),
        terminating: stored(c, 'web')?.metadata.deletionTimestamp !== undefined,
      };
    };
    expect(outOfService(Release.of(27, { NodeOutOfServiceVolumeDetach: false }))).to.deep.equal({
      requests: [],
      terminating: true,
    });
    expect(outOfService(Release.of(27)).requests).to.deep.equal([
      'PATCH pods/web/status fieldManager=PodGC force=true',
      'DELETE pods/web gracePeriodSeconds=0',
    ]);
    expect(() => Release.of(28, { NodeOutOfServiceVolumeDetach: false }), 'GA in v1.28').to.throw('locked to true');
  });

  it('K49 gcTerminating: without the out-of-service taint PodGC leaves a terminating pod on a NotReady node alone', () => {
    const { c, t0 } = running({ unreachable: true });
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    c.advance(10 * 60_000);
    expectNo(c, t0, 'podgc', 'force delete');
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 30_000));
  });

  it('K49 gcTerminating: on a Ready node the out-of-service taint alone does not make PodGC act', () => {
    const { c, t0 } = running({ pod: { containers: { app: { sigterm: { kind: 'ignores' } } } } });
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    taintOutOfService(c);
    c.advance(25_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp, 'still in its grace period').to.equal(toTime(t0 + 30_000));
    expectNo(c, t0, 'podgc', 'force delete');
  });
});

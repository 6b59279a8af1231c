/**
 * The garbage collector (pkg/controller/garbagecollector) through a whole cluster: a ReplicaSet
 * owning pods on one node, deleted with each propagation policy. Every test names the upstream
 * function whose behaviour it checks; requests are read from the apiserver lane of the timeline,
 * where each carries the client that sent it.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../apimachinery/object';
import type { OwnerReference, Pod, ReplicaSet } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { Cluster, USER } from '../../cluster/cluster';
import { createPod, expectNo, expectTimeline, NODE, stored, WARMUP_MS } from '../kubelet/testing';

const GC = 'garbage-collector';
/** The collector's own behaviour, without the ReplicaSet controller making up the pods these sets own too few or too many of. */
const WITHOUT_RS_CONTROLLER = ['*', '-replicaset-controller'];

/** The requests a client sent from T+0 on, as the apiserver recorded them. */
function requestsBy(c: Cluster, t0: number, actor: string): string[] {
  return c.timeline
    .since(t0)
    .filter((e) => e.component === 'apiserver' && e.actor === actor)
    .map((e) => e.text);
}

function replicaSet(c: Cluster, name: string, finalizers?: string[]): ReplicaSet {
  const r = c.apiserver.create(USER, 'replicasets', 'default', {
    metadata: { name, ...(finalizers ? { finalizers } : {}) },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app' }] } },
    },
  });
  if (!r.ok) expect.fail(`replicaset ${name}: ${r.status.message}`);
  c.flush();
  return r.object;
}

function ownerRef(rs: ReplicaSet, blockOwnerDeletion = true): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: rs.metadata.name!,
    uid: rs.metadata.uid!,
    controller: true,
    blockOwnerDeletion,
  };
}

function storedRs(c: Cluster, name: string): ReplicaSet | undefined {
  const r = c.apiserver.get('replicasets', 'default', name);
  return r.ok ? r.object : undefined;
}

/**
 * A cluster with replicaset `web` owning pods web-1 and web-2 (blockOwnerDeletion as given, app
 * exiting as given after SIGTERM), all running for a minute; T+0 is now.
 */
function owned(
  o: { block?: [boolean, boolean]; exitAfterMs?: [number, number]; rsFinalizers?: string[]; release?: Release } = {},
): { c: Cluster; t0: number; rs: ReplicaSet; pods: Pod[] } {
  const c = new Cluster({ release: o.release, controllers: WITHOUT_RS_CONTROLLER });
  c.addNode(NODE);
  const rs = replicaSet(c, 'web', o.rsFinalizers);
  const pods = ['web-1', 'web-2'].map((name, i) =>
    createPod(c, name, {
      metadata: { labels: { app: 'web' }, ownerReferences: [ownerRef(rs, o.block?.[i] ?? true)] },
      containers: o.exitAfterMs ? { app: { sigterm: { kind: 'exits', afterMs: o.exitAfterMs[i] } } } : {},
    }),
  );
  c.advance(WARMUP_MS);
  return { c, t0: c.clock.now(), rs, pods };
}

function deleteRs(c: Cluster, name: string, propagationPolicy: string): void {
  const r = c.apiserver.delete(USER, 'replicasets', 'default', name, { propagationPolicy });
  if (!r.ok) expect.fail(`DELETE replicasets/${name}: ${r.status.message}`);
  c.flush();
}

describe('GarbageCollector: Background propagation (C1)', () => {
  it('V6 attemptToDeleteItem from v1.34: each dependent is deleted with preconditions on its uid and resourceVersion (kubernetes#132632)', () => {
    const { c, t0 } = owned({ release: Release.of(34) });
    const [p1, p2] = [stored(c, 'web-1')!, stored(c, 'web-2')!]; // the versions the GC reads before its DELETEs
    deleteRs(c, 'web', 'Background');
    expect(requestsBy(c, t0, GC)).to.deep.equal([
      `DELETE pods/web-1 propagationPolicy=Background preconditions.uid=${p1.metadata.uid} preconditions.resourceVersion=${p1.metadata.resourceVersion}`,
      `DELETE pods/web-2 propagationPolicy=Background preconditions.uid=${p2.metadata.uid} preconditions.resourceVersion=${p2.metadata.resourceVersion}`,
    ]);
  });

  it('V6 attemptToDeleteItem: the owner goes at once; each dependent is then deleted (Background) with a precondition on its uid only (v1.33)', () => {
    const { c, t0 } = owned({ release: Release.of(33) });
    const [p1, p2] = [stored(c, 'web-1')!, stored(c, 'web-2')!];
    deleteRs(c, 'web', 'Background');
    expect(storedRs(c, 'web'), 'a Background DELETE removes the ReplicaSet in the request itself').to.equal(undefined);
    expect(requestsBy(c, t0, GC)).to.deep.equal([
      `DELETE pods/web-1 propagationPolicy=Background preconditions.uid=${p1.metadata.uid}`,
      `DELETE pods/web-2 propagationPolicy=Background preconditions.uid=${p2.metadata.uid}`,
    ]);
    // A pod takes the graceful path: the GC's DELETE only starts the kubelet's work (spec grace 30).
    expect(stored(c, 'web-1')?.metadata).to.include({
      deletionTimestamp: toTime(t0 + 30_000),
      deletionGracePeriodSeconds: 30,
    });
    c.advance(10_000);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE replicasets/web propagationPolicy=Background'],
      [0, 'etcd', 'DELETE /registry/replicasets/default/web'],
      [0, 'gc', 'delete pods/web-1: its owner replicasets/web is gone'],
      [0, 'apiserver', 'DELETE pods/web-1 propagationPolicy=Background preconditions.uid='],
      [0, 'gc', 'delete pods/web-2: its owner replicasets/web is gone'],
      [1, 'status', 'DELETE pods/web-1 gracePeriodSeconds=0'],
      [1, 'etcd', 'DELETE /registry/pods/default/web-1'],
    ]);
    expect(stored(c, 'web-1')).to.equal(undefined);
    expect(stored(c, 'web-2')).to.equal(undefined);
  });

  it('attemptToDeleteItem: a pod whose only owner never existed is collected (virtual owner node)', () => {
    const c = new Cluster({ controllers: WITHOUT_RS_CONTROLLER });
    c.addNode(NODE);
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    createPod(c, 'stray', {
      metadata: {
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'ghost',
            uid: '00000000-0000-4000-8000-000000000000',
            controller: true,
          },
        ],
      },
    });
    expect(requestsBy(c, t0, GC)[0]).to.match(/^DELETE pods\/stray propagationPolicy=Background preconditions\.uid=/);
    expectTimeline(c, t0, [[0, 'gc', 'delete pods/stray: its owner replicasets/ghost is gone']]);
  });

  it('attemptToDeleteItem: a dependent that still has a live owner only loses its reference to the vanished one', () => {
    const c = new Cluster({ controllers: WITHOUT_RS_CONTROLLER });
    c.addNode(NODE);
    const a = replicaSet(c, 'a');
    const b = replicaSet(c, 'b');
    createPod(c, 'shared', { metadata: { ownerReferences: [ownerRef(a), { ...ownerRef(b), controller: false }] } });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    deleteRs(c, 'a', 'Background');
    c.advance(60_000);
    expect(requestsBy(c, t0, GC)).to.deep.equal(['PATCH pods/shared']);
    const pod = stored(c, 'shared');
    expect(pod?.metadata.deletionTimestamp).to.equal(undefined);
    expect(pod?.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['b']);
    expectTimeline(c, t0, [
      [0, 'gc', 'remove ownerReferences of pods/shared to replicasets/a (gone): it still has owner replicasets/b'],
    ]);
  });
});

describe('GarbageCollector: Foreground propagation (C2)', () => {
  it('processDeletingDependentsItem: the owner keeps foregroundDeletion (stamped by markAsDeleting) until its blocking dependents are gone, then the finalizer goes and so does the owner', () => {
    const { c, t0, rs } = owned({ exitAfterMs: [2000, 10_000] });
    deleteRs(c, 'web', 'Foreground');
    // markAsDeleting (R33): a ReplicaSet has no graceful strategy: dT = now, dGP = 0, generation + 1.
    const deleting = storedRs(c, 'web');
    expect(deleting?.metadata).to.include({
      deletionTimestamp: toTime(t0),
      deletionGracePeriodSeconds: 0,
      generation: (rs.metadata.generation ?? 0) + 1,
    });
    expect(deleting?.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    expect(requestsBy(c, t0, GC).map((r) => r.replace(/ preconditions.*/, ''))).to.deep.equal([
      'DELETE pods/web-1 propagationPolicy=Background',
      'DELETE pods/web-2 propagationPolicy=Background',
    ]);
    c.advance(5000);
    expect(stored(c, 'web-1'), 'web-1 (2 s) is gone').to.equal(undefined);
    expect(storedRs(c, 'web')?.metadata.finalizers, 'web-2 still blocks').to.deep.equal(['foregroundDeletion']);
    c.advance(10_000);
    expect(storedRs(c, 'web')).to.equal(undefined);
    expectTimeline(c, t0, [
      [0, 'gc', 'delete pods/web-1: its owner replicasets/web is being deleted in the foreground'],
      [0, 'gc', 'delete pods/web-2: its owner replicasets/web is being deleted in the foreground'],
      [3, 'etcd', 'DELETE /registry/pods/default/web-1'],
      [11, 'etcd', 'DELETE /registry/pods/default/web-2'],
      [
        11,
        'gc',
        'remove finalizer foregroundDeletion from replicasets/web: no dependent with blockOwnerDeletion is left',
      ],
      [11, 'apiserver', 'PATCH replicasets/web'],
      [11, 'etcd', 'DELETE /registry/replicasets/default/web'],
    ]);
    expect(requestsBy(c, t0, GC).slice(2)).to.deep.equal(['PATCH replicasets/web']);
  });

  it('processDeletingDependentsItem: a dependent with blockOwnerDeletion false is deleted too, but the owner does not wait for it', () => {
    const { c, t0 } = owned({ block: [true, false], exitAfterMs: [2000, 20_000] });
    deleteRs(c, 'web', 'Foreground');
    c.advance(5000);
    expect(storedRs(c, 'web'), 'gone once the blocking web-1 is gone').to.equal(undefined);
    expect(
      stored(c, 'web-2')?.metadata.deletionTimestamp,
      'the non-blocking web-2 was deleted as well, and still terminates',
    ).to.equal(toTime(t0 + 30_000));
    expectTimeline(c, t0, [
      [0, 'gc', 'delete pods/web-2: its owner replicasets/web is being deleted in the foreground'],
      [3, 'etcd', 'DELETE /registry/pods/default/web-1'],
      [3, 'gc', 'remove finalizer foregroundDeletion from replicasets/web'],
      [3, 'etcd', 'DELETE /registry/replicasets/default/web'],
    ]);
  });

  it('removeFinalizer: only foregroundDeletion is taken off (a JSON merge patch with the resourceVersion); another finalizer keeps the owner', () => {
    const { c, t0 } = owned({ rsFinalizers: ['example.com/keep'] });
    deleteRs(c, 'web', 'Foreground');
    expect(storedRs(c, 'web')?.metadata.finalizers).to.deep.equal(['example.com/keep', 'foregroundDeletion']);
    c.advance(10_000);
    const rs = storedRs(c, 'web');
    expect(rs?.metadata.finalizers).to.deep.equal(['example.com/keep']);
    expect(rs?.metadata.deletionTimestamp).to.equal(toTime(t0));
    expect(requestsBy(c, t0, GC).filter((r) => r.startsWith('PATCH'))).to.deep.equal(['PATCH replicasets/web']);
  });
});

describe('GarbageCollector: Foreground propagation with a second owner (C2)', () => {
  it('attemptToDeleteItem + addUnblockedOwnersToDeleteQueue: a dependent with another live owner drops its reference to the owner waiting in the foreground, which frees that owner', () => {
    const c = new Cluster({ controllers: WITHOUT_RS_CONTROLLER });
    c.addNode(NODE);
    const a = replicaSet(c, 'a');
    const b = replicaSet(c, 'b');
    createPod(c, 'shared', { metadata: { ownerReferences: [ownerRef(a), { ...ownerRef(b), controller: false }] } });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    deleteRs(c, 'a', 'Foreground');
    expect(requestsBy(c, t0, GC)).to.deep.equal(['PATCH pods/shared', 'PATCH replicasets/a']);
    expect(storedRs(c, 'a')).to.equal(undefined);
    expect(stored(c, 'shared')?.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['b']);
    expect(stored(c, 'shared')?.metadata.deletionTimestamp).to.equal(undefined);
    expectTimeline(c, t0, [
      [
        0,
        'gc',
        'remove ownerReferences of pods/shared to replicasets/a (deleting in the foreground): it still has owner replicasets/b',
      ],
      [0, 'gc', 'remove finalizer foregroundDeletion from replicasets/a'],
      [0, 'etcd', 'DELETE /registry/replicasets/default/a'],
    ]);
  });
});

describe('GarbageCollector: Orphan propagation (C3)', () => {
  it('attemptToOrphanWorker: ownerReferences are removed from every dependent, then the orphan finalizer, and the owner goes; the pods keep running', () => {
    const { c, t0 } = owned();
    deleteRs(c, 'web', 'Orphan');
    expect(requestsBy(c, t0, GC)).to.deep.equal(['PATCH pods/web-1', 'PATCH pods/web-2', 'PATCH replicasets/web']);
    expect(storedRs(c, 'web')).to.equal(undefined);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE replicasets/web propagationPolicy=Orphan'],
      [0, 'etcd', 'PUT /registry/replicasets/default/web'],
      [0, 'gc', 'orphan pods/web-1: remove its ownerReference to replicasets/web'],
      [0, 'gc', 'orphan pods/web-2: remove its ownerReference to replicasets/web'],
      [0, 'gc', 'remove finalizer orphan from replicasets/web: its dependents are orphaned'],
      [0, 'etcd', 'DELETE /registry/replicasets/default/web'],
    ]);
    c.advance(10 * 60_000);
    for (const name of ['web-1', 'web-2']) {
      const pod = stored(c, name);
      expect(pod?.metadata.ownerReferences, name).to.equal(undefined);
      expect(pod?.metadata.deletionTimestamp, name).to.equal(undefined);
      expect(pod?.status?.phase, name).to.equal('Running');
    }
    expectNo(c, t0, 'apiserver', 'DELETE pods/');
  });
});

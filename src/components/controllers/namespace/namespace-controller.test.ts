import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Namespace } from '../../../apimachinery/types';
import { Cluster, USER } from '../../../cluster/cluster';
import { Release } from '../../../foundation/release';
import { formatTimeline } from '../../../foundation/timeline/text';

/** A cluster with namespace "team" and a node; its pods are created by each test. */
function cluster(release?: Release) {
  const c = new Cluster(release ? { release } : {});
  c.apiserver.ensureSystemNamespaces();
  c.addNode('node-1');
  c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'team' } } as Namespace);
  return c;
}
const ns = (c: Cluster) => {
  const r = c.apiserver.get('namespaces', undefined, 'team');
  return r.ok ? r.object : undefined;
};
const condition = (c: Cluster, type: string) => ns(c)?.status?.conditions?.find((x) => x.type === type);
const pod = (name: string, extra: { finalizers?: string[]; grace?: number } = {}) => ({
  metadata: { name, ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
  spec: {
    nodeName: 'node-1',
    containers: [{ name: 'app' }],
    ...(extra.grace !== undefined ? { terminationGracePeriodSeconds: extra.grace } : {}),
  },
});
const timeline = (c: Cluster, t0: number) => formatTimeline(c.timeline.since(t0), t0);

describe('namespaces in the apiserver (pkg/registry/core/namespace)', () => {
  it('R120 a new namespace is Active, with the kubernetes finalizer and its name label; an update keeps spec.finalizers and status', () => {
    const c = cluster();
    expect(ns(c)).to.deep.include({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    expect(ns(c)!.metadata.labels).to.deep.equal({ 'kubernetes.io/metadata.name': 'team' });
    const r = c.apiserver.update(USER, 'namespaces', undefined, {
      ...ns(c)!,
      spec: { finalizers: [] },
      status: { phase: 'Terminating' },
    });
    expect(r.ok && r.object).to.deep.include({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    const bad = c.apiserver.update(
      USER,
      'namespaces',
      undefined,
      { ...ns(c)!, status: { phase: 'Terminating' } },
      { subresource: 'status' },
    );
    expect(!bad.ok && bad.status.message).to.equal(
      'Namespace "team" is invalid: status.Phase: Invalid value: "Terminating": A namespace may only be in active status if it does not have a deletion timestamp.',
    );
  });

  it('R121 the first DELETE stamps deletionTimestamp and Terminating and answers with the namespace; a second one answers with it unchanged; a wrong uid precondition is a Conflict', () => {
    const c = cluster();
    const uid = ns(c)!.metadata.uid;
    const wrong = c.apiserver.delete(USER, 'namespaces', undefined, 'team', { preconditions: { uid: 'other' } });
    expect(!wrong.ok && wrong.status.message).to.equal(
      `Operation cannot be fulfilled on namespaces "team": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    );
    const first = c.apiserver.delete(USER, 'namespaces', undefined, 'team', { propagationPolicy: 'Background' });
    expect(first.ok && first.code).to.equal(200);
    const stamped = first.ok ? (first.object as Namespace) : undefined;
    expect(stamped?.status?.phase).to.equal('Terminating');
    expect(stamped?.metadata.deletionTimestamp).to.equal('2025-01-01T00:00:00Z');
    expect(stamped?.spec?.finalizers).to.deep.equal(['kubernetes']);
    const second = c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
    expect(second.ok && (second.object as Namespace).metadata.resourceVersion).to.equal(
      stamped?.metadata.resourceVersion,
    );
  });

  it('R122 a create (and an eviction) in a terminating namespace is 403 Forbidden with the NamespaceTerminating cause', () => {
    const c = cluster();
    c.apiserver.create(USER, 'pods', 'team', pod('held', { finalizers: ['example.com/hold'] }));
    c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
    const r = c.apiserver.create(USER, 'pods', 'team', pod('late'));
    expect(!r.ok && r.code).to.equal(403);
    expect(!r.ok && r.status.message).to.equal(
      'pods "late" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
    expect(!r.ok && r.status.details?.causes).to.deep.equal([
      { reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' },
    ]);
    const e = c.apiserver.evict(USER, 'team', 'held', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'held', namespace: 'team' },
    });
    expect(!e.ok && e.status.message).to.equal(
      'pods "held" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
  });
});

describe('the namespace controller (pkg/controller/namespace)', () => {
  it('C10 C11 a pod finalizer nobody removes: the conditions name it, the controller looks again every 15/2+1 s; once it is removed the namespace is emptied, finalized and gone', () => {
    const c = cluster();
    c.apiserver.create(USER, 'pods', 'team', pod('held', { finalizers: ['example.com/hold'] }));
    c.advance(60_000);
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
    c.advance(60_000);
    const text = timeline(c, t0);
    // The first look 5 s after the DELETE: the pod's 30 s grace is the estimate (30/2+1 = 16 s).
    expect(text).to.match(/T\+5s\s+apiserver DELETECOLLECTION pods propagationPolicy=Background/);
    expect(text).to.match(/T\+5s\s+namespace namespace team: content remaining, estimate 30s: sync again in 16s/);
    // Terminal (the container died of SIGTERM), held by its finalizer: 15 s, so every 8 s.
    expect(text).to.match(/namespace team: content remaining, estimate 15s: sync again in 8s/);
    expect(condition(c, 'NamespaceContentRemaining')).to.include({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
    expect(condition(c, 'NamespaceFinalizersRemaining')).to.include({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect(condition(c, 'NamespaceDeletionContentFailure')).to.include({
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    });
    expect(condition(c, 'NamespaceDeletionDiscoveryFailure')).to.include({
      status: 'False',
      reason: 'ResourcesDiscovered',
    });
    expect(condition(c, 'NamespaceDeletionGroupVersionParsingFailure')).to.include({
      status: 'False',
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
    });
    expect(ns(c)!.status?.conditions?.map((x) => x.type)).to.deep.equal([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    const held = c.apiserver.get('pods', 'team', 'held');
    c.apiserver.patch(USER, 'pods', 'team', 'held', 'json', [{ op: 'remove', path: '/metadata/finalizers' }]);
    expect(held.ok).to.equal(true);
    c.advance(10_000);
    expect(ns(c)).to.equal(undefined);
    expect(timeline(c, t0))
      .to.match(/namespace team is empty: finalize/)
      .and.match(/UPDATE namespaces\/team\/finalize → 200/);
  });

  it('C12 V41 with OrderedNamespaceDeletion (v1.33) other kinds wait while a pod remains; up to v1.32 every kind goes in the same pass', () => {
    for (const [minor, first] of [
      [33, false],
      [32, true],
    ] as const) {
      const c = cluster(Release.of(minor));
      c.apiserver.create(USER, 'pods', 'team', pod('web', { grace: 30 }));
      c.advance(60_000);
      const t0 = c.clock.now();
      c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
      c.advance(5_000);
      expect(/DELETECOLLECTION replicasets/.test(timeline(c, t0)), `v1.${minor}`).to.equal(first);
    }
  });

  it('C12 content that neither goes nor has a finalizer is a ContentDeletionFailed condition (a pod past its grace on a node that is gone)', () => {
    const c = cluster();
    c.apiserver.create(USER, 'pods', 'team', {
      metadata: { name: 'lost' },
      spec: { nodeName: 'gone-node', containers: [{ name: 'app' }], terminationGracePeriodSeconds: 1 },
    });
    c.advance(1000);
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'namespaces', undefined, 'team', {});
    c.advance(5_000);
    // No kubelet finishes it, and pod GC waits 40 s before it force-deletes a pod of a missing node.
    expect(c.apiserver.get('pods', 'team', 'lost').ok).to.equal(true);
    expect(condition(c, 'NamespaceDeletionContentFailure')).to.include({
      status: 'True',
      reason: 'ContentDeletionFailed',
      message:
        'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: team for gvr: /v1, Resource=pods',
    });
    expect(timeline(c, t0)).to.match(/retried with back-off/);
  });
});

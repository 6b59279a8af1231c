/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go
 * updateStatefulSet, processReplica, processCondemned) in a whole cluster; pods are bound by the
 * test (bindNewPods).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod, StatefulSet } from '../../../apimachinery/types';
import { Cluster, USER } from '../../../cluster/cluster';
import type { ContainerBehaviour } from '../../kubelet/runtime';
import { Release } from '../../../foundation/release';
import { bindNewPods, eventsOf, podsNow } from '../workload-testing';
import { editRaw } from '../../../apiserver/testing';
import { podReadyTime } from '../../../helpers/pod-util';

const NODE = 'node-1';

function cluster(o: { release?: Release; behaviour?: Partial<ContainerBehaviour> } = {}): Cluster {
  const c = new Cluster({ release: o.release });
  c.addNode(NODE);
  bindNewPods(c, NODE, () => o.behaviour);
  c.advance(10_000);
  return c;
}

function createSet(
  c: Cluster,
  name: string,
  replicas: number,
  spec: Partial<NonNullable<StatefulSet['spec']>> = {},
): StatefulSet {
  const r = c.apiserver.create(USER, 'statefulsets', 'default', {
    metadata: { name },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app' }] } },
      ...spec,
    },
  });
  if (!r.ok) expect.fail(`statefulset ${name}: ${r.status.message}`);
  return r.object;
}

function scale(c: Cluster, name: string, replicas: number): void {
  const r = c.apiserver.patch(USER, 'statefulsets', 'default', name, 'merge', { spec: { replicas } });
  if (!r.ok) expect.fail(r.status.message);
}

const names = (pods: readonly Pod[]): string[] =>
  pods.map((p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}`);

/** The reasons of the Events recorded about anything. */
const reasons = (c: Cluster): string[] => {
  const r = c.apiserver.list('events', 'default');
  return r.ok ? r.object.items.map((e) => (e as { reason?: string }).reason ?? '') : [];
};

/** Pod creations in order, from the apiserver lane. */
const creations = (c: Cluster): string[] => eventsOf(c, 'apiserver').filter((t) => /^CREATE pods\/db-\d+$/.test(t));

describe('statefulset controller (pkg/controller/statefulset)', () => {
  it('W50 OrderedReady creates db-0, db-1, db-2 one after the other, each once its predecessor is Running and Ready; pods carry the identity labels and the revision hash', () => {
    const c = cluster();
    createSet(c, 'db', 3);
    c.advance(5000);
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1', 'db-2']);
    // The kubelet starts a pod at once here, so the order shows in the requests: each CREATE after its predecessor's Running status.
    const api = eventsOf(c, 'apiserver').filter((t) => /^(CREATE pods\/db-\d+|PATCH pods\/db-\d+\/status)$/.test(t));
    expect(api.indexOf('CREATE pods/db-1')).to.be.greaterThan(api.indexOf('PATCH pods/db-0/status'));
    expect(api.indexOf('CREATE pods/db-2')).to.be.greaterThan(api.indexOf('PATCH pods/db-1/status'));
    expect(eventsOf(c, 'statefulset')).to.include('statefulsets/db waits for pods/db-0 to be Running and Ready');
    const pod = podsNow(c)[1];
    const revisions = c.apiserver.list('controllerrevisions', 'default');
    const revision = revisions.ok ? revisions.object.items : [];
    expect(revision.map((r) => r.revision)).to.deep.equal([1]);
    expect(pod.metadata.labels).to.deep.include({
      app: 'db',
      'statefulset.kubernetes.io/pod-name': 'db-1',
      'apps.kubernetes.io/pod-index': '1',
      'controller-revision-hash': revision[0].metadata.name,
    });
    expect(pod.spec).to.include({ hostname: 'db-1', subdomain: 'db' });
    const set = c.apiserver.get('statefulsets', 'default', 'db');
    expect(set.ok && set.object.status).to.include({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
    });
  });

  it('W50 before v1.28 (PodIndexLabel) pods have no apps.kubernetes.io/pod-index label; the PVC retention policy is defaulted from v1.27 (StatefulSetAutoDeletePVC β)', () => {
    const old = cluster({ release: Release.of(27) });
    const set27 = createSet(old, 'db', 1);
    old.advance(1000);
    expect(podsNow(old)[0].metadata.labels).to.not.have.property('apps.kubernetes.io/pod-index');
    expect(set27.spec?.persistentVolumeClaimRetentionPolicy).to.deep.equal({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect(createSet(cluster({ release: Release.of(26) }), 'db', 1).spec).to.not.have.property(
      'persistentVolumeClaimRetentionPolicy',
    );
  });

  it('W51 Parallel creates every pod at once', () => {
    const c = cluster();
    createSet(c, 'db', 3, { podManagementPolicy: 'Parallel' });
    c.flush();
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1', 'db-2']);
  });

  it('W52 a scale-down deletes from the highest ordinal and waits for each pod to be gone before the next', () => {
    const c = cluster({ behaviour: { sigterm: { kind: 'exits', afterMs: 10_000 } } });
    createSet(c, 'db', 3);
    c.advance(5000);
    scale(c, 'db', 1);
    c.advance(5000);
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1', 'db-2 (terminating)']);
    c.advance(8000);
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1 (terminating)']);
    c.advance(20_000);
    expect(names(podsNow(c))).to.deep.equal(['db-0']);
    const texts = eventsOf(c, 'statefulset');
    expect(texts).to.include('statefulsets/db waits for pods/db-2 to terminate prior to scale down');
    expect(texts.filter((t) => t.includes('scales down'))).to.deep.equal([
      'statefulsets/db scales down: delete pods/db-2 (the highest ordinal)',
      'statefulsets/db scales down: delete pods/db-1 (the highest ordinal)',
    ]);
  });

  it('W53 a pod being deleted is not replaced until it has left the API; once it is gone (force delete) the same name is created again — and runs beside the old process still on the lost node', () => {
    const c = new Cluster();
    c.addNode(NODE);
    c.addNode('node-2');
    let bound = 0;
    bindNewPods(
      c,
      () => (bound++ === 0 ? NODE : 'node-2'),
      () => ({ sigterm: { kind: 'ignores' } }),
    );
    c.advance(10_000);
    createSet(c, 'db', 1);
    c.advance(5000);
    c.node(NODE).setReachable(false);
    c.apiserver.delete(USER, 'pods', 'default', 'db-0', {});
    c.advance(600_000);
    expect(names(podsNow(c))).to.deep.equal(['db-0 (terminating)']);
    const oldUid = podsNow(c)[0].metadata.uid;
    c.apiserver.delete(USER, 'pods', 'default', 'db-0', { gracePeriodSeconds: 0 });
    c.flush();
    const [replacement] = podsNow(c);
    expect(replacement.metadata.name).to.equal('db-0');
    expect(replacement.metadata.uid).to.not.equal(oldUid);
    expect(creations(c)).to.deep.equal(['CREATE pods/db-0', 'CREATE pods/db-0']);
    c.advance(1000);
    expect(eventsOf(c, 'runtime').filter((t) => t.startsWith('double run'))).to.deep.equal([
      `double run pods/db-0: started while another pods/db-0 (uid ${oldUid}) still runs on node node-1, which no API object stands for any more`,
    ]);
  });

  it('W54 up to v1.33 minReadySeconds: db-1 is created only once db-0 has been ready longer than that (availableReplicas follows)', () => {
    const c = cluster({ release: Release.of(33) });
    createSet(c, 'db', 2, { minReadySeconds: 10 });
    c.advance(5000);
    expect(names(podsNow(c))).to.deep.equal(['db-0']);
    const set = c.apiserver.get('statefulsets', 'default', 'db');
    expect(set.ok && set.object.status).to.include({ readyReplicas: 1, availableReplicas: 0 });
    c.advance(7000);
    // 1.33 (IsPodAvailable: ready time + minReadySeconds strictly before now): the look again
    // exactly minReadySeconds after db-0 turned ready finds it not yet available; the next one does.
    expect(names(podsNow(c))).to.deep.equal(['db-0']);
    c.advance(9000);
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1']);
  });

  it('W54 from 1.34 a pod ready for exactly minReadySeconds is available (#132122): db-1 comes one look earlier', () => {
    const c = cluster({ release: Release.of(34) });
    createSet(c, 'db', 2, { minReadySeconds: 10 });
    c.advance(5000);
    expect(names(podsNow(c))).to.deep.equal(['db-0']);
    c.advance(7000);
    expect(names(podsNow(c))).to.deep.equal(['db-0', 'db-1']);
  });

  /**
   * Parallel, minReadySeconds 10, db-1 ready 5 s after db-0 (its image pull takes 4 s longer): the moment availableReplicas reaches 2,
   * against the moment db-1 has been ready for 10 s.
   */
  function bothAvailable(release: Release): { lateMs: number; readyGapMs: number } {
    const c = new Cluster({ release });
    c.addNode(NODE);
    bindNewPods(c, NODE, (pod) => (pod.metadata.name === 'db-1' ? { pullMs: 4000 } : undefined));
    c.advance(10_000);
    createSet(c, 'db', 2, { minReadySeconds: 10, podManagementPolicy: 'Parallel' });
    for (let i = 0; i < 60; i++) {
      c.advance(1000);
      const set = c.apiserver.get('statefulsets', 'default', 'db');
      if (!set.ok || set.object.status?.availableReplicas !== 2) continue;
      const [db0, db1] = podsNow(c).map((p) => podReadyTime(p)!);
      return { lateMs: c.clock.now() - (db1 + 10_000), readyGapMs: db1 - db0 };
    }
    return expect.fail('availableReplicas never reached 2');
  }

  it('V69 up to v1.35 availableReplicas counts a later-ready pod only at the next minReadySeconds look (#119352)', () => {
    const r = bothAvailable(Release.of(35));
    expect(r.readyGapMs).to.equal(5000);
    // The look planned 10 s after db-0 turned ready finds db-1 not yet available and plans the next
    // one 10 s later; db-1's own look (10 s after it turned ready) is dropped, the earlier one being
    // due: db-1 counts at db-0 + 20 s = db-1 + 15 s, 5 s late.
    expect(r.lateMs).to.equal(5000);
  });

  it('V69 from v1.36 availableReplicas counts each pod when its minReadySeconds is over (#135428)', () => {
    const r = bothAvailable(Release.of(36));
    expect(r.readyGapMs).to.equal(5000);
    // FindMinNextPodAvailabilityCheck: the look after db-0's is planned for db-1's moment.
    expect(r.lateMs).to.equal(0);
  });

  it('W55 up to v1.29 a Failed pod is deleted and created again in one pass, with a RecreatingFailedPod event (processReplica)', () => {
    const c = cluster({ release: Release.of(29), behaviour: { exitsOnItsOwn: 1, runsForMs: 3000 } });
    const r = c.apiserver.create(USER, 'statefulsets', 'default', {
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'app' }] } },
      },
    });
    expect(r.ok).to.equal(true);
    // ValidateStatefulSetSpec refuses a template restarting Never (R242): the pod that fails for
    // good is made by editing the stored object, as a StatefulSet written before that check would be.
    editRaw<StatefulSet>(c.apiserver.etcd, '/registry/statefulsets/default/db', (s) => {
      s.spec!.template.spec!.restartPolicy = 'Never';
    });
    c.advance(10_000);
    expect(eventsOf(c, 'statefulset')).to.include('statefulsets/db recreates Failed pods/db-0');
    expect(reasons(c)).to.include('RecreatingFailedPod');
    expect(creations(c).length).to.be.greaterThan(1);
  });

  it('W55 from v1.30 a Failed pod is deleted without an event, and its successor is created by a later sync once it is gone (kubernetes#123809)', () => {
    const c = cluster({ release: Release.of(30), behaviour: { exitsOnItsOwn: 1, runsForMs: 3000 } });
    c.apiserver.create(USER, 'statefulsets', 'default', {
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'app' }] } },
      },
    });
    // As above: a template restarting Never, written into storage.
    editRaw<StatefulSet>(c.apiserver.etcd, '/registry/statefulsets/default/db', (s) => {
      s.spec!.template.spec!.restartPolicy = 'Never';
    });
    c.advance(10_000);
    expect(eventsOf(c, 'statefulset')).to.include(
      'statefulsets/db deletes Failed pods/db-0; its successor comes once it is gone',
    );
    expect(reasons(c).filter((r) => r.startsWith('Recreating'))).to.deep.equal([]);
    expect(creations(c).length).to.be.greaterThan(1);
  });
});

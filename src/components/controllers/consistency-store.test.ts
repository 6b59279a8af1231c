/**
 * The staleness mitigation of v1.36 (KEP-5647; rule V42 of docs/rules/versions.md): the consistency
 * store (pkg/controller/util/consistency) and the four controllers that skip a sync while their
 * cache is older than their own last write.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DEFAULT_APISERVER_OPTIONS } from '../../apiserver/apiserver';
import type { KubeObject } from '../../apimachinery/object';
import { Cluster, USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { ConsistencyStore } from './consistency-store';
import { bindNewPods, eventsOf, podsNow } from './workload-testing';

const owner = (uid: string): KubeObject => ({ metadata: { namespace: 'default', name: 'web', uid } });

describe('consistency store (pkg/controller/util/consistency RealConsistencyStore)', () => {
  it('V42 EnsureReady: ready when nothing was written; stale while an informer is behind the newest write of a resource; ready (and forgotten) once it caught up', () => {
    const pods = { lastSyncResourceVersion: 10 };
    const sets = { lastSyncResourceVersion: 10 };
    const store = new ConsistencyStore({ pods, replicasets: sets });
    expect(store.ensureReady('default/web')).to.equal(undefined);
    store.wroteAt(owner('u1'), 'pods', '12');
    store.wroteAt(owner('u1'), 'pods', '11'); // an older write does not lower the mark
    store.wroteAt(owner('u1'), 'replicasets', '10');
    expect(store.ensureReady('default/web')).to.deep.equal({ resource: 'pods', read: 10, wrote: 12 });
    pods.lastSyncResourceVersion = 12;
    expect(store.ensureReady('default/web')).to.equal(undefined);
    // Forgotten once ready: an informer falling behind again (it cannot) would not matter.
    pods.lastSyncResourceVersion = 0;
    expect(store.ensureReady('default/web')).to.equal(undefined);
  });

  it('V42 a write for an owner of another uid (the same name re-created) replaces the record; Clear with a uid clears only that owner; a version that is not a number is never compared', () => {
    const pods = { lastSyncResourceVersion: 5 };
    const store = new ConsistencyStore({ pods });
    store.wroteAt(owner('u1'), 'pods', '9');
    store.wroteAt(owner('u2'), 'pods', '6');
    expect(store.ensureReady('default/web')).to.deep.equal({ resource: 'pods', read: 5, wrote: 6 });
    store.clear('default/web', 'u1');
    expect(store.ensureReady('default/web')?.wrote).to.equal(6);
    store.clear('default/web', 'u2');
    expect(store.ensureReady('default/web')).to.equal(undefined);
    store.wroteAt(owner('u3'), 'pods', 'opaque');
    expect(store.ensureReady('default/web')).to.equal(undefined);
  });
});

/** A cluster whose watches deliver 100 ms late, so that a controller's informer can be behind its own writes. */
function laggingCluster(release: Release): Cluster {
  const c = new Cluster({ release, apiserver: { ...DEFAULT_APISERVER_OPTIONS, watchLatencyMs: 100 } });
  c.addNode('node-1');
  bindNewPods(c, 'node-1');
  c.advance(10_000);
  return c;
}

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'app' }] } });

function createWorkloads(c: Cluster): void {
  const create = (resource: 'replicasets' | 'statefulsets' | 'daemonsets' | 'jobs', body: object) => {
    const r = c.apiserver.create(USER, resource, 'default', body as never);
    if (!r.ok) expect.fail(`${resource}: ${r.status.message}`);
  };
  create('replicasets', {
    metadata: { name: 'web' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template('web') },
  });
  create('statefulsets', {
    metadata: { name: 'db' },
    spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
  });
  create('daemonsets', {
    metadata: { name: 'agent' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
  });
  create('jobs', {
    metadata: { name: 'pi' },
    spec: { template: { ...template('pi'), spec: { containers: [{ name: 'app' }], restartPolicy: 'Never' } } },
  });
}

const skips = (c: Cluster, component: string, t0: number) =>
  eventsOf(c, component, t0).filter((t) => t.startsWith('skips sync of'));

describe('staleness mitigation of the ReplicaSet, StatefulSet, DaemonSet and Job controllers (v1.36)', () => {
  it('V42 from v1.36 each controller skips a sync while its informer has not seen its own last write, says so, and retries with back-off; the end state is the same', () => {
    const c = laggingCluster(Release.of(36));
    const t0 = c.clock.now();
    createWorkloads(c);
    c.advance(10_000);
    expect(skips(c, 'replicaset', t0)[0]).to.match(
      /^skips sync of rs\/web: cache older than its last write \(its (pods|replicasets) cache has read resourceVersion \d+, older than its last write \d+\)$/,
    );
    expect(skips(c, 'statefulset', t0)[0]).to.match(/^skips sync of sts\/db: cache older than its last write/);
    expect(skips(c, 'daemonset', t0)[0]).to.match(/^skips sync of ds\/agent: cache older than its last write/);
    // The Job controller batches its pod events by 1 s (enqueueSyncJobBatched), and a uniform watch
    // delay hands it its own pod writes before its own Job writes: its cache is never behind here.
    expect(skips(c, 'job', t0)).to.deep.equal([]);
    const source = c.timeline.since(t0).find((e) => e.text.startsWith('skips sync of rs/web'))!.source;
    expect(source).to.equal(
      'pkg/controller/replicaset/replica_set.go syncReplicaSet (kubernetes#137212) → consistencyStore.EnsureReady (KEP-5647)',
    );
    const byOwner = (prefix: string) =>
      podsNow(c).filter((p) => p.metadata.name!.startsWith(prefix) && !p.metadata.deletionTimestamp).length;
    expect([byOwner('web-'), byOwner('db-'), byOwner('agent-')]).to.deep.equal([3, 2, 1]);
  });

  it('V42 up to v1.35, and on v1.36 with the gates off, no sync is skipped', () => {
    for (const release of [
      Release.of(35),
      Release.of(36, {
        StaleControllerConsistencyReplicaSet: false,
        StaleControllerConsistencyStatefulSet: false,
        StaleControllerConsistencyDaemonSet: false,
        StaleControllerConsistencyJob: false,
      }),
    ]) {
      const c = laggingCluster(release);
      const t0 = c.clock.now();
      createWorkloads(c);
      c.advance(10_000);
      for (const component of ['replicaset', 'statefulset', 'daemonset', 'job'])
        expect(skips(c, component, t0), `${release} ${component}`).to.deep.equal([]);
    }
  });

  it('V42 the gates are unknown before v1.36', () => {
    expect(() => Release.of(35, { StaleControllerConsistencyJob: false })).to.throw(
      'unrecognized feature gate: StaleControllerConsistencyJob',
    );
  });
});

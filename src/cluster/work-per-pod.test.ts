import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from './cluster';

/**
 * No component may do, per pod, work that grows with the other pods of its node (or of the
 * cluster): the status manager's unsent set, the volume manager's unmounting set and the shared
 * pod informer's spec.nodeName index exist so that one pod's change does not walk its node's pods.
 * Timing that would depend on the machine; this counts instead: every element handed out by a Map
 * or Set iterator (for…of, spread, keys/values/entries) and the length of every array a builtin
 * array method walks, during a graceful deletion of pods that each mount an emptyDir volume.
 * A pass over a node's pods per pod event makes the count per pod grow with the pods per node, and
 * a pass over every pod of the cluster grows with the pods: each of these, put back on purpose,
 * failed here — the status manager visiting every cached status on each change (38 → 248 Map/Set
 * elements per pod on 2 nodes, 54 on 30), the volume reconciler walking every pod of the node for
 * the removed ones (83 vs 46), taint eviction finding a changed pod by LIST instead of the
 * informer's cache (1 974 → 3 813 array elements per pod from 300 to 600 pods). Counts are exact
 * and deterministic, so the 10 % margins only absorb the per-node work (node status, leases).
 */
interface Visits {
  /** Elements out of Map and Set iterators. */
  iterated: number;
  /** Array elements handed to builtin array methods (each call counts the array's length). */
  walked: number;
}

function counting(run: () => void): Visits {
  const visits: Visits = { iterated: 0, walked: 0 };
  const restores: (() => void)[] = [];
  type Method = (this: never, ...a: unknown[]) => unknown;
  const patch = (proto: object, name: string | symbol, wrap: (orig: (...a: unknown[]) => unknown) => Method) => {
    const target = proto as Record<string | symbol, Method>;
    const orig = target[name];
    target[name] = wrap(orig);
    restores.push(() => (target[name] = orig));
  };
  const countingIterator = (orig: (...a: unknown[]) => unknown) =>
    function (this: unknown, ...a: unknown[]) {
      const it = orig.apply(this, a) as Iterator<unknown>;
      return {
        next() {
          const r = it.next();
          if (!r.done) visits.iterated += 1;
          return r;
        },
        [Symbol.iterator]() {
          return this;
        },
      };
    };
  const countingWalk = (orig: (...a: unknown[]) => unknown) =>
    function (this: unknown[], ...a: unknown[]) {
      visits.walked += this.length;
      return orig.apply(this, a);
    };
  for (const name of [Symbol.iterator, 'entries', 'keys', 'values']) patch(Map.prototype, name, countingIterator);
  for (const name of [Symbol.iterator, 'keys', 'values', 'entries']) patch(Set.prototype, name, countingIterator);
  for (const name of [
    'filter',
    'map',
    'some',
    'every',
    'find',
    'findIndex',
    'includes',
    'indexOf',
    'forEach',
    'sort',
    'slice',
    'reduce',
    'flatMap',
    'concat',
  ]) {
    patch(Array.prototype, name, countingWalk);
  }
  try {
    run();
  } finally {
    for (const restore of restores) restore();
  }
  return visits;
}

/** `pods` pods with an emptyDir volume over `nodes` nodes, running, then deleted gracefully until all are gone. */
function deleteAll(pods: number, nodes: number): void {
  const c = new Cluster({ record: 'summary' });
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  for (let i = 0; i < pods; i++) {
    const spec = {
      nodeName: `node-${i % nodes}`,
      containers: [{ name: 'app', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    };
    const r = c.apiserver.create(USER, 'pods', 'default', { metadata: { name: `pod-${i}` }, spec });
    if (!r.ok) throw new Error(r.status.message);
    c.node(`node-${i % nodes}`).containerBehaviours.set(`${r.object.metadata.uid} app`, {
      sigterm: { kind: 'exits', afterMs: 1000 },
      preStopMs: 0,
    });
  }
  c.advance(60_000);
  // Counted as etcd removes them: a LIST per step here would itself be the work per pod that grows.
  let left = pods;
  c.apiserver.etcd.subscribe((e) => {
    if (e.type === 'DELETE' && e.key.startsWith('/registry/pods/')) left -= 1;
  });
  // The DELETEs spread evenly over 6 virtual seconds, whatever the count: the pods terminate one
  // after another, as in a rollout or a drain, so a pass over the node's pods per termination (not
  // one for a whole burst) shows; and the periodic passes (housekeeping, which upstream also makes
  // over every pod) are as many for 600 pods as for 300.
  for (let i = 0; i < pods; i++) {
    c.apiserver.delete(USER, 'pods', 'default', `pod-${i}`, {});
    c.advance(6000 / pods);
  }
  if (!c.runUntil(() => left === 0, c.clock.now() + 5 * 60_000))
    throw new Error('the pods were not all gone after 5 virtual minutes');
}

const perPod = (v: Visits, pods: number) => ({ iterated: v.iterated / pods, walked: v.walked / pods });

describe('work per pod, whatever the pods of its node', () => {
  it('300 pods on 2 nodes cost per pod no more than on 30 nodes, and twice the pods on 2 nodes cost twice as much', () => {
    const crowded = perPod(
      counting(() => deleteAll(300, 2)),
      300,
    );
    const spread = perPod(
      counting(() => deleteAll(300, 30)),
      300,
    );
    const twice = perPod(
      counting(() => deleteAll(600, 2)),
      600,
    );
    // Some work is per node (node status, leases, the monitor loop): more nodes may cost more, never fewer.
    expect(crowded.iterated, 'Map/Set elements per pod, 2 nodes vs 30').to.be.at.most(spread.iterated * 1.1);
    expect(crowded.walked, 'array elements per pod, 2 nodes vs 30').to.be.at.most(spread.walked * 1.1);
    expect(twice.iterated, 'Map/Set elements per pod, 600 vs 300 pods on 2 nodes').to.be.at.most(
      crowded.iterated * 1.1,
    );
    expect(twice.walked, 'array elements per pod, 600 vs 300 pods on 2 nodes').to.be.at.most(crowded.walked * 1.1);
  });
});

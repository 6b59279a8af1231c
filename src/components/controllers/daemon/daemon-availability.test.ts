import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../../cluster/cluster';
import { Release } from '../../../foundation/release';
import { podReadyTime } from '../../../helpers/pod-util';
import { bindNewPods, podsNow } from '../workload-testing';
import { getTargetNodeName } from './daemonset-util';

/**
 * V76 — when the DaemonSet controller counts a ready pod as available. Two nodes, minReadySeconds
 * 10, the pod on node-2 ready 5 s after the one on node-1 (its image pull takes 4 s longer): how
 * late numberAvailable reaches 2, against the moment the second pod has been ready for 10 s.
 */
function bothAvailable(release: Release): { lateMs: number; readyGapMs: number } {
  const c = new Cluster({ release });
  for (const n of ['node-1', 'node-2']) c.addNode(n);
  bindNewPods(
    c,
    (pod) => getTargetNodeName(pod)!,
    (pod) => (getTargetNodeName(pod) === 'node-2' ? { pullMs: 4000 } : undefined),
  );
  c.advance(10_000);
  c.apiserver.create(USER, 'daemonsets', 'default', {
    metadata: { name: 'agent' },
    spec: {
      minReadySeconds: 10,
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent' }] } },
    },
  });
  for (let i = 0; i < 60; i++) {
    c.advance(1000);
    const ds = c.apiserver.get('daemonsets', 'default', 'agent');
    if (!ds.ok || ds.object.status?.numberAvailable !== 2) continue;
    const [first, second] = podsNow(c)
      .map((p) => podReadyTime(p)!)
      .sort((a, b) => a - b);
    return { lateMs: c.clock.now() - (second + 10_000), readyGapMs: second - first };
  }
  return expect.fail('numberAvailable never reached 2');
}

describe('DaemonSet numberAvailable and minReadySeconds (V76)', () => {
  it('through v1.36 the look is planned minReadySeconds after the sync, so the later pod counts up to minReadySeconds late', () => {
    for (const minor of [33, 36]) {
      const r = bothAvailable(Release.of(minor));
      expect(r.readyGapMs, `v1.${minor}`).to.equal(5000);
      // The look planned when the first pod turned ready is due first (the queue keeps the earliest).
      // From v1.34 it counts the first pod (available at exactly minReadySeconds) and plans the next
      // 10 s later; up to v1.33 it counts none (strictly after) and plans the next 10 s later — with
      // the status unchanged, which must not stop that look. Either way the second pod counts at
      // first + 20 s = second + 15 s, 5 s late.
      expect(r.lateMs, `v1.${minor}`).to.equal(5000);
    }
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../../cluster/cluster';
import { Release } from '../../../foundation/release';
import { podReadyTime } from '../../../helpers/pod-util';
import { bindNewPods, podsNow } from '../workload-testing';

const NODE = 'node-1';

/**
 * V75 — when the ReplicaSet controller counts a ready pod as available. Two replicas,
 * minReadySeconds 10, the second pod ready 5 s after the first (its image pull takes 4 s longer):
 * how late availableReplicas reaches 2, against the moment the second pod has been ready for 10 s.
 */
function bothAvailable(release: Release): { lateMs: number; readyGapMs: number } {
  const c = new Cluster({ release });
  c.addNode(NODE);
  let created = 0;
  bindNewPods(c, NODE, () => (created++ === 1 ? { pullMs: 4000 } : undefined));
  c.advance(10_000);
  c.apiserver.create(USER, 'replicasets', 'default', {
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      minReadySeconds: 10,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app' }] } },
    },
  });
  for (let i = 0; i < 60; i++) {
    c.advance(1000);
    const rs = c.apiserver.get('replicasets', 'default', 'web');
    if (!rs.ok || rs.object.status?.availableReplicas !== 2) continue;
    const [first, second] = podsNow(c)
      .map((p) => podReadyTime(p)!)
      .sort((a, b) => a - b);
    return { lateMs: c.clock.now() - (second + 10_000), readyGapMs: second - first };
  }
  return expect.fail('availableReplicas never reached 2');
}

describe('ReplicaSet availableReplicas and minReadySeconds (V75)', () => {
  it('up to v1.33 the later pod counts a whole minReadySeconds look late (kubernetes#108266)', () => {
    const r = bothAvailable(Release.of(33));
    expect(r.readyGapMs).to.equal(5000);
    // The first pod's update plans a look minReadySeconds + 1 s after it turned ready; the looks
    // planned later for the same key (the sync that saw both ready, the second pod's update) are
    // dropped, that one being due first. It counts the first pod only and plans the next look
    // minReadySeconds later: the second pod counts at first + 21 s = second + 16 s, 6 s late.
    expect(r.lateMs).to.equal(6000);
  });

  it('from v1.34 each pod counts when its minReadySeconds is over (FindMinNextPodAvailabilityCheck, #132121)', () => {
    const r = bothAvailable(Release.of(34));
    expect(r.readyGapMs).to.equal(5000);
    expect(r.lateMs).to.equal(0);
    expect(bothAvailable(Release.of(36)).lateMs).to.equal(0);
  });
});

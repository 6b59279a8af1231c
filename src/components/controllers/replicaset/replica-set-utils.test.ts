import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import { deletionCost, rankReason, UIDTrackingExpectations } from '../controller-utils';
import { getPodsToDelete, slowStartBatch } from './replica-set-utils';

const NOW = Date.UTC(2025, 0, 1, 1, 0, 0);

function pod(
  name: string,
  o: {
    node?: string;
    phase?: string;
    readySince?: number;
    cost?: string;
    restarts?: number;
    createdAgo?: number;
    uid?: string;
  } = {},
): Pod {
  return {
    metadata: {
      name,
      uid: o.uid ?? name,
      creationTimestamp: toTime(NOW - (o.createdAgo ?? 3600_000)),
      ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': o.cost } } : {}),
    },
    spec: { containers: [{ name: 'app' }], ...(o.node === '' ? {} : { nodeName: o.node ?? 'n1' }) },
    status: {
      phase: o.phase ?? 'Running',
      conditions:
        o.readySince === undefined
          ? []
          : [{ type: 'Ready', status: 'True', lastTransitionTime: toTime(NOW - o.readySince) }],
      containerStatuses: [
        { name: 'app', restartCount: o.restarts ?? 0, ready: o.readySince !== undefined, image: '', imageID: '' },
      ],
    },
  };
}

const victims = (pods: Pod[], n: number, related: Pod[] = pods) =>
  getPodsToDelete(pods, related, n, NOW).victims.map((v) => v.pod.metadata.name);

describe('ReplicaSet scale-down ranking (W7, controller_utils.go ActivePodsWithRanks)', () => {
  it('W7 unassigned < assigned; Pending < Unknown < Running; not ready < ready', () => {
    expect(
      victims([pod('ready', { readySince: 60_000 }), pod('unassigned', { node: '', phase: 'Pending' })], 1),
    ).to.deep.equal(['unassigned']);
    expect(
      victims(
        [
          pod('running', { readySince: 60_000 }),
          pod('unknown', { phase: 'Unknown' }),
          pod('pending', { phase: 'Pending' }),
        ],
        2,
      ),
    ).to.deep.equal(['pending', 'unknown']);
    expect(victims([pod('ready', { readySince: 60_000 }), pod('not-ready')], 1)).to.deep.equal(['not-ready']);
  });

  it('W7 pod-deletion-cost comes after readiness and before everything else; invalid counts as 0', () => {
    const pods = [
      pod('cheap', { readySince: 1000, cost: '-5' }),
      pod('dear', { readySince: 10, cost: '10' }),
      pod('plain', { readySince: 3600_000 }),
    ];
    expect(victims(pods, 2)).to.deep.equal(['cheap', 'plain']);
    expect([
      deletionCost(pod('x', { cost: 'abc' })),
      deletionCost(pod('x', { cost: '2147483648' })),
      deletionCost(pod('x', { cost: '-7' })),
    ]).to.deep.equal([0, 0, -7]);
    expect(
      victims([pod('not-ready', { cost: '1000' }), pod('ready', { readySince: 5000, cost: '-1000' })], 1),
    ).to.deep.equal(['not-ready']);
  });

  it('W7 more related pods on its node first, then ready for less time (log2 scale), more restarts, newer', () => {
    const a = pod('alone', { node: 'n1', readySince: 60_000 });
    const b = pod('crowded', { node: 'n2', readySince: 60_000 });
    expect(victims([a, b], 1, [a, b, pod('other', { node: 'n2', readySince: 1 })])).to.deep.equal(['crowded']);
    expect(victims([pod('old', { readySince: 3600_000 }), pod('young', { readySince: 10_000 })], 1)).to.deep.equal([
      'young',
    ]);
    // 40 s and 50 s are the same power of two in nanoseconds: that tie is decided by UID at once.
    expect(
      victims(
        [pod('p50', { readySince: 50_000, uid: 'b' }), pod('p40', { readySince: 40_000, uid: 'a', restarts: 0 })],
        1,
      ),
    ).to.deep.equal(['p40']);
    expect(
      victims([pod('calm', { readySince: 40_000 }), pod('flaky', { readySince: 40_000, restarts: 3 })], 1),
    ).to.deep.equal(['flaky']);
    expect(
      victims(
        [
          pod('older', { readySince: 40_000, createdAgo: 7200_000 }),
          pod('newer', { readySince: 40_000, createdAgo: 600_000 }),
        ],
        1,
      ),
    ).to.deep.equal(['newer']);
  });

  it('W7 the timeline names the criterion that set the victim apart', () => {
    const pods = [pod('cheap', { readySince: 1000, cost: '-5' }), pod('plain', { readySince: 1000 })];
    const {
      victims: [v],
      firstKept,
    } = getPodsToDelete(pods, pods, 1, NOW);
    expect(rankReason(v, firstKept, NOW)).to.equal('pod-deletion-cost -5');
    expect(rankReason(v, undefined, NOW)).to.equal('no pod is kept');
  });
});

describe('ReplicaSet controller helpers (W6)', () => {
  it('W6 slowStartBatch: batches of 1, 2, 4 …; a failing batch ends it after running in full', () => {
    const calls: number[] = [];
    let n = 0;
    expect(slowStartBatch(10, 1, () => void calls.push(++n))).to.deep.equal({ successes: 10 });
    n = 0;
    const r = slowStartBatch(10, 1, () => (++n === 2 ? 'boom' : undefined));
    // Batch 1 (call 1) succeeds, batch 2 (calls 2–3) has a failure: 2 successes, no batch 3.
    expect(r).to.deep.equal({ successes: 2, error: 'boom' });
    expect(n).to.equal(3);
  });

  it('W6 expectations: creations counted, deletions by pod key (observed once), expired after 5 minutes', () => {
    let now = 0;
    const e = new UIDTrackingExpectations(() => now);
    e.expectCreations('ns/rs', 2);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).to.equal(false);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).to.equal(true);
    e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
    e.deletionObserved('ns/rs', 'ns/a');
    e.deletionObserved('ns/rs', 'ns/a');
    expect(e.satisfied('ns/rs')).to.equal(false);
    now = 5 * 60_000 + 1;
    expect(e.satisfied('ns/rs')).to.equal(true);
  });
});

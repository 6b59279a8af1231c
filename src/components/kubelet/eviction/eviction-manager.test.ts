/**
 * The kubelet's eviction manager through a whole cluster (K71–K74): memory.available below a
 * threshold evicts one ranked pod per pass through killPodNow; the pod ends Failed/Evicted with
 * DisruptionTarget and stays in the API; the node reports MemoryPressure and gets the NoSchedule taint.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Event } from '../../../apimachinery/types';
import { Cluster } from '../../../cluster/cluster';
import { Release } from '../../../foundation/release';
import { DEFAULT_KUBELET_CONFIG } from '../kubelet';
import { condition, count, createPod, expectNo, expectTimeline, stored, WARMUP_MS, type PodOptions } from '../testing';
import { DEFAULT_EVICTION_CONFIG, type EvictionConfig } from './helpers';
import { MI } from './quantity';

const events = (c: Cluster, reason: string): Event[] => {
  const r = c.apiserver.list('events', 'default', (e) => e.reason === reason);
  return r.ok ? r.object.items : [];
};

const SOFT: EvictionConfig = {
  ...DEFAULT_EVICTION_CONFIG,
  evictionSoft: { 'memory.available': '500Mi' },
  evictionSoftGracePeriodMs: { 'memory.available': 30_000 },
  evictionMaxPodGracePeriodSeconds: 20,
};

/** A cluster whose node runs these pods (options by name) with this eviction configuration; returns T+0. */
function pods(
  specs: Record<string, PodOptions>,
  eviction: EvictionConfig = DEFAULT_EVICTION_CONFIG,
  release?: Release,
) {
  const c = new Cluster(release ? { release } : {});
  const node = c.addNode('node-1', { eviction });
  for (const [name, o] of Object.entries(specs)) createPod(c, name, o);
  c.advance(WARMUP_MS);
  return { c, node, t0: c.clock.now() };
}

const uses = (mi: number): PodOptions['containers'] => ({ app: { memoryBytes: mi * MI } });

describe('K71 node-pressure eviction (pkg/kubelet/eviction/eviction_manager.go synchronize)', () => {
  it('K71 K72 a hard threshold: the next 10 s pass evicts the ranked first pod with grace 1; Failed/Evicted, DisruptionTarget, the annotated Warning Event; not deleted', () => {
    const { c, node, t0 } = pods({ web: { containers: uses(300) } });
    node.comeUnderMemoryPressure(0);
    c.advance(30_000);
    expectTimeline(c, t0, [
      [10, 'kubelet', 'eviction manager: memory.available=0: thresholds met memory.available<100Mi (hard)'],
      [10, 'events', 'EvictionThresholdMet nodes/node-1: Attempting to reclaim memory'],
      [
        10,
        'events',
        'Evicted pods/web: The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. Container app was using 300Mi',
      ],
      [10, 'kubelet', 'killPodNow pods/web gracePeriod=1'],
      [10, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [11, 'kubelet', 'eviction manager: pods successfully cleaned up: pods/web'],
    ]);
    const pod = stored(c, 'web')!;
    expect(pod.metadata.deletionTimestamp).to.equal(undefined);
    expect(pod.status).to.include({ phase: 'Failed', reason: 'Evicted' });
    expect(pod.status?.message).to.match(/^The node was low on resource: memory\. /);
    expect(condition(pod, 'DisruptionTarget')).to.include({
      status: 'True',
      reason: 'TerminationByKubelet',
      message: pod.status?.message,
    });
    const [evicted] = events(c, 'Evicted');
    expect(evicted.type).to.equal('Warning');
    expect(evicted.metadata.annotations).to.deep.equal({
      offending_containers: 'app',
      offending_containers_usage: '300Mi',
      starved_resource: 'memory',
    });
    // Its 300Mi are free: the pass right after the cleanup finds 300Mi available and evicts nobody else.
    expect(count(c, t0, 'events', 'Evicted')).to.equal(1);
  });

  it('K71 one pod per pass: the next one only after the first is cleaned up, and only while the threshold is still met', () => {
    const { c, node, t0 } = pods({
      a: { containers: uses(50) },
      b: { containers: uses(30) },
      c: { containers: uses(20) },
    });
    node.comeUnderMemoryPressure(30 * MI);
    c.advance(60_000);
    // 30Mi available: a (50Mi) goes at T+10s → 80Mi, still below 100Mi: b goes at T+11s → 110Mi: c stays.
    expectTimeline(c, t0, [
      [10, 'events', 'Evicted pods/a'],
      [11, 'kubelet', 'eviction manager: pods successfully cleaned up: pods/a'],
      [11, 'kubelet', 'eviction manager: memory.available=80Mi: thresholds met memory.available<100Mi (hard)'],
      [11, 'events', 'Evicted pods/b'],
    ]);
    expectNo(c, t0, 'events', 'Evicted pods/c');
    expect(stored(c, 'c')!.status?.phase).to.equal('Running');
  });

  it('K71 a soft threshold evicts only after its grace period, with evictionMaxPodGracePeriod capped by the pod grace (v1.32+, #122890)', () => {
    const { c, node, t0 } = pods(
      {
        web: {
          spec: { terminationGracePeriodSeconds: 10 },
          containers: { app: { memoryBytes: 400 * MI, sigterm: { kind: 'ignores' } } },
        },
      },
      SOFT,
    );
    node.comeUnderMemoryPressure(300 * MI);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [
        10,
        'kubelet',
        'eviction manager: memory.available=300Mi: thresholds met memory.available<500Mi (soft, grace 30s); eviction criteria not yet met: memory.available<500Mi (soft, grace 30s) met for 0s',
      ],
      [
        30,
        'kubelet',
        'eviction manager: memory.available=300Mi: thresholds met memory.available<500Mi (soft, grace 30s); eviction criteria not yet met: memory.available<500Mi (soft, grace 30s) met for 20s',
      ],
      [40, 'kubelet', 'eviction manager: evicting pods/web gracePeriodOverride=10'],
      [40, 'runtime', 'SIGTERM app'],
      [50, 'runtime', 'SIGKILL app'],
    ]);
  });

  // V40 by release: [title, pod grace, config, release, memory left, the override, SIGTERM and SIGKILL times].
  const releases: [string, number | undefined, EvictionConfig, number, number, number, number, number][] = [
    [
      'up to v1.31 evictionMaxPodGracePeriod overwrites the pod grace, also when it is longer (AllowOverwriteTerminationGracePeriodSeconds)',
      10,
      SOFT,
      31,
      300,
      20,
      40,
      60,
    ],
    [
      'up to v1.30 a hard eviction passes grace 0, which that pod worker took for unset: the spec grace (V22)',
      undefined,
      DEFAULT_EVICTION_CONFIG,
      30,
      0,
      0,
      10,
      40,
    ],
  ];
  for (const [title, grace, config, minor, availableMi, override, sigterm, sigkill] of releases) {
    it(`K71 V40 ${title}`, () => {
      const spec = grace === undefined ? {} : { terminationGracePeriodSeconds: grace };
      const { c, node, t0 } = pods(
        { web: { spec, containers: { app: { memoryBytes: 400 * MI, sigterm: { kind: 'ignores' } } } } },
        config,
        Release.of(minor),
      );
      node.comeUnderMemoryPressure(availableMi * MI);
      c.advance(90_000);
      expectTimeline(c, t0, [
        [sigterm, 'kubelet', `eviction manager: evicting pods/web gracePeriodOverride=${override}`],
        [sigterm, 'runtime', 'SIGTERM app'],
        [sigkill, 'runtime', 'SIGKILL app'],
      ]);
    });
  }

  it('K74 the MemoryPressure condition reaches the API at the next node status update, the node lifecycle controller taints the node, and both go after the transition period', () => {
    const { c, node, t0 } = pods(
      { web: {} },
      { ...DEFAULT_EVICTION_CONFIG, evictionPressureTransitionPeriodMs: 60_000 },
    );
    node.comeUnderMemoryPressure(0);
    c.advance(15_000);
    node.relieveMemoryPressure();
    c.advance(120_000);
    expectTimeline(c, t0, [
      [10, 'kubelet', 'eviction manager: node conditions MemoryPressure'],
      [20, 'apiserver', 'PATCH nodes/node-1/status'],
      [20, 'events', 'NodeHasInsufficientMemory nodes/node-1: Node node-1 status is now: NodeHasInsufficientMemory'],
      [20, 'nodelifecycle', 'node node-1 taints +node.kubernetes.io/memory-pressure:NoSchedule'],
      [71, 'kubelet', 'eviction manager: node conditions none'],
      [80, 'events', 'NodeHasSufficientMemory nodes/node-1'],
      [80, 'nodelifecycle', 'node node-1 taints -node.kubernetes.io/memory-pressure:NoSchedule'],
    ]);
    const n = c.apiserver.get('nodes', undefined, 'node-1');
    expect(n.ok && n.object.status?.conditions?.[0]).to.include({
      type: 'MemoryPressure',
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
    });
  });

  it('K71 an idle node has no eviction timer, and a steady pressure with nobody to evict lets the cluster settle', () => {
    const { c, node } = pods({});
    expect(c.settle().settled).to.equal(true);
    node.comeUnderMemoryPressure(0);
    c.advance(20_000);
    expect(c.settle().settled).to.equal(true);
    expect(DEFAULT_KUBELET_CONFIG.eviction.evictionHard).to.deep.equal({ 'memory.available': '100Mi' });
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../../../apimachinery/types';
import {
  EvictionConfigError,
  evictionMessage,
  parseThresholdConfig,
  podMemoryRequest,
  rankMemoryPressure,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  nodeConditionsObservedSince,
  type PodStats,
} from './helpers';
import { evictionConfigFromYaml } from '../../../planning/kubelet-config';
import { MI } from './quantity';

const pod = (name: string, o: { priority?: number; request?: string; init?: string } = {}): Pod => ({
  metadata: { name, uid: name },
  spec: {
    priority: o.priority,
    containers: [{ name: 'app', ...(o.request ? { resources: { requests: { memory: o.request } } } : {}) }],
    ...(o.init ? { initContainers: [{ name: 'init', resources: { requests: { memory: o.init } } }] } : {}),
  },
});

describe('eviction helpers (pkg/kubelet/eviction/helpers.go)', () => {
  it('K71 ParseThresholdConfig: hard thresholds, then soft ones, each soft one with its grace period', () => {
    const t = parseThresholdConfig({
      evictionHard: { 'memory.available': '100Mi' },
      evictionSoft: { 'memory.available': '1Gi' },
      evictionSoftGracePeriodMs: { 'memory.available': 90_000 },
    });
    expect(t.map((x) => [x.value.bytes / MI, x.gracePeriodMs])).to.deep.equal([
      [100, 0],
      [1024, 90_000],
    ]);
    expect(() =>
      parseThresholdConfig({
        evictionHard: {},
        evictionSoft: { 'memory.available': '1Gi' },
        evictionSoftGracePeriodMs: {},
      }),
    ).to.throw(EvictionConfigError, 'grace period must be specified for the soft eviction threshold memory.available');
    expect(() =>
      parseThresholdConfig({
        evictionHard: { 'memory.available': '10%' },
        evictionSoft: {},
        evictionSoftGracePeriodMs: {},
      }),
    ).to.throw(EvictionConfigError, 'a percentage needs');
    expect(() =>
      parseThresholdConfig({
        evictionHard: { 'nodefs.available': '10Gi' },
        evictionSoft: {},
        evictionSoftGracePeriodMs: {},
      }),
    ).to.throw(EvictionConfigError, 'not modelled');
    expect(() =>
      parseThresholdConfig({ evictionHard: { 'cpu.idle': '1' }, evictionSoft: {}, evictionSoftGracePeriodMs: {} }),
    ).to.throw(EvictionConfigError, 'unsupported eviction signal cpu.idle');
  });

  it('K71 the scenario configuration reads KubeletConfiguration fields and refuses others', () => {
    const c = evictionConfigFromYaml(
      'evictionSoft:\n  memory.available: 500Mi\nevictionSoftGracePeriod:\n  memory.available: 1m30s\nevictionMaxPodGracePeriod: 20\n',
      'cfg',
    );
    expect(c.evictionHard).to.deep.equal({ 'memory.available': '100Mi' });
    expect(c.evictionSoftGracePeriodMs).to.deep.equal({ 'memory.available': 90_000 });
    expect(c.evictionMaxPodGracePeriodSeconds).to.equal(20);
    expect(() => evictionConfigFromYaml('evictionHrad: {}', 'cfg')).to.throw(
      EvictionConfigError,
      'cfg: unknown field "evictionHrad"',
    );
    expect(() => evictionConfigFromYaml('evictionPressureTransitionPeriod: soon', 'cfg')).to.throw(
      EvictionConfigError,
      'is not a duration',
    );
  });

  it('K71 thresholdsMet (available below the quantity), first observed, grace period met, and conditions kept for the transition period', () => {
    const [hard, soft] = parseThresholdConfig({
      evictionHard: { 'memory.available': '100Mi' },
      evictionSoft: { 'memory.available': '500Mi' },
      evictionSoftGracePeriodMs: { 'memory.available': 30_000 },
    });
    expect(thresholdsMet([hard, soft], 300 * MI)).to.deep.equal([soft]);
    expect(thresholdsMet([hard, soft], 100 * MI)).to.deep.equal([soft]);
    expect(thresholdsMet([hard, soft], 50 * MI)).to.deep.equal([hard, soft]);
    expect(thresholdsMet([hard, soft], undefined)).to.deep.equal([]);
    const first = thresholdsFirstObservedAt([soft], new Map(), 10_000);
    expect(thresholdsMetGracePeriod(thresholdsFirstObservedAt([soft], first, 30_000), 30_000)).to.deep.equal([]);
    expect(thresholdsMetGracePeriod(first, 40_000)).to.deep.equal([soft]);
    expect(nodeConditionsObservedSince(new Map([['MemoryPressure', 10_000]]), 300_000, 309_999)).to.deep.equal([
      'MemoryPressure',
    ]);
    expect(nodeConditionsObservedSince(new Map([['MemoryPressure', 10_000]]), 300_000, 310_000)).to.deep.equal([]);
  });

  it('K73 rankMemoryPressure: no stats first, then usage above requests, then lower priority, then more usage above the request', () => {
    const usage: Record<string, number> = { over: 300, under: 100, low: 50, big: 900, quiet: 0 };
    const stats = (p: Pod): PodStats | undefined =>
      p.metadata.name === 'gone'
        ? undefined
        : { containers: [{ name: 'app', workingSetBytes: (usage[p.metadata.name!] ?? 0) * MI }] };
    const pods = [
      pod('under', { request: '500Mi' }),
      pod('quiet', { priority: 5 }),
      pod('over', { priority: 1000 }),
      pod('low', { priority: -10, request: '100Mi' }),
      pod('big', { priority: 1000, request: '100Mi' }),
      pod('gone'),
    ];
    expect(rankMemoryPressure(pods, stats).map((p) => p.metadata.name)).to.deep.equal([
      'gone',
      'big',
      'over',
      'low',
      'under',
      'quiet',
    ]);
  });

  it('K73 a pod requests its containers together, or an init container if that asks more', () => {
    expect(podMemoryRequest(pod('a', { request: '100Mi' }))).to.equal(100 * MI);
    expect(podMemoryRequest(pod('a', { request: '100Mi', init: '1Gi' }))).to.equal(1024 * MI);
  });

  it('K72 evictionMessage: the node was low, the threshold and what was available, each container above its request; the Event annotations', () => {
    const [hard] = parseThresholdConfig({
      evictionHard: { 'memory.available': '100Mi' },
      evictionSoft: {},
      evictionSoftGracePeriodMs: {},
    });
    const p = pod('web', { request: '1G' });
    p.spec!.containers.push({ name: 'side' });
    const stats = (): PodStats => ({
      containers: [
        { name: 'app', workingSetBytes: 1536 * MI },
        { name: 'side', workingSetBytes: 10 * MI },
      ],
    });
    const { message, annotations } = evictionMessage(p, stats, [hard], 20 * MI);
    expect(message).to.equal(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 20Mi. Container app was using 1536Mi, request is 1G, has larger consumption of memory. Container side was using 10Mi, request is 0, has larger consumption of memory. ',
    );
    expect(annotations).to.deep.equal({
      offending_containers: 'app,side',
      offending_containers_usage: '1536Mi,10Mi',
      starved_resource: 'memory',
    });
    expect(evictionMessage(p, () => undefined, [hard], 0).message).to.equal(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. ',
    );
  });
});

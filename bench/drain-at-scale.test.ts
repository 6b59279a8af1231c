import { describe, it } from 'node:test';
import { expect } from 'chai';
import { drainAtScale, parseDrainAtScaleArgs } from './drain-at-scale';

describe('bench/drain-at-scale.ts', () => {
  it('drains the first nodes of a cluster of many workloads: their pods replaced elsewhere, the rest untouched, the same every run', () => {
    // 200 pods on 20 nodes: each node holds 5 pods of each workload, as at 600 or at 150 000 pods on
    // 5 000 nodes — exactly what a workload's budget (5 % of 100) lets go at once, so no eviction is
    // refused; fewer nodes would put more of a workload on a node and refusals would be expected.
    const lines: string[] = [];
    const a = drainAtScale(200, 20, 2, 'summary', (l) => lines.push(l));
    const b = drainAtScale(200, 20, 2, 'summary');
    expect(a.finalState).to.equal(b.finalState);
    expect(lines[0]).to.match(/^200 pods of 2 ReplicaSets under budgets on 20 nodes running/);
    expect(lines[1]).to.match(/^2 nodes drained after \d+ virtual s, 0 evictions refused with 429/);
    const pods = a.cluster.apiserver.list('pods', undefined);
    if (!pods.ok) throw new Error(pods.status.message);
    const byNode = new Map<string, number>();
    for (const p of pods.object.items) byNode.set(p.spec!.nodeName!, (byNode.get(p.spec!.nodeName!) ?? 0) + 1);
    expect(pods.object.items.length).to.equal(200);
    expect(byNode.get('node-0') ?? 0).to.equal(0);
    expect(byNode.get('node-1') ?? 0).to.equal(0);
    expect(byNode.get('node-2')).to.be.at.least(10);
  });

  it('takes PODS NODES --drain N [--record …] and refuses anything else with one line', () => {
    expect(parseDrainAtScaleArgs(['150000', '5000', '--drain', '100'])).to.deep.equal({
      pods: 150000,
      nodes: 5000,
      drained: 100,
      record: 'summary',
    });
    expect(() => parseDrainAtScaleArgs(['100', '5'])).to.throw('--drain is a whole number of at least 1, not ""');
    expect(() => parseDrainAtScaleArgs(['100', '5', '--drain', '6'])).to.throw('--drain 6 is more than the 5 nodes');
    expect(() => parseDrainAtScaleArgs(['100'])).to.throw('expected PODS NODES, got 1 arguments');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { drainUnderBudgets } from './drain';

describe('bench/drain.ts', () => {
  it('drains every node under the budgets: evictions refused with 429 are retried until the replacements are Ready, on the virtual clock, the same every run', () => {
    // 40 pods: 10 Deployments of 4 replicas, 2 of each on a node, under budgets that let 1 go at a
    // time (5 % rounded up), so the second eviction of each is refused until the first one's
    // replacement is Ready — the retry loop runs for every Deployment on every node, as at 100 pods.
    const lines: string[] = [];
    const a = drainUnderBudgets(40, 2, 'summary', (l) => lines.push(l));
    const b = drainUnderBudgets(40, 2, 'summary');
    expect(a.finalState).to.equal(b.finalState);
    expect(lines[1]).to.match(/^2 nodes drained after \d+ virtual s, [1-9]\d* evictions refused with 429/);
    const pods = a.cluster.apiserver.list('pods', 'default');
    expect(pods.ok && pods.object.items.every((p) => p.spec?.nodeName?.startsWith('fresh-'))).to.equal(true);
  });
});

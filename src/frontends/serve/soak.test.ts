// It measures the heap of a served session: this file runs in a process of its own (scripts/unit-tests.ts).
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { soak } from './soak';

/**
 * Issue 22, item 3: a `serve` session's memory follows what exists, not what ever existed. 1 500
 * objects (pods and custom resources of a CRD) are created and deleted through the HTTP API in five rounds, each
 * followed by one etcd compaction interval: after the first compactions the history, the
 * timeline and the heap stay flat. Without dropping compacted history they grew by every write
 * (≈ 10 KB per pod that ever lived). The pods run on the kubelets: a StopContainer call the
 * kubelet kept after its container died at SIGTERM held ≈ 10 KB per pod too (≈ 4 MB here).
 *
 * The soak runs before the test is declared, which then judges what it gave: once a test is
 * declared, node's test runner tracks every promise of the process with an async hook
 * (steps/determinism.test.ts), and a session served over HTTP is mostly promises.
 */
const soaked = soak({ rounds: 5, perRound: 300 }).then(
  ({ rounds }) => ({ rounds }),
  (error: unknown) => ({ error }),
);

void soaked.then((result) =>
  describe('a long serve session stays bounded (R207: etcd compaction drops history)', () => {
    it('creates and deletes 1 500 objects over HTTP, the pods run by kubelets: history, timeline and heap flat after the first compactions', () => {
      if ('error' in result) throw result.error;
      const [, second, , , last] = result.rounds;
      expect(last.podsRan, 'every pod of the soak ran on a kubelet').to.equal(750);
      expect(last.history).to.be.at.most(second.history * 1.1);
      expect(last.timelineEvents).to.be.at.most(second.timelineEvents * 1.1);
      // Three more rounds of 300 objects kept would add ≈ 5 MB (the history and timeline of each write).
      expect(last.heapBytes - second.heapBytes).to.be.below(2 * 1024 * 1024);
    });
  }),
);

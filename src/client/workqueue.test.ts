import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { DefaultControllerRateLimiter, WorkQueue } from './workqueue';

describe('WorkQueue (client-go util/workqueue on the virtual clock)', () => {
  it('processes a key queued twice once, in the order keys were queued, at the instant they were queued', () => {
    const clock = new Clock();
    clock.tick(7);
    const synced: string[] = [];
    const q = new WorkQueue(clock, (key) => void synced.push(`${key}@${clock.now() % 1000}`));
    q.add('b');
    q.add('a');
    q.add('b');
    expect(synced, 'nothing runs before the worker is scheduled').to.deep.equal([]);
    clock.tick(0);
    expect(synced).to.deep.equal(['b@7', 'a@7']);
  });

  it('a key added during its own sync is processed again afterwards (the dirty set), not twice at once', () => {
    const clock = new Clock();
    let runs = 0;
    const q: WorkQueue = new WorkQueue(clock, () => {
      runs++;
      if (runs === 1) q.add('k');
    });
    q.add('k');
    clock.tick(0);
    expect(runs).to.equal(2);
  });

  it('retries a failing sync with the per-item exponential back-off (5 ms doubling) and forgets it on success', () => {
    const clock = new Clock();
    const start = clock.now();
    const at: number[] = [];
    let failures = 3;
    const q = new WorkQueue(clock, () => {
      at.push(clock.now() - start);
      if (failures-- > 0) return new Error('conflict');
    });
    q.add('k');
    clock.tick(1000);
    expect(at).to.deep.equal([0, 5, 15, 35]);
    expect(q.rateLimiter.numRequeues('k')).to.equal(0);
  });

  it('addAfter: the earlier of two delayed adds of one key wins, and the key is then processed once', () => {
    const clock = new Clock();
    const start = clock.now();
    const at: number[] = [];
    const q = new WorkQueue(clock, () => void at.push(clock.now() - start));
    q.addAfter('k', 3000);
    q.addAfter('k', 1000);
    q.addAfter('k', 2000);
    expect(q.length).to.equal(1);
    clock.tick(5000);
    expect(at).to.deep.equal([1000]);
  });

  it('the overall bucket (10 qps, burst 100) spaces out retries once the burst is spent', () => {
    const clock = new Clock();
    const limiter = new DefaultControllerRateLimiter(clock);
    const delays = Array.from({ length: 102 }, (_, i) => limiter.when(`key-${i}`));
    expect(delays.slice(0, 100).every((d) => d === 5)).to.equal(true);
    expect(delays.slice(100)).to.deep.equal([100, 200]);
  });
});

/**
 * R244 — serve moves virtual time in bounded steps (Clock.tickFor): however much work the cluster
 * has, one catch-up runs at most TIMERS_PER_TURN pieces of it and then returns to the event loop,
 * where requests and the SIGINT/SIGTERM handlers run. Checked by counting work, not by wall time.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from '../../cluster/cluster';
import { ScaledClock, TIMERS_PER_TURN } from './clock-driver';

describe('R244 a served cluster with endless work still yields to the event loop', () => {
  it('a catch-up runs at most TIMERS_PER_TURN timers, and the rest follows on later turns', async () => {
    const c = new Cluster({ controllers: [] });
    let fired = 0;
    // Work that never ends: a timer every virtual millisecond (as a controller that never converges).
    const again = () => {
      fired += 1;
      c.clock.after(1, again);
    };
    c.clock.after(1, again);
    const start = c.clock.now();
    const driver = new ScaledClock(c, { kind: 'fast', factor: 1e9 });
    try {
      // Any wall time at all puts the target millions of virtual seconds ahead.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const before = fired;
      driver.beforeRequest();
      expect(fired - before).to.be.at.most(TIMERS_PER_TURN);
      const first = fired;
      // The event loop gets its turn (a signal handler would run here), then the catch-up goes on.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fired).to.be.greaterThan(first);
      expect(c.clock.now() - start, 'virtual time lags: the target is far ahead').to.be.below(1e9);
    } finally {
      driver.stop();
    }
  });
});

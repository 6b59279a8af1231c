import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from './cluster';
import { RunawayLoopError } from '../foundation/clock';
import { createPod, newCluster } from '../components/kubelet/testing';

const HOUR = 60 * 60_000;

/** Work that reschedules itself for ever, `periodMs` apart (foreground unless told otherwise). */
function runaway(cluster: Cluster, periodMs: number, background = false): { runs: number } {
  const counter = { runs: 0 };
  const again = (): void => {
    counter.runs++;
    cluster.clock.after(periodMs, again, { background });
  };
  cluster.clock.after(periodMs, again, { background });
  return counter;
}

describe('Cluster bounds on work that never ends', () => {
  it('settle: a timer that reschedules itself for ever ends with settled:false after one virtual hour', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    const counter = runaway(cluster, 1000);
    const result = cluster.settle();
    expect(result.settled).to.equal(false);
    expect(cluster.clock.now() - start, 'stops at the virtual hour').to.equal(HOUR);
    expect(counter.runs, 'it did run all hour').to.equal(HOUR / 1000);
    // Nothing that the simulation can name blocks here: the list is empty, not invented.
    expect(result.settled === false && result.blockers).to.deep.equal([]);
  });

  it('settle: a container that exits on its own under restartPolicy Always is named as a crash loop', () => {
    const { c } = newCluster();
    const pod = createPod(c, 'web', { containers: { app: { exitsOnItsOwn: 0 } } });
    const result = c.settle();
    expect(result.settled).to.equal(false);
    expect(result.settled === false && result.blockers).to.deep.equal([
      `container "app" of pods/web on node "node-1" exits on its own and is restarted for ever (CrashLoopBackOff: back-off 5m0s restarting failed container=app pod=web_default(${pod.metadata.uid}))`,
    ]);
  });

  it('settle: the limit is a parameter, and a second call gets its own hour', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    runaway(cluster, 1000);
    expect(cluster.settle(10 * 60_000, 5 * 60_000).settled).to.equal(false);
    expect(cluster.clock.now() - start).to.equal(5 * 60_000);
    expect(cluster.settle().settled).to.equal(false);
    expect(cluster.clock.now() - start).to.equal(5 * 60_000 + HOUR);
  });

  it('settle: a periodic loop that is background work does not keep the cluster from settling', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    runaway(cluster, 1000, true);
    const result = cluster.settle();
    expect(result.settled).to.equal(true);
    expect(cluster.clock.now() - start, 'no time passes when only idle loops are scheduled').to.be.below(HOUR);
  });

  it('settle: foreground work with gaps longer than the quiet period settles', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    runaway(cluster, 11 * 60_000);
    expect(cluster.settle().settled).to.equal(true);
    expect(cluster.clock.now()).to.equal(start);
  });

  it('runUntil: a condition that never holds ends at the deadline, with the runaway timer, quickly', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    const counter = runaway(cluster, 1000);
    const done = cluster.runUntil(() => false, start + HOUR);
    expect(done).to.equal(false);
    expect(cluster.clock.now() - start).to.equal(HOUR);
    expect(counter.runs).to.equal(HOUR / 1000);
  });

  it('runUntil: stops as soon as the condition holds, without running later work', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    const counter = runaway(cluster, 1000);
    expect(cluster.runUntil(() => counter.runs === 5, start + HOUR)).to.equal(true);
    expect(cluster.clock.now() - start).to.equal(5000);
  });

  it('runUntil: with nothing scheduled, jumps to the deadline', () => {
    const cluster = new Cluster();
    const start = cluster.clock.now();
    expect(cluster.runUntil(() => false, start + 30_000)).to.equal(false);
    expect(cluster.clock.now() - start).to.equal(30_000);
  });
});

describe('runaway zero-delay loops', () => {
  it('a zero-delay hand-off that reschedules itself forever ends with a RunawayLoopError, not a hang', () => {
    const c = new Cluster();
    const again = (): void => {
      c.clock.after(0, again);
    };
    c.clock.after(0, again);
    expect(() => c.settle()).to.throw(RunawayLoopError, /runaway loop/);
  });
});

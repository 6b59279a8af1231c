/**
 * R94 — the jump clock's bounds (clock-driver.ts JumpClock): while clients only wait on a watch,
 * virtual time moves at most JUMP_MAX_VIRTUAL_MS_PER_WALL_S per second of wall time (after a first
 * burst of as much), and never past the wall clock when it has one. The wall clock here is the
 * test's own: assertions are on virtual time against the bound's arithmetic, never on wall time.
 */
import { EventEmitter } from 'node:events';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import { JUMP_MAX_VIRTUAL_MS_PER_WALL_S, JumpClock, type ClientActivity } from './clock-driver';

/** Clients that do nothing but wait on one watch that never hears anything. */
class WatchOnly extends EventEmitter implements ClientActivity {
  readonly inFlight = 0;
  readonly waitingWatches = 1;
}

/** Resolves once the clock has stopped moving for a few turns of the event loop (a jump waits for the wall clock, or the cluster settled). */
async function settle(clock: JumpClock, c: Cluster): Promise<void> {
  let last = -1;
  for (let same = 0; same < 5; ) {
    await new Promise((r) => setTimeout(r, 20));
    same = c.clock.now() === last ? same + 1 : 0;
    last = c.clock.now();
  }
  void clock;
}

/** A namespace held by a ConfigMap's finalizer: the namespace controller retries for ever, and no watch line goes out. */
function stuckNamespace(): Cluster {
  const c = new Cluster();
  c.addNode('node-1');
  c.advance(10_000);
  c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'stuck' } });
  c.apiserver.create(USER, 'configmaps', 'stuck', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
  c.apiserver.delete(USER, 'namespaces', undefined, 'stuck', {});
  c.advance(1000);
  return c;
}

const clocks: JumpClock[] = [];
after(() => clocks.forEach((j) => j.stop()));

describe('R94 the jump clock is paced while only watches wait', () => {
  it(`a watch on a namespace stuck on a finalizer: virtual time moves at most ${JUMP_MAX_VIRTUAL_MS_PER_WALL_S / 60_000} minutes per wall second, after a first burst of as much`, async () => {
    const c = stuckNamespace();
    let wallMs = 0;
    const activity = new WatchOnly();
    const jump = new JumpClock(c, activity, { kind: 'jump', quietMs: 1 }, { wall: { now: () => wallMs } });
    clocks.push(jump);
    const v0 = c.clock.now();
    activity.emit('watch-open');
    await settle(jump, c);
    // No wall time has passed: the burst alone, and the work the stuck namespace keeps due used it up.
    const burst = c.clock.now() - v0;
    expect(burst).to.be.at.most(JUMP_MAX_VIRTUAL_MS_PER_WALL_S);
    expect(burst, 'the stuck namespace keeps work due: the burst is spent').to.be.above(
      JUMP_MAX_VIRTUAL_MS_PER_WALL_S / 2,
    );
    // Three wall seconds later (the test's wall clock): the bucket is full again (it holds one
    // second's worth), so another burst; over any stretch of wall time W the jumps take at most
    // the burst plus W's worth.
    wallMs += 3000;
    await settle(jump, c);
    const total = c.clock.now() - v0;
    expect(total).to.be.at.most(JUMP_MAX_VIRTUAL_MS_PER_WALL_S + 3 * JUMP_MAX_VIRTUAL_MS_PER_WALL_S);
    expect(total - burst, 'a second burst').to.be.above(JUMP_MAX_VIRTUAL_MS_PER_WALL_S / 2);
    expect(total - burst).to.be.at.most(JUMP_MAX_VIRTUAL_MS_PER_WALL_S);
  });

  it("a jump never takes virtual time past the wall clock it is given (serve's start from the wall clock)", async () => {
    const c = stuckNamespace();
    const activity = new WatchOnly();
    const wallUnix = c.clock.now() + 90_000;
    const jump = new JumpClock(
      c,
      activity,
      { kind: 'jump', quietMs: 1 },
      { wall: { now: () => 0 }, ceiling: () => wallUnix },
    );
    clocks.push(jump);
    activity.emit('watch-open');
    await settle(jump, c);
    expect(c.clock.now()).to.be.at.most(wallUnix);
    expect(c.clock.now()).to.be.above(wallUnix - 60_000);
  });

  it('before a request is answered, the work due at that instant runs, and no virtual time passes for it', () => {
    const c = new Cluster();
    c.addNode('node-1');
    c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'web' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app' }] },
    });
    c.advance(10_000);
    const jump = new JumpClock(c, new WatchOnly(), { kind: 'jump', quietMs: 1_000_000 });
    clocks.push(jump);
    const t = c.clock.now();
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    jump.beforeRequest();
    expect(c.clock.now()).to.equal(t);
    expect(c.timeline.since(t).some((e) => e.component === 'events' && e.text.startsWith('Killing pods/web'))).to.equal(
      true,
    );
  });
});

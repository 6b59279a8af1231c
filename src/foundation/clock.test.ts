import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { Clock } from './clock';

/** A full garbage collection, for the tests that check what a timer still holds on to. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('Clock', () => {
  it('runs timers due at the same instant in the order they were set, zero-delay work first', () => {
    const clock = new Clock();
    const ran: string[] = [];
    clock.after(10, () => ran.push('a'));
    clock.after(10, () => {
      ran.push('b');
      clock.after(0, () => ran.push('b+0'));
    });
    clock.after(10, () => ran.push('c'));
    clock.after(5, () => ran.push('first'));
    clock.tick(10);
    expect(ran).to.deep.equal(['first', 'a', 'b', 'b+0', 'c']);
  });

  it('forgets fired foreground timers as time passes them, whether driven by tick or runNext', () => {
    const clock = new Clock();
    for (let i = 1; i <= 1000; i++) clock.after(i, () => undefined);
    clock.tick(500);
    expect(clock.foregroundEntries).to.equal(500);
    while (clock.nextTimerAt() !== undefined) clock.runNext();
    expect(clock.foregroundEntries).to.equal(0);
    expect(clock.nextForegroundAt()).to.equal(undefined);
  });

  it('keeps the next foreground time right when timers are cancelled', () => {
    const clock = new Clock();
    const early = clock.after(10, () => undefined);
    clock.after(20, () => undefined);
    clock.after(5, () => undefined, { background: true });
    clock.cancel(early);
    expect(clock.nextForegroundAt()).to.equal(clock.now() + 20);
  });

  it('drops cancelled timers from its heap as time passes them', () => {
    const clock = new Clock();
    const handles = Array.from({ length: 1000 }, (_, i) =>
      clock.after(i + 1, () => undefined, { background: i % 2 === 0 }),
    );
    for (const h of handles) clock.cancel(h);
    expect(clock.nextTimerAt()).to.equal(undefined);
    expect(clock.nextForegroundAt()).to.equal(undefined);
    expect(clock.timerEntries).to.equal(0);
    expect(clock.foregroundEntries).to.equal(0);
  });

  it('lets go of the callback of a timer cancelled long before its time, and of one that has fired', async () => {
    const clock = new Clock();
    // Set out here: a closure keeps every variable its scope shares with other closures.
    clock.after(10_000, () => {}); // pending, ahead of the grace timer: that entry stays in the heap
    const held = (): { cancelled: WeakRef<object>; fired: WeakRef<object> } => {
      // Objects only the callbacks refer to (a pod, a worker's state, in the model).
      const a = { pod: 'a' };
      const b = { pod: 'b' };
      const grace = clock.after(30_000, () => void a.pod);
      clock.after(1, () => void b.pod);
      clock.cancel(grace);
      clock.tick(1);
      return { cancelled: new WeakRef(a), fired: new WeakRef(b) };
    };
    const refs = held();
    await new Promise((resolve) => setImmediate(resolve)); // WeakRefs hold their target until the task ends
    collectGarbage();
    expect(clock.timerEntries, 'the cancelled entry is still in the heap, behind the pending one').to.equal(2);
    expect(refs.cancelled.deref(), 'what the cancelled timer would have run').to.equal(undefined);
    expect(refs.fired.deref(), 'what the fired timer ran').to.equal(undefined);
  });

  it('runs a timer of any length at its time (no 32-bit limit on delays)', () => {
    const clock = new Clock();
    const start = clock.now();
    const year = 365 * 24 * 3600 * 1000;
    let ranAt: number | undefined;
    clock.after(year, () => (ranAt = clock.now()));
    clock.tick(year - 1);
    expect(ranAt).to.equal(undefined);
    clock.tick(1);
    expect(ranAt).to.equal(start + year);
  });

  it('keeps whole milliseconds: a fractional delay is cut, a positive one waits at least 1 ms', () => {
    const clock = new Clock();
    const start = clock.now();
    const ran: number[] = [];
    clock.after(0.4, () => ran.push(clock.now() - start));
    clock.after(2.9, () => ran.push(clock.now() - start));
    clock.tick(10);
    expect(ran).to.deep.equal([1, 2]);
  });

  it('runs zero-delay work first in first out, skipping what was cancelled', () => {
    const clock = new Clock();
    const ran: string[] = [];
    clock.after(0, () => {
      ran.push('a');
      clock.after(0, () => ran.push('c'));
    });
    const b = clock.after(0, () => ran.push('never'));
    clock.after(0, () => ran.push('b'));
    clock.cancel(b);
    expect(clock.nextTimerAt()).to.equal(clock.now());
    clock.runNext();
    expect(ran).to.deep.equal(['a', 'b', 'c']);
    expect(clock.nextTimerAt()).to.equal(undefined);
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from './clock';

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
    const handles = Array.from({ length: 1000 }, (_, i) => clock.after(i + 1, () => undefined, { background: i % 2 === 0 }));
    for (const h of handles) clock.cancel(h);
    expect(clock.nextTimerAt()).to.equal(undefined);
    expect(clock.nextForegroundAt()).to.equal(undefined);
    expect(clock.timerEntries).to.equal(0);
    expect(clock.foregroundEntries).to.equal(0);
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

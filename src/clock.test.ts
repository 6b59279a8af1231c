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
});

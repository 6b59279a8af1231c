import { describe, it } from 'node:test';
import { expect } from 'chai';
import { append, widest } from './widest';

describe('R95 widest and append: no spread of unbounded arrays', () => {
  it('measure and append half a million items (a spread of as many arguments overflows the stack)', () => {
    const items = Array.from({ length: 500_000 }, (_, i) => i);
    expect(() => Math.max(...items)).to.throw(RangeError);
    expect(widest(items, (i) => i)).to.equal(499_999);
    expect(widest([], (i: number) => i, 9)).to.equal(9);
    const target = [-1];
    append(target, items);
    expect([target.length, target[0], target[500_000]]).to.deep.equal([500_001, -1, 499_999]);
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { clone, jsonEqual, toTime } from './object';

describe('jsonEqual', () => {
  it('compares JSON values deeply; members set to undefined count as absent', () => {
    expect(jsonEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] })).to.equal(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).to.equal(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).to.equal(false);
    expect(jsonEqual([1], { 0: 1 })).to.equal(false);
    expect(jsonEqual([null], [undefined])).to.equal(false);
    expect(jsonEqual([], [])).to.equal(true);
  });

  it('arrays of different lengths are equal only when the extra items are undefined, as before the index walk', () => {
    expect(jsonEqual([1, undefined], [1])).to.equal(true);
    expect(jsonEqual([1, 2], [1])).to.equal(false);
    expect(jsonEqual([undefined, 1], [1])).to.equal(false);
    expect(jsonEqual([{ a: 1 }, undefined, undefined], [{ a: 1 }])).to.equal(true);
    expect(jsonEqual([{ a: 1 }], [{ a: 1 }, { a: 1 }])).to.equal(false);
  });
});

describe('toTime', () => {
  it('formats whole seconds (RFC 3339, no fraction), the same text however the calls alternate', () => {
    const t0 = Date.UTC(2025, 0, 1, 0, 0, 0);
    const seen = [t0, t0 + 30_500, t0 + 999, t0 + 30_000].map(toTime);
    expect(seen).to.deep.equal([
      '2025-01-01T00:00:00Z',
      '2025-01-01T00:00:30Z',
      '2025-01-01T00:00:00Z',
      '2025-01-01T00:00:30Z',
    ]);
    for (let i = 0; i < 200; i++) toTime(t0 + i * 1000);
    expect(toTime(t0 + 61_000)).to.equal('2025-01-01T00:01:01Z');
  });
});

describe('clone', () => {
  it('copies JSON values deeply, keeping key order and members set to undefined', () => {
    const source = Object.freeze({
      b: [1, { c: 'x' }],
      a: undefined,
      d: null,
      e: Object.freeze({ f: [] as unknown[] }),
    });
    const copy = clone(source);
    expect(copy).to.deep.equal(source);
    expect(Object.keys(copy)).to.deep.equal(['b', 'a', 'd', 'e']);
    expect('a' in copy).to.equal(true);
    expect(copy.b).to.not.equal(source.b);
    expect(copy.b[1]).to.not.equal(source.b[1]);
    expect(Object.isFrozen(copy) || Object.isFrozen(copy.e)).to.equal(false);
  });
});

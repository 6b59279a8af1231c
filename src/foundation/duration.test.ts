import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DurationError, parseDuration, parseWholeSecondsAfterT0 } from './duration';

describe('parseDuration', () => {
  it('reads one part: 30s, 1.5s, 2m, 1h, 500ms', () => {
    expect(['30s', '1.5s', '2m', '1h', '500ms', '0s'].map(parseDuration)).to.deep.equal([
      30_000, 1500, 120_000, 3_600_000, 500, 0,
    ]);
  });

  it('reads compound durations from the largest unit down: 1m30s, 1h15m, 2s500ms, 1h0m5s', () => {
    expect(['1m30s', '1h15m', '2s500ms', '1h0m5s', '1.5m30s'].map(parseDuration)).to.deep.equal([
      90_000, 4_500_000, 2500, 3_605_000, 120_000,
    ]);
  });

  it('rejects, saying what it expects: no unit, a sign, an unknown unit, units out of order or repeated, spaces', () => {
    for (const bad of ['30', '-5s', '1x', '30s1m', '1m1m', '5 s', '2 minutes', '', 'm', '1m30']) {
      expect(() => parseDuration(bad), bad).to.throw(
        DurationError,
        `bad duration "${bad}": expected a non-negative number followed by ms, s, m or h`,
      );
    }
  });
});

describe('parseWholeSecondsAfterT0', () => {
  it('reads T+30s, T+1m30s and T+0s as milliseconds after T+0', () => {
    expect(['T+30s', 'T+1m30s', 'T+0s', ' T+2m '].map(parseWholeSecondsAfterT0)).to.deep.equal([
      30_000, 90_000, 0, 120_000,
    ]);
  });

  it('rejects a missing T+, a bad duration and a fraction of a second', () => {
    expect(() => parseWholeSecondsAfterT0('30s')).to.throw(DurationError, 'does not start with T+');
    expect(() => parseWholeSecondsAfterT0('T+30')).to.throw(DurationError, 'bad duration "30"');
    expect(() => parseWholeSecondsAfterT0('T+1.5s')).to.throw(DurationError, 'is not a whole second');
  });
});

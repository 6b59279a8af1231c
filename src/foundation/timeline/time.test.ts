import { describe, it } from 'node:test';
import { expect } from 'chai';
import { formatDuration, formatOffset, showValue, timestampOffset } from './time';

const T0 = Date.UTC(2025, 0, 1, 0, 1, 0);

describe('time notation', () => {
  it('writes offsets from T+0 like Go durations, with milliseconds only when needed', () => {
    expect([0, 300, 1500, 30_000, 62_000, 120_000, 3_600_000, 3_605_250].map(formatOffset)).to.deep.equal([
      'T+0s',
      'T+0.3s',
      'T+1.5s',
      'T+30s',
      'T+1m2s',
      'T+2m',
      'T+1h',
      'T+1h0m5.25s',
    ]);
    expect(formatOffset(-60_000)).to.equal('T-1m');
    expect(formatDuration(29_000)).to.equal('29s');
  });
  it('shows a timestamp value with its offset from T+0, other values as JSON', () => {
    expect(showValue('2025-01-01T00:01:30Z', T0)).to.equal('"2025-01-01T00:01:30Z" (T+30s)');
    expect(showValue('2025-01-01T00:00:00Z', T0)).to.equal('"2025-01-01T00:00:00Z" (T-1m)');
    expect(showValue(30, T0)).to.equal('30');
    expect(showValue('Running', T0)).to.equal('"Running"');
    expect(timestampOffset('not a time', T0)).to.equal(undefined);
  });
});

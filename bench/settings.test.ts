import { describe, it } from 'node:test';
import { expect } from 'chai';
import { benchSettings } from './settings';

const CASES = ['1000', '10000', '100000'];

describe('npm run bench: its environment', () => {
  it('reads BENCH_RUNS, MASS_CASES and BENCH_PROFILE, with 5 runs of every case unprofiled by default', () => {
    expect(benchSettings({}, CASES)).to.deep.equal({ runs: 5, massCases: undefined, profile: false });
    expect(benchSettings({ BENCH_RUNS: '3', MASS_CASES: '1000, 10000', BENCH_PROFILE: '1' }, CASES)).to.deep.equal({
      runs: 3,
      massCases: ['1000', '10000'],
      profile: true,
    });
    expect(benchSettings({ BENCH_PROFILE: '0' }, CASES).profile).to.equal(false);
  });

  it('refuses a bad value before anything runs, in one line that names it', () => {
    expect(() => benchSettings({ BENCH_RUNS: 'abc' }, CASES)).to.throw(
      'BENCH_RUNS is the number of runs per figure, a whole number of at least 1, not "abc"',
    );
    expect(() => benchSettings({ BENCH_RUNS: '0' }, CASES)).to.throw('not "0"');
    expect(() => benchSettings({ MASS_CASES: '10k,1000' }, CASES)).to.throw(
      'MASS_CASES names "10k", not a mass-deletion case; the cases are 1000, 10000, 100000',
    );
  });
});

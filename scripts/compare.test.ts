import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { ScenarioReport } from '../src/frontends/report/model';
import { checkLocation, parseLocation, pick } from './compare';

function scenario(line: number, outlineLine?: number): ScenarioReport {
  return {
    location: `features/v.feature:${line}`,
    uri: 'features/v.feature',
    line,
    outlineLine,
    feature: 'V',
    name: `s${line}`,
    status: 'passed',
    steps: [],
  };
}

describe('npm run compare: locations', () => {
  it('reads FILE:LINE and refuses anything else, saying what it expects', () => {
    expect(parseLocation('features/v.feature:12')).to.deep.equal({ file: 'features/v.feature', line: 12 });
    expect(() => parseLocation('features/v.feature')).to.throw(
      /bad scenario "features\/v.feature": expected FILE:LINE/,
    );
  });

  it('names a feature file that does not exist before running anything', () => {
    expect(checkLocation('features/graceful-deletion.feature:18')).to.deep.equal({
      file: 'features/graceful-deletion.feature',
      line: 18,
    });
    expect(() => checkLocation('features/nonexist.feature:3', '/work/project')).to.throw(
      'no feature file features/nonexist.feature (in /work/project)',
    );
  });
  it("picks a scenario or an Examples row by its line; an outline's own line names its rows", () => {
    const run = [scenario(3), scenario(10, 6), scenario(11, 6)];
    expect(pick(run, 'features/v.feature:11').name).to.equal('s11');
    expect(pick(run, './features/v.feature:3').name).to.equal('s3');
    expect(() => pick(run, 'features/v.feature:6')).to.throw(
      'line 6 is a Scenario Outline; name one of its Examples rows: features/v.feature:10, features/v.feature:11',
    );
    expect(() => pick(run, 'features/v.feature:99')).to.throw(
      'no scenario at features/v.feature:99: the scenarios run: features/v.feature:3, features/v.feature:10, features/v.feature:11',
    );
  });
});

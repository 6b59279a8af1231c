import { describe, it } from 'node:test';
import * as path from 'node:path';
import { expect } from 'chai';
import { scenarioRun } from './scenario';

describe('npm run scenario', () => {
  it("writes one feature's or one scenario's reports to a folder of its own, never the suite's", () => {
    const whole = scenarioRun(['features/graceful-deletion.feature']);
    expect(whole.dir).to.equal(path.join('reports', 'scenarios', 'graceful-deletion'));
    const one = scenarioRun(['features/graceful-deletion.feature:7']);
    expect(one.dir).to.equal(path.join('reports', 'scenarios', 'graceful-deletion-7'));
    expect(one.cucumberArgs.slice(0, 2)).to.deep.equal(['-p', 'scenario']);
    expect(one.cucumberArgs).to.include(`./src/frontends/report/formatter.cjs:${path.join(one.dir, 'report.html')}`);
    expect(one.cucumberArgs.filter((a) => a.includes('reports/') && !a.includes('reports/scenarios/'))).to.deep.equal(
      [],
    );
    expect(one.cucumberArgs[one.cucumberArgs.length - 1]).to.equal('features/graceful-deletion.feature:7');
  });
  it('says what it needs when given nothing, or a file that does not exist', () => {
    expect(() => scenarioRun([])).to.throw(/usage: npm run scenario -- FILE\[:LINE\]/);
    expect(() => scenarioRun(['features/local/nope.feature'])).to.throw(
      /no feature file features\/local\/nope\.feature/,
    );
  });
});

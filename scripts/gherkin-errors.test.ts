// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs features through cucumber's API.
import { after, describe, it } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { runCucumber } from './cucumber-in-process';
import { gherkinErrors, inWords, standInFeature } from './gherkin-errors';

const BROKEN = 'Feature: broken\n  Scenario: x\n    Given a node "node-1"\n  Scenari: y\n';
const GOOD =
  'Feature: good\n  Scenario: a plain delete\n    Given a node "node-1"\n    And a pod "web" running on node "node-1"\n    When the user deletes pod "web"\n    And the cluster settles\n    Then pod "web" is gone\n';

describe('a Gherkin syntax error', () => {
  it('is found with its line and column, and said in words', () => {
    const [e, ...rest] = gherkinErrors('features/x.feature', BROKEN);
    expect(rest).to.deep.equal([]);
    expect(e).to.include({ uri: 'features/x.feature', line: 4, column: 3 });
    expect(e!.message).to.match(
      /^expected the end of the file, .*a step \(Given, When, Then, And, But\).* or an empty line; got 'Scenari: y'$/,
    );
    expect(gherkinErrors('features/y.feature', GOOD)).to.deep.equal([]);
    expect(inWords('(1:1): something else')).to.equal('something else');
  });

  it('gets a stand-in feature whose one step names the file', () => {
    expect(standInFeature('features/x.feature', gherkinErrors('features/x.feature', BROKEN))).to.contain(
      '    Then the feature file "features/x.feature" is valid Gherkin\n',
    );
  });

  describe('in a run with good features', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'terminating-gherkin-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("fails as that file's scenario while the others run, and every report is written", async () => {
      const broken = path.join(dir, 'broken.feature');
      const good = path.join(dir, 'good.feature');
      writeFileSync(broken, BROKEN);
      writeFileSync(good, GOOD);
      const out = (f: string) => path.join(dir, f);
      const run = await runCucumber({
        paths: [broken, good],
        format: [
          `./src/frontends/report/formatter.cjs:${out('report.html')}`,
          `html:${out('cucumber-report.html')}`,
          `json:${out('cucumber-report.json')}`,
          `junit:${out('junit.xml')}`,
          `message:${out('messages.ndjson')}`,
        ],
      });
      expect(run.success).to.equal(false);
      expect(run.output).to.include('2 scenarios (1 failed, 1 passed)');
      for (const f of ['report.html', 'cucumber-report.html', 'cucumber-report.json', 'junit.xml', 'messages.ndjson'])
        expect(statSync(out(f)).size, f).to.be.above(1000);
      const uri = path.relative(path.resolve(__dirname, '..'), broken);
      const junit = readFileSync(out('junit.xml'), 'utf8');
      expect(junit).to.include(`${uri}:4:3: expected the end of the file`);
      expect(junit).to.include('tests="2"');
      const report = readFileSync(out('report.html'), 'utf8');
      expect(report).to.include(`${uri} has a Gherkin syntax error`);
      expect(report).to.include('a plain delete');
    });
  });
});

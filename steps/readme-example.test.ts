// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs a feature through cucumber's API.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { runCucumber } from '../scripts/cucumber-in-process';

const ROOT = resolve(__dirname, '..');

describe("README's first scenario", () => {
  it('runs green as written, so the newcomer guide cannot drift from the vocabulary', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const m = /```gherkin\n([\s\S]*?)```/.exec(readme);
    expect(m, 'README.md has a ```gherkin block').to.not.equal(null);
    const feature = join(mkdtempSync(join(tmpdir(), 'readme-')), 'readme.feature');
    writeFileSync(feature, m![1]);
    const r = await runCucumber({ paths: [feature] });
    expect(r.success, r.output).to.equal(true);
    expect(r.output).to.match(/1 scenario \(1 passed\)/);
  });

  it('tells a newcomer whose first scenario looks past the end of the timeline which step to add', async () => {
    const feature = join(mkdtempSync(join(tmpdir(), 'readme-')), 'newcomer.feature');
    writeFileSync(
      feature,
      [
        'Feature: a newcomer',
        '  Scenario: the SIGKILL after a forced delete',
        '    Given a node "node-1"',
        '    And a pod "web" running on node "node-1"',
        '    And container "app" of pod "web" ignores SIGTERM',
        '    When I run `kubectl delete pod web --force`',
        '    Then these events happen in order:',
        '      | at   | component | event       |',
        '      | T+2s | runtime   | SIGKILL app |',
      ].join('\n'),
    );
    const r = await runCucumber({ paths: [feature] });
    expect(r.success, r.output).to.equal(false);
    expect(r.output).to.include('The timeline ends at T+0s');
    expect(r.output).to.include('add a step such as  When 2s pass  or  When the cluster settles  before this one');
  });
});

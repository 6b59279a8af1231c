import { after, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..');

/**
 * The VS Code Cucumber extension finds step definitions through `cucumber.glue` in
 * .vscode/settings.json, cucumber-js through `require` in cucumber.js. VS Code's globs have no
 * negation, so the glue names the support files; this test keeps the two in step: the editor must
 * see exactly the files cucumber loads (and so never the *.test.ts suites beside them).
 */
// cucumber.js is a CommonJS module of plain data.
const cucumber = require(path.join(ROOT, 'cucumber.js')) as Record<
  string,
  { require: string[]; format?: string[]; paths?: string[] }
>;

describe('cucumber.js', () => {
  it('writes the message stream (NDJSON) beside the HTML, JSON and JUnit reports in the default and ci profiles', () => {
    for (const profile of ['default', 'ci']) {
      const formats = cucumber[profile].format ?? [];
      expect(formats, profile).to.include.members([
        'html:reports/cucumber-report.html',
        'json:reports/cucumber-report.json',
        'junit:reports/junit.xml',
        'message:reports/cucumber-messages.ndjson',
      ]);
    }
  });
});

describe("one's own scenarios (features/local/)", () => {
  // scripts/feature-files.js is plain CommonJS, shared with cucumber.js.
  const files = require(path.join(ROOT, 'scripts', 'feature-files.js')) as {
    featureFiles(dir: string, options?: { local?: boolean }): string[];
    scenariosRunningKubectl(dir: string, options?: { local?: boolean }): string[];
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'terminating-features-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const feature = (rel: string, steps: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), `Feature: f\n  Scenario: s\n${steps}\n`);
  };
  feature('top.feature', '    When I run `kubectl delete pod web`');
  feature('sub/deep.feature', '    When I try to run `kubectl delete pod web`');
  feature('local/mine.feature', '    When I run `kubectl delete pod web`');

  it('are run by every profile but not by npm test (the ci profile)', () => {
    const local = path.join('features', 'local');
    expect(cucumber.ci.paths ?? [], 'ci lists the project features').to.not.be.empty;
    expect((cucumber.ci.paths ?? []).filter((p) => p.startsWith(local))).to.deep.equal([]);
    expect(cucumber.default.paths, 'the default profile reads all of features/, subfolders included').to.equal(
      undefined,
    );
    expect(files.featureFiles(dir).map((f) => path.relative(dir, f))).to.deep.equal([
      'local/mine.feature',
      'sub/deep.feature',
      'top.feature',
    ]);
  });

  it('the real-kubectl profile reads subfolders', () => {
    expect(files.scenariosRunningKubectl(dir).map((f) => path.relative(dir, f))).to.deep.equal([
      'local/mine.feature:2',
      'sub/deep.feature:2',
      'top.feature:2',
    ]);
  });
});

describe('.vscode/settings.json', () => {
  const settings = JSON.parse(readFileSync(path.join(ROOT, '.vscode', 'settings.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'steps'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const matches = (file: string, globs: readonly string[]): boolean => globs.some((g) => path.matchesGlob(file, g));

  it('gives the editor exactly the support files cucumber.js loads', () => {
    const loaded = files.filter((f) => matches(f, cucumber.default.require));
    const glue = files.filter((f) => matches(f, settings['cucumber.glue']));
    expect(glue, 'add the missing support files to cucumber.glue, or remove the extra ones').to.deep.equal(loaded);
    expect(loaded).to.include('steps/support/world.ts');
  });

  it('leaves out the node:test suites beside the steps', () => {
    const tests = files.filter((f) => f.endsWith('.test.ts'));
    expect(tests.length).to.be.greaterThan(0);
    expect(tests.filter((f) => matches(f, settings['cucumber.glue']))).to.deep.equal([]);
  });
});

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
});

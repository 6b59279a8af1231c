// This test file runs in a process of its own (scripts/unit-tests.ts): it waits on a cucumber child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '..');

describe("README's first scenario", () => {
  it('runs green as written, so the newcomer guide cannot drift from the vocabulary', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const m = /```gherkin\n([\s\S]*?)```/.exec(readme);
    expect(m, 'README.md has a ```gherkin block').to.not.equal(null);
    const feature = join(mkdtempSync(join(tmpdir(), 'readme-')), 'readme.feature');
    writeFileSync(feature, m![1]);
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@cucumber/cucumber/bin/cucumber.js'), feature, '--profile', 'summary'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, `${r.stdout}\n${r.stderr}`).to.equal(0);
    expect(r.stdout).to.match(/1 scenario \(1 passed\)/);
  });
});

// This test file runs in a process of its own (scripts/unit-tests.ts): it loads cucumber's support code and waits on a node child process.
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { expect } from 'chai';
import { path as TS_HOOK } from './ts-hook';
import {
  argumentKind,
  checkContract,
  code,
  commentAbove,
  CONTRACT,
  loadCatalogue,
  missingNotes,
  ROOT,
  run,
  sampleText,
  STALE_MESSAGE,
  type StepEntry,
} from './step-catalogue';

describe('step catalogue (docs/steps.md)', () => {
  it('is up to date with the step definitions (run npm run steps:doc when this fails)', async () => {
    const outcome = await run('check');
    expect(outcome.messages, outcome.messages.join('\n')).to.not.include(STALE_MESSAGE);
    expect(outcome.exitCode, outcome.messages.join('\n')).to.equal(0);
  });

  it('defines every contract phrase, each once, with the doc string or table it takes', async () => {
    const { steps } = await loadCatalogue();
    expect(checkContract(steps).problems).to.deep.equal([]);
  });

  it('shows every contract phrase in the generated catalogue', async () => {
    const { markdown } = await run('print');
    const missing = CONTRACT.map((p) => code(`${p.keyword} ${p.expression}`)).filter((c) => !markdown.includes(c));
    expect(missing).to.deep.equal([]);
  });

  it('gives every step a note (the comment above its definition)', async () => {
    const { steps } = await loadCatalogue();
    expect(missingNotes(steps)).to.deep.equal([]);
  });

  it('passes --check from the command line (exit code 0)', () => {
    const script = path.join(ROOT, 'scripts', 'step-catalogue.ts');
    const r = spawnSync(process.execPath, ['--require', TS_HOOK, script, '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
  });
});

describe('step catalogue helpers', () => {
  const fake = (
    expression: string,
    matches: (text: string) => boolean,
    argument?: 'doc string' | 'table',
  ): StepEntry => ({
    keyword: 'Given',
    group: 'Setup',
    expression,
    parameters: [],
    argument,
    uri: 'steps/fake.steps.ts',
    line: 1,
    matches,
  });

  it('names a contract phrase that no definition matches, an ambiguous one, and a missing doc string', () => {
    const steps = [
      fake('a node {string}', (t) => t === 'a node "web"'),
      fake('a node anything', (t) => t.startsWith('a node')),
    ];
    const { problems } = checkContract(steps, [
      { keyword: 'Given', expression: 'a node {string}' },
      { keyword: 'Given', expression: 'a pod {string} running on node {string}' },
      { keyword: 'Given', expression: 'a node {string} with:', argument: 'doc string' },
    ]);
    expect(problems).to.have.length(3);
    expect(problems[0]).to.match(
      /^contract phrase "Given a node \{string\}" is ambiguous: "a node "web"" matches "a node \{string\}" .*, "a node anything"/,
    );
    expect(problems[1]).to.match(
      /^contract phrase "Given a pod \{string\} running on node \{string\}" has no step definition/,
    );
    expect(problems[2]).to.match(
      /^contract phrase "Given a node \{string\} with: \+ doc string" matches "a node anything" .*, which takes no doc string or table$/,
    );
  });

  it('writes contract phrases with sample values', () => {
    expect(sampleText({ keyword: 'When', expression: 'I run {command}' })).to.equal('I run `kubectl delete pod web`');
    expect(sampleText({ keyword: 'Then', expression: 'the last request fails with {int} {word}' })).to.equal(
      'the last request fails with 409 kubelet',
    );
    expect(() => sampleText({ keyword: 'Then', expression: 'a {colour} pod' })).to.throw(
      /no sample value for the parameter type \{colour\}/,
    );
  });

  it('reads the JSDoc or // comment directly above a definition', () => {
    const lines = [
      '',
      '/**',
      ' * Deletes it.',
      ' * Really.',
      ' */',
      "When('x', () => {});",
      '',
      '// one',
      '// two',
      "When('y', () => {});",
      '',
      "When('z', () => {});",
    ];
    expect(commentAbove(lines, 6)).to.equal('Deletes it. Really.');
    expect(commentAbove(lines, 10)).to.equal('one two');
    expect(commentAbove(lines, 12)).to.equal(undefined);
    expect(commentAbove(lines, 1)).to.equal(undefined);
  });

  it('tells a doc string from a table by the extra argument and its type', () => {
    expect(argumentKind(1, 1, "Then('pod {string} exists', function (this: W, name: string) {")).to.equal(undefined);
    expect(
      argumentKind(2, 1, "Then('pod {string} has fields:', function (this: W, name: string, table: DataTable) {"),
    ).to.equal('table');
    expect(
      argumentKind(
        2,
        1,
        "When('the user deletes pod {string} with options:', function (this: W, pod: string, doc: string) {",
      ),
    ).to.equal('doc string');
    expect(argumentKind(1, 0, "Then('x:', (t: DataTable) => {")).to.equal('table');
  });

  it('names a step without a note, and where to write one', () => {
    const problems = missingNotes([
      fake('a node {string}', () => true),
      { ...fake('a pod', () => true), comment: 'A pod.' },
    ]);
    expect(problems).to.deep.equal([
      'the step "Given a node {string}" (steps/fake.steps.ts:1) has no note: write a comment (/** … */) directly above its definition saying what it does, what it takes and what it checks',
    ]);
  });

  it('fences code that holds backquotes', () => {
    expect(code('I run {command}')).to.equal('`I run {command}`');
    expect(code('`kubectl`')).to.equal('`` `kubectl` ``');
  });
});

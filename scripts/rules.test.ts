import { describe, it } from 'node:test';
import { expect } from 'chai';
import { checkRepository, citedIds, loadRules, parseRules, problems } from './rules';

describe('rule catalogue (docs/rules/*.md)', () => {
  it('defines every rule id cited in src, steps, features, scripts and bench; every rule names a test that names it', () => {
    expect(checkRepository()).to.deep.equal([]);
  });

  it('holds the apiserver, kubelet, timeline and controller rules', () => {
    const ids = new Set(loadRules().map((r) => r.id));
    for (const id of ['R1', 'R23', 'R61', 'K1', 'K33', 'K52', 'S1', 'S12', 'K46', 'C1']) expect(ids, id).to.include(id);
  });

  it('finds the ids that code and features cite', () => {
    const cited = citedIds();
    expect(cited.get('R23')).to.include('src/apiserver/delete.ts');
    expect(cited.get('K47')).to.include('features/node-failure.feature');
  });
});

describe('rule catalogue checks', () => {
  const doc = [
    '# Rules',
    '',
    '### R1 — One',
    'It says one thing.',
    'Upstream: `a.go` `F`.',
    'Tests: `src/a.test.ts`, `features/a.feature`.',
    '',
    '### K2 — Two',
    'Upstream: `b.go` `G`.',
    'Tests: `src/b.ts`, `src/missing.test.ts`, `src/a.test.ts`.',
    '',
    '## Not a rule',
    'Tests: `src/ignored.test.ts`',
    '',
    '### S3 — Three',
    'Tests:',
  ].join('\n');
  const files: Record<string, string> = { 'src/a.test.ts': 'it("R1 …")', 'features/a.feature': 'R1', 'src/b.ts': 'K2' };

  it('reads each rule: id, title, line, upstream and tests', () => {
    const rules = parseRules('docs/rules/x.md', doc);
    expect(rules.map((r) => [r.id, r.title, r.line, r.tests])).to.deep.equal([
      ['R1', 'One', 3, ['src/a.test.ts', 'features/a.feature']],
      ['K2', 'Two', 8, ['src/b.ts', 'src/missing.test.ts', 'src/a.test.ts']],
      ['S3', 'Three', 15, []],
    ]);
    expect(rules[0].upstream).to.equal('`a.go` `F`.');
  });

  it('names each problem: an undefined id with who cites it, a duplicate, no test, a listed file that is no test, missing, or silent about the rule', () => {
    const rules = [
      ...parseRules('docs/rules/x.md', doc),
      ...parseRules('docs/rules/y.md', '### R1 — Again\nUpstream: x\nTests: `src/a.test.ts`'),
    ];
    const cited = new Map([
      ['R1', ['src/a.test.ts']],
      ['R9', ['src/c.ts', 'features/c.feature']],
      ['S3', ['features/s.feature']],
    ]);
    expect(problems(rules, cited, (f) => files[f])).to.deep.equal([
      'R1 is defined twice: docs/rules/x.md:3 and docs/rules/y.md:1',
      'R9 is cited but defined in no file of docs/rules/ (cited in src/c.ts, features/c.feature)',
      'K2 (docs/rules/x.md:8) lists src/b.ts, which is not a test file (*.test.ts) or a feature',
      'K2 (docs/rules/x.md:8) lists src/missing.test.ts, which does not exist',
      'K2 (docs/rules/x.md:8) lists src/a.test.ts, which does not name K2',
      'S3 (docs/rules/x.md:15) has no "Upstream:" line',
      'S3 (docs/rules/x.md:15) names no test on its "Tests:" line (these name it: features/s.feature)',
    ]);
  });
});

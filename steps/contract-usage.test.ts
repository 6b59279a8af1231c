// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs cucumber's dry run through its API.
import { before } from 'node:test';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { runCucumber } from '../scripts/cucumber-in-process';
import { CONTRACT } from '../scripts/step-catalogue';

const ROOT = resolve(__dirname, '..');

interface Usage {
  pattern: string;
  matches: { text: string; uri: string; line: number }[];
}

/** Every step definition with the feature lines that use it (cucumber's usage-json, dry run). */
async function usage(): Promise<Usage[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'usage-')), 'usage.json');
  const r = await runCucumber({ dryRun: true, format: [`usage-json:${out}`] });
  expect(r.success, r.output).to.equal(true);
  return JSON.parse(readFileSync(out, 'utf8')) as Usage[];
}

/** A contract phrase as a regular expression over step texts (its parameters as cucumber reads them, loosely). */
function phraseRegex(expression: string): RegExp {
  const escaped = expression.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const source = escaped.replace(/\{(\w*)\}/g, (_, name: string) =>
    name === 'string' ? `("[^"]*"|'[^']*')` : name === 'word' ? '\\S+' : name === 'int' ? '-?\\d+' : '.+',
  );
  return new RegExp(`^${source}$`);
}

describe('the scenario vocabulary contract (docs/steps.md)', () => {
  let all: Usage[] = [];
  before(async () => {
    all = await usage();
  });

  it('every contract phrase is used by at least one scenario in features/', () => {
    const unused: string[] = [];
    for (const phrase of CONTRACT) {
      // `{duration} pass` and `{duration} passes` are one definition: `{duration} pass(es)`.
      const pattern = phrase.expression.startsWith('{duration} pass') ? '{duration} pass(es)' : phrase.expression;
      const def = all.find((u) => u.pattern === pattern);
      // A phrase served by a wider definition (`a job {string} with:` by `a {word} {string} with:`): some step of a feature reads as the phrase.
      const used = def
        ? def.matches.length > 0
        : all.some((u) => u.matches.some((m) => phraseRegex(pattern).test(m.text)));
      if (!used) unused.push(`${phrase.keyword} ${phrase.expression}`);
    }
    expect(unused, `contract phrases no scenario runs:\n${unused.join('\n')}`).to.deep.equal([]);
  });

  it('both spellings of the time step are used as written', () => {
    const texts = readdirSync(join(ROOT, 'features'))
      .filter((f) => f.endsWith('.feature'))
      .map((f) => readFileSync(join(ROOT, 'features', f), 'utf8'))
      .join('\n');
    expect(texts).to.match(/When \S+ pass\s*$/m);
    expect(texts).to.match(/When \S+ passes\s*$/m);
  });
});

/**
 * A feature file with a Gherkin syntax error is that file's failure, not the whole run's. Cucumber
 * parses every feature before it runs any and, on one parse error, runs nothing and leaves every
 * report file empty. The plugin (scripts/gherkin-errors-plugin.cjs, in every profile of cucumber.js)
 * parses each feature file first with cucumber's own parser and puts a stand-in feature in the run
 * instead of a broken one: one scenario whose one step, `the feature file "…" is valid Gherkin`
 * (steps/definitions/feature-files.steps.ts), parses the file again and fails naming each error's file, line
 * and what was expected. Every other scenario runs and every report is written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Envelope } from '@cucumber/messages';
import { IdGenerator } from '@cucumber/messages';

/** Cucumber's own Gherkin parser (the version it runs), so the verdict is the one cucumber would give. */
const gherkin = createRequire(require.resolve('@cucumber/cucumber'))('@cucumber/gherkin') as {
  generateMessages(
    data: string,
    uri: string,
    mediaType: string,
    options: { includeSource: boolean; includeGherkinDocument: boolean; includePickles: boolean; newId: () => string },
  ): Envelope[];
};

export interface GherkinError {
  /** The file as cucumber names it (relative to the working directory). */
  readonly uri: string;
  readonly line: number;
  readonly column?: number;
  /** What the parser expected and found, in words. */
  readonly message: string;
}

/** The parser's token names, as a scenario author calls them. */
const TOKENS: Readonly<Record<string, string>> = {
  EOF: 'the end of the file',
  Empty: 'an empty line',
  Comment: 'a # comment',
  TagLine: 'a @tag',
  FeatureLine: '"Feature:"',
  RuleLine: '"Rule:"',
  BackgroundLine: '"Background:"',
  ScenarioLine: '"Scenario:" (or "Scenario Outline:")',
  ExamplesLine: '"Examples:"',
  StepLine: 'a step (Given, When, Then, And, But)',
  DocStringSeparator: 'a doc string delimiter (""")',
  TableRow: 'a table row (| … |)',
  Language: 'a # language: line',
  Other: 'a line of description',
};

/** `(5:3): expected: #EOF, #StepLine, got 'Scenari: y'` → `expected the end of the file or a step …, got 'Scenari: y'`. */
export function inWords(parserMessage: string): string {
  const text = parserMessage.replace(/^\(\d+:\d+\):\s*/, '');
  const m = /^expected: (.*), got (.*)$/s.exec(text);
  if (!m) return text;
  const expected = m[1]!.split(/,\s*/).map((t) => TOKENS[t.replace(/^#/, '')] ?? t);
  const alternatives =
    expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}` : expected[0];
  return `expected ${alternatives}; got ${m[2]}`;
}

/** The Gherkin syntax errors of one feature file's text (none for a good file). */
export function gherkinErrors(uri: string, text: string): GherkinError[] {
  const envelopes = gherkin.generateMessages(text, uri, 'text/x.cucumber.gherkin+plain', {
    includeSource: false,
    includeGherkinDocument: true,
    includePickles: false,
    newId: IdGenerator.incrementing(),
  });
  return envelopes.flatMap((e) =>
    e.parseError
      ? [
          {
            uri,
            line: e.parseError.source.location?.line ?? 0,
            column: e.parseError.source.location?.column,
            message: inWords(e.parseError.message),
          },
        ]
      : [],
  );
}

/** One error as the failure prints it: `features/x.feature:5:3: expected …`. */
export function describeError(e: GherkinError): string {
  return `${e.uri}:${e.line}${e.column ? `:${e.column}` : ''}: ${e.message}`;
}

/** The stand-in feature for a file that cannot be parsed: one scenario, one step that reports its errors. */
export function standInFeature(uri: string, errors: readonly GherkinError[]): string {
  const first = errors[0];
  return [
    `Feature: ${uri} cannot be parsed`,
    `  A Gherkin syntax error${first ? ` at line ${first.line}` : ''} keeps cucumber from reading ${uri}: its scenarios did not run. The other features ran as usual.`,
    '',
    `  Scenario: ${uri} has a Gherkin syntax error`,
    `    Then the feature file ${JSON.stringify(uri)} is valid Gherkin`,
    '',
  ].join('\n');
}

/**
 * Replaces, in place, each feature file of `sourcePaths` (absolute, as cucumber resolved them)
 * that cannot be parsed by a stand-in written under `<cwd>/reports/gherkin-errors/`. Returns the
 * errors found.
 */
export function replaceUnparsable(sourcePaths: string[], cwd: string): GherkinError[] {
  const found: GherkinError[] = [];
  sourcePaths.forEach((file, i) => {
    if (!file.endsWith('.feature')) return;
    const uri = path.relative(cwd, file);
    const errors = gherkinErrors(uri, readFileSync(file, 'utf8'));
    if (errors.length === 0) return;
    found.push(...errors);
    const standIn = path.join(
      cwd,
      'reports',
      'gherkin-errors',
      uri
        .split(path.sep)
        .filter((p) => p !== '..')
        .join(path.sep),
    );
    mkdirSync(path.dirname(standIn), { recursive: true });
    writeFileSync(standIn, standInFeature(uri, errors));
    sourcePaths[i] = standIn;
  });
  return found;
}

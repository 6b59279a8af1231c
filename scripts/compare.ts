/**
 * `npm run compare -- FILE:LINE FILE:LINE`: runs two scenarios (or two Examples rows of a
 * Scenario Outline, each named by its row's line) and compares their timelines side by side:
 * events aligned by component and text, the ones only one side has, the same event at another
 * time, and the field changes of matching writes that differ. Prints the comparison and writes
 * it as HTML to reports/compare.html.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { Envelope } from '@cucumber/messages';
import { formatComparison } from '../src/frontends/report/compare';
import { renderComparisonPage } from '../src/frontends/report/html';
import { collectScenarios, type ScenarioReport } from '../src/frontends/report/model';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'reports', 'compare.html');

/** Reads `features/x.feature:12`; anything else is an error saying what was expected. */
export function parseLocation(arg: string): { file: string; line: number } {
  const m = /^(.+\.feature):(\d+)$/.exec(arg);
  if (!m)
    throw new Error(
      `bad scenario "${arg}": expected FILE:LINE, e.g. features/versions.feature:12 (the line of a Scenario, or of an Examples row)`,
    );
  return { file: m[1]!, line: Number(m[2]) };
}

/** parseLocation, and the feature file must exist (relative to the project, as cucumber reads it). */
export function checkLocation(arg: string, root = ROOT): { file: string; line: number } {
  const location = parseLocation(arg);
  if (!existsSync(path.resolve(root, location.file))) throw new Error(`no feature file ${location.file} (in ${root})`);
  return location;
}

/** The scenario run at a location, or an error listing the scenarios that were run there. */
export function pick(scenarios: readonly ScenarioReport[], arg: string): ScenarioReport {
  const { file, line } = parseLocation(arg);
  const uri = path.relative(ROOT, path.resolve(ROOT, file));
  const found = scenarios.find((s) => s.uri === uri && s.line === line);
  if (found) return found;
  const there = scenarios.filter((s) => s.uri === uri && s.outlineLine === line);
  const hint =
    there.length > 0
      ? `line ${line} is a Scenario Outline; name one of its Examples rows: ${there.map((s) => s.location).join(', ')}`
      : `the scenarios run: ${scenarios.map((s) => s.location).join(', ') || 'none'}`;
  throw new Error(`no scenario at ${arg}: ${hint}`);
}

async function main(args: string[]): Promise<void> {
  if (args.length !== 2)
    throw new Error(
      'usage: npm run compare -- FILE:LINE FILE:LINE   (two scenarios, or two Examples rows of a Scenario Outline)',
    );
  for (const a of args) checkLocation(a);
  const api = await import('@cucumber/cucumber/api');
  const environment = { cwd: ROOT, stdout: new Writable({ write: (_c, _e, done) => done() }) };
  const { runConfiguration } = await api.loadConfiguration(
    { profiles: ['summary'], provided: { paths: args } },
    environment,
  );
  const envelopes: Envelope[] = [];
  await api.runCucumber(runConfiguration, environment, (e) => envelopes.push(e));
  const scenarios = collectScenarios(envelopes);
  const [a, b] = args.map((arg) => pick(scenarios, arg)) as [ScenarioReport, ScenarioReport];
  for (const s of [a, b])
    if (!s.timeline)
      throw new Error(
        `${s.location} (${s.name}) has no timeline: it ${s.status === 'passed' ? 'never started the cluster' : `is ${s.status}`}`,
      );
  console.log(formatComparison(a, b));
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, renderComparisonPage(a, b));
  console.log(`\nSide by side: ${path.relative(process.cwd(), OUT)}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: Error) => {
    console.error(e.message);
    process.exit(2);
  });
}

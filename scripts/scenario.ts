/**
 * `npm run scenario -- FILE[:LINE]…`: runs one feature (or one scenario, or an Examples row, by its
 * line) with the `scenario` profile and writes its reports to reports/scenarios/NAME/ — the same
 * files `npm run bdd` writes to reports/, so the suite's report stays as it was. NAME is the
 * first argument's file name and line (`my-first`, `my-first-12`). Prints where the report is.
 * Exit code: cucumber's (0 when every scenario passed), 2 for bad usage.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { checkLocation } from './compare';

const ROOT = path.resolve(__dirname, '..');

/** The run's report folder and the cucumber-js arguments that write it; an error for an argument that names no feature file. */
export function scenarioRun(args: readonly string[], root = ROOT): { dir: string; cucumberArgs: string[] } {
  if (args.length === 0)
    throw new Error(
      'usage: npm run scenario -- FILE[:LINE]…   (e.g. features/local/my-first.feature, or features/local/my-first.feature:3 for one scenario)',
    );
  for (const a of args) checkLocation(/:\d+$/.test(a) ? a : `${a}:1`, root);
  const [file, line] = args[0]!.split(/:(?=\d+$)/);
  const name = `${path.basename(file!, '.feature')}${line ? `-${line}` : ''}`;
  const dir = path.join('reports', 'scenarios', name);
  const out = (f: string) => path.join(dir, f);
  const formats = [
    `./src/frontends/report/formatter.cjs:${out('report.html')}`,
    `html:${out('cucumber-report.html')}`,
    `json:${out('cucumber-report.json')}`,
    `junit:${out('junit.xml')}`,
    `message:${out('cucumber-messages.ndjson')}`,
  ];
  return { dir, cucumberArgs: ['-p', 'scenario', ...formats.flatMap((f) => ['--format', f]), ...args] };
}

function main(args: string[]): number {
  let run: ReturnType<typeof scenarioRun>;
  try {
    run = scenarioRun(args);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const cucumber = path.join(path.dirname(require.resolve('@cucumber/cucumber/package.json')), 'bin', 'cucumber.js');
  const r = spawnSync(process.execPath, [cucumber, ...run.cucumberArgs], { cwd: ROOT, stdio: 'inherit' });
  console.log(`\nReport: ${path.join(run.dir, 'report.html')} (the suite's reports/report.html is left as it was)`);
  return r.status ?? 1;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));

/**
 * `npm run bench`: the speed and memory figures of issue 6, each the median of several runs, as a
 * table and as reports/bench.json. Measured, never asserted: a slow machine prints slow numbers.
 *
 * 1. suite: `cucumber-js` on every feature vs. the floor — the same loader and config running the
 *    same number of scenarios whose steps do nothing (and, for information, plain .js no-op steps
 *    without a TypeScript loader).
 * 2. mass: N pods over 100 nodes deleted gracefully until all are gone, N = 1 000 and 10 000, each
 *    in a fresh process (wall time of the simulation, peak RSS, events per second).
 * 3. seed: virtual seconds per wall second for the seed graceful scenario.
 * 4. serve (bench/serve.ts, issue 9): ready time, LIST of 10 000 pods, the real kubectl delete in jump mode.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { path as TS_HOOK } from '../scripts/ts-hook';
import { seedScenario } from './seed-speed';

const ROOT = resolve(__dirname, '..');
const CUCUMBER = join(ROOT, 'node_modules/@cucumber/cucumber/bin/cucumber.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timed(cmd: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function countScenarios(): number {
  const dir = join(ROOT, 'features');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.feature'))
    .map((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => /^\s*Scenario( Outline)?:/.test(l) && !/@wip/.test(l)).length)
    .reduce((a, b) => a + b, 0);
}

/** A project with `n` scenarios of five steps each that do nothing, for the floor measurement. */
function floorProject(n: number, typescript: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'terminating-floor-'));
  mkdirSync(join(dir, 'features'));
  mkdirSync(join(dir, 'steps'));
  const scenarios = Array.from({ length: n }, (_, i) => `  Scenario: no-op ${i}\n    Given step one\n    When step two\n    Then step three\n    And step four\n    And step five\n`);
  writeFileSync(join(dir, 'features', 'floor.feature'), `Feature: floor\n${scenarios.join('\n')}`);
  const ext = typescript ? 'ts' : 'js';
  const body = typescript
    ? `import { defineStep } from '@cucumber/cucumber';\ndefineStep(/^step \\w+$/, function () {});\n`
    : `const { defineStep } = require('@cucumber/cucumber');\ndefineStep(/^step \\w+$/, function () {});\n`;
  writeFileSync(join(dir, 'steps', `noop.${ext}`), body);
  const config = {
    ...(typescript ? { requireModule: [TS_HOOK] } : {}),
    require: [`steps/**/*.${ext}`],
    format: ['progress', 'html:reports/cucumber-report.html', 'json:reports/cucumber-report.json', 'junit:reports/junit.xml'],
  };
  writeFileSync(join(dir, 'cucumber.js'), `module.exports = { default: ${JSON.stringify(config)} };\n`);
  writeFileSync(join(dir, 'tsconfig.json'), readFileSync(join(ROOT, 'tsconfig.json')));
  // Resolve packages from the project's node_modules.
  spawnSync('ln', ['-s', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
  return dir;
}

function massRun(n: number): { seconds: number; deleteSeconds: number; peakRssMB: number; events: number } {
  const r = spawnSync(process.execPath, ['--require', TS_HOOK, join(ROOT, 'bench/mass-deletion.ts'), String(n)], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mass deletion ${n} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** bench/serve.ts in its own process: the `serve` figures of issue 9. */
function serveFigures(): { readyMs: number; listJsonMs: number; listTableMs: number; kubectlDeleteMs: number | string } {
  const r = spawnSync(process.execPath, ['--require', TS_HOOK, join(ROOT, 'bench/serve.ts')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`serve bench failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

function main(): void {
  const scenarios = countScenarios();
  const suite = Array.from({ length: RUNS }, () => timed(process.execPath, [CUCUMBER], ROOT));
  const tsFloorDir = floorProject(scenarios, true);
  const floor = Array.from({ length: RUNS }, () => timed(process.execPath, [CUCUMBER], tsFloorDir));
  const jsFloorDir = floorProject(scenarios, false);
  const jsFloor = Array.from({ length: RUNS }, () => timed(process.execPath, [CUCUMBER], jsFloorDir));

  const mass: Record<string, { seconds: number; deleteSeconds: number; peakRssMB: number; eventsPerSecond: number }> = {};
  for (const n of [1000, 10000]) {
    const runs = Array.from({ length: RUNS }, () => massRun(n));
    const seconds = median(runs.map((r) => r.seconds));
    mass[String(n)] = { seconds, deleteSeconds: median(runs.map((r) => r.deleteSeconds)), peakRssMB: median(runs.map((r) => r.peakRssMB)), eventsPerSecond: Math.round(runs[0].events / seconds) };
  }

  const seedRuns = Array.from({ length: RUNS }, () => {
    const start = process.hrtime.bigint();
    const { virtualMs } = seedScenario();
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    return virtualMs / 1000 / wall;
  });

  const served = serveFigures();

  const result = {
    runs: RUNS,
    suite: { scenarios, seconds: median(suite), floorSeconds: median(floor), ratio: median(suite) / median(floor), plainJsFloorSeconds: median(jsFloor) },
    mass: { ...mass, growth: mass['10000'].seconds / mass['1000'].seconds },
    seed: { speedup: Math.round(median(seedRuns)) },
    serve: served,
  };
  mkdirSync(join(ROOT, 'reports'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/bench.json'), `${JSON.stringify(result, null, 2)}\n`);

  const rows: [string, string, string][] = [
    ['npm run bdd (all scenarios)', `${result.suite.seconds.toFixed(2)} s`, `${scenarios} scenarios`],
    ['floor: same loader, no-op steps', `${result.suite.floorSeconds.toFixed(2)} s`, `ratio ${result.suite.ratio.toFixed(2)}× (target ≤ 1.5×)`],
    ['floor: plain .js, no TS loader', `${result.suite.plainJsFloorSeconds.toFixed(2)} s`, 'for information'],
    ['mass deletion, 1 000 pods', `${mass['1000'].seconds.toFixed(2)} s`, `${mass['1000'].peakRssMB.toFixed(0)} MB, ${mass['1000'].eventsPerSecond} events/s; deletion phase ${mass['1000'].deleteSeconds.toFixed(2)} s`],
    ['mass deletion, 10 000 pods', `${mass['10000'].seconds.toFixed(2)} s`, `${mass['10000'].peakRssMB.toFixed(0)} MB (targets ≤ 2 s, ≤ 400 MB); deletion phase ${mass['10000'].deleteSeconds.toFixed(2)} s`],
    ['growth 1 000 → 10 000', `${result.mass.growth.toFixed(1)}×`, 'target ≤ 11×'],
    ['seed scenario speed-up', `${result.seed.speedup}×`, 'virtual seconds per wall second'],
    ['serve: ready', `${served.readyMs.toFixed(0)} ms`, 'process start to ready, default cluster (target < 1 s)'],
    ['serve: LIST 10 000 pods, JSON', `${served.listJsonMs.toFixed(0)} ms`, 'over HTTP, whole body read (target < 200 ms)'],
    ['serve: LIST 10 000 pods, Table', `${served.listTableMs.toFixed(0)} ms`, 'as kubectl get asks (target < 200 ms)'],
    ['serve: real kubectl delete pod web', typeof served.kubectlDeleteMs === 'number' ? `${served.kubectlDeleteMs.toFixed(0)} ms` : served.kubectlDeleteMs, '30 s grace, --clock jump, wall time of kubectl (target < 1 s)'],
  ];
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`median of ${RUNS} runs each; written to reports/bench.json\n`);
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])}  ${r[2]}`);
}

main();

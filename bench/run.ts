/**
 * `npm run bench`: the speed and memory figures of issue 6, each the median of several runs, as a
 * table and as reports/bench.json. Measured, never asserted: a slow machine prints slow numbers.
 *
 * 1. suite: `cucumber-js` on every feature vs. the floor — the same loader and config running the
 *    same number of scenarios and steps (an outline's Examples rows each count, as cucumber counts
 *    them) whose steps do nothing (and, for information, plain .js no-op steps without a
 *    TypeScript loader). Suite and floor runs alternate, so a shared machine's load falls on both;
 *    each gives wall time and CPU time (user + system, what the process itself used).
 * 2. mass: N pods deleted gracefully until all are gone, each run in a fresh process (wall time of
 *    the simulation, the process's CPU time, peak RSS, events per second): 1 000 and 10 000 pods on 100 nodes with full
 *    recording, 10 000 pods on 2 nodes (no per-node cost may grow with the pods of a node),
 *    10 000 on 100 nodes in scale mode (--record summary), 100 000 on 1 000 nodes and 150 000 on
 *    5 000 nodes (the largest cluster Kubernetes supports) in scale mode, and a drain of 100 of
 *    those 5 000 nodes (bench/drain-at-scale.ts).
 *    MASS_CASES=1000,10000 runs only those keys.
 * 3. seed: virtual seconds per wall second for the seed graceful scenario.
 * 4. serve (bench/serve.ts, issue 9): ready time, LIST of 10 000 pods, the real kubectl delete in jump mode.
 * 5. soak (bench/soak.ts, issue 22): 20 000 objects (pods that run, custom resources) created and deleted over HTTP; heap and etcd history after the first and last compaction.
 *
 * 6. the targets of issue 37 (bench/targets.ts): each figure beside its target, met or not met.
 *
 * A whole run takes minutes (one 100 000-pod run alone ≈ 30 s): each measurement says what it was
 * on standard error as it ends (`progress`), the table and bench.json come at the end.
 *
 * BENCH_PROFILE=1 adds one run of the suite and of each mass-deletion case under V8's CPU profiler
 * and sampling heap profiler (not timed: profiling slows a run down). The profiles go to
 * reports/profiles/ (KEY.cpuprofile, KEY.heapprofile: Chrome DevTools or speedscope open them);
 * where the main thread's time went and what was live at exit, by source file
 * (bench/profile-summary.ts), goes under `profiles` in bench.json and below the table.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { path as TS_HOOK } from '../scripts/ts-hook';
import { describeSummary, summariseCpuProfile, summariseHeapProfile, type ProfileSummary } from './profile-summary';
import { seedScenario } from './seed-speed';
import { benchSettingsOrExit } from './settings';
import { formatTargets, issue37Targets, SUPPORTED_MAXIMUM, SUPPORTED_MAXIMUM_DRAIN } from './targets';
import { widest } from '../src/foundation/widest';

const ROOT = resolve(__dirname, '..');
const CUCUMBER = join(ROOT, 'node_modules/@cucumber/cucumber/bin/cucumber.js');

/** One line on standard error as each measurement ends: what ran and what it took. */
function progress(what: string, figure: string): void {
  process.stderr.write(`bench: ${what}: ${figure}\n`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A profiled run's summaries and the files they come from (relative to the project). */
interface Profiled {
  cpu: ProfileSummary;
  heap: ProfileSummary;
  files: string[];
}

/** The node flags that make a run write `NAME.cpuprofile` and `NAME.heapprofile` into `dir` (a heap sample every 64 KB allocated). */
function profileFlags(dir: string, name: string): string[] {
  return [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    `--cpu-prof-name=${name}.cpuprofile`,
    '--heap-prof',
    `--heap-prof-dir=${dir}`,
    `--heap-prof-name=${name}.heapprofile`,
    '--heap-prof-interval=65536',
  ];
}

/** Summarises the two profiles a run with `profileFlags(dir, name)` wrote, and says so on standard error. */
function readProfiles(dir: string, name: string, what: string): Profiled {
  const [cpuFile, heapFile] = ['cpuprofile', 'heapprofile'].map((ext) => join(dir, `${name}.${ext}`));
  const cpu = summariseCpuProfile(JSON.parse(readFileSync(cpuFile, 'utf8')), ROOT);
  const heap = summariseHeapProfile(JSON.parse(readFileSync(heapFile, 'utf8')), ROOT);
  progress(
    `${what}, profiled`,
    `CPU ${cpu.total.toFixed(0)} ms: ${describeSummary(cpu, 4)}; live at exit ${heap.total.toFixed(0)} MB: ${describeSummary(heap, 3)}`,
  );
  return { cpu, heap, files: [cpuFile, heapFile].map((f) => relative(ROOT, f)) };
}

/** Writes the process's own CPU time when it exits (loaded with --require into a measured run). */
const CPU_PRELOAD = join(__dirname, 'cpu-time.js');

/** Runs `node args` in `cwd`: wall seconds and the child's CPU seconds (user + system). */
function timed(args: string[], cwd: string): { seconds: number; cpuSeconds: number } {
  const cpuFile = join(mkdtempSync(join(tmpdir(), 'terminating-cpu-')), 'cpu.json');
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', CPU_PRELOAD, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, BENCH_CPU_FILE: cpuFile },
  });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { user, system } = JSON.parse(readFileSync(cpuFile, 'utf8')) as { user: number; system: number };
  return { seconds, cpuSeconds: (user + system) / 1e6 };
}

/** The scenarios and steps the suite runs, as cucumber counts them (a dry run of the summary profile). */
function countScenarios(): { scenarios: number; steps: number } {
  const r = spawnSync(process.execPath, [CUCUMBER, '--profile', 'summary', '--dry-run'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const count = (what: string): number => Number(new RegExp(`(\\d+) ${what}`).exec(r.stdout)?.[1] ?? NaN);
  const counted = { scenarios: count('scenarios?'), steps: count('steps?') };
  if (r.status !== 0 || !(counted.scenarios > 0 && counted.steps > 0))
    throw new Error(`cucumber --dry-run did not count the suite:\n${r.stdout}\n${r.stderr}`);
  return counted;
}

/** A project with `n` scenarios and `steps` steps in all that do nothing, for the floor measurement. */
function floorProject(n: number, steps: number, typescript: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'terminating-floor-'));
  mkdirSync(join(dir, 'features'));
  mkdirSync(join(dir, 'steps'));
  // The steps spread evenly: the first `steps % n` scenarios take one more.
  const stepsOf = (i: number): string[] =>
    Array.from(
      { length: Math.floor(steps / n) + (i < steps % n ? 1 : 0) },
      (_, j) => `    ${j === 0 ? 'Given' : 'And'} step s${j}\n`,
    );
  const scenarios = Array.from({ length: n }, (_, i) => `  Scenario: no-op ${i}\n${stepsOf(i).join('')}`);
  writeFileSync(join(dir, 'features', 'floor.feature'), `Feature: floor\n${scenarios.join('\n')}`);
  const ext = typescript ? 'ts' : 'js';
  const body = typescript
    ? `import { defineStep } from '@cucumber/cucumber';\ndefineStep(/^step \\w+$/, function () {});\n`
    : `const { defineStep } = require('@cucumber/cucumber');\ndefineStep(/^step \\w+$/, function () {});\n`;
  writeFileSync(join(dir, 'steps', `noop.${ext}`), body);
  const config = {
    ...(typescript ? { requireModule: [TS_HOOK] } : {}),
    require: [`steps/**/*.${ext}`],
    format: [
      'progress',
      'html:reports/cucumber-report.html',
      'json:reports/cucumber-report.json',
      'junit:reports/junit.xml',
    ],
  };
  writeFileSync(join(dir, 'cucumber.js'), `module.exports = { default: ${JSON.stringify(config)} };\n`);
  writeFileSync(join(dir, 'tsconfig.json'), readFileSync(join(ROOT, 'tsconfig.json')));
  // Resolve packages from the project's node_modules.
  spawnSync('ln', ['-s', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
  return dir;
}

interface MassCase {
  pods: number;
  nodes: number;
  record: 'full' | 'summary';
  /** A third of the runs, at least one: one 100 000-pod run takes about as long as the other cases together. */
  fewerRuns?: boolean;
  /** The pods behind this many services, each with clients sending a request every 100 ms. */
  services?: number;
  label: string;
  /** The script that runs the case (default bench/mass-deletion.ts); it takes PODS NODES --record and prints the same JSON line. */
  script?: string;
  /** What its second phase is (default: the deletion). */
  phase?: string;
  /** More arguments for its script (after PODS NODES --record …). */
  args?: string[];
}

/** The mass-deletion cases by their key in bench.json (new cases: add a line). */
const MASS_CASES: Record<string, MassCase> = {
  '1000': { pods: 1000, nodes: 100, record: 'full', label: 'mass deletion, 1 000 pods / 100 nodes' },
  '10000': { pods: 10000, nodes: 100, record: 'full', label: 'mass deletion, 10 000 pods / 100 nodes' },
  '10000-2nodes': { pods: 10000, nodes: 2, record: 'full', label: 'mass deletion, 10 000 pods / 2 nodes' },
  '10000-summary': { pods: 10000, nodes: 100, record: 'summary', label: 'mass deletion, 10 000 pods, scale mode' },
  '10000-services': {
    pods: 10000,
    nodes: 100,
    record: 'full',
    services: 100,
    label: 'mass deletion, 10 000 pods behind 100 services with traffic',
  },
  '100000': {
    pods: 100000,
    nodes: 1000,
    record: 'summary',
    fewerRuns: true,
    label: 'mass deletion, 100 000 pods / 1 000 nodes, scale mode',
  },
  // The largest cluster Kubernetes supports (issue 37): about a minute and 3 GB a run.
  [SUPPORTED_MAXIMUM]: {
    pods: 150000,
    nodes: 5000,
    record: 'summary',
    fewerRuns: true,
    label: 'mass deletion, 150 000 pods / 5 000 nodes, scale mode',
  },
  // kubectl drain of 100 of its nodes (issue 37): 1 500 workloads of 100 pods, each in its own
  // namespace under a budget; the cluster is built bound (bench/drain-at-scale.ts), then drained.
  [SUPPORTED_MAXIMUM_DRAIN]: {
    pods: 150000,
    nodes: 5000,
    record: 'summary',
    fewerRuns: true,
    script: 'bench/drain-at-scale.ts',
    args: ['--drain', '100'],
    phase: 'drain',
    label: 'drain of 100 nodes, 150 000 pods / 5 000 nodes, scale mode',
  },
  // A Deployment's rolling update: every pod through the scheduler and the ReplicaSet and Deployment controllers.
  '1000-rollout': {
    pods: 1000,
    nodes: 20,
    record: 'full',
    script: 'bench/rollout.ts',
    phase: 'rollout',
    label: 'rollout of a Deployment, 1 000 replicas / 20 nodes',
  },
  // kubectl drain of 10 nodes, one after the other, with every eviction asking a PodDisruptionBudget.
  '1000-drain': {
    pods: 1000,
    nodes: 10,
    record: 'full',
    script: 'bench/drain.ts',
    phase: 'drain',
    label: 'drain of 10 nodes under PodDisruptionBudgets, 1 000 pods',
  },
};

/** The environment's settings, checked before anything runs; a bad one ends the bench at once (exit code 2). */
const SETTINGS = benchSettingsOrExit(process.env, Object.keys(MASS_CASES));
const RUNS = SETTINGS.runs;
const PROFILE_DIR = SETTINGS.profile ? join(ROOT, 'reports', 'profiles') : undefined;

interface MassRun {
  seconds: number;
  deleteSeconds: number;
  cpuSeconds: number;
  peakRssMB: number;
  events: number;
  finalState: string;
}

function massRun(c: MassCase, nodeFlags: string[] = []): MassRun {
  const args = [
    ...nodeFlags,
    '--require',
    TS_HOOK,
    join(ROOT, c.script ?? 'bench/mass-deletion.ts'),
    String(c.pods),
    String(c.nodes),
    '--record',
    c.record,
    ...(c.services ? ['--services', String(c.services)] : []),
    ...(c.args ?? []),
  ];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${c.label} (${c.pods}/${c.nodes}/${c.record}) failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** bench/serve.ts in its own process: the `serve` figures of issue 9. */
function serveFigures(): {
  readyMs: number;
  listJsonMs: number;
  listProtobufMs: number;
  listTableMs: number;
  kubectlDeleteMs: number | string;
} {
  const r = spawnSync(process.execPath, ['--require', TS_HOOK, join(ROOT, 'bench/serve.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`serve bench failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** bench/soak.ts in its own process: a long serve session's memory (issue 22). */
function soakFigures(): {
  objects: number;
  podsRan: number;
  heapAfterFirstMB: number;
  heapAfterLastMB: number;
  historyAfterFirst: number;
  historyAfterLast: number;
  requestsPerSecond: number;
} {
  const r = spawnSync(process.execPath, ['--require', TS_HOOK, join(ROOT, 'bench/soak.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`soak bench failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

function times(x: number | undefined): string {
  return x === undefined ? '—' : `${x.toFixed(2)}×`;
}

function main(): void {
  const { scenarios, steps } = countScenarios();
  const tsFloorDir = floorProject(scenarios, steps, true);
  const jsFloorDir = floorProject(scenarios, steps, false);
  const suite: { seconds: number; cpuSeconds: number }[] = [];
  const floor: typeof suite = [];
  const jsFloor: typeof suite = [];
  for (let i = 0; i < RUNS; i++) {
    suite.push(timed([CUCUMBER], ROOT));
    floor.push(timed([CUCUMBER], tsFloorDir));
    jsFloor.push(timed([CUCUMBER], jsFloorDir));
    progress(
      `npm run bdd (${scenarios} scenarios) / floor / plain .js floor, run ${i + 1} of ${RUNS}`,
      [suite, floor, jsFloor].map((r) => `${r[i].seconds.toFixed(2)} s`).join(' / '),
    );
  }
  const profiles: Record<string, Profiled> = {};
  if (PROFILE_DIR) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    timed([...profileFlags(PROFILE_DIR, 'suite'), CUCUMBER], ROOT);
    profiles.suite = readProfiles(PROFILE_DIR, 'suite', 'npm run bdd');
  }
  const wall = (runs: typeof suite): number => median(runs.map((r) => r.seconds));
  const cpu = (runs: typeof suite): number => median(runs.map((r) => r.cpuSeconds));

  type MassFigure = {
    pods: number;
    nodes: number;
    record: string;
    runs: number;
    seconds: number;
    deleteSeconds: number;
    cpuSeconds: number;
    peakRssMB: number;
    eventsPerSecond: number;
    finalState: string;
  };
  const mass: Record<string, MassFigure> = {};
  for (const [key, c] of Object.entries(MASS_CASES)) {
    if (SETTINGS.massCases && !SETTINGS.massCases.includes(key)) continue;
    const count = c.fewerRuns ? Math.max(1, Math.ceil(RUNS / 3)) : RUNS;
    const runs = Array.from({ length: count }, (_, i) => {
      const r = massRun(c);
      progress(`${c.label}, run ${i + 1} of ${count}`, `${r.seconds.toFixed(2)} s, ${r.peakRssMB.toFixed(0)} MB`);
      return r;
    });
    if (PROFILE_DIR) {
      massRun(c, profileFlags(PROFILE_DIR, `mass-${key}`));
      profiles[`mass-${key}`] = readProfiles(PROFILE_DIR, `mass-${key}`, c.label);
    }
    const seconds = median(runs.map((r) => r.seconds));
    mass[key] = {
      pods: c.pods,
      nodes: c.nodes,
      record: c.record,
      runs: count,
      seconds,
      deleteSeconds: median(runs.map((r) => r.deleteSeconds)),
      cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
      peakRssMB: median(runs.map((r) => r.peakRssMB)),
      eventsPerSecond: Math.round(runs[0].events / seconds),
      finalState: runs[0].finalState,
    };
  }
  const ratio = (a: string, b: string): number | undefined =>
    mass[a] && mass[b] ? mass[a].seconds / mass[b].seconds : undefined;

  const seedRuns = Array.from({ length: RUNS }, (_, i) => {
    const start = process.hrtime.bigint();
    const { virtualMs } = seedScenario();
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    progress(`seed scenario, run ${i + 1} of ${RUNS}`, `${Math.round(virtualMs / 1000 / wall)}× virtual time`);
    return virtualMs / 1000 / wall;
  });

  const served = serveFigures();
  progress(
    `serve (medians of ${RUNS} runs)`,
    `ready ${served.readyMs.toFixed(0)} ms, LIST ${served.listJsonMs.toFixed(0)} ms`,
  );

  const soaked = soakFigures();
  progress('serve soak', `${soaked.objects} objects, heap ${soaked.heapAfterFirstMB} → ${soaked.heapAfterLastMB} MB`);

  const result = {
    runs: RUNS,
    suite: {
      scenarios,
      steps,
      seconds: wall(suite),
      floorSeconds: wall(floor),
      ratio: wall(suite) / wall(floor),
      cpuSeconds: cpu(suite),
      floorCpuSeconds: cpu(floor),
      cpuRatio: cpu(suite) / cpu(floor),
      plainJsFloorSeconds: wall(jsFloor),
    },
    mass: {
      ...mass,
      // Per 10× pods: 1 000 → 10 000 (full recording) and 10 000 → 100 000 (scale mode).
      growth: ratio('10000', '1000'),
      growthTo100000: ratio('100000', '10000-summary'),
      // 10 000 pods on 2 nodes against the same on 100 nodes (target ≤ 1.2).
      twoNodesRatio: ratio('10000-2nodes', '10000'),
      // Scale mode ends in the same etcd contents as full recording.
      sameFinalState:
        mass['10000'] && mass['10000-summary']
          ? mass['10000'].finalState === mass['10000-summary'].finalState
          : undefined,
    },
    seed: { speedup: Math.round(median(seedRuns)) },
    serve: served,
    soak: soaked,
    ...(PROFILE_DIR && { profiles }),
  };
  // Beside the figures (keys added, none changed): issue 37's targets, each met or not met.
  const targets = issue37Targets({ suite: result.suite, mass, serve: served });
  mkdirSync(join(ROOT, 'reports'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/bench.json'), `${JSON.stringify({ ...result, targets }, null, 2)}\n`);

  const rows: [string, string, string][] = [
    [
      'npm run bdd (all scenarios)',
      `${result.suite.seconds.toFixed(2)} s`,
      `${scenarios} scenarios, ${steps} steps; ${result.suite.cpuSeconds.toFixed(2)} s CPU`,
    ],
    [
      'floor: same loader, no-op steps',
      `${result.suite.floorSeconds.toFixed(2)} s`,
      `ratio ${result.suite.ratio.toFixed(2)}× (target ≤ 2×, issue 37); ${result.suite.floorCpuSeconds.toFixed(2)} s CPU, CPU ratio ${result.suite.cpuRatio.toFixed(2)}×`,
    ],
    ['floor: plain .js, no TS loader', `${result.suite.plainJsFloorSeconds.toFixed(2)} s`, 'for information'],
    ...Object.entries(mass).map(([key, m]): [string, string, string] => [
      MASS_CASES[key].label,
      `${m.seconds.toFixed(2)} s`,
      `${m.peakRssMB.toFixed(0)} MB, ${m.eventsPerSecond} events/s; ${MASS_CASES[key].phase ?? 'deletion'} phase ${m.deleteSeconds.toFixed(2)} s; ${m.cpuSeconds.toFixed(2)} s CPU${m.runs !== RUNS ? `; median of ${m.runs}` : ''}`,
    ]),
    ['growth 1 000 → 10 000', times(result.mass.growth), 'target ≤ 10.5×'],
    ['growth 10 000 → 100 000 (scale mode)', times(result.mass.growthTo100000), 'target ≤ 10.5×'],
    ['10 000 pods: 2 nodes / 100 nodes', times(result.mass.twoNodesRatio), 'target ≤ 1.2×'],
    ['seed scenario speed-up', `${result.seed.speedup}×`, 'virtual seconds per wall second'],
    ['serve: ready', `${served.readyMs.toFixed(0)} ms`, 'process start to ready, default cluster (target < 1 s)'],
    [
      'serve: LIST 10 000 pods, JSON',
      `${served.listJsonMs.toFixed(0)} ms`,
      'over HTTP, whole body read (target < 200 ms)',
    ],
    [
      'serve: LIST 10 000 pods, protobuf',
      `${served.listProtobufMs.toFixed(0)} ms`,
      'as client-go typed clients ask (target < 200 ms)',
    ],
    ['serve: LIST 10 000 pods, Table', `${served.listTableMs.toFixed(0)} ms`, 'as kubectl get asks (target < 200 ms)'],
    [
      'serve: soak, heap after round 1 / 10',
      `${soaked.heapAfterFirstMB} / ${soaked.heapAfterLastMB} MB`,
      `${soaked.objects} pods (${soaked.podsRan} run by kubelets) and custom resources created and deleted over HTTP, a compaction per round; etcd history ${soaked.historyAfterFirst} / ${soaked.historyAfterLast} changes; ${soaked.requestsPerSecond} requests/s`,
    ],
    [
      'serve: real kubectl delete pod web',
      typeof served.kubectlDeleteMs === 'number' ? `${served.kubectlDeleteMs.toFixed(0)} ms` : served.kubectlDeleteMs,
      '30 s grace, --clock jump, wall time of kubectl (target < 1 s)',
    ],
  ];
  const w = [0, 1, 2].map((i) => widest(rows, (r) => r[i].length, 0));
  console.log(`median of ${RUNS} runs each; written to reports/bench.json\n`);
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])}  ${r[2]}`);
  console.log('\nthe targets of issue 37 (speed at full scale), measured here:\n');
  for (const line of formatTargets(targets)) console.log(line);
  if (PROFILE_DIR) {
    console.log(
      `\nwhere the time went (main thread, self time) and what was live at exit, from the profiles in ${relative(ROOT, PROFILE_DIR)}/:`,
    );
    for (const [key, p] of Object.entries(profiles)) {
      console.log(`\n${key}: CPU ${p.cpu.total.toFixed(0)} ms — ${describeSummary(p.cpu, 8)}`);
      console.log(
        `${' '.repeat(key.length)}  live at exit ${p.heap.total.toFixed(0)} MB — ${describeSummary(p.heap, 5)}`,
      );
    }
  }
}

main();

/**
 * `npm run unit`: every *.test.ts beside the code it tests, with node's test runner; `npm test` is
 * the same with `--typecheck`, which runs `tsc --noEmit` and `npm run lint` (scripts/lint.ts) beside the tests.
 *
 * Most test files are pure (no child process, no global state) and run together in ONE process
 * (this file, run by `node --test`, requires them all): one start-up and one module load instead
 * of one per file. The files that run features of their own through cucumber's API and say "runs
 * in the process that loads cucumber" run together in a second process
 * (scripts/unit-tests-cucumber.ts), which loads the support code once (scripts/cucumber-in-process.ts).
 * The files that serve a cluster in process and run the real kubectl (or Helm) against it say "runs
 * in the process that serves clusters" and share a third process (scripts/unit-tests-serve.ts),
 * one file after another: each alone paid ≈ 0.9 s of CPU loading the simulation and the HTTP server
 * before its first kubectl (measured on the idle machine, two runs each: the 22 files took 83.8 s of
 * CPU, 48 s wall, in processes of their own two at a time; 62–64 s of CPU, 58–60 s wall together).
 * A file that says "runs in a process of its own" (it spawns cucumber or node, or loads cucumber's
 * support code its own way, or blocks on a child) gets a process of its own, beside them. The
 * scenarios run in one of those: steps/determinism.test.ts runs the `ci` profile (and writes
 * reports/), and its child the same scenarios in another order, then the `real-kubectl` profile.
 *
 *   node --require ./scripts/ts-hook.js scripts/unit-tests.ts [--typecheck]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe } from 'node:test';
import { SUPPORT_PROCESS } from './cucumber-in-process';
import { LESS_TURBOFAN } from '../steps/support/v8-tiers';
import { path as TS_HOOK } from './ts-hook';

const ROOT = path.resolve(__dirname, '..');
/**
 * `npm run typecheck` (package.json says the same): TypeScript 7's tsc, the devDependency
 * `typescript-7` (npm:typescript@7), with its incremental state apart from 5.9's (`npx tsc`, which
 * the same tsconfig.json serves, and whose API scripts/layers.ts uses).
 */
const TYPECHECK = [
  path.join(path.dirname(require.resolve('typescript-7/package.json')), 'bin', 'tsc'),
  '--noEmit',
  '-p',
  '.',
  '--tsBuildInfoFile',
  'node_modules/.cache/terminating-tsc/tsbuildinfo-7',
];
const DIRS = ['src', 'steps', 'scripts', 'bench', 'examples'];
/** The marker, in a test file's comments, that asks for a process of its own. */
export const OWN_PROCESS = 'runs in a process of its own';
/** The marker of the files that share the process serving clusters to the real kubectl (scripts/unit-tests-serve.ts). */
export const SERVE_PROCESS = 'runs in the process that serves clusters';
/**
 * The files that take longest, started first, longest first: with two at a time, a long one
 * started last would leave a core idle while it finishes. The two group files (the cucumber
 * process and the shared one) are ranked here too. The order is from measured CPU and wall
 * seconds (docs/performance.md, "What `npm test` costs"): the package test mostly waits on `npm
 * install`, and explore on its controller process's quiet periods, so they start before files
 * that use more CPU but end sooner. Files not listed follow, in path order.
 */
const LONGEST = [
  'scripts/package.test.ts',
  'src/frontends/explore/explore.test.ts',
  'scripts/unit-tests-serve.ts',
  'scripts/unit-tests-cucumber.ts',
  'steps/determinism.test.ts',
  'scripts/unit-tests.ts',
  'src/frontends/serve/kubectl-strict.test.ts',
  'src/frontends/kubectl/kubectl.differential.test.ts',
  'src/frontends/serve/session-report.test.ts',
  'src/frontends/serve/client-matrix.test.ts',
  'src/frontends/serve/soak.test.ts',
];

/** `files` longest first (LONGEST), the rest after them in the order given. */
export function longestFirst(files: readonly string[]): string[] {
  const rank = (f: string) => (LONGEST.includes(f) ? LONGEST.indexOf(f) : LONGEST.length);
  return files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

export function testFiles(): { shared: string[]; withCucumber: string[]; serving: string[]; isolated: string[] } {
  const files = DIRS.flatMap((d) =>
    readdirSync(path.join(ROOT, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join(d, f)),
  ).sort();
  const text = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));
  const isolated = files.filter((f) => text.get(f)?.includes(OWN_PROCESS));
  const withCucumber = files.filter((f) => !isolated.includes(f) && text.get(f)?.includes(SUPPORT_PROCESS));
  const serving = files.filter((f) => !isolated.includes(f) && text.get(f)?.includes(SERVE_PROCESS));
  return {
    shared: files.filter((f) => !isolated.includes(f) && !withCucumber.includes(f) && !serving.includes(f)),
    withCucumber,
    serving,
    isolated,
  };
}

/**
 * Loads test files into this `node --test` process, each inside a suite named after it (a
 * describe), so that a file's top-level before/after hooks belong to that suite and run around
 * that file's tests alone, as in a process of its own. Required at the top level instead, every
 * file's hooks would join node:test's root test: in Node 20 a root `before` runs as soon as it is
 * declared (while the files load) and every root `after` when the process ends — so whatever a
 * file's hooks or tests start and its `after` stops (a served cluster, a clock running at 60 or 600
 * times wall time, a browser) would live, and keep working, until the last file is done.
 */
export function requireEachInASuite(files: readonly string[]): void {
  for (const f of files)
    describe(f, () => {
      require(path.join(ROOT, f));
    });
}

/** Runs a command to its end; its output is passed through (`inherit`) or kept for later. */
function run(command: string, args: string[], output: 'inherit' | 'keep'): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(command, args, {
      cwd: ROOT,
      stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let kept = '';
    child.stdout?.on('data', (d: Buffer) => (kept += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (kept += d.toString()));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: kept }));
  });
}

async function main(typecheck: boolean): Promise<number> {
  const { isolated } = testFiles();
  const started = Date.now();
  // The type check goes alongside: TypeScript 7's tsc (native, ≈ 4× less CPU than 5.9's on a
  // fresh clone, the same checker; docs/performance.md), as `npm run typecheck` runs it.
  const types = typecheck ? run(process.execPath, [...TYPECHECK], 'keep') : undefined;
  // The lint (import boundaries, Biome) too: a few seconds.
  const lint = typecheck ? run(process.execPath, ['--require', TS_HOOK, 'scripts/lint.ts'], 'keep') : undefined;
  const tests = await run(
    process.execPath,
    [
      // Every test process (node --test passes its flags on to them) optimizes only the code that
      // is really hot, as scenario processes do (steps/support/v8-tiers.ts): most test files run
      // for a second or less, and TurboFan's compiles for them were paid and not used (the
      // shared process: 34.7 / 33.9 s of CPU with V8's defaults, 27.3 / 27.2 s with it).
      LESS_TURBOFAN,
      '--require',
      TS_HOOK,
      '--test',
      '--test-reporter=spec',
      '--test-concurrency=2',
      ...longestFirst([
        ...isolated,
        'scripts/unit-tests-cucumber.ts',
        'scripts/unit-tests-serve.ts',
        path.relative(ROOT, __filename),
      ]),
    ],
    'inherit',
  );
  if (types) {
    const { code, output } = await types;
    process.stdout.write(
      `\nnpm run typecheck (tsc 7 --noEmit -p .) ${code === 0 ? 'passed' : `failed (exit code ${code})`}\n${output}`,
    );
    if (code !== 0) return code;
  }
  if (lint) {
    const { code, output } = await lint;
    process.stdout.write(`\nnpm run lint ${code === 0 ? 'passed' : `failed (exit code ${code})`}\n${output}`);
    if (code !== 0) return code;
  }
  process.stdout.write(`${typecheck ? 'npm test' : 'npm run unit'}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return tests.code;
}

if (require.main === module && process.env.NODE_TEST_CONTEXT !== undefined) {
  // Run by `node --test` below: load the shared files; node:test runs what they define.
  requireEachInASuite(testFiles().shared);
} else if (require.main === module) {
  void main(process.argv.includes('--typecheck')).then((code) => process.exit(code));
}

/**
 * `npm run unit`: every *.test.ts beside the code it tests, with node's test runner.
 *
 * Most test files are pure (no child process, no global state) and run together in ONE process
 * (this file, run by `node --test`, requires them all): one start-up and one module load instead
 * of one per file. A file that says "runs in a process of its own" (it spawns cucumber or node, or
 * loads cucumber's support code, or blocks on a child) gets a process of its own, beside it.
 *
 *   node --require ./scripts/ts-hook.js scripts/unit-tests.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { path as TS_HOOK } from './ts-hook';

const ROOT = path.resolve(__dirname, '..');
const DIRS = ['src', 'steps', 'scripts', 'bench', 'examples'];
/** The marker, in a test file's comments, that asks for a process of its own. */
export const OWN_PROCESS = 'runs in a process of its own';

export function testFiles(): { shared: string[]; isolated: string[] } {
  const files = DIRS.flatMap((d) =>
    readdirSync(path.join(ROOT, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join(d, f)),
  ).sort();
  const isolated = files.filter((f) => readFileSync(path.join(ROOT, f), 'utf8').includes(OWN_PROCESS));
  return { shared: files.filter((f) => !isolated.includes(f)), isolated };
}

if (process.env.NODE_TEST_CONTEXT !== undefined) {
  // Run by `node --test` below: load the shared files; node:test runs what they define.
  for (const f of testFiles().shared) require(path.join(ROOT, f));
} else if (require.main === module) {
  const { isolated } = testFiles();
  const r = spawnSync(
    process.execPath,
    ['--require', TS_HOOK, '--test', '--test-reporter=spec', '--test-concurrency=2', path.relative(ROOT, __filename), ...isolated],
    { cwd: ROOT, stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

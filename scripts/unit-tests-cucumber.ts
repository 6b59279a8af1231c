/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * loads cucumber", loaded together, so cucumber's support code loads once for all of them
 * (scripts/cucumber-in-process.ts); node:test runs what they define, each file's hooks around its
 * own tests (requireEachInASuite).
 *
 * A file that says BEFORE_TESTS runs its cucumber run before it declares its tests, and exports
 * `declared`, settled once it has: node's test runner, from the first test declared in a process
 * on, tracks every promise with an async hook (≈ 18 % more CPU for a cucumber run). Those files are
 * loaded first, one after another, each awaited and outside any suite (declaring one would start
 * the tracking), so that no test of this process is declared while they run; the other files are
 * loaded after them, each in a suite of its own.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { requireEachInASuite, testFiles } from './unit-tests';

/** The marker of a test file whose cucumber run goes before any test of this process is declared. */
export const BEFORE_TESTS = 'runs its cucumber run before any test is declared';

const ROOT = path.resolve(__dirname, '..');

async function load(): Promise<void> {
  const files = testFiles().withCucumber;
  const early = files.filter((f) => readFileSync(path.join(ROOT, f), 'utf8').includes(BEFORE_TESTS));
  for (const f of early) await (require(path.join(ROOT, f)) as { declared: Promise<void> }).declared;
  requireEachInASuite(files.filter((f) => !early.includes(f)));
}

void load();

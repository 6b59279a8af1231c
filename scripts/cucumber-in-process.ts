/**
 * Cucumber run in this process through its API (loadConfiguration, loadSupport, runCucumber), for
 * the tests that run a feature of their own. The project's support code is loaded once per
 * process; each run then gets its own configuration, as `cucumber-js FEATURE -p PROFILE …` would.
 * A cucumber start-up (node, the support code, the step patterns) is ≈ 1.5 s of CPU: the test
 * files that use this say SUPPORT_PROCESS and share one process (scripts/unit-tests.ts).
 */
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { IConfiguration } from '@cucumber/cucumber/api';

const ROOT = path.resolve(__dirname, '..');

/** The marker, in a test file's comments, that puts it in the process that loads the support code. */
export const SUPPORT_PROCESS = 'runs in the process that loads cucumber';

let loaded:
  | Promise<{
      api: typeof import('@cucumber/cucumber/api');
      support: import('@cucumber/cucumber/api').ISupportCodeLibrary;
    }>
  | undefined;

/** cucumber's API and the support code of cucumber.js (steps/{definitions,support}/**\/!(*.test).ts), loaded on first use. */
function load() {
  loaded ??= (async () => {
    const api = await import('@cucumber/cucumber/api');
    const { runConfiguration } = await api.loadConfiguration({ profiles: ['summary'] }, { cwd: ROOT });
    return { api, support: alreadyLoaded(await api.loadSupport(runConfiguration, { cwd: ROOT })) };
  })();
  return loaded;
}

/** cucumber's API and the support code this process runs (loaded on first use), for a runner of its own. */
export function loadedSupport(): ReturnType<typeof load> {
  return load();
}

/**
 * The support code, saying it has no files left to find. runCucumber resolves the paths of a
 * preloaded library's original coordinates again on every run — one glob per support file (≈ 100
 * of them), about half of what a one-scenario run costs in CPU (8 of ≈ 16 ms, measured over 60
 * runs) — and uses the result only to load support code it does not load here (the library is
 * preloaded) or to start parallel workers (never, in this process: runs are serial). Everything
 * else in the library (steps, hooks, parameter types) is the same objects.
 */
function alreadyLoaded(
  support: import('@cucumber/cucumber/api').ISupportCodeLibrary,
): import('@cucumber/cucumber/api').ISupportCodeLibrary {
  return { ...support, originalCoordinates: { ...support.originalCoordinates, requirePaths: [], importPaths: [] } };
}

/**
 * `work` (an in-process cucumber run), rejected when it has not settled within `ms` of wall time:
 * a hang guard for a run that no test's timeout covers (one made before the tests are declared),
 * not a speed check.
 */
export function withinWallTime<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s of wall time`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** What a run printed (its formatter's output) and whether it passed (the CLI's exit code 0). */
export interface InProcessRun {
  success: boolean;
  output: string;
}

/**
 * Runs cucumber with a profile of cucumber.js (`summary` unless said), and what the command line
 * would add to it: feature paths, --name, world parameters, --dry-run, --format.
 */
export async function runCucumber(
  options: {
    profile?: string;
    /** Each message the run emits (cucumber's `onMessage`): its gherkin document, pickles, test cases, results. */
    onMessage?: (envelope: import('@cucumber/messages').Envelope) => void;
  } & Partial<Pick<IConfiguration, 'paths' | 'name' | 'worldParameters' | 'dryRun' | 'format'>> = {},
): Promise<InProcessRun> {
  const { profile = 'summary', onMessage, ...provided } = options;
  const { api, support } = await load();
  let output = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
  const environment = { cwd: ROOT, stdout, stderr: stdout };
  const { runConfiguration } = await api.loadConfiguration({ profiles: [profile], provided }, environment);
  const { success } = await api.runCucumber({ ...runConfiguration, support }, environment, onMessage);
  return { success, output };
}

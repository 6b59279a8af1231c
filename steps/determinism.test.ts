// This test file runs in a process of its own (scripts/unit-tests.ts): it loads cucumber's support code and runs the suite beside a child process.
/**
 * The suite, and its determinism and isolation; and the real kubectl, event for event the
 * built-in one. The `ci` profile runs here, in this process through cucumber's API, exactly as
 * `cucumber-js -p ci` would (the same configuration, support code and report files in reports/):
 * every scenario must pass. Beside it, a child process (steps/other-order.ts) runs the same
 * scenarios in another order (`--order random:SEED`, SEED fixed so that a failure can be run
 * again): fresh module state, and each scenario after other ones than in the suite's order.
 * Both must give the same outcome for every
 * scenario — every step result, error message and attachment (each scenario's timeline.json:
 * events, writes, marks, final objects), read from cucumber's messages in each process
 * (steps/scenario-outcomes.ts). A uid counter, a cache or a clock shared between scenarios, or anything
 * read from the wall clock, the process or chance, would show up here as a difference. Then one
 * feature runs once more in this process, after the whole suite: nothing a run leaves behind in a
 * module may change what the next run of the same scenario does.
 *
 * The child then runs the real-kubectl profile (`cucumber-js -p real-kubectl`: every scenario that
 * runs kubectl, with the real kubectl over the HTTP API), and each of those scenarios must pass and
 * give the timeline its built-in twin gave in this process's run of the suite (steps/real-kubectl.ts
 * says what may differ). The twins are that run's, not a third run of the same scenarios: the
 * comparison of the two orders is what shows a built-in run gives the same timeline whenever and
 * wherever it runs.
 *
 * The reordered run uses the `ci` profile (its tags, support code and modules) with its report
 * files left out, so that it does not write reports/ at the same time.
 *
 * (The twin ran with `--parallel 2` before: three processes each loading cucumber, and the
 * support code in two, for ≈ 5 s of CPU, where one reordered process takes ≈ 2 s and shows the
 * same thing — a result that depends on what ran before it, in the process or in a module. The
 * real-kubectl profile ran in a process of its own, with a built-in twin of each of its scenarios:
 * one more cucumber start-up and one more run of 66 scenarios.)
 *
 * This file lives in steps/; cucumber.js loads steps/{definitions,support}/**\/!(*.test).ts as support code, so not this.
 */
import { after, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { withinWallTime } from '../scripts/cucumber-in-process';
import { path as TS_HOOK } from '../scripts/ts-hook';
import type { OtherOrderResult } from './other-order';
import { disagreements } from './real-kubectl';
import { outcomeCollector, outcomeDifference, type Outcomes } from './scenario-outcomes';

const ROOT = path.resolve(__dirname, '..');
const OTHER_ORDER = path.join(__dirname, 'other-order.ts');
/**
 * Wall-clock bound for one run of the whole suite: a hang guard, not a speed check. A run takes
 * under a minute on two idle cores and several on a heavily loaded machine (120 s tripped at a
 * load average of 33), so the bound is wide; a real hang still ends well inside CI's time.
 */
const RUN_TIMEOUT_MS = 600_000;

interface SuiteRun extends OtherOrderResult {
  ms: number;
}

/** The other order's seed: any fixed value; a failure names it, so the run can be repeated as it was. */
export const ORDER = 'random:20261203';

/**
 * Runs the suite in another order, then the real-kubectl profile, in a child process
 * (steps/other-order.ts; its own process group, so a hang is ended with all it spawned).
 */
function runOtherOrder(dir: string): Promise<SuiteRun> {
  const result = path.join(dir, 'result.json');
  const args = ['--require', TS_HOOK, OTHER_ORDER, ORDER, result];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(
        new Error(
          `the run with --order ${ORDER} and -p real-kubectl did not finish within ${RUN_TIMEOUT_MS / 1000} s of wall time:\n${output.slice(-3000)}`,
        ),
      );
    }, RUN_TIMEOUT_MS);
    child.on('error', (e) => (clearTimeout(timer), reject(e)));
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      if (exitCode !== 0 || !existsSync(result))
        return reject(new Error(`${OTHER_ORDER} exited ${exitCode} without its result:\n${output.slice(-3000)}`));
      resolve({ ...(JSON.parse(readFileSync(result, 'utf8')) as OtherOrderResult), ms: Date.now() - started });
    });
  });
}

/**
 * An error message as it may differ between runs of the same scenarios: without the stack lines
 * under it (the message itself stays) and with this checkout's path as `<dir>`.
 */
function withoutStack(message: string): string {
  return message
    .split(ROOT)
    .join(`<${path.basename(ROOT)}>`)
    .split('\n')
    .filter((l) => !/^\s+at \S/.test(l))
    .join('\n');
}

/** What the runs in this process gave: the ci run, then one feature again; an error where one threw. */
interface InProcessRuns {
  dir: string;
  other: Promise<SuiteRun>;
  printed: () => string;
  firstRun?: { success: boolean; outcomes: Outcomes };
  again?: Outcomes;
  error?: unknown;
}

/** The feature run once more in this process after the whole suite. */
const AGAIN = 'features/graceful-deletion.feature';

/**
 * The `ci` run and the feature run again, in this process, with the reordered run (and the
 * real-kubectl one) going alongside in the child. They run before any test is declared: node's
 * test runner, once the first test is declared, tracks every promise of the process with an
 * async hook (its init and destroy callbacks, and V8's slower promise path while a hook is on),
 * and a suite run is mostly promises. The tests below then judge what the runs gave.
 */
async function inProcessRuns(): Promise<InProcessRuns> {
  const dir = mkdtempSync(path.join(tmpdir(), 'terminating-determinism-'));
  const other = runOtherOrder(dir);
  other.catch(() => {}); // awaited by the tests that read it
  let printed = '';
  const runs: InProcessRuns = { dir, other, printed: () => printed };
  // reports/report.html rendered in this thread when the run ends rather than in a worker thread
  // as the run goes: the same page, byte for byte (src/frontends/report/incremental.test.ts runs
  // the worker), for ≈ 0.8 s less CPU (2.6 → 1.8 s for this suite's page: no messages copied to
  // the worker, no second heap to collect). The test's process is not waiting on the report:
  // its child's run goes on beside it, and npm test keeps both cores busy.
  process.env.TERMINATING_REPORT_WORKER = 'off';
  const environment = {
    cwd: ROOT,
    stdout: new Writable({ write: (c: Buffer, _e, done) => ((printed += c.toString()), done()) }),
  };
  try {
    const api = await import('@cucumber/cucumber/api');
    const { runConfiguration } = await api.loadConfiguration({ profiles: ['ci'] }, environment);
    const support = await api.loadSupport(runConfiguration, environment);
    const collector = outcomeCollector();
    const { success } = await withinWallTime(
      api.runCucumber({ ...runConfiguration, support }, environment, collector.onMessage),
      'the ci run',
      RUN_TIMEOUT_MS,
    );
    runs.firstRun = { success, outcomes: collector.outcomes };
    // The support code stays loaded: nothing the whole suite left behind in a module (a counter,
    // a cache) may change what the same scenarios do now.
    const again = outcomeCollector();
    await withinWallTime(
      api.runCucumber(
        {
          ...runConfiguration,
          sources: { ...runConfiguration.sources, paths: [AGAIN] },
          support,
          formats: { stdout: 'summary', files: {}, publish: false, options: {} },
        },
        environment,
        again.onMessage,
      ),
      `${AGAIN} run again`,
      RUN_TIMEOUT_MS,
    );
    runs.again = again.outcomes;
  } catch (e) {
    runs.error = e;
  }
  return runs;
}

function declareTests(runs: InProcessRuns): void {
  describe('the suite (ci profile), deterministic and isolated; the real kubectl as the built-in one', () => {
    const { dir, other, firstRun } = runs;
    after(async () => {
      await other.catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    });

    it('passes, every scenario, with the ci profile (its report files in reports/)', () => {
      if (!firstRun) throw runs.error;
      expect(firstRun.success, `cucumber-js -p ci failed:\n${runs.printed()}`).to.equal(true);
    });

    it(`gives every scenario the same outcome in another process, in another order (--order ${ORDER})`, {
      timeout: RUN_TIMEOUT_MS,
    }, async () => {
      if (!firstRun) throw runs.error;
      const reordered = await other;
      expect(firstRun.outcomes.size, 'the suite has scenarios').to.be.above(10);
      expect(reordered.success, `the same outcome with --order ${ORDER}`).to.equal(firstRun.success);
      const d = outcomeDifference(firstRun.outcomes, new Map(reordered.reordered), {
        message: withoutStack,
        all: true,
      });
      expect(d, `the run with --order ${ORDER} differs from the one in this process: ${d}`).to.equal(undefined);
    });

    it('attaches byte-identical timelines when a feature runs again in the same process', () => {
      if (!runs.again || !firstRun) throw runs.error;
      const again = runs.again;
      expect(
        [...again.values()].flatMap((o) => o.attachments).filter((a) => a.startsWith('timeline.json ')).length,
        'each scenario attached its timeline',
      ).to.be.above(0);
      const d = outcomeDifference(firstRun.outcomes, again, { message: withoutStack });
      expect(d, `the second run gave something else: ${d}`).to.equal(undefined);
    });

    it('passes each scenario of the real-kubectl profile with the real kubectl, with the timeline the built-in kubectl gave in the suite (etcd revisions eight on from its first kubectl step)', {
      timeout: RUN_TIMEOUT_MS,
    }, async () => {
      expect(firstRun, 'the ci run').to.not.equal(undefined);
      const real = new Map((await other).realKubectl);
      expect(real.size, 'the profile has the scenarios that run kubectl').to.be.at.least(20);
      const found = disagreements(real, firstRun!.outcomes);
      expect(found, found.join('\n')).to.deep.equal([]);
    });
  });
}

if (require.main === module) void inProcessRuns().then(declareTests);

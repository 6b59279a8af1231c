// This test file runs in a process of its own (scripts/unit-tests.ts): it loads cucumber's support code and runs the suite beside a child process.
/**
 * The suite, and its determinism and isolation; and the real kubectl, event for event the
 * built-in one. The `ci` profile runs here, in this process through cucumber's API, exactly as
 * `cucumber-js -p ci` would (the same configuration, support code and report files in reports/):
 * every scenario must pass. Beside it, a child process (steps/other-order.ts) runs the same
 * scenarios in another order (`--order random:SEED`, SEED fixed so that a failure can be run
 * again): fresh module state, and each scenario after other ones than in the suite's order.
 * Both must give the same report — every
 * step result, error message and attachment (each scenario's timeline.json: events, writes,
 * marks, final objects). A uid counter, a cache or a clock shared between scenarios, or anything
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
 * files left out, so that it does not write reports/ at the same time; it writes its own JSON
 * report.
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
import { path as TS_HOOK } from '../scripts/ts-hook';
import type { OtherOrderResult } from './other-order';
import { disagreements } from './real-kubectl';
import { outcomeCollector, type Outcomes } from './scenario-outcomes';

const ROOT = path.resolve(__dirname, '..');
const OTHER_ORDER = path.join(__dirname, 'other-order.ts');
/**
 * Wall-clock bound for one run of the whole suite: a hang guard, not a speed check. A run takes
 * under a minute on two idle cores and several on a heavily loaded machine (120 s tripped at a
 * load average of 33), so the bound is wide; a real hang still ends well inside CI's time.
 */
const RUN_TIMEOUT_MS = 600_000;

interface SuiteRun extends OtherOrderResult {
  report: unknown;
  ms: number;
}

/** The other order's seed: any fixed value; a failure names it, so the run can be repeated as it was. */
export const ORDER = 'random:20261203';

/**
 * Runs the suite in another order, then the real-kubectl profile, in a child process
 * (steps/other-order.ts; its own process group, so a hang is ended with all it spawned).
 */
function runOtherOrder(dir: string): Promise<SuiteRun> {
  const [report, result] = [path.join(dir, 'reordered.json'), path.join(dir, 'result.json')];
  const args = ['--require', TS_HOOK, OTHER_ORDER, ORDER, report, result];
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
      if (exitCode !== 0 || !existsSync(report) || !existsSync(result))
        return reject(new Error(`${OTHER_ORDER} exited ${exitCode} without its reports:\n${output.slice(-3000)}`));
      resolve({
        ...(JSON.parse(readFileSync(result, 'utf8')) as OtherOrderResult),
        report: JSON.parse(readFileSync(report, 'utf8')),
        ms: Date.now() - started,
      });
    });
  });
}

interface JsonElement {
  id: string;
  line: number;
  [key: string]: unknown;
}
interface JsonFeature {
  uri: string;
  elements: JsonElement[];
  [key: string]: unknown;
}

/**
 * What may differ between runs of the same scenarios, taken out: step durations, absolute paths,
 * and the stack lines under an error message (the message itself stays). Features are sorted by
 * uri and scenarios by line, since the other run takes them in another order.
 */
function normalise(report: unknown, dirs: string[]): JsonFeature[] {
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const d of dirs) s = s.split(d).join(`<${path.basename(d)}>`);
      return s
        .split('\n')
        .filter((l) => !/^\s+at \S/.test(l))
        .join('\n');
    }
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'duration')
          .map(([k, x]) => [k, scrub(x)]),
      );
    }
    return v;
  };
  const features = scrub(report) as JsonFeature[];
  for (const f of features) f.elements.sort((a, b) => a.line - b.line || a.id.localeCompare(b.id));
  return features.sort((a, b) => a.uri.localeCompare(b.uri));
}

/** Where two normalised reports first differ, readably (attachments decoded when they are text). */
function firstDifference(a: unknown, b: unknown, where = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      // Name the feature or scenario on the way down, so the message says where it is.
      const v = x[k] as { name?: unknown; uri?: unknown } | undefined;
      const name = v && typeof v === 'object' ? (v.name ?? v.uri) : undefined;
      const d = firstDifference(
        x[k],
        y[k],
        `${where}${Array.isArray(a) ? `[${k}]` : `.${k}`}${typeof name === 'string' ? ` (${name})` : ''}`,
      );
      if (d) return d;
    }
  }
  const show = (v: unknown): string => {
    if (typeof v !== 'string') return JSON.stringify(v)?.slice(0, 400) ?? String(v);
    const text = /^[A-Za-z0-9+/]+=*$/.test(v) && v.length > 40 ? Buffer.from(v, 'base64').toString('utf8') : v;
    return text;
  };
  const [x, y] = [show(a).split('\n'), show(b).split('\n')];
  const i = x.findIndex((line, j) => line !== y[j]);
  const at = i < 0 ? x.length : i;
  return `${where}: first differing line ${at + 1}:\n  one run: ${x[at] ?? '<end>'}\n  other:   ${y[at] ?? '<end>'}`;
}

function scenarioCount(features: JsonFeature[]): number {
  return features.reduce((n, f) => n + f.elements.filter((e) => e.type === 'scenario').length, 0);
}

/** Rejects when `work` has not settled within RUN_TIMEOUT_MS of wall time: a hang guard, not a speed check. */
function guarded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${RUN_TIMEOUT_MS / 1000} s of wall time`)),
      RUN_TIMEOUT_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
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
  const environment = {
    cwd: ROOT,
    stdout: new Writable({ write: (c: Buffer, _e, done) => ((printed += c.toString()), done()) }),
  };
  try {
    const api = await import('@cucumber/cucumber/api');
    const { runConfiguration } = await api.loadConfiguration({ profiles: ['ci'] }, environment);
    const support = await api.loadSupport(runConfiguration, environment);
    const collector = outcomeCollector();
    const { success } = await guarded(
      api.runCucumber({ ...runConfiguration, support }, environment, collector.onMessage),
      'the ci run',
    );
    runs.firstRun = { success, outcomes: collector.outcomes };
    // The support code stays loaded: nothing the whole suite left behind in a module (a counter,
    // a cache) may change what the same scenarios do now.
    const again = outcomeCollector();
    await guarded(
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

    it(`gives the same JSON report in another process, in another order (--order ${ORDER})`, {
      timeout: RUN_TIMEOUT_MS,
    }, async () => {
      expect(firstRun, 'the ci run').to.not.equal(undefined);
      const reordered = await other;
      const dirs = [ROOT];
      const [a, c] = [
        JSON.parse(readFileSync(path.join(ROOT, 'reports', 'cucumber-report.json'), 'utf8')),
        reordered.report,
      ].map((r) => normalise(r, dirs));
      expect(scenarioCount(a), 'the suite has scenarios').to.be.above(10);
      expect(reordered.success, `the same outcome with --order ${ORDER}`).to.equal(firstRun?.success);
      const d = firstDifference(a, c);
      expect(d, `the run with --order ${ORDER} differs from the one in this process at ${d}`).to.equal(undefined);
    });

    it('attaches byte-identical timelines when a feature runs again in the same process', () => {
      if (!runs.again) throw runs.error;
      const again = runs.again;
      expect(
        [...again.values()].flatMap((o) => o.attachments).filter((a) => a.startsWith('timeline.json ')).length,
        'each scenario attached its timeline',
      ).to.be.above(0);
      for (const [key, { name, attachments }] of again) {
        const first = firstRun?.outcomes.get(key)?.attachments ?? [];
        expect(attachments.length, `${name}: as many attachments as in the suite run`).to.equal(first.length);
        attachments.forEach((a, i) => {
          const d = firstDifference(first[i], a, `${name}, attachment ${i + 1} (${a.split('\n')[0]})`);
          expect(d, `the second run attached something else: ${d}`).to.equal(undefined);
        });
      }
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

/**
 * The bad-input harness's cucumber runner (steps/bad-input.test.ts): runs feature files in a worker
 * thread that keeps the support code loaded, and ends the worker when a run hangs.
 *
 * This module lives in steps/, so cucumber loads it as support code too: it only defines things.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { path as TS_HOOK } from '../../scripts/ts-hook';

export const ROOT = path.resolve(__dirname, '../..');
/**
 * Wall-clock bound for one cucumber run of two scenarios (the first run also loads the support
 * code): a hang guard (an object that stalls the cluster never returns), not a speed check. 20 s
 * tripped on a heavily loaded machine; a run takes about a second on an idle one.
 */
const RUN_TIMEOUT_MS = 120_000;

/** One step's outcome, as cucumber's messages report it. */
export interface StepOutcome {
  text: string;
  /** A hook (After) rather than a Gherkin step. */
  hook: boolean;
  status: string;
  /** The error's own message (exception.message), without the stack cucumber prints after it. */
  errorMessage?: string;
  /** The error's class (exception.type). */
  errorType?: string;
  /** What cucumber prints for the step: message plus stack. */
  printed?: string;
}

export interface ScenarioOutcome {
  name: string;
  status: string;
  steps: StepOutcome[];
}

export interface RunOutcome {
  success: boolean;
  /** The summary formatter's output, e.g. "2 scenarios (1 failed, 1 passed)". */
  summary: string;
  scenarios: ScenarioOutcome[];
}

/**
 * The worker: loads the configuration and support code once (as `cucumber-js` would, with
 * the .ts require hook), then runs each feature file it is sent and answers with each scenario's steps.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Writable } = require('node:stream');
const { createRequire } = require('node:module');
const req = createRequire(workerData.root + '/package.json');
require(workerData.hook);
const api = req('@cucumber/cucumber/api');

const RANK = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

async function main() {
  const environment = { cwd: workerData.root };
  // The support code of cucumber.js (steps/{definitions,support}/**/*.ts) less the test files beside
  // it: a *.test.ts is no support code, and one that runs its tests on load would run them here.
  const support = ['definitions', 'support'].flatMap((dir) =>
    require('node:fs').readdirSync(workerData.root + '/steps/' + dir, { recursive: true })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort().map((f) => 'steps/' + dir + '/' + f));
  const { runConfiguration } = await api.loadConfiguration({
    file: false,
    provided: { requireModule: [workerData.hook], require: support },
  }, environment);
  const library = await api.loadSupport(runConfiguration, environment);
  parentPort.on('message', async ({ id, featurePath }) => {
    try {
      let summary = '';
      const stdout = new Writable({ write(chunk, _enc, done) { summary += chunk; done(); } });
      const pickles = new Map(), testCases = new Map(), started = new Map(), finished = [];
      const onMessage = (e) => {
        if (e.pickle) pickles.set(e.pickle.id, e.pickle);
        if (e.testCase) testCases.set(e.testCase.id, e.testCase);
        if (e.testCaseStarted) started.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
        if (e.testStepFinished) finished.push(e.testStepFinished);
      };
      const { success } = await api.runCucumber({
        ...runConfiguration,
        sources: { ...runConfiguration.sources, paths: [featurePath] },
        support: library,
        formats: { stdout: 'summary', files: {}, publish: false, options: {} },
      }, { ...environment, stdout, stderr: stdout }, onMessage);
      const scenarios = [];
      for (const testCase of testCases.values()) {
        const pickle = pickles.get(testCase.pickleId);
        const steps = testCase.testSteps.map((ts) => {
          const f = finished.find((x) => x.testStepId === ts.id && started.get(x.testCaseStartedId) === testCase.id);
          const r = f ? f.testStepResult : { status: 'UNKNOWN' };
          const pickleStep = ts.pickleStepId ? pickle.steps.find((s) => s.id === ts.pickleStepId) : undefined;
          return {
            text: pickleStep ? pickleStep.text : 'hook',
            hook: !pickleStep,
            status: r.status,
            errorMessage: r.exception ? r.exception.message : undefined,
            errorType: r.exception ? r.exception.type : undefined,
            printed: r.message,
          };
        });
        const status = steps.map((s) => s.status).reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'PASSED');
        scenarios.push({ name: pickle.name, status, steps });
      }
      parentPort.postMessage({ id, outcome: { success, summary, scenarios } });
    } catch (e) {
      parentPort.postMessage({ id, error: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
}
main().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

/** Runs feature files in a worker thread that keeps the support code loaded; ends it when a run hangs. */
export class CucumberRunner {
  private worker?: Worker;
  private ready?: Promise<void>;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (o: RunOutcome) => void; reject: (e: Error) => void }>();

  private start(): Promise<void> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { root: ROOT, hook: TS_HOOK },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: { ready?: true; fatal?: string; id?: number; outcome?: RunOutcome; error?: string }) => {
        if (m.ready) return resolve();
        if (m.fatal) return reject(new Error(`the cucumber worker could not load the support code:\n${m.fatal}`));
        const p = this.pending.get(m.id!);
        this.pending.delete(m.id!);
        if (m.error !== undefined) p?.reject(new Error(`cucumber itself failed:\n${m.error}`));
        else p?.resolve(m.outcome!);
      });
      worker.on('error', reject);
    });
    return this.ready;
  }

  /** Runs one feature file; rejects when it takes longer than `timeoutMs` of wall time. */
  async run(featurePath: string, timeoutMs = RUN_TIMEOUT_MS): Promise<RunOutcome> {
    const deadline = Date.now() + timeoutMs;
    if (!this.worker) await this.start();
    else await this.ready;
    const id = this.nextId++;
    return new Promise<RunOutcome>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.pending.delete(id);
          // A synchronous loop cannot be interrupted from inside: end the thread, start afresh next time.
          void this.worker?.terminate();
          this.worker = undefined;
          reject(new Error(`the cucumber run did not finish within ${timeoutMs} ms of wall time (a hang)`));
        },
        Math.max(1, deadline - Date.now()),
      );
      this.pending.set(id, {
        resolve: (o) => (clearTimeout(timer), resolve(o)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.worker!.postMessage({ id, featurePath });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

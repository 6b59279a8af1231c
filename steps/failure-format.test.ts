// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs a feature through cucumber's API.
// There it runs its cucumber run before any test is declared (scripts/unit-tests-cucumber.ts).
/**
 * Failures are reported in a second. Cucumber formats every failed step's error (formatError:
 * error-stack-parser, then assertion-error-formatter) before it reports the step, and a message
 * that makes error-stack-parser's regular expressions backtrack held a failure back for minutes
 * (a CRD's conditions as one line of JSON: 3 min 37 s with `executing steps: 0m00.3s`).
 *
 * The test makes every assertion step the project's features use fail — each `Then` step of
 * features/ (as its pickle writes it, with its table or doc string) run against a small cluster
 * where most of what they expect is not so — and the CRD condition assertion that used to hang,
 * and measures cucumber's own formatError on each failure, in this process, as cucumber calls it.
 *
 * The bound holds on a loaded machine: what is measured is the CPU time of this process during the
 * formatting call (process.cpuUsage), not wall time, so other processes on the two cores do not
 * count; and the bound (1 s) is about a thousand times what a failure costs (well under 1 ms of
 * CPU each) and far below what the pathological case cost (minutes of CPU).
 *
 * Only the failures are read, so the run prints no summary (cucumber's `rerun` formatter: the
 * failed scenarios' lines; the summary wrote out all 553 failures again) and builds no report data
 * (world parameter "report": false, steps/support/hooks.ts): ≈ 22 % of the run's CPU, measured as
 * four alternating pairs in one process. cucumber's test case runner formats each failed step's
 * error whatever the formatters, so every failure still goes through formatError.
 */
import { before, describe, it } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Envelope } from '@cucumber/messages';
import { IdGenerator } from '@cucumber/messages';
import { expect } from 'chai';
import { runCucumber, withinWallTime } from '../scripts/cucumber-in-process';

const ROOT = path.resolve(__dirname, '..');
/** CPU time one failure's formatting may take. */
const BOUND_MS = 1000;
/** Wall-clock bound for the run of every failing assertion: a hang guard (it was the describe's timeout). */
const RUN_TIMEOUT_MS = 600_000;

const gherkin = createRequire(require.resolve('@cucumber/cucumber'))('@cucumber/gherkin') as {
  generateMessages(
    data: string,
    uri: string,
    mediaType: string,
    options: { includeSource: boolean; includeGherkinDocument: boolean; includePickles: boolean; newId: () => string },
  ): Envelope[];
};
/** Cucumber's module that formats a failed step's error; the step runner calls it through this module object, so wrapping its export measures every call. */
const formatErrorModule = require('@cucumber/cucumber/lib/runtime/format_error') as {
  formatError: (error: unknown, filter: boolean) => { message?: string };
};

/** The `Then` steps (Outcome steps) of the project's features, each once, with its table or doc string. */
function assertionSteps(): string[] {
  const { featureFiles } = require('../scripts/feature-files') as {
    featureFiles: (dir: string, o: { local: boolean }) => string[];
  };
  const seen = new Set<string>();
  for (const file of featureFiles(path.join(ROOT, 'features'), { local: false })) {
    for (const e of gherkin.generateMessages(readFileSync(file, 'utf8'), file, 'text/x.cucumber.gherkin+plain', {
      includeSource: false,
      includeGherkinDocument: false,
      includePickles: true,
      newId: IdGenerator.incrementing(),
    })) {
      for (const step of e.pickle?.steps ?? []) {
        if (step.type !== 'Outcome') continue;
        const arg = step.argument;
        let text = `    Then ${step.text}\n`;
        if (arg?.docString) text += `      """\n${arg.docString.content.replace(/^/gm, '      ')}\n      """\n`;
        if (arg?.dataTable)
          text += arg.dataTable.rows
            .map((r) => `      | ${r.cells.map((c) => c.value.replace(/\|/g, '\\|')).join(' | ')} |\n`)
            .join('');
        seen.add(text);
      }
    }
  }
  return [...seen];
}

/** What the failing run gave: each formatError call's CPU and message, the steps, what the run printed. */
interface FailingRun {
  calls: { cpuMs: number; message: string }[];
  steps: string[];
  output: string;
  error?: unknown;
}

const original = formatErrorModule.formatError;

/**
 * Every assertion step, failing, through cucumber with formatError measured. The run goes before
 * the file declares its tests: node's test runner, once a test is declared, tracks every promise
 * of the process with an async hook, and a cucumber run of 550 scenarios is mostly promises (this
 * file alone: 7.8–9.2 s of CPU with the run inside a `before`, 6.4–8.0 s before any test is
 * declared; three alternating pairs). In the process shared with the other cucumber files, it goes
 * before theirs too (scripts/unit-tests-cucumber.ts).
 */
async function failingRun(): Promise<FailingRun> {
  const run: FailingRun = { calls: [], steps: [], output: '' };
  const dir = mkdtempSync(path.join(tmpdir(), 'terminating-failure-format-'));
  try {
    run.steps = assertionSteps();
    const crd = path.join(ROOT, 'features', 'custom-resources', 'database-crd.yaml');
    const scenarios = run.steps
      .map((s, i) => `  Scenario: assertion ${i + 1}\n    When the cluster settles\n${s}`)
      .join('\n');
    const feature = `Feature: every assertion, failing\n\n  Background:\n    Given a node "node-1"\n    And a pod "web" running on node "node-1"\n    And the custom resource definition in "${crd}"\n\n  Scenario: the CRD condition assertion whose one-line message used to hang the formatter\n    Given a database "orders" with:\n      \"\"\"\n      metadata:\n        finalizers: [example.com/backup]\n      \"\"\"\n    When the user deletes the custom resource definition "databases.example.com"\n    Then the custom resource definition "databases.example.com" has condition Terminating True with reason SomethingElse\n\n${scenarios}`;
    const file = path.join(dir, 'failing.feature');
    writeFileSync(file, feature);
    formatErrorModule.formatError = (error, filter) => {
      const from = process.cpuUsage();
      const formatted = original(error, filter);
      const used = process.cpuUsage(from);
      run.calls.push({ cpuMs: (used.user + used.system) / 1000, message: formatted.message ?? '' });
      return formatted;
    };
    ({ output: run.output } = await withinWallTime(
      runCucumber({ paths: [file], format: ['rerun'], worldParameters: { report: false } }),
      'the failing run',
      RUN_TIMEOUT_MS,
    ));
  } catch (e) {
    run.error = e;
  } finally {
    formatErrorModule.formatError = original;
    rmSync(dir, { recursive: true, force: true });
  }
  return run;
}

function declareTests({ calls, steps, output, error }: FailingRun): void {
  describe("a failed step's error through cucumber's formatter", () => {
    before(() => {
      if (error) throw error;
    });

    it('formats every failure in well under a second of CPU', () => {
      const worst = Math.max(...calls.map((c) => c.cpuMs));
      console.log(
        `${calls.length} failures of ${steps.length + 1} assertion steps formatted; the slowest took ${worst.toFixed(1)} ms of CPU`,
      );
      expect(
        calls.length,
        `most assertions fail in a cluster of one pod; the failed scenarios:\n${output.slice(-2000)}`,
      ).to.be.above(steps.length / 2);
      const slow = calls.filter((c) => c.cpuMs >= BOUND_MS);
      expect(
        slow.map((c) => `${c.cpuMs.toFixed(0)} ms CPU: ${c.message.slice(0, 300)}`),
        'failures that took a second or more of CPU to format',
      ).to.deep.equal([]);
    });

    it('formats the CRD condition failure as lines, without a stack', () => {
      const crd = calls.find((c) => c.message.includes('not Terminating True with reason SomethingElse'));
      expect(crd, 'the CRD condition assertion failed').to.not.equal(undefined);
      expect(crd!.message).to.match(/^custom resource definition "databases.example.com" has Terminating True/);
      expect(crd!.message).to.include('Its conditions:\n- type: NamesAccepted');
      expect(crd!.message, 'the conditions as YAML, not one line of JSON').to.not.include('[{');
    });

    it('formats a message the old stack made pathological at once: one long line of quotes', () => {
      // What error-stack-parser's Firefox/Safari path backtracks on: a line with a colon, many quotes and no `@`.
      const line = `its conditions: ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ type: `T${i}`, status: 'True', reason: 'R', message: 'm "quoted"' })))}`;
      const { forTheAuthor } = require('./support/user-mistakes') as typeof import('./support/user-mistakes');
      const error = forTheAuthor(new Error(line), undefined);
      const from = process.cpuUsage();
      const formatted = original(error, true);
      const used = process.cpuUsage(from);
      expect(formatted.message).to.equal(line);
      expect((used.user + used.system) / 1000, 'CPU ms').to.be.below(BOUND_MS);
    });
  });
}

/** Settles once the run is over and the tests are declared (scripts/unit-tests-cucumber.ts waits for it). */
export const declared: Promise<void> = failingRun().then(declareTests);

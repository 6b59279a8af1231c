// This test file runs in a process of its own (scripts/unit-tests.ts): it loads cucumber's support code in a worker and waits on it.
/**
 * Bad input: what a scenario author sees when a step gets something it cannot use. Each case puts
 * ONE bad scenario beside a good one in a feature file and runs it through cucumber (the
 * programmatic API, with the real step definitions), then checks that
 * - the run fails (or, for a kubectl refusal seen through `When I try to run`, that the scenario
 *   sees kubectl's message and passes),
 * - exactly one step fails — the step with the bad input — with one error whose message names the
 *   bad value and what was expected, and embeds no stack trace of the core,
 * - the good scenario beside it still passes, and the summary says so,
 * - the run ends quickly (a run that hangs is ended and reported).
 *
 * The runs happen in a worker thread that loads the support code once; a run that does not answer
 * within RUN_TIMEOUT_MS (a synchronous loop in the core would never answer) is ended with
 * worker.terminate(), so a hang fails one case instead of the whole test process.
 *
 * cucumber.js loads support code from steps/definitions/ and steps/support/ only, so neither this
 * file nor its harness in steps/bad-input/ (which needs chai, a devDependency) is loaded as support
 * code, and the package's `files` leave steps/bad-input/ out of the tarball. It still defines its
 * tests only when node runs it as the main module (node --test does).
 */
import { after, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { ASSERTION_VOCABULARY_CASES } from './bad-input/assertions-vocabulary';
import { type Case, featureText, NODE_AND_POD, STACK_LINE } from './bad-input/case';
import { DURATION_KUBECTL_API_CASES } from './bad-input/durations-kubectl-api';
import { MANIFEST_CASES } from './bad-input/manifests';
import { CucumberRunner, ROOT } from './bad-input/runner';
import { STRICT_INPUT } from './bad-input/strict-input';
import { TABLE_RELEASE_CASES } from './bad-input/tables-releases';

/** Every case, by domain: each file of steps/bad-input/ holds one domain's cases (R240 R242: strict-input.ts). */
const CASES: Case[] = [
  ...STRICT_INPUT,
  ...MANIFEST_CASES,
  ...DURATION_KUBECTL_API_CASES,
  ...TABLE_RELEASE_CASES,
  ...ASSERTION_VOCABULARY_CASES,
];

if (require.main === module) {
  describe('bad input gives one clear error, and the scenarios beside it still pass', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'terminating-bad-input-'));
    const runner = new CucumberRunner();
    after(async () => {
      await runner.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`has at least 25 cases (${CASES.length})`, () => {
      expect(CASES.length).to.be.at.least(25);
      expect(new Set(CASES.map((c) => c.name)).size, 'case names are unique').to.equal(CASES.length);
    });

    CASES.forEach((c, i) => {
      it(c.name, async () => {
        const file = path.join(dir, `case-${String(i).padStart(2, '0')}.feature`);
        writeFileSync(file, featureText(c));
        const run = await runner.run(file);
        const good = run.scenarios.find((s) => s.name === 'a good scenario beside the bad one');
        const bad = run.scenarios.find((s) => s.name === 'bad input');
        const dump = `\n--- summary:\n${run.summary}\n--- outcome:\n${JSON.stringify(run.scenarios, null, 2)}`;
        expect(good?.status, `the good scenario passes${dump}`).to.equal('PASSED');
        expect(bad, `the bad scenario ran${dump}`).to.not.equal(undefined);
        if ('passes' in c) {
          expect(run.success, dump).to.equal(true);
          expect(bad!.status, dump).to.equal('PASSED');
          expect(run.summary).to.match(/2 scenarios \(2 passed\)/);
          return;
        }
        expect(run.success, `the run fails${dump}`).to.equal(false);
        expect(run.summary, dump).to.match(/2 scenarios \(1 failed, 1 passed\)/);
        const notPassed = run.scenarios
          .flatMap((s) => s.steps)
          .filter((s) => s.status !== 'PASSED' && s.status !== 'SKIPPED');
        expect(
          notPassed.map((s) => `${s.status} ${s.text}`),
          `exactly one step fails (no undefined or ambiguous ones)${dump}`,
        ).to.deep.equal([`FAILED ${c.failingStep}`]);
        const failed = notPassed[0];
        // Steps after the failing one are skipped; the After hook runs and passes.
        const after = bad!.steps.slice(bad!.steps.indexOf(failed) + 1);
        expect(
          after.filter((s) => !s.hook).every((s) => s.status === 'SKIPPED'),
          dump,
        ).to.equal(true);
        const message = failed.errorMessage ?? '';
        for (const fragment of c.says) {
          if (typeof fragment === 'string') expect(message, 'the error message').to.include(fragment);
          else expect(message, 'the error message').to.match(fragment);
        }
        expect(message, 'the message embeds no stack trace').to.not.match(STACK_LINE);
        expect(failed.printed ?? '', "a user's mistake is printed without a stack trace into the core").to.not.match(
          STACK_LINE,
        );
        expect(message, 'the message names no file of the core').to.not.include(path.join(ROOT, 'src'));
        expect(failed.errorType, `a scenario error, not a crash of the core: ${message}`).to.not.be.oneOf([
          'TypeError',
          'RangeError',
          'ReferenceError',
          'SyntaxError',
          'AssertionError',
        ]);
        // What cucumber prints: the message first, the stack after it.
        expect(failed.printed ?? '', 'cucumber prints the message').to.include(message.split('\n')[0]);
        c.check?.(failed, run);
      });
    });

    it('reports a run that does not answer in time as a hang instead of waiting for ever', async () => {
      // Checks the guard itself: with a 1 ms budget no run can answer, so the worker is ended and
      // the run rejected (a core stuck in a synchronous loop would be ended the same way).
      const file = path.join(dir, 'hang-probe.feature');
      writeFileSync(file, featureText({ name: 'probe', steps: NODE_AND_POD, passes: true }));
      let error: Error | undefined;
      try {
        await runner.run(file, 1);
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).to.match(/did not finish within 1 ms of wall time \(a hang\)/);
    });
  });
}

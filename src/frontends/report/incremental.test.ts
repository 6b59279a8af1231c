// This test file runs in the process that loads cucumber (scripts/unit-tests-cucumber.ts): it runs three scenarios through cucumber's API.
import { before, describe, it } from 'node:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { TestStepResultStatus, type Envelope } from '@cucumber/messages';
import { runCucumber } from '../../../scripts/cucumber-in-process';
import { renderReport } from './html';
import { IncrementalReport } from './incremental';
import { collectScenarios } from './model';

const FAILING = `Feature: a failing scenario
  Scenario: SIGKILL expected at the wrong second
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM
    When I run \`kubectl delete pod web\`
    Then these events happen in order:
      | at   | component | event           |
      | T+0s | runtime   | SIGTERM app     |
      | T+2m | runtime   | SIGKILL app     |
`;

/** A copy of one attempt of a test case under a new testCaseStarted id: cucumber's retry, the second attempt. */
function retried(envelopes: readonly Envelope[], testCaseStartedId: string): Envelope[] {
  const again = `${testCaseStartedId}-again`;
  const copy = (e: Envelope): Envelope => JSON.parse(JSON.stringify(e).replaceAll(testCaseStartedId, again));
  const attempt = envelopes.filter(
    (e) =>
      e.testCaseStarted?.id === testCaseStartedId ||
      e.testStepFinished?.testCaseStartedId === testCaseStartedId ||
      e.attachment?.testCaseStartedId === testCaseStartedId ||
      e.testCaseFinished?.testCaseStartedId === testCaseStartedId,
  );
  // The second attempt passes its steps the first one failed.
  return attempt.map(copy).map((e) =>
    e.testStepFinished
      ? {
          testStepFinished: {
            ...e.testStepFinished,
            testStepResult: {
              ...e.testStepFinished.testStepResult,
              status: TestStepResultStatus.PASSED,
              message: undefined,
              exception: undefined,
            },
          },
        }
      : e,
  );
}

describe('the report page rendered as the run goes (incremental.ts, the formatter in a worker thread)', () => {
  let envelopes: Envelope[];
  let page: string;

  before(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'terminating-incremental-'));
    const failing = path.join(dir, 'failing.feature');
    writeFileSync(failing, FAILING);
    const run = await runCucumber({
      paths: ['features/graceful-deletion.feature:18', 'features/graceful-deletion.feature:30', failing],
      format: [
        `./src/frontends/report/formatter.cjs:${path.join(dir, 'report.html')}`,
        `message:${path.join(dir, 'messages.ndjson')}`,
      ],
    });
    expect(run.output, run.output).to.include('3 scenarios (1 failed, 2 passed)');
    envelopes = readFileSync(path.join(dir, 'messages.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Envelope);
    page = readFileSync(path.join(dir, 'report.html'), 'utf8');
  });

  it("writes the page renderReport writes from all of the run's messages, byte for byte", () => {
    expect(page).to.contain('href="#list-failed">1 failed').and.to.contain('the kubelet kills the container');
    expect(page === renderReport(collectScenarios(envelopes)), 'the formatter wrote another page').to.equal(true);
  });

  it("takes a retried scenario's last attempt, as collectScenarios does", () => {
    const failedStart = envelopes.find(
      (e) =>
        e.testStepFinished?.testStepResult.status === 'FAILED' && e.testStepFinished.testCaseStartedId !== undefined,
    )!.testStepFinished!.testCaseStartedId;
    const finished = envelopes.findIndex((e) => e.testRunFinished);
    const all = [...envelopes.slice(0, finished), ...retried(envelopes, failedStart), ...envelopes.slice(finished)];
    const report = new IncrementalReport();
    for (const e of all) report.add(e);
    const expected = renderReport(collectScenarios(all));
    expect(expected).to.contain('3 scenarios: <a class="st-passed" href="#list-passed">3 passed</a>.');
    expect(report.page() === expected, 'the incremental page differs from the one of all messages').to.equal(true);
  });
});

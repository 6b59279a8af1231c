/**
 * What each scenario of a cucumber run gave — its step results and its attachments — read from
 * cucumber's message stream, so that two runs of the same scenarios can be compared scenario by
 * scenario (steps/determinism.test.ts: the suite run again in the same process, and with the real
 * kubectl in another one).
 *
 * A scenario is named by its feature file and its pickle's line (`features/x.feature:12`): an
 * outline's rows share a name but each has a line of its own, and the line is the same in every
 * run and every order, where cucumber's ids are not.
 */
import type { Envelope } from '@cucumber/messages';

export interface ScenarioOutcome {
  /** `uri name`, for messages. */
  name: string;
  /** Each test step's status (hooks included), in order. */
  statuses: string[];
  /** Each attachment as `fileName mediaType\nbody`, in order. */
  attachments: string[];
  /** Tagged @kubectl-polls: a kubectl that polls (drain) sends its GETs, and evicts its pods, in wall-clock order. */
  polls: boolean;
}

/** Scenario key (`uri:line`) → what it gave. */
export type Outcomes = Map<string, ScenarioOutcome>;

/** A collector for runCucumber's onMessage: fills `outcomes` as the run goes. */
export function outcomeCollector(): { onMessage: (envelope: Envelope) => void; outcomes: Outcomes } {
  const outcomes: Outcomes = new Map();
  // Every pickle of the features read is announced, run or not: a scenario is an outcome once it has a test case.
  const pickles = new Map<string, { key: string; outcome: ScenarioOutcome }>();
  const started = new Map<string, ScenarioOutcome>();
  const testCases = new Map<string, ScenarioOutcome>();
  const onMessage = (envelope: Envelope) => {
    const { pickle, testCase, testCaseStarted, testStepFinished, attachment } = envelope;
    if (pickle)
      pickles.set(pickle.id, {
        key: `${pickle.uri}:${pickle.location?.line ?? pickle.name}`,
        outcome: {
          name: `${pickle.uri} ${pickle.name}`,
          statuses: [],
          attachments: [],
          polls: pickle.tags.some((t) => t.name === '@kubectl-polls'),
        },
      });
    if (testCase) {
      const { key, outcome } = pickles.get(testCase.pickleId)!;
      outcomes.set(key, outcome);
      testCases.set(testCase.id, outcome);
    }
    if (testCaseStarted) started.set(testCaseStarted.id, testCases.get(testCaseStarted.testCaseId)!);
    if (testStepFinished)
      started.get(testStepFinished.testCaseStartedId)?.statuses.push(testStepFinished.testStepResult.status);
    if (attachment?.testCaseStartedId !== undefined)
      started
        .get(attachment.testCaseStartedId)
        ?.attachments.push(`${attachment.fileName} ${attachment.mediaType}\n${attachment.body}`);
  };
  return { onMessage, outcomes };
}

/** The body of a scenario's attachment named `fileName` ('' when it attached none). */
export function attachmentBody(outcome: ScenarioOutcome | undefined, fileName: string): string {
  const a = outcome?.attachments.find((x) => x.startsWith(`${fileName} `));
  return a === undefined ? '' : a.slice(a.indexOf('\n') + 1);
}

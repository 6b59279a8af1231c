/**
 * What each scenario of a cucumber run gave — its step results, error messages and attachments —
 * read from cucumber's message stream, so that two runs of the same scenarios can be compared
 * scenario by scenario (steps/determinism.test.ts: the suite in another order in another process,
 * run again in the same process, and with the real kubectl in another one).
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
  /** Each test step's error message ('' for a step without one), in the same order. */
  messages: string[];
  /** Each attachment as `fileName mediaType\nbody`, in order. */
  attachments: string[];
  /** The test step (its index in `statuses`) that made each attachment, in the same order. */
  attachedBy: number[];
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
  /** Each test step's index in its test case. */
  const stepIndex = new Map<string, number>();
  const onMessage = (envelope: Envelope) => {
    const { pickle, testCase, testCaseStarted, testStepFinished, attachment } = envelope;
    if (pickle)
      pickles.set(pickle.id, {
        key: `${pickle.uri}:${pickle.location?.line ?? pickle.name}`,
        outcome: {
          name: `${pickle.uri} ${pickle.name}`,
          statuses: [],
          messages: [],
          attachments: [],
          attachedBy: [],
          polls: pickle.tags.some((t) => t.name === '@kubectl-polls'),
        },
      });
    if (testCase) {
      const { key, outcome } = pickles.get(testCase.pickleId)!;
      outcomes.set(key, outcome);
      testCases.set(testCase.id, outcome);
      testCase.testSteps.forEach((step, i) => stepIndex.set(step.id, i));
    }
    if (testCaseStarted) started.set(testCaseStarted.id, testCases.get(testCaseStarted.testCaseId)!);
    if (testStepFinished) {
      const outcome = started.get(testStepFinished.testCaseStartedId);
      outcome?.statuses.push(testStepFinished.testStepResult.status);
      outcome?.messages.push(testStepFinished.testStepResult.message ?? '');
    }
    if (attachment?.testCaseStartedId !== undefined) {
      const outcome = started.get(attachment.testCaseStartedId);
      outcome?.attachments.push(`${attachment.fileName} ${attachment.mediaType}\n${attachment.body}`);
      outcome?.attachedBy.push(stepIndex.get(attachment.testStepId ?? '') ?? -1);
    }
  };
  return { onMessage, outcomes };
}

/** The body of a scenario's attachment named `fileName` ('' when it attached none). */
export function attachmentBody(outcome: ScenarioOutcome | undefined, fileName: string): string {
  const a = outcome?.attachments.find((x) => x.startsWith(`${fileName} `));
  return a === undefined ? '' : a.slice(a.indexOf('\n') + 1);
}

/**
 * Where two runs' outcomes of the same scenarios first differ, readably; undefined when they agree.
 * Each scenario of `other` is compared with the same scenario of `one` (which must have it): its
 * step results, its error messages as `message` gives them, and its attachments, byte for byte,
 * each made by the same step. With `all`, the two runs must also hold the same scenarios.
 */
export function outcomeDifference(
  one: Outcomes,
  other: Outcomes,
  { message = (m: string) => m, all = false }: { message?: (m: string) => string; all?: boolean } = {},
): string | undefined {
  if (all) {
    const missing = [...one.keys()].filter((k) => !other.has(k));
    if (missing.length > 0)
      return `${missing.length} scenarios did not run in the other run: ${missing.slice(0, 5).join(', ')}`;
  }
  for (const [key, b] of other) {
    const a = one.get(key);
    const where = `${b.name} (${key})`;
    if (a === undefined) return `${where} did not run in the first run`;
    const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
    if (!same(a.statuses, b.statuses)) return `${where}: step results ${a.statuses} ≠ ${b.statuses}`;
    for (let i = 0; i < a.messages.length; i++) {
      const [x, y] = [message(a.messages[i]!), message(b.messages[i]!)];
      if (x !== y) return `${where}, step ${i + 1}'s error: ${firstDifferingLine(x, y)}`;
    }
    if (a.attachments.length !== b.attachments.length)
      return `${where}: ${a.attachments.length} attachments ≠ ${b.attachments.length}`;
    for (let i = 0; i < a.attachments.length; i++) {
      const [x, y] = [a.attachments[i]!, b.attachments[i]!];
      const what = `${where}, attachment ${i + 1} (${x.slice(0, x.indexOf('\n'))})`;
      if (x !== y) return `${what}: ${firstDifferingLine(x, y)}`;
      if (a.attachedBy[i] !== b.attachedBy[i])
        return `${what}: made by step ${a.attachedBy[i]! + 1} in one run, ${b.attachedBy[i]! + 1} in the other`;
    }
  }
  return undefined;
}

/**
 * The first line two texts differ on, both sides shown from a little before the first character
 * they differ in (a timeline.json attachment is one long line).
 */
function firstDifferingLine(a: string, b: string): string {
  const [x, y] = [a.split('\n'), b.split('\n')];
  const i = x.findIndex((line, j) => line !== y[j]);
  const at = i < 0 ? x.length : i;
  const [p, q] = [x[at] ?? '', y[at] ?? ''];
  let c = 0;
  while (c < p.length && p[c] === q[c]) c++;
  const from = Math.max(0, c - 120);
  const show = (line: string | undefined) =>
    line === undefined
      ? '<end>'
      : `${from > 0 ? '…' : ''}${line.slice(from, from + 300)}${line.length > from + 300 ? '…' : ''}`;
  return `first differing line ${at + 1}, column ${c + 1}:\n  one run: ${show(x[at])}\n  other:   ${show(y[at])}`;
}

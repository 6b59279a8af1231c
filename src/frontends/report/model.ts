import type { Envelope, GherkinDocument, TestStepResultStatus } from '@cucumber/messages';
import { TIMELINE_FILE, type ScenarioTimeline } from './scenario-timeline';

/** One scenario (or one Examples row of a Scenario Outline) as the report shows it. */
export interface ScenarioReport {
  /** `features/x.feature:12`: the scenario's line, or the Examples row's for an outline. */
  readonly location: string;
  readonly uri: string;
  readonly line: number;
  readonly feature: string;
  readonly name: string;
  /** For an Examples row: the Scenario Outline's line, shared by its rows. */
  readonly outlineLine?: number;
  /** For an Examples row: its values by column (`release: v1.33`), which name what differs between rows. */
  readonly examples?: Readonly<Record<string, string>>;
  /** The scenario's tags (the feature's and the Examples' included), e.g. `@graceful`. */
  readonly tags?: readonly string[];
  /** The feature's description (the free text under `Feature:`). */
  readonly featureDescription?: string;
  readonly status: Status;
  readonly steps: readonly StepReport[];
  readonly timeline?: ScenarioTimeline;
}

export type Status = 'passed' | 'failed' | 'skipped' | 'pending' | 'undefined' | 'ambiguous' | 'unknown';

export interface StepReport {
  readonly keyword: string;
  readonly text: string;
  readonly status: Status;
  readonly error?: string;
  /** The step's doc string, as the step received it. */
  readonly docString?: string;
  /** The step's data table, header row first. */
  readonly dataTable?: readonly (readonly string[])[];
}

/**
 * The scenarios of a run, in feature and line order, from cucumber's messages: the Gherkin
 * documents and pickles give names and lines, the test steps' results the statuses and errors,
 * and each scenario's `timeline.json` attachment its timeline. Only the last attempt of a retried
 * scenario counts.
 */
export function collectScenarios(
  envelopes: Iterable<Envelope>,
  parseTimeline: (attachment: Attachment) => ScenarioTimeline = parseTimelineAttachment,
): ScenarioReport[] {
  const lines = new Map<
    string,
    { line: number; keyword?: string; outlineLine?: number; values?: Record<string, string> }
  >();
  const features = new Map<string, { name: string; description?: string }>();
  const pickles = new Map<string, NonNullable<Envelope['pickle']>>();
  const testCases = new Map<string, NonNullable<Envelope['testCase']>>();
  const attempts = new Map<
    string,
    { testCaseStartedId: string; results: Map<string, { status: Status; error?: string }>; timeline?: ScenarioTimeline }
  >();
  const startedCase = new Map<string, string>();
  for (const e of envelopes) {
    if (e.gherkinDocument) indexDocument(e.gherkinDocument, lines, features);
    else if (e.pickle) pickles.set(e.pickle.id, e.pickle);
    else if (e.testCase) testCases.set(e.testCase.id, e.testCase);
    else if (e.testCaseStarted) {
      startedCase.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
      attempts.set(e.testCaseStarted.testCaseId, { testCaseStartedId: e.testCaseStarted.id, results: new Map() });
    } else if (e.testStepFinished) {
      const attempt = attempts.get(startedCase.get(e.testStepFinished.testCaseStartedId) ?? '');
      const r = e.testStepFinished.testStepResult;
      attempt?.results.set(e.testStepFinished.testStepId, {
        status: statusOf(r.status),
        error: r.exception?.stackTrace ?? r.message,
      });
    } else if (e.attachment?.fileName === TIMELINE_FILE && e.attachment.testCaseStartedId !== undefined) {
      const attempt = attempts.get(startedCase.get(e.attachment.testCaseStartedId) ?? '');
      if (attempt) attempt.timeline = parseTimeline(e.attachment);
    }
  }
  const out: ScenarioReport[] = [];
  for (const testCase of testCases.values()) {
    const pickle = pickles.get(testCase.pickleId);
    if (!pickle) continue;
    const attempt = attempts.get(testCase.id);
    const scenario = lines.get(pickle.astNodeIds[0]!);
    const row = pickle.astNodeIds.length > 1 ? lines.get(pickle.astNodeIds[pickle.astNodeIds.length - 1]!) : undefined;
    const line = row?.line ?? scenario?.line ?? 0;
    const steps: StepReport[] = [];
    const hookErrors: StepReport[] = [];
    for (const step of testCase.testSteps) {
      const result = attempt?.results.get(step.id) ?? { status: 'unknown' as const };
      const pickleStep =
        step.pickleStepId === undefined ? undefined : pickle.steps.find((s) => s.id === step.pickleStepId);
      if (pickleStep) {
        const keyword = lines.get(pickleStep.astNodeIds[0]!)?.keyword?.trim() ?? '';
        const arg = pickleStep.argument;
        steps.push({
          keyword,
          text: pickleStep.text,
          ...result,
          ...(arg?.docString ? { docString: arg.docString.content } : {}),
          ...(arg?.dataTable ? { dataTable: arg.dataTable.rows.map((r) => r.cells.map((c) => c.value)) } : {}),
        });
      } else if (result.status === 'failed') {
        hookErrors.push({ keyword: 'Hook', text: '', ...result });
      }
    }
    const all = [...steps, ...hookErrors];
    out.push({
      location: `${pickle.uri}:${line}`,
      uri: pickle.uri,
      line,
      feature: features.get(pickle.uri)?.name ?? pickle.uri,
      ...(features.get(pickle.uri)?.description ? { featureDescription: features.get(pickle.uri)!.description } : {}),
      name: pickle.name,
      outlineLine: row ? scenario?.line : undefined,
      ...(row?.values ? { examples: row.values } : {}),
      tags: pickle.tags.map((t) => t.name),
      status: overall(all.map((s) => s.status)),
      steps: all,
      timeline: attempt?.timeline,
    });
  }
  return out.sort((a, b) => (a.uri === b.uri ? a.line - b.line : a.uri < b.uri ? -1 : 1));
}

type Attachment = NonNullable<Envelope['attachment']>;

/** A scenario's `timeline.json` attachment, read. */
export function parseTimelineAttachment(attachment: Attachment): ScenarioTimeline {
  return JSON.parse(
    attachment.contentEncoding === 'BASE64' ? Buffer.from(attachment.body, 'base64').toString() : attachment.body,
  );
}

function indexDocument(
  doc: GherkinDocument,
  lines: Map<string, { line: number; keyword?: string; outlineLine?: number; values?: Record<string, string> }>,
  features: Map<string, { name: string; description?: string }>,
): void {
  if (!doc.feature || doc.uri === undefined) return;
  const description = dedent(doc.feature.description);
  features.set(doc.uri, { name: doc.feature.name, ...(description ? { description } : {}) });
  const visit = (children: NonNullable<GherkinDocument['feature']>['children']): void => {
    for (const child of children) {
      if (child.rule) visit(child.rule.children);
      const parent = child.scenario ?? child.background;
      if (!parent) continue;
      lines.set(parent.id, { line: parent.location.line });
      for (const step of parent.steps) lines.set(step.id, { line: step.location.line, keyword: step.keyword });
      for (const examples of child.scenario?.examples ?? []) {
        const header = examples.tableHeader?.cells.map((c) => c.value) ?? [];
        for (const row of examples.tableBody)
          lines.set(row.id, {
            line: row.location.line,
            values: Object.fromEntries(header.map((h, i) => [h, row.cells[i]?.value ?? ''])),
          });
      }
    }
  };
  visit(doc.feature.children);
}

/** A description's lines without the indentation they share. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return lines
    .map((l) => l.slice(Number.isFinite(indent) ? indent : 0))
    .join('\n')
    .trim();
}

function statusOf(status: TestStepResultStatus): Status {
  return status.toLowerCase() as Status;
}

/** A scenario's status: its worst step's. */
function overall(statuses: readonly Status[]): Status {
  for (const s of ['failed', 'ambiguous', 'undefined', 'pending', 'unknown', 'skipped'] as const)
    if (statuses.includes(s)) return s;
  return 'passed';
}

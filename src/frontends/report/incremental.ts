import type { Envelope } from '@cucumber/messages';
import { renderReport, renderScenario } from './html';
import { collectScenarios, parseTimelineAttachment, type ScenarioReport } from './model';
import type { ScenarioTimeline } from './scenario-timeline';

/** The messages the report page is made of (the formatter keeps these and no others). */
export function isReportEnvelope(e: Envelope): boolean {
  return !!(e.gherkinDocument || e.pickle || e.testCase || e.testCaseStarted || e.testStepFinished || e.attachment);
}

/**
 * The report page built as the run goes: each scenario's part of the page (its steps, diagram,
 * timeline and objects: nearly all of the work) is rendered as soon as the scenario finishes, and
 * the page is put together from those parts when the run ends. The page is the one
 * renderReport(collectScenarios(every message)) writes, byte for byte: the scenarios are collected
 * again from every message at the end, and a part rendered earlier is used only for a scenario
 * whose report is still the same (same timeline, same steps and results; a retried scenario's
 * last attempt replaces the earlier one).
 */
export class IncrementalReport {
  private readonly envelopes: Envelope[] = [];
  private readonly documents = new Map<string, Envelope>();
  private readonly pickles = new Map<string, Envelope>();
  private readonly testCases = new Map<string, Envelope>();
  /** Each attempt's messages (its testCaseStarted first), by testCaseStartedId. */
  private readonly attempts = new Map<string, Envelope[]>();
  /** Each timeline attachment read once: the early and the final collection share the object. */
  private readonly timelines = new WeakMap<object, ScenarioTimeline>();
  /** Rendered parts by scenario location: the report they were rendered from, and the text. */
  private readonly rendered = new Map<string, { report: ScenarioReport; html: string }>();

  private readonly parse = (attachment: NonNullable<Envelope['attachment']>): ScenarioTimeline => {
    let timeline = this.timelines.get(attachment);
    if (timeline === undefined) this.timelines.set(attachment, (timeline = parseTimelineAttachment(attachment)));
    return timeline;
  };

  add(e: Envelope): void {
    if (isReportEnvelope(e)) this.envelopes.push(e);
    if (e.gherkinDocument?.uri !== undefined) this.documents.set(e.gherkinDocument.uri, e);
    else if (e.pickle) this.pickles.set(e.pickle.id, e);
    else if (e.testCase) this.testCases.set(e.testCase.id, e);
    else if (e.testCaseStarted) this.attempts.set(e.testCaseStarted.id, [e]);
    else if (e.testStepFinished) this.attempts.get(e.testStepFinished.testCaseStartedId)?.push(e);
    else if (e.attachment?.testCaseStartedId !== undefined) this.attempts.get(e.attachment.testCaseStartedId)?.push(e);
    else if (e.testCaseFinished) this.renderAttempt(e.testCaseFinished.testCaseStartedId);
  }

  /** One finished attempt's part of the page, from its own messages. */
  private renderAttempt(testCaseStartedId: string): void {
    const attempt = this.attempts.get(testCaseStartedId);
    this.attempts.delete(testCaseStartedId);
    const testCase = attempt && this.testCases.get(attempt[0]!.testCaseStarted!.testCaseId);
    const pickle = testCase && this.pickles.get(testCase.testCase!.pickleId);
    const document = pickle && this.documents.get(pickle.pickle!.uri);
    if (!document) return;
    const [report] = collectScenarios([document, pickle, testCase, ...attempt], this.parse);
    if (report) this.rendered.set(report.location, { report, html: renderScenario(report, true) });
  }

  /** The whole page (reports/report.html). */
  page(): string {
    const scenarios = collectScenarios(this.envelopes, this.parse);
    return renderReport(scenarios, undefined, (s) => {
      const early = this.rendered.get(s.location);
      return early && sameReport(early.report, s) ? early.html : renderScenario(s, true);
    });
  }
}

/** Two reports of one scenario that render the same: the same timeline object and equal everything else. */
function sameReport(a: ScenarioReport, b: ScenarioReport): boolean {
  return a.timeline === b.timeline && JSON.stringify({ ...a, timeline: 0 }) === JSON.stringify({ ...b, timeline: 0 });
}

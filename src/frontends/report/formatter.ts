import { Formatter, type IFormatterOptions } from '@cucumber/cucumber';
import type { Envelope } from '@cucumber/messages';
import { renderReport } from './html';
import { collectScenarios } from './model';

/**
 * Cucumber formatter writing the project's report page (`reports/report.html`) from the run's
 * messages: it keeps the messages the page needs and renders the page once the run finishes.
 */
export default class ReportFormatter extends Formatter {
  static override readonly documentation =
    "The scenario report: each scenario's steps, error and sequence diagram, and the Scenario Outline comparisons";
  private readonly envelopes: Envelope[] = [];

  constructor(options: IFormatterOptions) {
    super(options);
    options.eventBroadcaster.on('envelope', (e: Envelope) => {
      if (e.gherkinDocument || e.pickle || e.testCase || e.testCaseStarted || e.testStepFinished || e.attachment)
        this.envelopes.push(e);
      if (e.testRunFinished) this.log(renderReport(collectScenarios(this.envelopes)));
    });
  }
}

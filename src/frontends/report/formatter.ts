import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Formatter, type IFormatterOptions } from '@cucumber/cucumber';
import type { Envelope } from '@cucumber/messages';
import { renderReport } from './html';
import { isReportEnvelope } from './incremental';
import { collectScenarios } from './model';

/**
 * Cucumber formatter writing the project's report page (`reports/report.html`) from the run's
 * messages. The page is rendered in a worker thread, each scenario's part as soon as the
 * scenario finishes (src/frontends/report/incremental.ts): on a machine with a second core the
 * rendering runs beside the scenarios instead of after them. Should the worker fail, the page is
 * rendered here from the messages kept, as it is when no worker can be started.
 */
export default class ReportFormatter extends Formatter {
  static override readonly documentation =
    "The scenario report: each scenario's steps, error and sequence diagram, and the Scenario Outline comparisons";
  private readonly envelopes: Envelope[] = [];
  /** Messages not yet sent to the worker: they go at the end of each scenario, in one message. */
  private pending: Envelope[] = [];
  private worker?: Worker;
  private page?: Promise<string>;

  constructor(options: IFormatterOptions) {
    super(options);
    this.worker = startWorker(() => (this.worker = undefined));
    options.eventBroadcaster.on('envelope', (e: Envelope) => {
      if (isReportEnvelope(e)) {
        this.envelopes.push(e);
        this.pending.push(e);
      }
      if (e.testCaseFinished) {
        this.pending.push(e);
        this.send(false);
      }
      if (e.testRunFinished) this.page = this.render();
    });
  }

  override async finished(): Promise<void> {
    if (this.page) this.log(await this.page);
    // A run that ended without testRunFinished (an error first) leaves no page and no worker.
    this.stopWorker();
    await super.finished();
  }

  private send(finish: boolean): void {
    const envelopes = this.pending;
    this.pending = [];
    try {
      this.worker?.postMessage({ envelopes, ...(finish ? { finish } : {}) });
    } catch {
      this.stopWorker();
    }
  }

  private render(): Promise<string> {
    const inThread = (): string => renderReport(collectScenarios(this.envelopes));
    const worker = this.worker;
    if (!worker) return Promise.resolve(inThread());
    return new Promise<string>((resolve) => {
      let settled = false;
      // The page once: the worker's, or — when it fails or stops first — one rendered here (never both).
      const settle = (page: () => string): void => {
        if (settled) return;
        settled = true;
        resolve(page());
      };
      worker.ref();
      worker.once('message', (page: string) => settle(() => page));
      worker.once('error', () => settle(inThread));
      worker.once('exit', () => settle(inThread));
      this.send(true);
    }).finally(() => this.stopWorker());
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

/**
 * The renderer's worker thread, not keeping the process alive until the page is asked for. Should
 * it stop before then (an error), `gone` is called and the page is rendered in this thread.
 */
function startWorker(gone: () => void): Worker | undefined {
  // The worker costs ≈ 0.1 s to start and a third more CPU in all than rendering here (its own
  // isolate, the messages copied): a run whose CPU counts more than its time (the test suite on a
  // busy machine) can render in this thread with TERMINATING_REPORT_WORKER=off.
  if (process.env.TERMINATING_REPORT_WORKER === 'off') return undefined;
  try {
    const worker = new Worker(join(__dirname, 'render-worker.cjs'));
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', gone);
    return worker;
  } catch {
    return undefined;
  }
}

import { parentPort } from 'node:worker_threads';
import type { Envelope } from '@cucumber/messages';
import { IncrementalReport } from './incremental';

/**
 * The report formatter's worker thread (formatter.ts): it is sent each finished scenario's
 * messages, renders that scenario's part of the page at once, and answers `finish` with the page.
 */
const report = new IncrementalReport();
parentPort?.on('message', (m: { envelopes: Envelope[]; finish?: boolean }) => {
  for (const e of m.envelopes) report.add(e);
  if (m.finish) parentPort?.postMessage(report.page());
});

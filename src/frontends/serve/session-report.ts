import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Cluster } from '../../cluster/cluster';
import { renderTimelinePage } from '../report/html';
import { TIMELINE_FILE, toScenarioTimeline } from '../report/scenario-timeline';
import { escapeHtml } from '../../foundation/timeline/sequence-diagram';
import { formatTimeline } from '../../foundation/timeline/text';
import { formatOffset } from '../../foundation/timeline/time';
import { yamlDocuments } from '../yaml-output';

/** The files of a served session's report, by what they hold. */
export interface SessionReportFiles {
  html: string;
  /** The timeline as data (src/frontends/report/scenario-timeline.ts): every event with its T+ time, every write's patch. */
  data: string;
  text: string;
  objects: string;
}

/**
 * Writes the report of everything that happened in a served session, the way a scenario's report
 * shows it: an HTML page with the sequence diagram, the timeline as text, and the pods as they are
 * now (YAML); beside it the timeline as data (JSON: every event, every write's field changes). T+0
 * is when the server started serving; the warm-up before it is left out of the diagram.
 */
export function writeSessionReport(cluster: Cluster, t0: number, dir: string, title: string): SessionReportFiles {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const events = cluster.timeline.all();
  const text = formatTimeline(events, t0);
  const pods = cluster.apiserver.list('pods', undefined);
  // Without managedFields, as `kubectl get -o yaml` prints objects (--show-managed-fields=false).
  const items = pods.ok
    ? pods.object.items.map(({ metadata: { managedFields: _, ...metadata }, ...pod }) => ({ ...pod, metadata }))
    : [];
  const objects = yamlDocuments(items, 'no pods left in the API');
  const data = toScenarioTimeline(events, t0, { rows: [], expected: [] }, objects);
  const files: SessionReportFiles = {
    html: join(out, 'index.html'),
    data: join(out, TIMELINE_FILE),
    text: join(out, 'timeline.txt'),
    objects: join(out, 'final-objects.yaml'),
  };
  writeFileSync(files.data, JSON.stringify(data));
  writeFileSync(files.text, text);
  writeFileSync(files.objects, objects);
  // etcd compaction dropped what came before its revision (ApiServerOptions.dropCompactedHistory): say from when the report covers.
  const forgotten = cluster.timeline.forgotten;
  const kept =
    forgotten > 0 && events.length > 0
      ? ` It covers what etcd's compaction kept: the ${forgotten} earlier events were dropped with the history before revision ${cluster.apiserver.etcd.compacted}; it starts at ${escapeHtml(formatOffset(events[0].at - t0))}.`
      : '';
  const intro = `Virtual time now: ${escapeHtml(formatOffset(cluster.clock.now() - t0))} (${new Date(cluster.clock.now()).toISOString()}).${kept} Files beside this page: <a href="${TIMELINE_FILE}">${TIMELINE_FILE}</a>, <a href="timeline.txt">timeline.txt</a>, <a href="final-objects.yaml">final-objects.yaml</a>.`;
  writeFileSync(files.html, renderTimelinePage(title, intro, data));
  return files;
}

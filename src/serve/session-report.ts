import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { Cluster } from '../cluster';
import { escapeXml, formatOffset, renderSequenceDiagram } from '../timeline/sequence-diagram';
import { formatTimeline } from '../timeline/text';

/** The files of a served session's report, by what they hold. */
export interface SessionReportFiles {
  html: string;
  svg: string;
  text: string;
  writes: string;
  objects: string;
}

/**
 * Writes the report of everything that happened in a served session, the way a scenario's report
 * shows it: the timeline as a sequence diagram (SVG) and as text, the field changes of every write
 * (JSON), the pods as they are now (YAML), and an HTML page with the diagram and the text. T+0 is
 * when the server started serving; the warm-up before it is left out of the diagram.
 */
export function writeSessionReport(cluster: Cluster, t0: number, dir: string, title: string): SessionReportFiles {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const events = cluster.timeline.all();
  const svg = renderSequenceDiagram(events, { t0, title, dropBeforeT0: true });
  const text = formatTimeline(events, t0);
  const writes = events.filter((e) => e.patch).map((e) => ({ seq: e.seq, at: formatOffset(e.at - t0), write: e.text, patch: e.patch }));
  const pods = cluster.apiserver.list('pods', undefined);
  const objects = pods.ok && pods.object.items.length > 0 ? pods.object.items.map((o) => stringify(o)).join('---\n') : '# no pods left in the API\n';
  const files: SessionReportFiles = {
    html: join(out, 'index.html'),
    svg: join(out, 'timeline.svg'),
    text: join(out, 'timeline.txt'),
    writes: join(out, 'writes.json'),
    objects: join(out, 'final-objects.yaml'),
  };
  writeFileSync(files.svg, svg);
  writeFileSync(files.text, text);
  writeFileSync(files.writes, JSON.stringify(writes, null, 1));
  writeFileSync(files.objects, objects);
  writeFileSync(
    files.html,
    `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeXml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5em}pre{font-size:12px;background:#f6f8fa;padding:1em;overflow:auto}</style></head>
<body>
<h1>${escapeXml(title)}</h1>
<p>Virtual time now: ${escapeXml(formatOffset(cluster.clock.now() - t0))} (${new Date(cluster.clock.now()).toISOString()}). Files beside this page: <a href="timeline.svg">timeline.svg</a>, <a href="timeline.txt">timeline.txt</a>, <a href="writes.json">writes.json</a>, <a href="final-objects.yaml">final-objects.yaml</a>.</p>
${svg}
<h2>Timeline</h2>
<pre>${escapeXml(text)}</pre>
<h2>Pods now</h2>
<pre>${escapeXml(objects)}</pre>
</body>
</html>
`,
  );
  return files;
}

import { After, Before, setDefaultTimeout } from '@cucumber/cucumber';
import { stringify } from 'yaml';
import { renderSequenceDiagram } from '../src/timeline/sequence-diagram';
import { formatTimeline } from '../src/timeline/text';
import type { TerminatingWorld } from './world';

// The simulation runs on a virtual clock; a step that takes real seconds is a bug worth seeing.
setDefaultTimeout(20_000);

/** A bad `--world-parameters '{"kubernetes": …}'` fails each scenario with one clear error. */
Before(function (this: TerminatingWorld) {
  if (this.parameterError) throw this.parameterError;
});

/**
 * Every scenario's report: the timeline as an SVG sequence diagram and as text (each event naming
 * the upstream function it models), the field changes of every write, and the final objects.
 */
After(function (this: TerminatingWorld, { pickle }) {
  if (!this.started) return;
  const t0 = this.start;
  const events = this.cluster.timeline.all();
  const title = pickle.name;
  this.attach(Buffer.from(renderSequenceDiagram(events, { t0, title, dropBeforeT0: true })), { mediaType: 'image/svg+xml', fileName: 'timeline.svg' });
  this.attach(formatTimeline(events, t0), { mediaType: 'text/plain', fileName: 'timeline.txt' });
  const writes = events.filter((e) => e.patch).map((e) => ({ seq: e.seq, at: `T${e.at >= t0 ? '+' : '-'}${Math.abs(e.at - t0) / 1000}s`, write: e.text, patch: e.patch }));
  this.attach(JSON.stringify(writes), { mediaType: 'application/json', fileName: 'writes.json' });
  const pods = this.cluster.apiserver.list('pods', undefined);
  const objects = pods.ok ? pods.object.items : [];
  this.attach(objects.length ? objects.map((o) => stringify(o)).join('---\n') : '# no pods left in the API\n', { mediaType: 'text/plain', fileName: 'final-objects.yaml' });
});

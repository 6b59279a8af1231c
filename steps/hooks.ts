import { After, Before, setDefaultTimeout } from '@cucumber/cucumber';
import { stringify } from 'yaml';
import { TIMELINE_FILE, toScenarioTimeline } from '../src/report/scenario-timeline';
import type { TerminatingWorld } from './world';

// The simulation runs on a virtual clock; a step that takes real seconds is a bug worth seeing.
setDefaultTimeout(20_000);

/** A bad `--world-parameters '{"kubernetes": …}'` fails each scenario with one clear error. */
Before(function (this: TerminatingWorld) {
  if (this.parameterError) throw this.parameterError;
});

/**
 * Every scenario's report data: its timeline (each event naming the upstream function it models,
 * each write its field changes), what its assertions matched, and the pods left in the API. The
 * report formatter (src/report/formatter.ts) renders the page from it when the run ends.
 */
After(function (this: TerminatingWorld) {
  if (!this.started) return;
  const pods = this.cluster.apiserver.list('pods', undefined);
  const objects = pods.ok ? pods.object.items : [];
  const finalObjects = objects.length ? objects.map((o) => stringify(o)).join('---\n') : '# no pods left in the API\n';
  const data = toScenarioTimeline(this.cluster.timeline.all(), this.start, this.marks, finalObjects);
  this.attach(JSON.stringify(data), { mediaType: 'application/json', fileName: TIMELINE_FILE });
});

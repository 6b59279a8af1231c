import { After, Before, setDefaultTimeout } from '@cucumber/cucumber';
import { TIMELINE_FILE, toScenarioTimeline } from '../src/report/scenario-timeline';
import { yamlDocuments } from '../src/yaml-output';
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
  const finalObjects = yamlDocuments(objects, 'no pods left in the API');
  const data = toScenarioTimeline(this.cluster.timeline.all(), this.start, this.marks, finalObjects);
  this.attach(JSON.stringify(data), { mediaType: 'application/json', fileName: TIMELINE_FILE });
});

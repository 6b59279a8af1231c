import { After, AfterStep, Before, BeforeStep, setDefaultTimeout } from '@cucumber/cucumber';
import { locate } from './step-location';
import { TIMELINE_FILE, toScenarioTimeline } from '../../src/frontends/report/scenario-timeline';
import { yamlDocuments } from '../../src/frontends/yaml-output';
import type { TerminatingWorld } from './world';

// The simulation runs on a virtual clock; a step that takes real seconds is a bug worth seeing.
setDefaultTimeout(20_000);

/** A bad `--world-parameters '{"kubernetes": …}'` fails each scenario with one clear error. */
Before(function (this: TerminatingWorld) {
  if (this.parameterError) throw this.parameterError;
});

/** Where each step began on the clock and in the timeline (undefined: before T+0, or not yet). */
const stepStarts = new WeakMap<
  TerminatingWorld,
  { keyword: string; text: string; fromMs?: number; afterSeq?: number }
>();

BeforeStep(function (this: TerminatingWorld, { gherkinDocument, pickleStep }) {
  const started = this.started;
  stepStarts.set(this, {
    keyword: locate(gherkinDocument, pickleStep)?.keyword ?? '',
    text: pickleStep.text,
    ...(started ? { fromMs: this.cluster.clock.now() - this.start, afterSeq: this.cluster.timeline.recorded } : {}),
  });
});

/**
 * Each step from T+0 on, with what it covered: the step that starts the scenario (builds the
 * cluster and lets the warm-up run) begins at T+0, after the setup's events.
 */
AfterStep(function (this: TerminatingWorld) {
  const begun = stepStarts.get(this);
  if (!begun || !this.started) return;
  const t0 = this.start;
  const afterSeq = begun.afterSeq ?? this.setupSeq;
  const commands = this.stepCommands;
  this.stepCommands = [];
  this.stepSpans.push({
    keyword: begun.keyword,
    text: begun.text,
    fromMs: begun.fromMs ?? 0,
    toMs: this.cluster.clock.now() - t0,
    afterSeq,
    toSeq: this.cluster.timeline.recorded,
    ...(commands.length > 0 ? { commands } : {}),
  });
});

/**
 * Every scenario's report data: its timeline (each event naming the upstream function it models,
 * each write its field changes), what its assertions matched, and the pods left in the API. The
 * report formatter (src/frontends/report/formatter.ts) renders the page from it when the run ends.
 */
After(function (this: TerminatingWorld) {
  if (!this.started) return;
  // Runs read for their outcome alone, never rendered as a report, build none of it: `terminating
  // explore`'s reruns of a plan (world parameter "explore": "outcome", src/frontends/explore/explore.ts),
  // where ≈ 10 % of a rerun's CPU went into this data (the pods' YAML, every write's field changes),
  // and a test's run of a feature of its own whose failures are all it reads (world parameter
  // "report": false, steps/failure-format.test.ts).
  const parameters = this.parameters as { explore?: unknown; report?: unknown } | undefined;
  if (parameters?.explore === 'outcome' || parameters?.report === false) return;
  const pods = this.cluster.apiserver.list('pods', undefined);
  const objects = pods.ok ? pods.object.items : [];
  const finalObjects = yamlDocuments(objects, 'no pods left in the API');
  const data = toScenarioTimeline(this.cluster.timeline.all(), this.start, this.marks, finalObjects, this.stepSpans);
  this.attach(JSON.stringify(data), { mediaType: 'application/json', fileName: TIMELINE_FILE });
});

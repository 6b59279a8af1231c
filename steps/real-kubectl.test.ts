// This test file runs in a process of its own (scripts/unit-tests.ts): it runs cucumber, which spawns the real kubectl.
/**
 * The real-kubectl profile passes and agrees with the built-in kubectl: each of its scenarios,
 * run with the real kubectl, passes and attaches the timeline the same scenario gives with the
 * built-in one, event for event. The only difference is etcd's revision numbers, exactly four
 * further on from the first kubectl step (and the `too old resource version` numbers that quote
 * them): the served API creates the four system namespaces (default, kube-system, kube-public,
 * kube-node-lease) when it starts serving the cluster, four writes the plain scenario does not make.
 *
 * This is `cucumber-js -p real-kubectl`, run here through cucumber's API so the check can read
 * each scenario's result. The built-in runs are deterministic (steps/determinism.test.ts), so
 * anything in a real run that changed from run to run would show up as a difference from its
 * built-in twin: one run of each is enough.
 */
import { describe, it } from 'node:test';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { path as TS_HOOK } from '../scripts/ts-hook';
import { eventsOf, TIMELINE_FILE, type ScenarioTimeline } from '../src/frontends/report/scenario-timeline';
import { formatTimeline } from '../src/foundation/timeline/text';
// scripts/feature-files.js is plain CommonJS, shared with cucumber.js.
const { isLocal } = require('../scripts/feature-files') as { isLocal: (path: string) => boolean };

const ROOT = path.resolve(__dirname, '..');

interface ScenarioOutcome {
  statuses: string[];
  timeline: string;
  /** Tagged @kubectl-polls: a kubectl that polls (drain) sends its GETs, and evicts its pods, in wall-clock order. */
  polls?: boolean;
}

const environment = { cwd: ROOT, stdout: new Writable({ write: (_c, _e, done) => done() }) };

/** The profile's configuration, with its support code loaded once (modules load once per process). */
async function loadProfile() {
  const api = await import('@cucumber/cucumber/api');
  const { runConfiguration: configured } = await api.loadConfiguration(
    { profiles: ['real-kubectl'], provided: { requireModule: [TS_HOOK] } },
    environment,
  );
  // One's own scenarios (features/local/) are the profile's too, but not the project's tests.
  const runConfiguration = {
    ...configured,
    sources: { ...configured.sources, paths: configured.sources.paths.filter((p) => !isLocal(p)) },
  };
  return { api, runConfiguration, support: await api.loadSupport(runConfiguration, environment) };
}

/** Runs the real-kubectl profile's scenarios (with the real kubectl, or with the built-in one) and returns what each gave. */
async function runProfile(
  profile: Awaited<ReturnType<typeof loadProfile>>,
  kubectl: 'real' | 'built-in',
): Promise<Map<string, ScenarioOutcome>> {
  const { api, runConfiguration, support } = profile;
  const worldParameters = kubectl === 'real' ? runConfiguration.runtime.worldParameters : {};
  const names = new Map<string, string>();
  const testCases = new Map<string, string>();
  const outcomes = new Map<string, ScenarioOutcome>();
  const outcome = (testCaseStartedId: string): ScenarioOutcome => {
    const name = names.get(testCases.get(testCaseStartedId) as string) as string;
    if (!outcomes.has(name)) outcomes.set(name, { statuses: [], timeline: '' });
    return outcomes.get(name) as ScenarioOutcome;
  };
  const pickles = new Map<string, string>();
  const polling = new Set<string>();
  await api.runCucumber(
    {
      ...runConfiguration,
      support,
      runtime: { ...runConfiguration.runtime, worldParameters },
      formats: { stdout: 'summary', files: {}, publish: false, options: {} },
    },
    environment,
    (envelope) => {
      if (envelope.pickle) pickles.set(envelope.pickle.id, `${envelope.pickle.uri} ${envelope.pickle.name}`);
      if (envelope.pickle?.tags.some((t) => t.name === '@kubectl-polls'))
        polling.add(`${envelope.pickle.uri} ${envelope.pickle.name}`);
      if (envelope.testCase) names.set(envelope.testCase.id, pickles.get(envelope.testCase.pickleId) as string);
      if (envelope.testCaseStarted) testCases.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
      if (envelope.testStepFinished)
        outcome(envelope.testStepFinished.testCaseStartedId).statuses.push(
          envelope.testStepFinished.testStepResult.status,
        );
      if (envelope.attachment?.fileName === TIMELINE_FILE)
        outcome(envelope.attachment.testCaseStartedId as string).timeline = timelineText(envelope.attachment.body);
    },
  );
  for (const [name, o] of outcomes) if (polling.has(name)) o.polls = true;
  return outcomes;
}

/** A scenario's timeline.json attachment as the text timeline (each event with its time, text, outcome and source). */
function timelineText(body: string): string {
  const { t0, events } = eventsOf(JSON.parse(body) as ScenarioTimeline);
  return formatTimeline(events, t0);
}

/** The four namespaces the served API creates when it starts serving a cluster, and their default ServiceAccounts (R246): eight etcd revisions. */
const SERVED_NAMESPACES = 8;
/** A timeline line of the kubectl component (the command line a kubectl step runs). */
const KUBECTL_LINE = /^\s*#\d+\s+\S+\s+kubectl\s/;

/**
 * A built-in run's timeline with etcd's revisions as the served API numbers them. The server is
 * started for a scenario's cluster at its first kubectl step, and its four namespace and four ServiceAccount writes (off
 * the timeline) come just before that step: every revision after the last one written before it
 * is eight further on; the earlier ones, wherever they are quoted, are the same.
 */
function asServed(timeline: string): string {
  const lines = timeline.split('\n');
  const start = lines.findIndex((l) => KUBECTL_LINE.test(l));
  if (start < 0) return timeline;
  const before = Math.max(
    0,
    ...lines.slice(0, start).flatMap((l) => [...l.matchAll(/\brev=(\d+)/g)].map((m) => Number(m[1]))),
  );
  const served = (n: string): number => (Number(n) > before ? Number(n) + SERVED_NAMESPACES : Number(n));
  const after = lines
    .slice(start)
    .map((l) =>
      l
        .replace(/\b(rev|rv)=(\d+)/g, (_, key: string, n: string) => `${key}=${served(n)}`)
        .replace(
          /too old resource version: (\d+) \((\d+)\)/g,
          (_, a: string, b: string) => `too old resource version: ${served(a)} (${served(b)})`,
        ),
    );
  return [...lines.slice(0, start), ...after].join('\n');
}

/**
 * Uids by order of first appearance (uid#1, uid#2, …): uids come from a creation counter, which
 * the served namespaces also advance, so a pod created after the first kubectl step gets another
 * (equally arbitrary) uid in the two runs. Which object has which uid must still match.
 */
function canonicalUids(timeline: string): string {
  const seen = new Map<string, string>();
  return timeline.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, (uid) => {
    if (!seen.has(uid)) seen.set(uid, `uid#${seen.size + 1}`);
    return seen.get(uid)!;
  });
}

describe('the real-kubectl profile', () => {
  it('passes each scenario with the real kubectl, with the timeline the built-in kubectl gives (etcd revisions eight on from its first kubectl step)', {
    timeout: 240_000,
  }, async () => {
    const profile = await loadProfile();
    const real = await runProfile(profile, 'real');
    const builtIn = await runProfile(profile, 'built-in');
    expect(real.size, 'the profile has the scenarios that run kubectl').to.be.at.least(20);
    for (const [name, one] of real) {
      expect(
        one.statuses.every((s) => s === 'PASSED'),
        `${name} passes with the real kubectl: ${one.statuses}`,
      ).to.equal(true);
      expect(one.timeline, `${name} attached its timeline`).to.not.equal('');
      const twin = builtIn.get(name);
      expect(one.statuses, `${name}: the same step results with the built-in kubectl`).to.deep.equal(twin?.statuses);
      // A polling kubectl's goroutines and GETs follow wall time (K81): same steps and results, not the same timeline.
      if (one.polls) continue;
      expect(canonicalUids(one.timeline), `${name}: the built-in kubectl gives the same timeline`).to.equal(
        canonicalUids(asServed(twin?.timeline ?? '')),
      );
    }
  });
});

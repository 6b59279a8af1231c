// This test file runs in a process of its own (scripts/unit-tests.ts): it runs cucumber, which spawns the real kubectl.
/**
 * The real-kubectl profile is deterministic and agrees with the built-in kubectl: its scenarios,
 * run twice, attach byte-identical timelines, and each timeline is the one the same scenario
 * gives with the built-in kubectl. The only difference allowed there is etcd's revision numbers
 * (and the `too old resource version` numbers that quote them): the served API creates the four
 * system namespaces (default, kube-system, kube-public, kube-node-lease) when it starts, four
 * writes the plain scenario does not make.
 */
import { describe, it } from 'node:test';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { path as TS_HOOK } from '../scripts/ts-hook';
import { eventsOf, TIMELINE_FILE, type ScenarioTimeline } from '../src/report/scenario-timeline';
import { formatTimeline } from '../src/timeline/text';

const ROOT = path.resolve(__dirname, '..');

interface ScenarioOutcome {
  statuses: string[];
  timeline: string;
}

const environment = { cwd: ROOT, stdout: new Writable({ write: (_c, _e, done) => done() }) };

/** The profile's configuration, with its support code loaded once (modules load once per process). */
async function loadProfile() {
  const api = await import('@cucumber/cucumber/api');
  const { runConfiguration } = await api.loadConfiguration({ profiles: ['real-kubectl'], provided: { requireModule: [TS_HOOK] } }, environment);
  return { api, runConfiguration, support: await api.loadSupport(runConfiguration, environment) };
}

/** Runs the real-kubectl profile's scenarios (with the real kubectl, or with the built-in one) and returns what each gave. */
async function runProfile(profile: Awaited<ReturnType<typeof loadProfile>>, kubectl: 'real' | 'built-in'): Promise<Map<string, ScenarioOutcome>> {
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
  await api.runCucumber(
    { ...runConfiguration, support, runtime: { ...runConfiguration.runtime, worldParameters }, formats: { stdout: 'summary', files: {}, publish: false, options: {} } },
    environment,
    (envelope) => {
      if (envelope.pickle) pickles.set(envelope.pickle.id, `${envelope.pickle.uri} ${envelope.pickle.name}`);
      if (envelope.testCase) names.set(envelope.testCase.id, pickles.get(envelope.testCase.pickleId) as string);
      if (envelope.testCaseStarted) testCases.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
      if (envelope.testStepFinished) outcome(envelope.testStepFinished.testCaseStartedId).statuses.push(envelope.testStepFinished.testStepResult.status);
      if (envelope.attachment?.fileName === TIMELINE_FILE) outcome(envelope.attachment.testCaseStartedId as string).timeline = timelineText(envelope.attachment.body);
    },
  );
  return outcomes;
}

/** A scenario's timeline.json attachment as the text timeline (each event with its time, text, outcome and source). */
function timelineText(body: string): string {
  const { t0, events } = eventsOf(JSON.parse(body) as ScenarioTimeline);
  return formatTimeline(events, t0);
}

/** etcd revisions, which the served API's four namespace writes shift. */
const withoutRevisions = (timeline: string): string => timeline.replace(/\b(rev|rv)=\d+/g, '$1=N').replace(/too old resource version: \d+ \(\d+\)/g, 'too old resource version: N (N)');

describe('the real-kubectl profile', () => {
  it('runs its scenarios twice with the same results and timelines, the ones the built-in kubectl gives', { timeout: 240_000 }, async () => {
    const profile = await loadProfile();
    const first = await runProfile(profile, 'real');
    const second = await runProfile(profile, 'real');
    const builtIn = await runProfile(profile, 'built-in');
    expect(first.size, 'the profile has the scenarios that run kubectl').to.be.at.least(20);
    for (const [name, one] of first) {
      expect(one.statuses.every((s) => s === 'PASSED'), `${name} passes with the real kubectl: ${one.statuses}`).to.equal(true);
      expect(one.timeline, `${name} attached its timeline`).to.not.equal('');
      expect(second.get(name), `${name}: the second run gives the same`).to.deep.equal(one);
      expect(withoutRevisions(one.timeline), `${name}: the built-in kubectl gives the same timeline`).to.equal(withoutRevisions(builtIn.get(name)?.timeline ?? ''));
    }
  });
});

/**
 * The real-kubectl profile agrees with the built-in kubectl: each of its scenarios, run with the
 * real kubectl, passes and attaches the timeline the same scenario gives with the built-in one,
 * event for event. The only difference is etcd's revision numbers, exactly eight further on from
 * the first kubectl step (and the `too old resource version` numbers that quote them): the served
 * API creates the four system namespaces (default, kube-system, kube-public, kube-node-lease) and
 * their default ServiceAccounts when it starts serving the cluster, writes the plain scenario does
 * not make.
 *
 * The real runs are `cucumber-js -p real-kubectl` through cucumber's API (runRealKubectl), in the
 * process that runs the suite in another order (steps/other-order.ts). Their built-in twins are
 * the suite's own run of the same scenarios (the `ci` profile, which holds every one of them, in
 * steps/determinism.test.ts): the built-in runs are deterministic — the same in another process and
 * order, which that test checks on the same runs — so a third run of these scenarios with the
 * built-in kubectl would give the same timelines again. Anything in a real run that changed from
 * run to run would show up as a difference from its twin: one run of each is enough.
 */
import type { IRunConfiguration, ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { eventsOf, TIMELINE_FILE, type ScenarioTimeline } from '../src/frontends/report/scenario-timeline';
import { formatTimeline } from '../src/foundation/timeline/text';
import { attachmentBody, outcomeCollector, type Outcomes } from './scenario-outcomes';
// scripts/feature-files.js is plain CommonJS, shared with cucumber.js.
const { isLocal } = require('../scripts/feature-files') as { isLocal: (path: string) => boolean };

type Api = typeof import('@cucumber/cucumber/api');
type Environment = Parameters<Api['runCucumber']>[1];

/**
 * Runs the real-kubectl profile's scenarios with the real kubectl, with support code already
 * loaded (the same files for every profile of cucumber.js). One's own scenarios (features/local/)
 * are the profile's too, but not the project's tests.
 */
export async function runRealKubectl(
  api: Api,
  support: ISupportCodeLibrary,
  environment: Environment,
): Promise<Outcomes> {
  const { runConfiguration: configured } = await api.loadConfiguration({ profiles: ['real-kubectl'] }, environment);
  const runConfiguration: IRunConfiguration = {
    ...configured,
    sources: { ...configured.sources, paths: configured.sources.paths.filter((p) => !isLocal(p)) },
    formats: { stdout: 'summary', files: {}, publish: false, options: {} },
  };
  const collector = outcomeCollector();
  await api.runCucumber({ ...runConfiguration, support }, environment, collector.onMessage);
  return collector.outcomes;
}

/**
 * Where the real runs disagree with their built-in twins: a scenario that does not pass with the
 * real kubectl, attaches no timeline, has other step results than its twin, or (unless its
 * kubectl polls) another timeline. Empty when they agree.
 */
export function disagreements(real: Outcomes, builtIn: Outcomes): string[] {
  const found: string[] = [];
  for (const [key, one] of real) {
    const name = `${one.name} (${key})`;
    if (!one.statuses.every((s) => s === 'PASSED'))
      found.push(`${name} does not pass with the real kubectl: ${one.statuses}`);
    const timeline = attachmentBody(one, TIMELINE_FILE);
    if (timeline === '') found.push(`${name} attached no timeline`);
    const twin = builtIn.get(key);
    if (twin === undefined) {
      found.push(`${name} did not run with the built-in kubectl`);
      continue;
    }
    if (JSON.stringify(one.statuses) !== JSON.stringify(twin.statuses))
      found.push(`${name}: other step results with the built-in kubectl: ${one.statuses} ≠ ${twin.statuses}`);
    // A polling kubectl's goroutines and GETs follow wall time (K81): same steps and results, not the same timeline.
    if (one.polls || timeline === '') continue;
    const [a, b] = [
      canonicalUids(timelineText(timeline)),
      canonicalUids(asServed(timelineText(attachmentBody(twin, TIMELINE_FILE)))),
    ];
    if (a !== b) {
      const [x, y] = [a.split('\n'), b.split('\n')];
      const i = x.findIndex((line, j) => line !== y[j]);
      found.push(
        `${name}: the built-in kubectl gives another timeline, first at line ${i + 1}:\n  real:     ${x[i] ?? '<end>'}\n  built-in: ${y[i] ?? '<end>'}`,
      );
    }
  }
  return found;
}

/** A scenario's timeline.json attachment as the text timeline (each event with its time, text, outcome and source). */
function timelineText(body: string): string {
  if (body === '') return '';
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
export function asServed(timeline: string): string {
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
export function canonicalUids(timeline: string): string {
  const seen = new Map<string, string>();
  return timeline.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, (uid) => {
    if (!seen.has(uid)) seen.set(uid, `uid#${seen.size + 1}`);
    return seen.get(uid)!;
  });
}

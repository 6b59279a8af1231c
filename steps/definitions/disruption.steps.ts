import { Given, Then } from '@cucumber/cucumber';
import type { PodDisruptionBudget } from '../../src/apimachinery/types';
import { isObject, mergeManifest, parseYaml } from '../../src/planning/manifest';
import { formatTimeline } from '../../src/foundation/timeline/text';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * `app=web` or `app=web,tier=front` as the matchLabels of a budget's selector; anything else is
 * written with the `with:` form and its own spec.selector.
 */
function matchLabels(selector: string, step: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of selector.split(',')) {
    const m = /^\s*([A-Za-z0-9][-A-Za-z0-9_./]*)\s*=\s*([-A-Za-z0-9_.]*)\s*$/.exec(pair);
    if (!m)
      throw new ScenarioError(
        `${step}: "${selector}" is not a list of label=value pairs (e.g. "app=web"); for other selectors use  Given a pod disruption budget "NAME" with:  and a spec.selector`,
      );
    labels[m[1]] = m[2];
  }
  return labels;
}

function budget(name: string, spec: PodDisruptionBudget['spec']): PodDisruptionBudget {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'default' }, spec };
}

/**
 * A policy/v1 PodDisruptionBudget in namespace default: at least that many of the pods with these
 * labels must stay ready (evictions are refused with 429 past it). The disruption controller
 * computes its status during the minute before T+0.
 */
Given(
  'a pod disruption budget {string} with minAvailable {int} selecting {string}',
  function (this: TerminatingWorld, name: string, min: number, selector: string) {
    this.planObject(
      'poddisruptionbudgets',
      budget(name, {
        minAvailable: min,
        selector: { matchLabels: matchLabels(selector, `pod disruption budget "${name}"`) },
      }),
    );
  },
);

/** The same with maxUnavailable: at most that many of the pods' controllers' replicas may be missing (pods without a controller count nothing). */
Given(
  'a pod disruption budget {string} with maxUnavailable {int} selecting {string}',
  function (this: TerminatingWorld, name: string, max: number, selector: string) {
    this.planObject(
      'poddisruptionbudgets',
      budget(name, {
        maxUnavailable: max,
        selector: { matchLabels: matchLabels(selector, `pod disruption budget "${name}"`) },
      }),
    );
  },
);

/**
 * The doc string is a partial PodDisruptionBudget (YAML or JSON) merged over an empty one of that
 * name, e.g. a percentage, a matchExpressions selector or `unhealthyPodEvictionPolicy: AlwaysAllow`.
 */
Given('a pod disruption budget {string} with:', function (this: TerminatingWorld, name: string, manifest: string) {
  const what = `the manifest of pod disruption budget "${name}"`;
  const overlay = parseYaml(manifest, what);
  if (!isObject(overlay))
    throw new ScenarioError(
      `${what} must be a YAML mapping (e.g. spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}), got ${JSON.stringify(overlay)}`,
    );
  this.planObject('poddisruptionbudgets', mergeManifest(budget(name, {}), overlay) as PodDisruptionBudget);
});

/**
 * The most recent eviction of the pod (POST pods/NAME/eviction, from the user's step, the built-in
 * kubectl or the real one) was refused with 429 TooManyRequests: its budget allowed no disruption.
 */
Then('the eviction of pod {string} fails with 429 TooManyRequests', function (this: TerminatingWorld, pod: string) {
  const events = this.cluster.timeline.since(this.start);
  const evictions = events.filter(
    (e) => e.component === 'apiserver' && e.text.startsWith(`CREATE pods/${pod}/eviction`),
  );
  const last = evictions[evictions.length - 1];
  if (!last)
    throw new Error(
      `no eviction of pod "${pod}" was sent from T+0 on.\nTimeline from T+0:\n${formatTimeline(events, this.start)}`,
    );
  if (last.outcome !== '429 TooManyRequests') {
    throw new Error(
      `the last eviction of pod "${pod}" was answered ${last.outcome ?? '(no answer)'}, not 429 TooManyRequests.\nTimeline from T+0:\n${formatTimeline(events, this.start)}`,
    );
  }
});

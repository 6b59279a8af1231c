import { After, Before, Given, Then } from '@cucumber/cucumber';
import { observe, recordObservation } from '../../src/frontends/explore/observation';
import type { Resource } from '../../src/apiserver/apiserver';
import { labelsFromText } from '../../src/planning/manifest';
import {
  describeBreach,
  firstDoubleRun,
  firstTooFewReady,
  firstTooMany,
  type Breach,
} from '../../src/cluster/perturbation/instants';
import { WATCHED_KINDS, type Perturbation, type Target } from '../../src/cluster/perturbation/perturbation';
import { ScenarioError, type TerminatingWorld } from '../support/world';

// ---- Given: perturbations (issue 33, src/cluster/perturbation/) ----

/** A kind as the perturbation steps write it (singular: `pod`, `endpointslice` …) → its resource; anything else names the known ones. */
function watchedKind(kind: string): Resource {
  const r = WATCHED_KINDS[kind];
  if (!r)
    throw new ScenarioError(
      `"${kind}" is not a kind a component watches here; write one of: ${Object.keys(WATCHED_KINDS).join(', ')}`,
    );
  return r;
}

/**
 * Every change of that kind reaches the component that much later than it would have (its watch
 * delivers each event late, in order): a controller of kube-controller-manager (its informers and
 * any watch of its own), one node's kubelet or kube-proxy, the load balancer of a service (its
 * endpoint lag, as `notices endpoint changes after`), or a served client by its User-Agent.
 */
Given(
  'the {component} sees {word} changes {duration} late',
  function (this: TerminatingWorld, target: Target, kind: string, ms: number) {
    this.plan.perturb({ type: 'late', target, resource: watchedKind(kind), delayMs: ms });
  },
);

/**
 * The controller's process dies at that time and starts again at once: its work queues,
 * expectations and informer caches are lost, and it lists everything again (said on its lane).
 * Only the controllers of kube-controller-manager restart in the simulation.
 */
Given('the {component} restarts at T+{duration}', function (this: TerminatingWorld, target: Target, ms: number) {
  this.plan.perturb({ type: 'restart', target, atMs: ms });
});

/**
 * The component reads that kind from a cache this far behind the apiserver: its GETs and LISTs
 * answer the state of that long ago, and its watch (what fills an informer's cache) is as late.
 */
Given(
  'the {component} reads {word} from a cache {duration} stale',
  function (this: TerminatingWorld, target: Target, kind: string, ms: number) {
    this.plan.perturb({ type: 'stale', target, resource: watchedKind(kind), staleMs: ms });
  },
);

/**
 * The component's watch of that kind loses every event from the first time on (a watch that broke
 * unnoticed), until it lists again at the second: the relist hands it what changed meanwhile
 * (client-go's Reflector ListAndWatch, its store's Replace). Not for the load balancer.
 */
Given(
  'the {component} misses {word} changes from T+{duration} until a relist at T+{duration}',
  function (this: TerminatingWorld, target: Target, kind: string, fromMs: number, relistMs: number) {
    this.plan.perturb({ type: 'miss', target, resource: watchedKind(kind), fromMs, relistMs });
  },
);

/**
 * Every request of the controller takes that long (a slow connection to the apiserver): it runs
 * that far behind — every change reaches it that late, its reads answer the state of that long
 * ago, its clock reads that long ago — so each write lands that long after the state it was
 * decided on. Exact for the first request of each reaction; its later requests land with it.
 * Controllers of kube-controller-manager only (the others are refused with a message).
 */
Given('requests of the {component} take {duration}', function (this: TerminatingWorld, target: Target, ms: number) {
  this.plan.perturb({ type: 'slow', target, delayMs: ms });
});

// ---- Then: invariants at every instant, from T+0 on ----

function check(world: TerminatingWorld, invariant: string, breach: Breach | undefined): void {
  if (breach) throw new Error(describeBreach(invariant, breach, world.cluster.timeline, world.start));
}

/** From T+0 to now, after every instant's writes, at most that many pods carrying the label exist (terminating ones count). */
Then(
  'at no instant do more than {int} pods with label {string} exist',
  function (this: TerminatingWorld, max: number, label: string) {
    const labels = labelsFromText(label, 'the label');
    check(
      this,
      `at no instant do more than ${max} pods with label "${label}" exist`,
      firstTooMany(this.cluster.apiserver, this.start, this.cluster.clock.now(), max, labels),
    );
  },
);

/** From T+0 to now, after every instant's writes, at least that many pods carrying the label have their Ready condition True. */
Then(
  'at no instant are fewer than {int} pods with label {string} ready',
  function (this: TerminatingWorld, min: number, label: string) {
    const labels = labelsFromText(label, 'the label');
    check(
      this,
      `at no instant are fewer than ${min} pods with label "${label}" ready`,
      firstTooFewReady(this.cluster.apiserver, this.start, this.cluster.clock.now(), min, labels),
    );
  },
);

/** From T+0 to now, no second copy of the pod started on a node while another still ran (a StatefulSet's at-most-one). */
Then('at no instant do two pods named {string} run', function (this: TerminatingWorld, pod: string) {
  const ref = `${this.podNamespace(pod)}/${pod}`;
  check(
    this,
    `at no instant do two pods named "${pod}" run`,
    firstDoubleRun(this.cluster.timeline.since(this.start), ref),
  );
});

// ---- terminating explore (src/frontends/explore/): its plans arrive as world parameters ----

/**
 * `--world-parameters '{"perturbations": [...]}'` (what `explore` passes for each plan): the same
 * perturbations the Given steps declare, before the scenario's own steps. `{"explore": "observe"}`
 * marks the unperturbed run, whose components, watches and changes `explore` derives its plans from.
 */
Before(function (this: TerminatingWorld) {
  const params = this.parameters as { perturbations?: Perturbation[]; explore?: string } | undefined;
  for (const p of params?.perturbations ?? []) this.plan.perturb(p);
  if (params?.explore === 'observe') this.plan.observeWatches();
});

After(function (this: TerminatingWorld) {
  const params = this.parameters as { explore?: string } | undefined;
  if (params?.explore === 'observe' && this.started)
    recordObservation(observe(this.cluster, this.start, this.plan.loadBalancedServices()));
});

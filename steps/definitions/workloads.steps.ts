import { Given, Then, When } from '@cucumber/cucumber';
import type { Resource } from '../../src/apiserver/apiserver';
import { USER } from '../../src/cluster/cluster';
import { mergeManifest, parseYaml } from '../../src/planning/manifest';
import { formatTimeline } from '../../src/foundation/timeline/text';
import type { WorkloadKind } from '../../src/planning/workload-manifest';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * A ReplicaSet (apps/v1) selecting `app: NAME`, one container `app`, its pods kept on that node
 * (`nodeSelector: kubernetes.io/hostname`): the ReplicaSet controller creates them as NAME-xxxxx
 * (generated names, deterministic per scenario) and kube-scheduler binds them. Created before
 * T+0, so at T+0 they have been running for a while.
 */
Given(
  'a replicaset {string} with {int} replicas on node {string}',
  function (this: TerminatingWorld, name: string, replicas: number, node: string) {
    this.plan.workload('replicaset', name, onNode(this, node), replicas);
  },
);

/** The same with a partial ReplicaSet manifest (YAML) merged over it: labels, annotations, the template … */
Given(
  'a replicaset {string} with {int} replicas on node {string} with:',
  function (this: TerminatingWorld, name: string, replicas: number, node: string, manifest: string) {
    this.plan.workload('replicaset', name, mergeOnNode(this, node, manifest), replicas);
  },
);

/**
 * A Deployment (apps/v1) selecting `app: NAME`, one container `app`, the apiserver's defaults
 * (RollingUpdate, maxSurge and maxUnavailable 25 %): the Deployment controller creates its
 * ReplicaSet NAME-<pod-template-hash>, whose pods are NAME-<hash>-xxxxx.
 */
Given('a deployment {string} with {int} replicas', function (this: TerminatingWorld, name: string, replicas: number) {
  this.plan.workload('deployment', name, undefined, replicas);
});

/** The same with a partial Deployment manifest merged over it (strategy, minReadySeconds, the template …). */
Given(
  'a deployment {string} with {int} replicas with:',
  function (this: TerminatingWorld, name: string, replicas: number, manifest: string) {
    this.plan.workload('deployment', name, manifest, replicas);
  },
);

function onNode(world: TerminatingWorld, node: string): Record<string, unknown> {
  world.plan.requireNode(node);
  return { spec: { template: { spec: { nodeSelector: { 'kubernetes.io/hostname': node } } } } };
}

function mergeOnNode(world: TerminatingWorld, node: string, manifest: string): Record<string, unknown> {
  // The doc string goes over the node's selector: a manifest that sets its own nodeSelector wins.
  const overlay = parseYaml(manifest, 'the manifest of the replicaset');
  return mergeManifest(onNode(world, node), overlay) as Record<string, unknown>;
}

const SCALABLE: Readonly<Record<string, Resource>> = { replicaset: 'replicasets', deployment: 'deployments' };

/**
 * The user changes `spec.replicas` (a merge PATCH of the object, as `kubectl scale` changes it
 * through the scale subresource); the controllers then create or delete pods.
 */
function scale(world: TerminatingWorld, kind: 'replicaset' | 'deployment', name: string, replicas: number): void {
  world.ensureStarted();
  if (
    !world.plan.hasWorkload(kind as WorkloadKind, name) &&
    !world.cluster.apiserver.get(SCALABLE[kind], 'default', name).ok
  ) {
    throw new ScenarioError(
      `unknown ${kind} "${name}": declare it first with  Given a ${kind} "${name}" with N replicas${kind === 'replicaset' ? ' on node "node-1"' : ''}`,
    );
  }
  world.lastResponse = world.cluster.apiserver.patch(USER, SCALABLE[kind], 'default', name, 'merge', {
    spec: { replicas },
  });
  world.lastKubectl = undefined;
  world.cluster.flush();
}

/** `spec.replicas` of the ReplicaSet changes (see scale above): its controller creates or deletes pods. */
When('replicaset {string} is scaled to {int}', function (this: TerminatingWorld, name: string, replicas: number) {
  scale(this, 'replicaset', name, replicas);
});

/** `spec.replicas` of the Deployment changes (see scale above): its controller scales its ReplicaSets. */
When('deployment {string} is scaled to {int}', function (this: TerminatingWorld, name: string, replicas: number) {
  scale(this, 'deployment', name, replicas);
});

/**
 * A new pod template: the user sets the annotation `example.com/rollout` on the Deployment's
 * template to the next number (a merge PATCH), as an image change would; the Deployment
 * controller starts a rollout to a new ReplicaSet.
 */
When('deployment {string} rolls out a new template', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('deployments', 'default', name);
  if (!got.ok)
    throw new ScenarioError(
      `unknown deployment "${name}": declare it first with  Given a deployment "${name}" with N replicas`,
    );
  const n = Number(got.object.spec?.template.metadata?.annotations?.['example.com/rollout'] ?? '0') + 1;
  this.lastResponse = this.cluster.apiserver.patch(USER, 'deployments', 'default', name, 'merge', {
    spec: { template: { metadata: { annotations: { 'example.com/rollout': String(n) } } } },
  });
  this.lastKubectl = undefined;
  this.cluster.flush();
});

/** The ReplicaSet controller's decision to delete that pod (`replicaset · deletes pod NAME (rank: …)`), from T+0 on. */
Then('the replicaset controller deletes pod {string}', function (this: TerminatingWorld, pod: string) {
  this.ensureStarted();
  const hit = this.cluster.timeline
    .since(this.start)
    .find((e) => e.component === 'replicaset' && e.text.startsWith(`deletes pod ${pod} `));
  if (!hit)
    throw new Error(
      `the replicaset controller did not delete pod "${pod}"; its decisions from T+0:\n${decisions(this)}`,
    );
});

/** The ReplicaSet controller created at least one pod from T+0 on (`replicaset · creates pod NAME`). */
Then('the replicaset controller creates a pod', function (this: TerminatingWorld) {
  this.ensureStarted();
  const hit = this.cluster.timeline
    .since(this.start)
    .find((e) => e.component === 'replicaset' && e.text.startsWith('creates pod '));
  if (!hit) throw new Error(`the replicaset controller created no pod; its decisions from T+0:\n${decisions(this)}`);
});

function decisions(world: TerminatingWorld): string {
  const events = world.cluster.timeline
    .since(world.start)
    .filter((e) => e.component === 'replicaset' || e.component === 'deployment');
  return events.length ? formatTimeline(events, world.start) : '  (none)';
}

/**
 * The user sets one annotation of a pod (a merge PATCH), e.g. `controller.kubernetes.io/pod-deletion-cost`
 * on a pod a controller created.
 */
When(
  'the user sets annotation {string} of pod {string} to {string}',
  function (this: TerminatingWorld, key: string, pod: string, value: string) {
    this.ensureStarted();
    this.lastResponse = this.cluster.apiserver.patch(USER, 'pods', 'default', pod, 'merge', {
      metadata: { annotations: { [key]: value } },
    });
    this.lastKubectl = undefined;
    this.cluster.flush();
  },
);

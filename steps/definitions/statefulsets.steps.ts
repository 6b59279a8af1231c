import { Given, Then, When } from '@cucumber/cucumber';
import type { Job, Pod } from '../../src/apimachinery/types';
import { CONTROLLERS } from '../../src/components/controllers/registry';
import { USER } from '../../src/cluster/cluster';
import { formatTimeline } from '../../src/foundation/timeline/text';
import type { WorkloadKind } from '../../src/planning/workload-manifest';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * A StatefulSet (apps/v1) selecting `app: NAME`, serviceName NAME, one container `app`,
 * OrderedReady: its controller creates NAME-0 … NAME-(N−1) in order, the scheduler binds them.
 * Created before T+0 with the nodes, so its pods have been running for a while at T+0. A
 * behaviour step may name one of its pods before it exists (`container "app" of pod "db-2" …`):
 * every pod the controller creates under that name gets it.
 */
Given('a statefulset {string} with {int} replicas', function (this: TerminatingWorld, name: string, replicas: number) {
  this.plan.workload('statefulset', name, undefined, replicas);
});

/**
 * The same with a partial StatefulSet manifest (YAML) merged over the default one, e.g.
 * `spec.podManagementPolicy: Parallel`, `spec.minReadySeconds`, `spec.template.spec…`.
 */
Given(
  'a statefulset {string} with {int} replicas with:',
  function (this: TerminatingWorld, name: string, replicas: number, manifest: string) {
    this.plan.workload('statefulset', name, manifest, replicas);
  },
);

/**
 * A Job (batch/v1) with one container `app` and `restartPolicy: Never`; the apiserver gives it
 * completions 1, parallelism 1, backoffLimit 6 and its selector. Its pods' names are generated
 * (`NAME-xxxxx`); give them behaviours with `container "app" of the pods of job "NAME" …`.
 */
Given('a job {string}', function (this: TerminatingWorld, name: string) {
  this.plan.workload('job', name);
});

/** A DaemonSet (apps/v1) selecting `app: NAME`, one container `app`: a pod on every node that should run it. */
Given('a daemonset {string}', function (this: TerminatingWorld, name: string) {
  this.plan.workload('daemonset', name);
});

/**
 * kube-controller-manager runs with `--controllers=*,-NAME-controller` (e.g. `job`,
 * `statefulset`, `garbage-collector`): that controller never starts. Before T+0 only.
 */
Given('the {word} controller is not running', function (this: TerminatingWorld, name: string) {
  this.plan.controllerNotRunning(name);
});

const kindOf = (word: string): WorkloadKind => {
  if (
    word === 'statefulset' ||
    word === 'job' ||
    word === 'daemonset' ||
    word === 'deployment' ||
    word === 'replicaset'
  )
    return word;
  throw new ScenarioError(
    `"${word}" is not a workload kind here: write statefulset, job, daemonset, deployment or replicaset`,
  );
};

/** Every pod that workload's controller creates: its container exits with that code after running that long (a Job's work done, or failed). */
Given(
  'container {string} of the pods of {word} {string} exits with code {int} after running {duration}',
  function (this: TerminatingWorld, container: string, kind: string, name: string, code: number, ms: number) {
    this.plan.workloadPodsBehaviour(kindOf(kind), name, container, { exitsOnItsOwn: code, runsForMs: ms });
  },
);

/** Every pod that workload's controller creates: its container handles SIGTERM and exits that long after it. */
Given(
  'container {string} of the pods of {word} {string} exits {duration} after SIGTERM',
  function (this: TerminatingWorld, container: string, kind: string, name: string, ms: number) {
    this.plan.workloadPodsBehaviour(kindOf(kind), name, container, { sigterm: { kind: 'exits', afterMs: ms } });
  },
);

/**
 * The user changes the StatefulSet's `spec.replicas` (a merge PATCH, as `kubectl scale` changes
 * it through the scale subresource); its controller then creates or deletes pods.
 */
When('statefulset {string} is scaled to {int}', function (this: TerminatingWorld, name: string, replicas: number) {
  this.ensureStarted();
  if (!this.plan.hasWorkload('statefulset', name))
    throw new ScenarioError(
      `unknown statefulset "${name}": declare it first with  Given a statefulset "${name}" with N replicas`,
    );
  this.lastResponse = this.cluster.apiserver.patch(USER, 'statefulsets', 'default', name, 'merge', {
    spec: { replicas },
  });
  this.lastKubectl = undefined;
  this.cluster.flush();
});

/** DELETE jobs/NAME with that propagation policy (`none`: no options, so batch/v1's default, orphaning, applies). */
When(
  'the user deletes job {string} with propagation {word}',
  function (this: TerminatingWorld, name: string, policy: string) {
    this.ensureStarted();
    this.lastResponse = this.cluster.apiserver.delete(
      USER,
      'jobs',
      'default',
      name,
      policy === 'none' ? {} : { propagationPolicy: policy },
    );
    this.lastKubectl = undefined;
    this.cluster.flush();
  },
);

/** The Job has that condition with status True (Complete, Failed, SuccessCriteriaMet, FailureTarget, Suspended). */
Then('job {string} has condition {string}', function (this: TerminatingWorld, name: string, type: string) {
  checkJobCondition(this, name, type);
});

/** The same, with that reason (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy …). */
Then(
  'job {string} has condition {string} with reason {string}',
  function (this: TerminatingWorld, name: string, type: string, reason: string) {
    checkJobCondition(this, name, type, reason);
  },
);

/** The Job has no such condition with status True (yet). */
Then('job {string} has no condition {string}', function (this: TerminatingWorld, name: string, type: string) {
  const job = getJob(this, name);
  const c = (job.status?.conditions ?? []).find((x) => x.type === type && x.status === 'True');
  if (c)
    throw new Error(
      `job "${name}" has condition ${type} (reason ${c.reason ?? 'none'}, since ${c.lastTransitionTime})`,
    );
});

function getJob(world: TerminatingWorld, name: string): Job {
  world.ensureStarted();
  const got = world.cluster.apiserver.get('jobs', 'default', name);
  if (!got.ok) throw new Error(`job "${name}" does not exist`);
  return got.object;
}

function checkJobCondition(world: TerminatingWorld, name: string, type: string, reason?: string): void {
  const job = getJob(world, name);
  const c = (job.status?.conditions ?? []).find((x) => x.type === type && x.status === 'True');
  const have =
    (job.status?.conditions ?? []).map((x) => `${x.type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`).join(', ') ||
    'none';
  if (!c || (reason !== undefined && c.reason !== reason)) {
    throw new Error(
      `job "${name}" has no condition ${type}${reason ? ` with reason ${reason}` : ''}; its conditions: ${have}.\nTimeline from T+0:\n${formatTimeline(world.cluster.timeline.since(world.start), world.start)}`,
    );
  }
}

/**
 * The node loses power (no shutdown): its containers, kubelet and heartbeats stop at once and
 * nothing is written to the API — unlike `becomes unreachable`, where the kubelet and the
 * containers keep running behind a network partition. What the out-of-service taint is for.
 */
When('node {string} loses power', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).losePower();
  this.cluster.flush();
});

/** A controller's canonical name from what a step calls it (`job`, `statefulset`, `job-controller`, an alias). */
function controllerName(word: string): string {
  const d = CONTROLLERS.find(
    (c) => c.name === word || c.name === `${word}-controller` || (c.aliases ?? []).includes(word),
  );
  if (!d)
    throw new ScenarioError(
      `"${word}" is not a controller of kube-controller-manager here; known: ${CONTROLLERS.map((c) => c.name.replace(/-controller$/, '')).join(', ')}`,
    );
  return d.name;
}

/**
 * The controller stops during the scenario (kube-controller-manager down, or its leader lease
 * lost): nothing it would do happens until it starts again. The workload controllers can stop.
 */
When('the {word} controller stops', function (this: TerminatingWorld, word: string) {
  this.ensureStarted();
  this.cluster.stopController(controllerName(word));
  this.cluster.flush();
});

/** The controller starts again: a fresh instance that relists everything and syncs every object it owns. */
When('the {word} controller starts again', function (this: TerminatingWorld, word: string) {
  this.ensureStarted();
  this.cluster.startController(controllerName(word));
  this.cluster.flush();
});

/** The pods that carry the Job's `batch.kubernetes.io/job-name` label, in name order (a deleted Job's orphans too). */
function podsOfJob(world: TerminatingWorld, name: string): Pod[] {
  world.ensureStarted();
  const r = world.cluster.apiserver.list(
    'pods',
    'default',
    (p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name,
  );
  return r.ok ? r.object.items : [];
}

/** One DELETE with no options for each pod of the Job (as `kubectl delete pods -l batch.kubernetes.io/job-name=NAME --wait=false`). */
When('the user deletes the pods of job {string}', function (this: TerminatingWorld, name: string) {
  const pods = podsOfJob(this, name);
  if (pods.length === 0) throw new ScenarioError(`job "${name}" has no pods to delete`);
  for (const pod of pods)
    this.lastResponse = this.cluster.apiserver.delete(USER, 'pods', 'default', pod.metadata.name!, {});
  this.lastKubectl = undefined;
  this.cluster.flush();
});

/** Every pod of the Job is being deleted and still stored (a finalizer, or a kubelet that has not finished). */
Then('the pods of job {string} are terminating', function (this: TerminatingWorld, name: string) {
  const pods = podsOfJob(this, name);
  if (pods.length === 0 || pods.some((p) => !p.metadata.deletionTimestamp)) {
    throw new Error(
      `not every pod of job "${name}" is terminating: ${pods.map((p) => `${p.metadata.name} (${p.metadata.deletionTimestamp ? 'terminating' : p.status?.phase}, finalizers ${JSON.stringify(p.metadata.finalizers ?? [])})`).join(', ') || 'none'}`,
    );
  }
});

/** No pod of the Job is stored any more. */
Then('the pods of job {string} are gone', function (this: TerminatingWorld, name: string) {
  const pods = podsOfJob(this, name);
  if (pods.length > 0)
    throw new Error(
      `job "${name}" still has pods: ${pods.map((p) => `${p.metadata.name} (finalizers ${JSON.stringify(p.metadata.finalizers ?? [])})`).join(', ')}`,
    );
});

/** The DaemonSet's pod bound to that node exists and is not being deleted. */
Then(
  'the pod of daemonset {string} on node {string} is not terminating',
  function (this: TerminatingWorld, name: string, node: string) {
    this.ensureStarted();
    const r = this.cluster.apiserver.list(
      'pods',
      'default',
      (p) =>
        p.spec?.nodeName === node &&
        (p.metadata.ownerReferences ?? []).some((o) => o.controller && o.kind === 'DaemonSet' && o.name === name),
    );
    const pods = r.ok ? r.object.items : [];
    if (pods.length !== 1)
      throw new Error(
        `daemonset "${name}" has ${pods.length} pods on node "${node}"${pods.length ? `: ${pods.map((p) => p.metadata.name).join(', ')}` : ''}`,
      );
    if (pods[0].metadata.deletionTimestamp)
      throw new Error(
        `pods/${pods[0].metadata.name} of daemonset "${name}" on node "${node}" is terminating (since ${pods[0].metadata.deletionTimestamp})`,
      );
  },
);

import { When } from '@cucumber/cucumber';
import type { ApiResponse } from '../../src/apiserver/apiserver';
import { checkDeleteOptionsTypes, deleteOptionsFromRequest } from '../../src/apiserver/delete-options';
import { StatusError } from '../../src/apimachinery/errors';
import type { DeleteOptions, Pod } from '../../src/apimachinery/types';
import { CONTROLLER, USER } from '../../src/cluster/cluster';
import { runKubectl, type KubectlResult } from '../../src/frontends/kubectl/kubectl';
import { CONTROLLER_STEP_TIMEOUT_MS } from '../../src/frontends/serve/controller-limits';
import { parseYaml, podFromManifest } from '../../src/planning/manifest';
import { formatTimeline } from '../../src/foundation/timeline/text';
import { runRealKubectl, usesRealKubectl } from '../support/real-kubectl';
import { refuseUndeclaredPod } from '../support/undeclared';
import { ScenarioError, type TerminatingWorld } from '../support/world';

function remember(world: TerminatingWorld, response: ApiResponse<unknown>): void {
  world.lastResponse = response;
  world.lastKubectl = undefined;
}

/** The built-in kubectl, or under the real-kubectl profile the pinned real one over HTTP. */
async function kubectl(world: TerminatingWorld, line: string, stdin?: string): Promise<KubectlResult> {
  world.ensureStarted();
  const result = usesRealKubectl(world)
    ? await runRealKubectl(world, line, stdin)
    : runKubectl(world.cluster, line, { release: world.cluster.release, stdin });
  // For the report: what kubectl printed and its exit code at its step, and the moment it returned (or gave up).
  world.stepCommands.push({
    line,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    atMs: world.cluster.clock.now() - world.start,
    seq: world.cluster.timeline.recorded,
  });
  return result;
}

/**
 * Runs a `kubectl delete …` command line: the request kubectl sends, its options, warnings and
 * output, and then its wait (like `--wait`, the default) until the object is gone, on the virtual
 * clock. The step fails when kubectl exits non-zero, printing kubectl's error and what still
 * blocks. Supported: `kubectl delete pod|replicaset|namespace NAME…` (or `TYPE/NAME…`, `-l SELECTOR`,
 * `--all`) with `-n/--namespace`, `--grace-period`, `--now`, `--force`, `--cascade`, `--dry-run`,
 * `--wait`, `--timeout`, `--ignore-not-found`, `-o name`, `-i/--interactive` (with no input, so it
 * cancels; give the answer with `and answer`); `kubectl drain|cordon|uncordon NODE` (K80–K82),
 * which waits for the node's pods as kubectl does; `kubectl scale deployment|replicaset|statefulset
 * NAME --replicas=N` and `kubectl rollout restart|status|undo deployment NAME`
 * (src/frontends/kubectl/workload-commands.ts); any other real kubectl flag is refused by name.
 * `--timeout` is virtual time here (the wait runs on the virtual clock); under `-p real-kubectl`
 * the real kubectl counts it in wall time while virtual time jumps, so a scenario that needs a
 * timeout to expire is `@built-in-kubectl-only`. The clock stops when the command returns.
 */
When('I run {command}', async function (this: TerminatingWorld, line: string) {
  await runToSuccess(this, line);
});

/**
 * As `I run`, with the answer typed on kubectl's standard input: for `-i/--interactive`, which
 * lists what it will delete and goes on only on `y` (V13). `""` is an empty line.
 */
When('I run {command} and answer {string}', async function (this: TerminatingWorld, line: string, answer: string) {
  await runToSuccess(this, line, `${answer}\n`);
});

async function runToSuccess(world: TerminatingWorld, line: string, stdin?: string): Promise<void> {
  const result = await kubectl(world, line, stdin);
  world.lastKubectl = result;
  world.lastResponse = result.requestId ? world.cluster.apiserver.request(result.requestId)?.response : undefined;
  if (result.exitCode !== 0) {
    const blockers = result.blockers?.length ? `\n\nWhat still blocks:\n- ${result.blockers.join('\n- ')}` : '';
    throw new Error(
      `\`${line}\` exited ${result.exitCode}:\n${result.stderr}${blockers}\n\nTimeline from T+0:\n${formatTimeline(world.cluster.timeline.since(world.start), world.start)}`,
    );
  }
}

/**
 * As `I run`, but a command that fails does not fail the step: check it with `kubectl fails with`
 * or `kubectl prints`, and its request with `the last request …`. This is the step for commands
 * that are meant to fail.
 */
When('I try to run {command}', async function (this: TerminatingWorld, line: string) {
  const result = await kubectl(this, line);
  this.lastKubectl = result;
  this.lastResponse = result.requestId ? this.cluster.apiserver.request(result.requestId)?.response : undefined;
});

/**
 * DELETE pods/NAME with empty options, straight to the apiserver (no kubectl, no waiting): the pod
 * gets its own grace period (R6). Check the answer with `the last request …`.
 */
When('the user deletes pod {string}', function (this: TerminatingWorld, pod: string) {
  this.ensureStarted();
  remember(this, this.cluster.apiserver.delete(USER, 'pods', this.podNamespace(pod), pod, {}));
  this.cluster.flush();
  refuseUndeclaredPod(this, pod, this.lastResponse!);
});

/**
 * The doc string is the DeleteOptions body in YAML or JSON: `gracePeriodSeconds`,
 * `propagationPolicy`, `orphanDependents`, `preconditions` (`uid`, `resourceVersion`), `dryRun`.
 * `<uid of pod "web">` and `<resourceVersion of pod "web">` stand for the pod's current values.
 * The body is decoded as the DELETE handler decodes it (V7, the same code as `serve`): a field of
 * the wrong JSON type (`gracePeriodSeconds: "30"`) fails before the registry sees the request —
 * 400 BadRequest from v1.35, a bare 500 before — and nothing is deleted.
 */
When('the user deletes pod {string} with options:', function (this: TerminatingWorld, pod: string, doc: string) {
  this.ensureStarted();
  const body = parseYaml(resolvePlaceholders(this, doc), `the DeleteOptions of the step deleting pod "${pod}"`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ScenarioError(
      `DeleteOptions must be a YAML/JSON mapping (e.g. gracePeriodSeconds: 0), got ${JSON.stringify(body)}`,
    );
  }
  const api = this.cluster.apiserver;
  let options: DeleteOptions;
  try {
    // The body's apiVersion and kind are the options' own type meta (handlers/delete.go).
    const { apiVersion: _a, kind: _k, ...fields } = body as Record<string, unknown>;
    options = deleteOptionsFromRequest(checkDeleteOptionsTypes(fields, api.options.release));
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    // Refused by the handler's decoder: no request reached the registry (requestId 0 names none).
    remember(this, { ok: false, code: e.code, status: e.status, requestId: 0 });
    return;
  }
  remember(this, api.delete(USER, 'pods', this.podNamespace(pod), pod, options));
  this.cluster.flush();
  refuseUndeclaredPod(this, pod, this.lastResponse!);
});

/**
 * POST pods/NAME/eviction with a policy/v1 Eviction and no DeleteOptions, as `kubectl drain` sends
 * one per pod (R78): the apiserver marks the pod DisruptionTarget (EvictionByEvictionAPI) and
 * deletes it with its own grace period. No PodDisruptionBudgets are modelled, so every eviction
 * is allowed. Check the answer with `the last request …`.
 */
When('the user evicts pod {string}', function (this: TerminatingWorld, pod: string) {
  this.ensureStarted();
  remember(
    this,
    this.cluster.apiserver.evict(USER, this.podNamespace(pod), pod, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: pod, namespace: this.podNamespace(pod) },
    }),
  );
  this.cluster.flush();
  refuseUndeclaredPod(this, pod, this.lastResponse!);
});

/**
 * `<uid of pod "web">` and `<resourceVersion of pod "web">` in a doc string stand for the pod's
 * current values, so preconditions can be written without knowing them in advance.
 */
function resolvePlaceholders(world: TerminatingWorld, doc: string): string {
  return doc.replace(
    /<(uid|resourceVersion) of pod ["']([^"']+)["']>/g,
    (_, field: 'uid' | 'resourceVersion', name: string) => {
      const got = world.cluster.apiserver.get('pods', world.podNamespace(name), name);
      if (!got.ok) throw new ScenarioError(`cannot fill in <${field} of pod "${name}">: the pod does not exist`);
      return JSON.stringify(got.object.metadata[field]);
    },
  );
}

/**
 * Creates the default pod (one container `app`, grace 30) bound to the node, at this moment of the
 * scenario, e.g. a pod with the name of one still terminating (R34). It is a new pod (a new UID):
 * behaviours declared for an earlier pod of that name stay with that pod; later steps that name
 * the pod mean this one.
 */
When('the user creates pod {string} on node {string}', function (this: TerminatingWorld, pod: string, node: string) {
  this.ensureStarted();
  this.cluster.node(node);
  const created = this.cluster.apiserver.create(USER, 'pods', 'default', podFromManifest(pod, node, undefined));
  remember(this, created);
  if (created.ok) this.plan.userCreated(created.object);
  this.cluster.flush();
});

/**
 * The same with a manifest: the doc string is a partial pod manifest in YAML or JSON, merged over
 * the default pod as in `a pod … running on node … with:`.
 */
When(
  'the user creates pod {string} on node {string} with:',
  function (this: TerminatingWorld, pod: string, node: string, manifest: string) {
    this.ensureStarted();
    this.cluster.node(node);
    const created = this.cluster.apiserver.create(USER, 'pods', 'default', podFromManifest(pod, node, manifest));
    remember(this, created);
    if (created.ok) this.plan.userCreated(created.object);
    this.cluster.flush();
  },
);

/** A controller edits the finalizers the way client-go controllers do: GET, change, UPDATE (PUT) with the fresh resourceVersion. */
function updateFinalizers(world: TerminatingWorld, podName: string, change: (finalizers: string[]) => string[]): void {
  world.ensureStarted();
  const api = world.cluster.apiserver;
  const namespace = world.podNamespace(podName);
  const got = api.get('pods', namespace, podName);
  if (!got.ok) {
    throw new ScenarioError(
      `the controller cannot find pod "${podName}": ${got.status.message} (pods in this scenario: ${
        world
          .podNames()
          .map((n) => `"${n}"`)
          .join(', ') || 'none'
      })`,
    );
  }
  const pod: Pod = structuredClone(got.object);
  pod.metadata.finalizers = change(pod.metadata.finalizers ?? []);
  remember(world, api.update(CONTROLLER, 'pods', namespace, pod));
  world.cluster.flush();
}

/**
 * A controller as client-go writes one: GET the pod, remove the finalizer, UPDATE with the fresh
 * resourceVersion. With `deletionGracePeriodSeconds` 0 and no finalizer left, that update removes
 * the pod (R28).
 */
When(
  'a controller removes finalizer {string} from pod {string}',
  function (this: TerminatingWorld, finalizer: string, pod: string) {
    updateFinalizers(this, pod, (fs) => {
      if (!fs.includes(finalizer))
        throw new ScenarioError(`pod "${pod}" has no finalizer "${finalizer}" (its finalizers: ${JSON.stringify(fs)})`);
      return fs.filter((f) => f !== finalizer);
    });
  },
);

/**
 * The same, adding it; the apiserver refuses a new finalizer on a terminating pod with 422 (R31).
 */
When(
  'a controller adds finalizer {string} to pod {string}',
  function (this: TerminatingWorld, finalizer: string, pod: string) {
    updateFinalizers(this, pod, (fs) => [...fs, finalizer]);
  },
);

/**
 * A controller records a condition of its own on the pod (GET, then a merge PATCH of pods/status
 * with the pod's conditions plus this one): a status write that is neither the kubelet's nor a
 * deletion, e.g. to see that it does not disturb one.
 */
When(
  'a controller sets condition {string} of pod {string} to {string}',
  function (this: TerminatingWorld, type: string, podName: string, status: string) {
    this.ensureStarted();
    const api = this.cluster.apiserver;
    const got = api.get('pods', this.podNamespace(podName), podName);
    if (!got.ok) throw new ScenarioError(`the controller cannot find pod "${podName}": ${got.status.message}`);
    const conditions = [...(got.object.status?.conditions ?? []).filter((c) => c.type !== type), { type, status }];
    remember(
      this,
      api.patch(
        CONTROLLER,
        'pods',
        this.podNamespace(podName),
        podName,
        'merge',
        { status: { conditions } },
        { subresource: 'status' },
      ),
    );
    this.cluster.flush();
  },
);

/**
 * Runs the virtual clock that long; everything due in between happens, in order. Compound
 * durations work as in the `T+…` cells: `When 1m30s pass`.
 */
// A wider hang guard than the default: with a controller program, each instant waits for it (wall time).
When('{duration} pass(es)', { timeout: CONTROLLER_STEP_TIMEOUT_MS }, function (this: TerminatingWorld, ms: number) {
  this.ensureStarted();
  // With a controller program running, time moves only while it is quiet (controller-process.ts).
  if (this.controllerProcess) return this.controllerProcess.advance(ms);
  this.cluster.advance(ms);
});

/**
 * Runs the virtual clock until nothing is scheduled in the next 10 virtual minutes (loops that
 * only tick, like heartbeats, do not count). Fails after one virtual hour, naming what still
 * retries or blocks.
 */
When('the cluster settles', function (this: TerminatingWorld) {
  this.ensureStarted();
  const result = this.cluster.settle();
  if (!result.settled) {
    const blockers =
      result.blockers.length > 0
        ? `- ${result.blockers.join('\n- ')}`
        : '(nothing the simulation can name: no stuck volume, finalizer or unreachable node; see the last events)';
    throw new Error(
      `the cluster did not settle within one virtual hour: work is still retrying.\nWhat still retries or blocks:\n${blockers}\n\n` +
        `Last events:\n${formatTimeline(this.cluster.timeline.since(this.start).slice(-25), this.start)}`,
    );
  }
});

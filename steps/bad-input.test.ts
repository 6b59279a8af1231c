// This test file runs in a process of its own (scripts/unit-tests.ts): it loads cucumber's support code in a worker and waits on it.
/**
 * Bad input: what a scenario author sees when a step gets something it cannot use. Each case puts
 * ONE bad scenario beside a good one in a feature file and runs it through cucumber (the
 * programmatic API, with the real step definitions), then checks that
 * - the run fails (or, for a kubectl refusal seen through `When I try to run`, that the scenario
 *   sees kubectl's message and passes),
 * - exactly one step fails — the step with the bad input — with one error whose message names the
 *   bad value and what was expected, and embeds no stack trace of the core,
 * - the good scenario beside it still passes, and the summary says so,
 * - the run ends quickly (a run that hangs is ended and reported).
 *
 * The runs happen in a worker thread that loads the support code once; a run that does not answer
 * within RUN_TIMEOUT_MS (a synchronous loop in the core would never answer) is ended with
 * worker.terminate(), so a hang fails one case instead of the whole test process.
 *
 * This file lives in steps/, so cucumber's `require: ['steps/**\/*.ts']` loads it as support code
 * too; it defines its tests only when node runs it as the main module (node --test does).
 */
import { after, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import { path as TS_HOOK } from '../scripts/ts-hook';

const ROOT = path.resolve(__dirname, '..');
/**
 * Wall-clock bound for one cucumber run of two scenarios (the first run also loads the support
 * code): a hang guard (an object that stalls the cluster never returns), not a speed check. 20 s
 * tripped on a heavily loaded machine; a run takes about a second on an idle one.
 */
const RUN_TIMEOUT_MS = 120_000;

/** One step's outcome, as cucumber's messages report it. */
interface StepOutcome {
  text: string;
  /** A hook (After) rather than a Gherkin step. */
  hook: boolean;
  status: string;
  /** The error's own message (exception.message), without the stack cucumber prints after it. */
  errorMessage?: string;
  /** The error's class (exception.type). */
  errorType?: string;
  /** What cucumber prints for the step: message plus stack. */
  printed?: string;
}

interface ScenarioOutcome {
  name: string;
  status: string;
  steps: StepOutcome[];
}

interface RunOutcome {
  success: boolean;
  /** The summary formatter's output, e.g. "2 scenarios (1 failed, 1 passed)". */
  summary: string;
  scenarios: ScenarioOutcome[];
}

/**
 * The worker: loads the configuration and support code once (as `cucumber-js` would, with
 * the .ts require hook), then runs each feature file it is sent and answers with each scenario's steps.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Writable } = require('node:stream');
const { createRequire } = require('node:module');
const req = createRequire(workerData.root + '/package.json');
require(workerData.hook);
const api = req('@cucumber/cucumber/api');

const RANK = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

async function main() {
  const environment = { cwd: workerData.root };
  // The support code of cucumber.js (steps/**/*.ts) less the test files beside it: a *.test.ts is
  // no support code, and one that runs its tests on load would run them inside this worker.
  const support = require('node:fs').readdirSync(workerData.root + '/steps', { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort().map((f) => 'steps/' + f);
  const { runConfiguration } = await api.loadConfiguration({
    file: false,
    provided: { requireModule: [workerData.hook], require: support },
  }, environment);
  const library = await api.loadSupport(runConfiguration, environment);
  parentPort.on('message', async ({ id, featurePath }) => {
    try {
      let summary = '';
      const stdout = new Writable({ write(chunk, _enc, done) { summary += chunk; done(); } });
      const pickles = new Map(), testCases = new Map(), started = new Map(), finished = [];
      const onMessage = (e) => {
        if (e.pickle) pickles.set(e.pickle.id, e.pickle);
        if (e.testCase) testCases.set(e.testCase.id, e.testCase);
        if (e.testCaseStarted) started.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
        if (e.testStepFinished) finished.push(e.testStepFinished);
      };
      const { success } = await api.runCucumber({
        ...runConfiguration,
        sources: { ...runConfiguration.sources, paths: [featurePath] },
        support: library,
        formats: { stdout: 'summary', files: {}, publish: false, options: {} },
      }, { ...environment, stdout, stderr: stdout }, onMessage);
      const scenarios = [];
      for (const testCase of testCases.values()) {
        const pickle = pickles.get(testCase.pickleId);
        const steps = testCase.testSteps.map((ts) => {
          const f = finished.find((x) => x.testStepId === ts.id && started.get(x.testCaseStartedId) === testCase.id);
          const r = f ? f.testStepResult : { status: 'UNKNOWN' };
          const pickleStep = ts.pickleStepId ? pickle.steps.find((s) => s.id === ts.pickleStepId) : undefined;
          return {
            text: pickleStep ? pickleStep.text : 'hook',
            hook: !pickleStep,
            status: r.status,
            errorMessage: r.exception ? r.exception.message : undefined,
            errorType: r.exception ? r.exception.type : undefined,
            printed: r.message,
          };
        });
        const status = steps.map((s) => s.status).reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'PASSED');
        scenarios.push({ name: pickle.name, status, steps });
      }
      parentPort.postMessage({ id, outcome: { success, summary, scenarios } });
    } catch (e) {
      parentPort.postMessage({ id, error: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
}
main().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

/** Runs feature files in a worker thread that keeps the support code loaded; ends it when a run hangs. */
class CucumberRunner {
  private worker?: Worker;
  private ready?: Promise<void>;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (o: RunOutcome) => void; reject: (e: Error) => void }>();

  private start(): Promise<void> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { root: ROOT, hook: TS_HOOK },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: { ready?: true; fatal?: string; id?: number; outcome?: RunOutcome; error?: string }) => {
        if (m.ready) return resolve();
        if (m.fatal) return reject(new Error(`the cucumber worker could not load the support code:\n${m.fatal}`));
        const p = this.pending.get(m.id!);
        this.pending.delete(m.id!);
        if (m.error !== undefined) p?.reject(new Error(`cucumber itself failed:\n${m.error}`));
        else p?.resolve(m.outcome!);
      });
      worker.on('error', reject);
    });
    return this.ready;
  }

  /** Runs one feature file; rejects when it takes longer than `timeoutMs` of wall time. */
  async run(featurePath: string, timeoutMs = RUN_TIMEOUT_MS): Promise<RunOutcome> {
    const deadline = Date.now() + timeoutMs;
    if (!this.worker) await this.start();
    else await this.ready;
    const id = this.nextId++;
    return new Promise<RunOutcome>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.pending.delete(id);
          // A synchronous loop cannot be interrupted from inside: end the thread, start afresh next time.
          void this.worker?.terminate();
          this.worker = undefined;
          reject(new Error(`the cucumber run did not finish within ${timeoutMs} ms of wall time (a hang)`));
        },
        Math.max(1, deadline - Date.now()),
      );
      this.pending.set(id, {
        resolve: (o) => (clearTimeout(timer), resolve(o)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.worker!.postMessage({ id, featurePath });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The cases

const GOOD_SCENARIO = `
  Scenario: a good scenario beside the bad one
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When the user deletes pod "web"
    And the cluster settles
    Then pod "web" is gone
`;

interface FailingCase {
  name: string;
  /** The bad scenario's steps (indented by the template). */
  steps: string;
  /** The text of the step that must fail (after its keyword). */
  failingStep: string;
  /** Fragments its error message must contain: the bad value and what was expected. */
  says: (string | RegExp)[];
  /** Extra checks on the outcome. */
  check?: (failed: StepOutcome, run: RunOutcome) => void;
}

interface PassingCase {
  name: string;
  steps: string;
  passes: true;
}

type Case = FailingCase | PassingCase;

/** A gallery dump, by absolute path (the bad-input features live in a temporary directory). */
const FINALIZER_DUMP = path.join(ROOT, 'examples/stuck/finalizer.yaml');

const NODE_AND_POD = `Given a node "node-1"
And a pod "web" running on node "node-1"`;

const docString = (text: string) => `"""\n${text}\n"""`;

function manifestCase(name: string, manifest: string, says: (string | RegExp)[]): FailingCase {
  return {
    name,
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n${docString(manifest)}\nWhen the user deletes pod "web"`,
    failingStep: 'a pod "web" running on node "node-1" with:',
    says,
  };
}

/** A declaration step with a doc string, the one that must fail (strict input, R240/R242). */
function declarationCase(name: string, declaration: string, manifest: string, says: (string | RegExp)[]): FailingCase {
  return {
    name,
    steps: `${NODE_AND_POD}\nAnd ${declaration}\n${docString(manifest)}\nWhen the user deletes pod "web"`,
    failingStep: declaration,
    says,
  };
}

const REFUSED = 'is refused as kube-apiserver refuses it';

/** R240 R242 — the twelve mistakes of issue 30, each refused at the step that declares it, with kube-apiserver's message. */
const STRICT_INPUT: Case[] = [
  manifestCase(
    'strict: a misspelt pod field (terminationGracePeriodSecond)',
    'spec:\n  terminationGracePeriodSecond: 10',
    [
      `pod "web" ${REFUSED}`,
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.terminationGracePeriodSecond"',
    ],
  ),
  manifestCase(
    'strict: a misspelt handler of a preStop hook (slep)',
    'spec:\n  containers:\n    - name: app\n      lifecycle:\n        preStop:\n          slep: {seconds: 5}',
    ['strict decoding error: unknown field "spec.containers[0].lifecycle.preStop.slep"'],
  ),
  manifestCase(
    'strict: a preStop hook without a handler',
    'spec:\n  containers:\n    - name: app\n      lifecycle:\n        preStop: {}',
    [
      `pod "web" ${REFUSED}: Pod "web" is invalid: spec.containers[0].lifecycle.preStop: Required value: must specify a handler type`,
    ],
  ),
  declarationCase('strict: an int64 field given 12.5', 'a job "once" with:', 'spec:\n  activeDeadlineSeconds: 12.5', [
    'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 12.5 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64',
  ]),
  declarationCase(
    'strict: a Deployment strategy "Rolling"',
    'a deployment "api" with 2 replicas with:',
    'spec:\n  strategy:\n    type: Rolling',
    [
      'Deployment.apps "api" is invalid: spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Rolling"',
      'supported values: "Recreate", "RollingUpdate"',
    ],
  ),
  declarationCase(
    'strict: a misspelt Deployment field (minReadySecond)',
    'a deployment "api" with 2 replicas with:',
    'spec:\n  minReadySecond: 5',
    [
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.minReadySecond"',
    ],
  ),
  declarationCase(
    'strict: a Service field at the wrong depth (spec.selectr)',
    'a service "web" with:',
    'spec:\n  selectr:\n    app: web',
    ['Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.selectr"'],
  ),
  declarationCase('strict: a misspelt Job field (backofLimit)', 'a job "once" with:', 'spec:\n  backofLimit: 2', [
    'Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.backofLimit"',
  ]),
  declarationCase(
    'strict: a misspelt StatefulSet field (podManagmentPolicy)',
    'a statefulset "db" with 1 replicas with:',
    'spec:\n  podManagmentPolicy: Parallel',
    [
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.podManagmentPolicy"',
    ],
  ),
  declarationCase(
    'strict: a DaemonSet whose selector does not match its template',
    'a daemonset "agent" with:',
    'spec:\n  selector:\n    matchLabels: {app: other}',
    [
      'DaemonSet.apps "agent" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
    ],
  ),
  declarationCase(
    'strict: a misspelt PodDisruptionBudget field (minAvailabel)',
    'a pod disruption budget "budget" with:',
    'spec:\n  minAvailabel: 1\n  selector: {matchLabels: {app: web}}',
    [
      'PodDisruptionBudget in version "v1" cannot be handled as a PodDisruptionBudget: strict decoding error: unknown field "spec.minAvailabel"',
    ],
  ),
  declarationCase(
    'strict: a configmap in a namespace the scenario does not declare',
    'a configmap "settings" with:',
    'metadata:\n  namespace: shop\ndata: {mode: fast}',
    ['unknown namespace "shop" for configmap "settings"', 'Given a namespace "shop"'],
  ),
  {
    name: 'strict: deleting a pod the scenario never declared (a typo)',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "wbe"\nThen pod "web" exists`,
    failingStep: 'the user deletes pod "wbe"',
    says: ['pod "wbe" was never declared; pods so far: web'],
  },
];

const CASES: Case[] = [
  ...STRICT_INPUT,
  // ---- manifests (doc strings) ----
  manifestCase('malformed YAML doc string', 'spec:\n  containers: [ {name: app', [
    'malformed YAML in the manifest of pod "web"',
    /at \S+case-\d+\.feature:\d+, column \d+ \(line 2 of the doc string\)/,
  ]),
  manifestCase('a manifest that is a list', '- name: app\n- name: sidecar', [
    'the manifest of pod "web" must be a YAML mapping',
    '[{"name":"app"},{"name":"sidecar"}]',
  ]),
  manifestCase('a manifest that is a scalar', 'just some text', [
    'the manifest of pod "web" must be a YAML mapping',
    '"just some text"',
  ]),
  manifestCase('unknown top-level field containers:', 'containers:\n  - name: app', [
    'unknown field "containers"',
    'did you mean spec.containers?',
    'expected apiVersion, kind, metadata, spec, status',
  ]),
  manifestCase('terminationGracePeriodSeconds: "thirty"', 'spec:\n  terminationGracePeriodSeconds: "thirty"', [
    'spec.terminationGracePeriodSeconds',
    'must be an integer',
    '"thirty"',
  ]),
  manifestCase('finalizers: "x"', 'metadata:\n  finalizers: "x"', [
    'metadata.finalizers',
    'must be a list of strings',
    'got "x"',
  ]),
  manifestCase('containers: []', 'spec:\n  containers: []', [
    'spec.containers',
    'must be a non-empty list of containers',
    'got []',
  ]),
  manifestCase('labels with a number value', 'metadata:\n  labels:\n    tier: 3', [
    'metadata.labels',
    'must be a map of strings',
    '{"tier":3}',
  ]),
  manifestCase('restartPolicy with a value the API does not know', 'spec:\n  restartPolicy: Sometimes', [
    'spec.restartPolicy',
    'must be Always, OnFailure or Never',
    '"Sometimes"',
  ]),
  manifestCase('a manifest of another kind', 'kind: Deployment', ['has kind "Deployment"', 'only Pod manifests']),
  manifestCase('a manifest naming a different pod', 'metadata:\n  name: api', [
    'the manifest names the pod "api"',
    'the step names it "web"',
  ]),

  // ---- names that the scenario does not have ----
  {
    name: 'unknown pod in container … of pod …',
    steps: `${NODE_AND_POD}\nAnd container "app" of pod "api" ignores SIGTERM`,
    failingStep: 'container "app" of pod "api" ignores SIGTERM',
    says: ['unknown pod "api"', 'pods in this scenario: "web"'],
  },
  {
    name: 'unknown container',
    steps: `${NODE_AND_POD}\nAnd container "sidecar" of pod "web" exits 5s after SIGTERM`,
    failingStep: 'container "sidecar" of pod "web" exits 5s after SIGTERM',
    says: ['pod "web" has no container "sidecar"', 'its containers: "app"'],
  },
  {
    name: 'unknown volume',
    steps: `${NODE_AND_POD}\nAnd volume "data" of pod "web" cannot be unmounted`,
    failingStep: 'volume "data" of pod "web" cannot be unmounted',
    says: ['pod "web" has no volume "data"', 'add spec.volumes to its manifest'],
  },
  {
    name: 'unknown node for a pod',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-2"`,
    failingStep: 'a pod "web" running on node "node-2"',
    says: ['unknown node "node-2" for pod "web"', 'Given a node "node-2"', 'nodes so far: "node-1"'],
  },
  {
    name: 'node declared twice',
    steps: `Given a node "node-1"\nAnd a node "node-1"`,
    failingStep: 'a node "node-1"',
    says: [/node "node-1" is declared twice: first at \S+case-\d+\.feature:11, again at \S+case-\d+\.feature:12/],
    check: (_failed, run) => {
      // The first declaration passed; the second one is the failing step.
      const bad = run.scenarios.find((s) => s.name === 'bad input')!;
      expect(bad.steps.filter((s) => !s.hook).map((s) => s.status)).to.deep.equal(['PASSED', 'FAILED']);
    },
  },
  {
    name: 'unknown node in a When step',
    steps: `${NODE_AND_POD}\nWhen the kubelet on node "node-9" restarts`,
    failingStep: 'the kubelet on node "node-9" restarts',
    says: ['unknown node "node-9"', 'nodes in this scenario: "node-1"'],
  },
  {
    name: 'a controller removes a finalizer the pod does not have',
    steps: `${NODE_AND_POD}\nWhen a controller removes finalizer "example.com/x" from pod "web"`,
    failingStep: 'a controller removes finalizer "example.com/x" from pod "web"',
    says: ['pod "web" has no finalizer "example.com/x"', 'its finalizers: []'],
  },
  {
    name: 'an init-container step naming a regular container',
    steps: `${NODE_AND_POD}\nAnd init container "app" of pod "web" completes after 10s`,
    failingStep: 'init container "app" of pod "web" completes after 10s',
    says: ['pod "web" has no regular init container "app"', 'add spec.initContainers to its manifest'],
  },
  {
    name: 'an init container that fails with exit code 0',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n  """\n  spec:\n    initContainers: [{name: setup}]\n  """\nAnd init container "setup" of pod "web" fails with exit code 0 after 10s`,
    failingStep: 'init container "setup" of pod "web" fails with exit code 0 after 10s',
    says: ['exit code 0 is a success', 'completes after'],
  },
  {
    name: 'a preStop hook on a regular init container',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n  """\n  spec:\n    initContainers: [{name: setup}]\n  """\nAnd container "setup" of pod "web" has a preStop hook that takes 5s`,
    failingStep: 'container "setup" of pod "web" has a preStop hook that takes 5s',
    says: [
      '"setup" of pod "web" is a regular init container',
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
    ],
  },
  {
    name: 'a preStop hook declared after the scenario started',
    steps: `${NODE_AND_POD}\nWhen 1s passes\nAnd container "app" of pod "web" has a preStop hook that takes 5s`,
    failingStep: 'container "app" of pod "web" has a preStop hook that takes 5s',
    says: ['preStop hook of container "app"', 'must be declared before the scenario starts'],
  },

  // ---- durations ----
  ...(['30', '-5s', '1x', '5 s', '2 minutes'] as const).map(
    (d): FailingCase => ({
      name: `bad duration ${d}`,
      steps: `${NODE_AND_POD}\nAnd container "app" of pod "web" exits ${d} after SIGTERM`,
      failingStep: `container "app" of pod "web" exits ${d} after SIGTERM`,
      says: [
        `bad duration "${d}"`,
        'expected a non-negative number followed by ms, s, m or h',
        '30s, 1.5s, 2m, 1h, 500ms',
      ],
    }),
  ),
  {
    name: 'bad duration in When … pass',
    steps: `${NODE_AND_POD}\nWhen 5 s pass`,
    failingStep: '5 s pass',
    says: ['bad duration "5 s"', 'followed by ms, s, m or h'],
  },

  // ---- kubectl ----
  ...(
    [
      [
        '--field-selector=metadata.name=web',
        'kubectl delete pods --field-selector=metadata.name=web',
        'flag --field-selector is not modelled',
      ],
      ['-f pod.yaml', 'kubectl delete -f pod.yaml', 'flag -f (--filename) is not modelled'],
      ['-A', 'kubectl delete pods --all -A', 'flag -A (--all-namespaces) is not modelled'],
    ] as const
  ).map(
    ([flag, line, says]): FailingCase => ({
      name: `unsupported kubectl flag ${flag}`,
      steps: `${NODE_AND_POD}\nWhen I run \`${line}\``,
      failingStep: `I run \`${line}\``,
      says: [says, 'supported: `kubectl delete pod|replicaset|namespace NAME'],
    }),
  ),
  {
    name: 'not a delete command (kubectl get pods)',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl get pods\``,
    failingStep: 'I run `kubectl get pods`',
    says: ['kubectl get is not modelled by this simulator', 'supported: `kubectl delete'],
  },
  {
    name: "kubectl drain of a pod without a controller, without --force: kubectl's filter error (K80)",
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl drain node-1\``,
    failingStep: 'I run `kubectl drain node-1`',
    says: [
      '`kubectl drain node-1` exited 1',
      'cannot delete Pods that declare no controller (use --force to override): default/web',
      'There are pending nodes to be drained:',
    ],
  },
  {
    name: 'unknown kubectl flag',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --bogus\``,
    failingStep: 'I run `kubectl delete pod web --bogus`',
    says: [
      '`kubectl delete pod web --bogus` exited 1',
      'error: unknown flag: --bogus',
      "See 'kubectl delete --help' for usage.",
    ],
  },
  {
    name: '--grace-period=3 --force through When I run',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --grace-period=3 --force\`\nThen pod "web" exists`,
    failingStep: 'I run `kubectl delete pod web --grace-period=3 --force`',
    says: ['exited 1', 'error: --force and --grace-period greater than 0 cannot be specified together'],
  },
  {
    name: '--now --grace-period=5 through When I run',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --now --grace-period=5\``,
    failingStep: 'I run `kubectl delete pod web --now --grace-period=5`',
    says: ['exited 1', 'error: --now and --grace-period cannot be specified together'],
  },
  {
    name: '--grace-period=3 --force through When I try to run',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --grace-period=3 --force\`\nThen kubectl fails with "error: --force and --grace-period greater than 0 cannot be specified together"\nAnd pod "web" exists`,
    passes: true,
  },
  {
    name: '--now --grace-period=5 through When I try to run',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --now --grace-period=5\`\nThen kubectl fails with "error: --now and --grace-period cannot be specified together"\nAnd pod "web" exists`,
    passes: true,
  },
  {
    name: 'kubectl fails with a different message than expected',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --now --grace-period=5\`\nThen kubectl fails with "cannot be used with"`,
    failingStep: 'kubectl fails with "cannot be used with"',
    says: ['does not contain "cannot be used with"', 'error: --now and --grace-period cannot be specified together'],
  },
  {
    name: 'kubectl delete of a pod that does not exist',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod nope\``,
    failingStep: 'I run `kubectl delete pod nope`',
    says: ['exited 1', 'Error from server (NotFound): pods "nope" not found'],
  },
  {
    name: 'kubectl waits on a pod a finalizer holds (--timeout=30s)',
    steps: `Given a node "node-1"\nAnd a pod "db" running on node "node-1" with:\n${docString('metadata:\n  finalizers: ["example.com/block"]')}\nWhen I run \`kubectl delete pod db --timeout=30s\``,
    failingStep: 'I run `kubectl delete pod db --timeout=30s`',
    says: [
      'error: timed out waiting for the condition on pods/db',
      'What still blocks:',
      'finalizer example.com/block',
    ],
  },
  {
    name: 'kubectl fails with … before any kubectl run',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen kubectl fails with "error"`,
    failingStep: 'kubectl fails with "error"',
    says: ['no kubectl command has been run', 'When I try to run `kubectl …`'],
  },

  // ---- API action doc strings ----
  {
    name: 'DeleteOptions doc string that is a list',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('- gracePeriodSeconds: 0')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: ['DeleteOptions must be a YAML/JSON mapping', 'gracePeriodSeconds: 0', '[{"gracePeriodSeconds":0}]'],
  },
  {
    name: 'DeleteOptions doc string with malformed YAML',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('{ gracePeriodSeconds: 0')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: [
      'malformed YAML in the DeleteOptions of the step deleting pod "web"',
      /at \S+case-\d+\.feature:\d+, column \d+ \(line \d+ of the doc string\)/,
    ],
  },
  {
    name: 'a uid placeholder naming a pod that does not exist',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('preconditions:\n  uid: <uid of pod "nope">')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: ['cannot fill in <uid of pod "nope">', 'the pod does not exist'],
  },
  {
    name: 'the last request returns 200 before any request',
    steps: `${NODE_AND_POD}\nThen the last request returns 200`,
    failingStep: 'the last request returns 200',
    says: ['no API request has been made by an action step yet'],
  },

  // ---- tables ----
  {
    name: 'events table with an unknown component',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in order:\n  | component | event           |\n  | kubelett  | DELETE pods/web |`,
    failingStep: 'these events happen in order:',
    says: [
      'unknown component "kubelett"',
      'expected one of kubectl, user, controller, apiserver, admission, etcd, watch, kubelet',
    ],
  },
  {
    name: 'events table missing the event column',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in exactly this order:\n  | component | text            |\n  | kubelet   | DELETE pods/web |`,
    failingStep: 'these events happen in exactly this order:',
    says: [
      'the table needs the columns | [at] | component | event |',
      'its header is | component | text |',
      'missing: event',
      'unknown: text',
    ],
  },
  ...(['30s', 'T+x', 'T+33s..T+30s'] as const).map(
    (at): FailingCase => ({
      name: `bad at cell ${at}`,
      steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in order:\n  | at | component | event |\n  | ${at} | kubelet | DELETE pods/web |`,
      failingStep: 'these events happen in order:',
      says: [
        `bad "at" cell "${at}"`,
        at === 'T+33s..T+30s' ? 'the range ends before it starts' : 'expected T+Ns or a range T+Ns..T+Ms',
      ],
    }),
  ),
  {
    name: 'no … event with an unknown component',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelett event "REMOVE" happens`,
    failingStep: 'no kubelett event "REMOVE" happens',
    says: ['unknown component "kubelett"', 'expected one of'],
  },
  {
    name: 'change table missing the to column',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                        | from     |\n  | /metadata/deletionTimestamp | <absent> |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: ['the table needs the columns | path | from | to |', 'its header is | path | from |', 'missing: to'],
  },
  {
    name: 'change table with a dotted path',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                       | from     | to    |\n  | metadata.deletionTimestamp | <absent> | T+30s |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: [
      'bad path "metadata.deletionTimestamp"',
      'expected a JSON Pointer',
      'did you mean /metadata/deletionTimestamp?',
    ],
  },
  {
    name: 'has fields table with a wrong header',
    steps: `${NODE_AND_POD}\nThen pod "web" has fields:\n  | field         | value     |\n  | /status/phase | "Running" |`,
    failingStep: 'pod "web" has fields:',
    says: [
      'the table needs the columns | path | value |',
      'its header is | field | value |',
      'missing: path',
      'unknown: field',
    ],
  },
  {
    name: 'has fields with a misspelt placeholder',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                      | value   |\n  | /metadata/deletionTimestamp | <absnt> |`,
    failingStep: 'pod "web" has fields:',
    says: ['unknown placeholder "<absnt>"', 'expected <absent>, <any>, T+Ns or a JSON value'],
  },
  {
    name: 'has fields with a time lacking its unit',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                        | value |\n  | /metadata/deletionTimestamp | T+30  |`,
    failingStep: 'pod "web" has fields:',
    says: ['bad time "T+30"', 'expected T+Ns'],
  },

  // ---- work that never ends ----
  {
    name: 'the cluster settles with a volume that cannot be unmounted',
    steps: `Given a node "node-1"\nAnd a pod "db" running on node "node-1" with:\n${docString('spec:\n  volumes:\n    - name: data\n      emptyDir: {}')}\nAnd volume "data" of pod "db" cannot be unmounted\nWhen the user deletes pod "db"\nAnd the cluster settles`,
    failingStep: 'the cluster settles',
    says: ['did not settle within one virtual hour', 'volume "data" of pods/db on node "node-1" cannot be unmounted'],
    check: (failed) => {
      // The last events shown are from late in the virtual hour: it did run that long.
      expect(failed.errorMessage).to.match(/T\+5\dm/);
    },
  },
  // ---- releases and feature gates (src/foundation/release.ts) ----
  {
    name: 'Kubernetes v1.25 (below the range)',
    steps: `Given Kubernetes v1.25\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes v1.25',
    says: ['Kubernetes "v1.25" is not supported', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes 1.37 (above the range)',
    steps: `Given Kubernetes 1.37\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes 1.37',
    says: ['Kubernetes "1.37" is not supported', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes v2.1',
    steps: `Given Kubernetes v2.1\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes v2.1',
    says: ['"v2.1" is not a Kubernetes release', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes v1.30 after the nodes (still before T+0)',
    steps: `${NODE_AND_POD}\nAnd Kubernetes v1.30`,
    passes: true,
  },
  {
    name: 'Kubernetes v1.30 after T+0',
    steps: `${NODE_AND_POD}\nWhen 1s passes\nGiven Kubernetes v1.30`,
    failingStep: 'Kubernetes v1.30',
    says: ["Kubernetes v1.30 must be declared before the scenario's time starts (T+0"],
  },
  {
    name: 'a skewed kubelet after the pods on its node (still before T+0)',
    steps: `${NODE_AND_POD}\nAnd the kubelet on node "node-1" runs Kubernetes v1.33`,
    passes: true,
  },
  {
    name: 'a release after a skewed kubelet that it leaves outside the skew policy',
    steps: `Given Kubernetes v1.33\nAnd a node "node-1"\nAnd the kubelet on node "node-1" runs Kubernetes v1.30\nAnd Kubernetes v1.34`,
    failingStep: 'Kubernetes v1.34',
    says: ['cannot run v1.30 with a v1.34 control plane', 'from v1.31 to v1.34'],
  },
  {
    name: 'a kubelet newer than the control plane',
    steps: `Given Kubernetes v1.30\nAnd a node "node-1"\nAnd the kubelet on node "node-1" runs Kubernetes v1.31`,
    failingStep: 'the kubelet on node "node-1" runs Kubernetes v1.31',
    says: ['cannot run v1.31 with a v1.30 control plane', 'from v1.27 to v1.30'],
  },
  {
    name: 'an unknown feature gate',
    steps: `Given the feature gate "Sidecars" is enabled\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "Sidecars" is enabled',
    says: ['unrecognized feature gate: Sidecars', 'SidecarContainers'],
  },
  {
    name: 'a locked feature gate',
    steps: `Given the feature gate "SidecarContainers" is disabled\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "SidecarContainers" is disabled',
    says: ['cannot set feature gate SidecarContainers to false, feature is locked to true'],
  },
  {
    name: 'a feature gate that is neither enabled nor disabled',
    steps: `Given the feature gate "SidecarContainers" is on\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "SidecarContainers" is on',
    says: ['"enabled" or "disabled", not "on"'],
  },
  // ---- a deliberately wrong assertion of each style shows the actual timeline or diff ----
  {
    name: 'wrong order assertion prints the actual timeline with the matched rows marked',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web\`\nThen these events happen in order:\n  | at   | component | event           |\n  | T+0s | kubelet   | REMOVE pods/web |`,
    failingStep: 'these events happen in order:',
    says: [
      'row 1 | T+0s | kubelet | REMOVE pods/web |',
      'the actual timeline from T+0',
      'T+1s',
      'REMOVE pods/web',
      'SIGTERM app pods/web',
    ],
  },
  {
    name: 'wrong exact-order assertion prints the narrowed timeline, marking where the run broke',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web\`\nThen these events happen in exactly this order:\n  | component | event                      |\n  | kubelet   | DELETE pods/web            |\n  | kubelet   | SyncTerminatedPod pods/web |`,
    failingStep: 'these events happen in exactly this order:',
    says: ['rows 1..1 (marked ✓)', 'narrowed to kubelet', '✗', 'SyncTerminatingPod pods/web'],
  },
  {
    name: 'wrong diff assertion prints the actual change table',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                        | from     | to    |\n  | /metadata/deletionTimestamp | <absent> | T+31s |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: [
      'expected <absent>',
      'The actual changes:',
      '| /metadata/deletionGracePeriodSeconds | <absent> | 30',
      '/metadata/generation',
    ],
  },
  {
    name: 'wrong fields assertion prints the actual object',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                                 | value |\n  | /metadata/deletionGracePeriodSeconds | 5     |`,
    failingStep: 'pod "web" has fields:',
    says: ['/metadata/deletionGracePeriodSeconds: expected 5, actual 30', 'deletionTimestamp:'],
  },

  // ---- the vocabulary of conditions, Kubernetes Events and time windows ----
  {
    name: 'a time window that is not whole seconds',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+1.5s and T+3s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+1.5s and T+3s',
    says: ['whole seconds', '1.5s'],
  },
  {
    name: 'a time window past the end of the timeline',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+0s and T+30s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+0s and T+30s',
    says: ['reaches past the end of the timeline', 'The timeline ends at T+0s', 'When 30s pass'],
  },
  {
    name: 'a time window that ends before it starts',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+30s and T+3s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+30s and T+3s',
    says: ['"between T+30s and T+3s" ends before it starts'],
  },
  {
    name: 'an Event type that is neither Normal nor Warning',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has a Critical event "Killing"`,
    failingStep: 'pod "web" has a Critical event "Killing"',
    says: ['Normal or Warning, not "Critical"'],
  },
  {
    name: 'a pod on a missing node that the scenario declares',
    steps: `${NODE_AND_POD}\nAnd a pod "ghost" bound to node "node-1" that does not exist\nWhen the user deletes pod "web"`,
    failingStep: 'a pod "ghost" bound to node "node-1" that does not exist',
    says: ['node "node-1" of pod "ghost" is declared in this scenario', 'Given a pod "ghost" running on node "node-1"'],
  },
  {
    name: 'a condition expected without a reason that has one',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --wait=false\`\nAnd 5s pass\nThen pod "web" was removed with condition "Ready" with status "False" and no reason`,
    failingStep: 'pod "web" was removed with condition "Ready" with status "False" and no reason',
    says: [
      'the last stored state of pod "web" has condition Ready with status False and reason PodFailed; expected status False and no reason',
      'Its conditions:',
    ],
  },
  {
    name: 'a count of Kubernetes Events that is wrong',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nAnd 5s pass\nThen pod "web" has 2 events "Killing"`,
    failingStep: 'pod "web" has 2 events "Killing"',
    says: [
      'pod "web" has 1 Event Killing; expected exactly 2',
      'Its events:',
      'Normal Killing: Stopping container app',
    ],
  },

  // ---- resumed objects and their explanation (steps/definitions/objects.steps.ts) ----
  {
    name: 'objects from a file that does not exist',
    steps: 'Given the objects in "no-such-dump.yaml"',
    failingStep: 'the objects in "no-such-dump.yaml"',
    says: ['cannot read', 'no-such-dump.yaml', 'ENOENT'],
  },
  {
    name: 'objects after a node',
    steps: `Given a node "node-1"\nAnd the objects in "${FINALIZER_DUMP}"`,
    failingStep: `the objects in "${FINALIZER_DUMP}"`,
    says: ['the objects must come before the nodes and pods declared by other steps'],
  },
  {
    name: 'an unknown cause',
    steps: `Given the objects in "${FINALIZER_DUMP}"\nThen what holds pod "report-7d9f" is:\n  | cause     | detail |\n  | finaliser | upload |`,
    failingStep: 'what holds pod "report-7d9f" is:',
    says: [
      'unknown cause "finaliser"',
      'expected one of finalizer, policy, webhook, dependents, node-unreachable, containers-running, volume-unmount, sandbox, nothing',
    ],
  },
  {
    name: 'a cause that does not hold the pod',
    steps: `Given the objects in "${FINALIZER_DUMP}"\nThen what holds pod "report-7d9f" is:\n  | cause            | detail |\n  | node-unreachable | worker |`,
    failingStep: 'what holds pod "report-7d9f" is:',
    says: [
      'no cause "node-unreachable" with a detail containing "worker" holds pod "report-7d9f"',
      'finalizer: finalizer reports.example.com/upload',
    ],
  },
  // ---- services and traffic ----
  {
    name: 'a label that is not key=value',
    steps: `${NODE_AND_POD}\nAnd a service "web" selecting pods with label "app web"`,
    failingStep: 'a service "web" selecting pods with label "app web"',
    says: ['the selector of service "web"', '"app web" is not a label like "app=web"'],
  },
  {
    name: 'clients of a service the scenario lacks',
    steps: `${NODE_AND_POD}\nAnd clients send a request to service "api" every 100ms`,
    failingStep: 'clients send a request to service "api" every 100ms',
    says: ['unknown service "api"', 'Given a service "api" selecting pods with label "app=api"'],
  },
  {
    name: 'a readiness probe period that is not whole seconds',
    steps: `${NODE_AND_POD}\nAnd container "app" of pod "web" has a readiness probe every 1500ms`,
    failingStep: 'container "app" of pod "web" has a readiness probe every 1500ms',
    says: ['whole seconds (periodSeconds)', '1.5s'],
  },
  {
    name: 'an endpoint condition the API does not have',
    steps: `${NODE_AND_POD}\nAnd a service "web" selecting pods with label "app=web"\nThen the endpointslice of service "web" lists pod "web" as healthy`,
    failingStep: 'the endpointslice of service "web" lists pod "web" as healthy',
    says: ['unknown endpoint condition "healthy"', 'ready, not-ready, serving, not-serving, terminating'],
  },
  {
    name: 'a service manifest with a top-level selector',
    steps: `${NODE_AND_POD}\nAnd a service "web" with:\n${docString('selector:\n  app: web')}`,
    failingStep: 'a service "web" with:',
    says: ['unknown field "selector"', 'did you mean spec.selector?'],
  },
];

// ---------------------------------------------------------------------------------------------

function featureText(c: Case): string {
  const steps = c.steps
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `Feature: bad input: ${c.name.replace(/\n/g, ' ')}\n${GOOD_SCENARIO}\n  Scenario: bad input\n${steps}\n`;
}

/** A line of a stack trace ("    at fn (/path/file.ts:1:2)"), or an absolute path into the core. */
const STACK_LINE = /^\s*at .*(\(|\s)(\/|node:)\S*:\d+(:\d+)?\)?\s*$/m;

if (require.main === module) {
  describe('bad input gives one clear error, and the scenarios beside it still pass', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'terminating-bad-input-'));
    const runner = new CucumberRunner();
    after(async () => {
      await runner.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`has at least 25 cases (${CASES.length})`, () => {
      expect(CASES.length).to.be.at.least(25);
      expect(new Set(CASES.map((c) => c.name)).size, 'case names are unique').to.equal(CASES.length);
    });

    CASES.forEach((c, i) => {
      it(c.name, async () => {
        const file = path.join(dir, `case-${String(i).padStart(2, '0')}.feature`);
        writeFileSync(file, featureText(c));
        const run = await runner.run(file);
        const good = run.scenarios.find((s) => s.name === 'a good scenario beside the bad one');
        const bad = run.scenarios.find((s) => s.name === 'bad input');
        const dump = `\n--- summary:\n${run.summary}\n--- outcome:\n${JSON.stringify(run.scenarios, null, 2)}`;
        expect(good?.status, `the good scenario passes${dump}`).to.equal('PASSED');
        expect(bad, `the bad scenario ran${dump}`).to.not.equal(undefined);
        if ('passes' in c) {
          expect(run.success, dump).to.equal(true);
          expect(bad!.status, dump).to.equal('PASSED');
          expect(run.summary).to.match(/2 scenarios \(2 passed\)/);
          return;
        }
        expect(run.success, `the run fails${dump}`).to.equal(false);
        expect(run.summary, dump).to.match(/2 scenarios \(1 failed, 1 passed\)/);
        const notPassed = run.scenarios
          .flatMap((s) => s.steps)
          .filter((s) => s.status !== 'PASSED' && s.status !== 'SKIPPED');
        expect(
          notPassed.map((s) => `${s.status} ${s.text}`),
          `exactly one step fails (no undefined or ambiguous ones)${dump}`,
        ).to.deep.equal([`FAILED ${c.failingStep}`]);
        const failed = notPassed[0];
        // Steps after the failing one are skipped; the After hook runs and passes.
        const after = bad!.steps.slice(bad!.steps.indexOf(failed) + 1);
        expect(
          after.filter((s) => !s.hook).every((s) => s.status === 'SKIPPED'),
          dump,
        ).to.equal(true);
        const message = failed.errorMessage ?? '';
        for (const fragment of c.says) {
          if (typeof fragment === 'string') expect(message, 'the error message').to.include(fragment);
          else expect(message, 'the error message').to.match(fragment);
        }
        expect(message, 'the message embeds no stack trace').to.not.match(STACK_LINE);
        expect(failed.printed ?? '', "a user's mistake is printed without a stack trace into the core").to.not.match(
          STACK_LINE,
        );
        expect(message, 'the message names no file of the core').to.not.include(path.join(ROOT, 'src'));
        expect(failed.errorType, `a scenario error, not a crash of the core: ${message}`).to.not.be.oneOf([
          'TypeError',
          'RangeError',
          'ReferenceError',
          'SyntaxError',
          'AssertionError',
        ]);
        // What cucumber prints: the message first, the stack after it.
        expect(failed.printed ?? '', 'cucumber prints the message').to.include(message.split('\n')[0]);
        c.check?.(failed, run);
      });
    });

    it('reports a run that does not answer in time as a hang instead of waiting for ever', async () => {
      // Checks the guard itself: with a 1 ms budget no run can answer, so the worker is ended and
      // the run rejected (a core stuck in a synchronous loop would be ended the same way).
      const file = path.join(dir, 'hang-probe.feature');
      writeFileSync(file, featureText({ name: 'probe', steps: NODE_AND_POD, passes: true }));
      let error: Error | undefined;
      try {
        await runner.run(file, 1);
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).to.match(/did not finish within 1 ms of wall time \(a hang\)/);
    });
  });
}

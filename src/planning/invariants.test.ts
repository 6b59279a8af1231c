/**
 * Property-based tests (fast-check): random operation sequences against a fresh Cluster (1–2
 * nodes, 1–3 pods declared up front (some with a regular init container), then creates, deletes with random DeleteOptions, finalizer
 * edits, status patches, time, kubelet restarts, partitions, SIGTERM behaviours), each ending with
 * every node reachable, every `example.com/x` finalizer removed and the cluster settled. After each
 * sequence the invariants of src/planning/invariants.ts must hold:
 *   1 resourceVersion = revision, strictly increasing      5 every watch stream = storage history
 *   2 removal only without finalizers and with dGP 0       6 no container runs at the kubelet's final DELETE
 *   3 deletionTimestamp never later (but the write's own time, V1), dGP never larger   7 every DELETED follows a version with dT
 *   4 deletionTimestamp never cleared                      8 same sequence → same timeline, byte for byte
 *   9 (liveness) the cluster settles, nothing is left terminating, nothing runs for a pod gone from the API,
 *     and every pod that is neither terminating nor finished has a ready sandbox on its node
 * Invariant 6 also requires the pod's sandbox to be stopped at the kubelet's final DELETE.
 *
 * Environment:
 *   PROPERTY_RUNS=N    number of random sequences (default 200, a few seconds; full run: PROPERTY_RUNS=10000)
 *   PROPERTY_SEED=S    fast-check seed (a failure prints the seed and path to replay it)
 *   PROPERTY_PATH=P    with PROPERTY_SEED: replay exactly the shrunk counterexample
 *
 *   node --require ./scripts/ts-hook.js --test src/planning/invariants.test.ts
 *   PROPERTY_RUNS=10000 node --require ./scripts/ts-hook.js --test src/planning/invariants.test.ts
 *
 * A failure shrinks (fast-check, then a greedy pass: minimise) to a minimal sequence and is printed
 * as a ready-to-paste Gherkin scenario (steps/*.ts vocabulary), with the violated invariants as
 * comments above it, plus the seed/path that replays it. The minimal sequences of bugs these
 * properties found are kept below as regressions.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import fc from 'fast-check';
import { checkRun, checkScenario, invariantsOf, minimise } from './invariants';
import { scenarioArb } from './property-generators';
import { runScenario } from './property-run';
import { toGherkin, type Op, type Scenario } from './property-scenario';

/** A whole number from the environment, or one line naming the variable and what it takes (NaN would run nothing and pass). */
function wholeNumber(name: string, text: string, min: number): number {
  if (!/^[+-]?\d+$/.test(text) || Number(text) < min)
    throw new Error(`${name} is a whole number${min > 0 ? ` of at least ${min}` : ''}, not "${text}"`);
  return Number(text);
}
const RUNS = wholeNumber('PROPERTY_RUNS', process.env.PROPERTY_RUNS ?? '200', 1);
const SEED =
  process.env.PROPERTY_SEED === undefined
    ? undefined
    : wholeNumber('PROPERTY_SEED', process.env.PROPERTY_SEED, -Infinity);
const PATH = process.env.PROPERTY_PATH;

class InvariantViolation extends Error {
  constructor(readonly violations: string[]) {
    super(violations.join('\n'));
  }
}

function counted(scenario: Scenario): string[] {
  return checkScenario(scenario).violations;
}

/**
 * The report of a failed fc.check: what broke, how to replay it, and the minimal sequence (fast-check's
 * shrunk counterexample, then minimised greedily for the same invariants) as Gherkin.
 */
function failureReport(details: fc.RunDetails<[Scenario]>): string {
  const shrunk = details.counterexample?.[0];
  const head = `after ${details.numRuns} runs and ${details.numShrinks} shrinks (replay: PROPERTY_SEED=${details.seed} PROPERTY_PATH=${details.counterexamplePath})`;
  if (!shrunk) return `${head}: ${String(details.errorInstance)}`;
  const err = details.errorInstance;
  if (!(err instanceof InvariantViolation)) {
    const msg = err instanceof Error ? (err.stack ?? err.message) : String(err);
    return [
      `the run threw ${head}:`,
      msg,
      '',
      toGherkin(shrunk, shrunk.ops, { comments: ['The run throws:', msg.split('\n')[0]] }),
      `Scenario value: ${JSON.stringify(shrunk)}`,
    ].join('\n');
  }
  const wanted = invariantsOf(err.violations);
  const scenario = minimise(shrunk, (s) => {
    try {
      return counted(s).some((v) => wanted.has(v.split(':')[0]));
    } catch {
      return false;
    }
  });
  const violations = counted(scenario);
  const steps = runScenario(scenario).steps;
  return [
    `invariants violated ${head}:`,
    ...violations.map((v) => `  - ${v}`),
    '',
    'Minimal sequence as a scenario (paste into a .feature file):',
    '',
    toGherkin(scenario, steps, {
      title: 'minimal sequence found by src/planning/invariants.test.ts',
      comments: ['Invariants violated:', ...violations.map((v) => `  ${v}`)],
    }),
    `Scenario value: ${JSON.stringify(scenario)}`,
  ].join('\n');
}

describe(`invariants hold for random operation sequences (PROPERTY_RUNS=${RUNS})`, () => {
  it('1–9: revisions, removal rules, deletion fields, watch streams, final DELETE, determinism, settling', () => {
    const property = fc.property(scenarioArb, (scenario) => {
      const violations = counted(scenario);
      if (violations.length > 0) throw new InvariantViolation(violations);
    });
    const details = fc.check(property, {
      numRuns: RUNS,
      ...(SEED !== undefined ? { seed: SEED } : {}),
      ...(PATH ? { path: PATH } : {}),
    });
    if (details.failed) throw new Error(failureReport(details));
  });

  it('regressions: minimal sequences that once broke an invariant hold now', () => {
    for (const [id, scenario] of Object.entries(REGRESSIONS)) {
      expect(checkScenario(scenario).violations, id).to.deep.equal([]);
    }
  });
});

/**
 * Minimal sequences of bugs these properties found, as printed when they were found.
 * housekeeping-before-sources-ready: a kubelet restarted while its node was cut off ran
 * HandlePodCleanups before its apiserver source had delivered anything and killed every running
 * pod as an orphan (upstream syncLoopIteration skips housekeeping until sourcesReady).
 * same-name-pod-inherits-behaviour: container behaviours were keyed by pod name, so a pod created
 * with the name of a completed one inherited "exits 0 on its own" and crash-looped under
 * restartPolicy Always for ever; they are keyed by uid now (ClusterPlan.userCreated).
 */
const REGRESSIONS: Record<string, Scenario> = {
  'housekeeping-before-sources-ready': {
    nodes: ['n1'],
    pods: [{ name: 'p1', kind: 'running', node: 'n1', finalizer: false }],
    ops: [
      { op: 'reachable', node: 'n1', reachable: false },
      { op: 'restartKubelet', node: 'n1' },
      { op: 'wait', ms: 5000 },
    ],
  },
  'same-name-pod-inherits-behaviour': {
    nodes: ['n1'],
    pods: [{ name: 'p1', kind: 'completed', node: 'n1' }],
    ops: [
      { op: 'reachable', node: 'n1', reachable: false },
      { op: 'delete', pod: 'p1' },
      { op: 'create', pod: 'p1', node: 'n1' },
      { op: 'sigterm', pod: 'p1', sigterm: { kind: 'ignores' } },
    ],
  },
};

describe('the invariant checks themselves', () => {
  const scenario: Scenario = {
    nodes: ['n1'],
    pods: [{ name: 'p1', kind: 'running', node: 'n1', finalizer: true }],
    ops: [
      { op: 'delete', pod: 'p1' },
      { op: 'wait', ms: 60_000 },
    ],
  };

  it('a plain graceful deletion with a finalizer passes every check', () => {
    const { run, violations } = checkScenario(scenario);
    expect(violations).to.deep.equal([]);
    expect(run.steps.map((s) => s.op.op)).to.deep.equal(['delete', 'wait', 'removeFinalizer', 'settle']);
    expect(run.cluster.apiserver.get('pods', 'default', 'p1').ok).to.equal(false);
  });

  it('a gap in a watch stream is reported (5)', () => {
    const run = runScenario(scenario);
    run.watchFromStart.splice(2, 1);
    expect(checkRun(run).some((v) => v.startsWith('5: the unfiltered pods watch'))).to.equal(true);
  });

  it('a DELETED event after a version without deletionTimestamp is reported (7)', () => {
    const run = runScenario(scenario);
    const del = run.watchFromStart.findIndex((e) => e.type === 'DELETED');
    run.watchFromStart.splice(1, del - 1);
    expect(checkRun(run).some((v) => v.startsWith('7: DELETED'))).to.equal(true);
  });
  it('a final DELETE announced while a container runs is reported (6)', () => {
    const run = runScenario({
      nodes: ['n1'],
      pods: [{ name: 'p1', kind: 'running', node: 'n1', finalizer: false }],
      ops: [],
    });
    const uid = run.cluster.apiserver.get('pods', 'default', 'p1');
    expect(uid.ok).to.equal(true);
    run.cluster.timeline.record(
      'status',
      `DELETE pods/p1 gracePeriodSeconds=0 preconditions.uid=${uid.ok ? uid.object.metadata.uid : ''}`,
      'test',
      { actor: 'n1' },
    );
    expect(run.liveViolations).to.have.length(1);
    expect(run.liveViolations[0]).to.match(/^6: .* while container\(s\) app still run on node n1$/);
  });

  it('minimise drops what the failure does not need', () => {
    const scenario: Scenario = {
      nodes: ['n1', 'n2'],
      pods: [
        { name: 'p1', kind: 'running', node: 'n2', finalizer: true, tgps: 5 },
        { name: 'p2', kind: 'unscheduled' },
      ],
      ops: [
        { op: 'wait', ms: 12_345 },
        { op: 'delete', pod: 'p1', grace: 0, policy: 'Orphan', dryRun: true },
        { op: 'restartKubelet', node: 'n2' },
      ],
    };
    const min = minimise(scenario, (s) => s.ops.some((o) => o.op === 'delete' && o.grace === 0) && s.pods.length > 0);
    expect(min).to.deep.equal({
      nodes: ['n1'],
      pods: [{ name: 'p2', kind: 'unscheduled' }],
      ops: [{ op: 'delete', pod: 'p1', grace: 0 }],
    });
  });
});

describe('toGherkin', () => {
  it('prints a sequence in the scenario vocabulary, skipped operations as comments', () => {
    const scenario: Scenario = {
      nodes: ['n1', 'n2'],
      pods: [
        { name: 'p1', kind: 'running', node: 'n1', finalizer: true, tgps: 5, sigterm: { kind: 'ignores' } },
        { name: 'p2', kind: 'completed', node: 'n2' },
        { name: 'p3', kind: 'unscheduled' },
      ],
      ops: [],
    };
    const steps = [
      { op: { op: 'delete', pod: 'p1', grace: 0, policy: 'Foreground', uid: 'current', dryRun: true } },
      { op: { op: 'delete', pod: 'p2' } },
      { op: { op: 'delete', pod: 'p3', uid: 'wrong' } },
      { op: { op: 'wait', ms: 30_000 } },
      { op: { op: 'wait', ms: 1500 } },
      { op: { op: 'reachable', node: 'n1', reachable: false } },
      { op: { op: 'restartKubelet', node: 'n2' } },
      { op: { op: 'sigterm', pod: 'p2', sigterm: { kind: 'exits', afterMs: 2000 } } },
      { op: { op: 'create', pod: 'p4', node: 'n2' } },
      { op: { op: 'removeFinalizer', pod: 'p4' }, skipped: 'the pod has no finalizer example.com/x' },
      { op: { op: 'addFinalizer', pod: 'p4' } },
      { op: { op: 'setCondition', pod: 'p4', status: 'True' } },
      { op: { op: 'reachable', node: 'n1', reachable: true } },
      { op: { op: 'removeFinalizer', pod: 'p1' } },
      { op: { op: 'settle' } },
    ] as const satisfies readonly { op: Op; skipped?: string }[];
    const expected = `  # Invariants violated:
  #   2: …
  Scenario: example
    Given a node "n1"
    And a node "n2"
    And a pod "p1" running on node "n1" with:
      """
      metadata:
        finalizers: [example.com/x]
      spec:
        terminationGracePeriodSeconds: 5
      """
    And container "app" of pod "p1" ignores SIGTERM
    And a pod "p2" on node "n2" whose containers have completed
    And a pod "p3" that is not scheduled to any node
    When the user deletes pod "p1" with options:
      """
      gracePeriodSeconds: 0
      propagationPolicy: Foreground
      preconditions:
        uid: <uid of pod "p1">
      dryRun: [All]
      """
    And the user deletes pod "p2"
    And the user deletes pod "p3" with options:
      """
      preconditions:
        uid: "00000000-0000-4000-8000-000000000000"
      """
    And 30s pass
    And 1500ms pass
    And node "n1" becomes unreachable
    And the kubelet on node "n2" restarts
    And container "app" of pod "p2" exits 2s after SIGTERM
    And the user creates pod "p4" on node "n2"
    # (skipped, the pod has no finalizer example.com/x) a controller removes finalizer "example.com/x" from pod "p4"
    And a controller adds finalizer "example.com/x" to pod "p4"
    And a controller sets condition "example.com/Harmless" of pod "p4" to "True"
    And node "n1" becomes reachable again
    And a controller removes finalizer "example.com/x" from pod "p1"
    And the cluster settles
`;
    expect(toGherkin(scenario, steps, { title: 'example', comments: ['Invariants violated:', '  2: …'] })).to.equal(
      expected,
    );
  });

  it('accepts a plain operation list', () => {
    const text = toGherkin({ nodes: ['n1'], pods: [{ name: 'p1', kind: 'running', node: 'n1', finalizer: false }] }, [
      { op: 'delete', pod: 'p1', grace: -1 },
      { op: 'wait', ms: 1000 },
    ]);
    expect(text).to.equal(`  Scenario: found by the property tests (src/planning/invariants.test.ts)
    Given a node "n1"
    And a pod "p1" running on node "n1"
    When the user deletes pod "p1" with options:
      """
      gracePeriodSeconds: -1
      """
    And 1s passes
`);
  });

  it('K56 prints a pod with an init container as its manifest (one spec key) and the init container step', () => {
    const text = toGherkin(
      { nodes: ['n1'], pods: [{ name: 'p1', kind: 'running', node: 'n1', finalizer: false, tgps: 5, init: 90_000 }] },
      [{ op: 'delete', pod: 'p1' }],
    );
    expect(text).to.equal(`  Scenario: found by the property tests (src/planning/invariants.test.ts)
    Given a node "n1"
    And a pod "p1" running on node "n1" with:
      """
      spec:
        terminationGracePeriodSeconds: 5
        initContainers: [{name: setup}]
      """
    And init container "setup" of pod "p1" completes after 90s
    When the user deletes pod "p1"
`);
  });
});

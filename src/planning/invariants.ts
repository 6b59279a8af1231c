/**
 * Random operation sequences against a fresh Cluster, the invariants every run must keep, and the
 * Gherkin that replays a sequence through the scenario vocabulary (steps/*.ts). Used by
 * invariants.test.ts (fast-check properties); kept apart so a failing case can be replayed by hand:
 *
 *   node --require ./scripts/ts-hook.js -e \
 *     "const i = require('./src/planning/invariants'); const r = i.runScenario(SCENARIO); console.log(i.checkRun(r))"
 *
 * The runner drives the cluster exactly as the step definitions do (steps/support/world.ts ensureStarted,
 * steps/definitions/actions.steps.ts, steps/definitions/setup.steps.ts): same setup order, same request bodies (a delete's
 * options are the very YAML doc string the Gherkin shows, parsed and filled in the same way), same
 * flush after each action. So the Gherkin printed for a sequence replays it event for event.
 */
import fc from 'fast-check';
import type { EtcdEvent } from '../apiserver/etcd';
import { toTime } from '../apimachinery/object';
import type { KubeObject } from '../apimachinery/object';
import type { DeleteOptions, Pod, PodCondition } from '../apimachinery/types';
import type { WatchEvent } from '../apiserver/watch';
import { Cluster, CONTROLLER, USER } from '../cluster/cluster';
import { WARMUP_MS } from './cluster-plan';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour, type SigtermBehaviour } from '../components/kubelet/runtime';
import { parseYaml, podFromManifest } from './manifest';
import type { TimelineEvent } from '../foundation/timeline/event';
import { formatOffset } from '../foundation/timeline/time';
import { append } from '../foundation/widest';

// ---- the operations ----

export const FINALIZER = 'example.com/x';
export const CONDITION = 'example.com/Harmless';
/** A UID that no object has (preconditions.uid "wrong"). */
export const WRONG_UID = '00000000-0000-4000-8000-000000000000';

/** The regular init container `setup` a running pod may have: it completes this long after the pod started (K56). */
export const INIT_CONTAINER = 'setup';

/** SIGTERM behaviours the vocabulary can express (there is no step back to the default "dies"). */
export type Sigterm = { kind: 'ignores' } | { kind: 'exits'; afterMs: number };

/** A pod declared by a Given step, created before T+0. */
export type InitialPod =
  | { name: string; kind: 'running'; node: string; finalizer: boolean; tgps?: number; sigterm?: Sigterm; init?: number }
  | { name: string; kind: 'completed' | 'failed'; node: string }
  | { name: string; kind: 'unscheduled' };

export type Op =
  | { op: 'create'; pod: string; node: string }
  | {
      op: 'delete';
      pod: string;
      grace?: number;
      policy?: 'Background' | 'Foreground' | 'Orphan';
      uid?: 'current' | 'wrong';
      dryRun?: boolean;
    }
  | { op: 'addFinalizer'; pod: string }
  | { op: 'removeFinalizer'; pod: string }
  | { op: 'setCondition'; pod: string; status: 'True' | 'False' }
  | { op: 'wait'; ms: number }
  | { op: 'restartKubelet'; node: string }
  | { op: 'reachable'; node: string; reachable: boolean }
  | { op: 'sigterm'; pod: string; sigterm: Sigterm }
  | { op: 'settle' };

export interface Scenario {
  nodes: string[];
  pods: InitialPod[];
  ops: Op[];
}

/** One executed operation; `skipped` says why it sent nothing (its step would have failed as a ScenarioError). */
export interface Step {
  op: Op;
  skipped?: string;
}

// ---- the Gherkin vocabulary (steps/*.ts, docs/steps.md) ----

/** The `with:` manifest of a running pod, or undefined when the plain step declares it. */
export function manifestOf(p: InitialPod): string | undefined {
  if (p.kind !== 'running') return undefined;
  const lines: string[] = [];
  if (p.finalizer) lines.push('metadata:', `  finalizers: [${FINALIZER}]`);
  if (p.tgps !== undefined || p.init !== undefined) lines.push('spec:');
  if (p.tgps !== undefined) lines.push(`  terminationGracePeriodSeconds: ${p.tgps}`);
  if (p.init !== undefined) lines.push(`  initContainers: [{name: ${INIT_CONTAINER}}]`);
  return lines.length ? lines.join('\n') + '\n' : undefined;
}

/** The DeleteOptions doc string of a delete (undefined: `When the user deletes pod "NAME"`, which sends `{}`). */
export function deleteDocOf(op: Extract<Op, { op: 'delete' }>): string | undefined {
  const lines: string[] = [];
  if (op.grace !== undefined) lines.push(`gracePeriodSeconds: ${op.grace}`);
  if (op.policy !== undefined) lines.push(`propagationPolicy: ${op.policy}`);
  if (op.uid === 'current') lines.push('preconditions:', `  uid: <uid of pod "${op.pod}">`);
  if (op.uid === 'wrong') lines.push('preconditions:', `  uid: "${WRONG_UID}"`);
  if (op.dryRun) lines.push('dryRun: [All]');
  return lines.length ? lines.join('\n') + '\n' : undefined;
}

export function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function sigtermStep(pod: string, s: Sigterm): string {
  return s.kind === 'ignores'
    ? `container "app" of pod "${pod}" ignores SIGTERM`
    : `container "app" of pod "${pod}" exits ${formatDuration(s.afterMs)} after SIGTERM`;
}

function docString(doc: string, indent: string): string[] {
  return [
    `${indent}"""`,
    ...doc
      .trimEnd()
      .split('\n')
      .map((l) => indent + l),
    `${indent}"""`,
  ];
}

/** The step text (without keyword) and doc string of one operation. */
function stepOf(op: Op): { text: string; doc?: string } {
  switch (op.op) {
    case 'create':
      return { text: `the user creates pod "${op.pod}" on node "${op.node}"` };
    case 'delete': {
      const doc = deleteDocOf(op);
      return doc
        ? { text: `the user deletes pod "${op.pod}" with options:`, doc }
        : { text: `the user deletes pod "${op.pod}"` };
    }
    case 'addFinalizer':
      return { text: `a controller adds finalizer "${FINALIZER}" to pod "${op.pod}"` };
    case 'removeFinalizer':
      return { text: `a controller removes finalizer "${FINALIZER}" from pod "${op.pod}"` };
    case 'setCondition':
      return { text: `a controller sets condition "${CONDITION}" of pod "${op.pod}" to "${op.status}"` };
    case 'wait':
      return { text: `${formatDuration(op.ms)} ${op.ms === 1000 ? 'passes' : 'pass'}` };
    case 'restartKubelet':
      return { text: `the kubelet on node "${op.node}" restarts` };
    case 'reachable':
      return {
        text: op.reachable ? `node "${op.node}" becomes reachable again` : `node "${op.node}" becomes unreachable`,
      };
    case 'sigterm':
      return { text: sigtermStep(op.pod, op.sigterm) };
    case 'settle':
      return { text: 'the cluster settles' };
  }
}

/**
 * A scenario as ready-to-paste Gherkin (indented for a Feature file). `steps` are the executed
 * operations (with the clean-up the runner appended); skipped ones become comments, since their
 * step would fail. `comments` go above the Scenario line (e.g. the invariants it violates).
 */
export function toGherkin(
  scenario: Pick<Scenario, 'nodes' | 'pods'>,
  steps: readonly (Step | Op)[],
  opts: { title?: string; comments?: readonly string[] } = {},
): string {
  const out: string[] = [];
  for (const c of opts.comments ?? []) for (const line of c.split('\n')) out.push(`  # ${line}`);
  out.push(`  Scenario: ${opts.title ?? 'found by the property tests (src/planning/invariants.test.ts)'}`);
  const given: { text: string; doc?: string }[] = [];
  for (const n of scenario.nodes) given.push({ text: `a node "${n}"` });
  for (const p of scenario.pods) {
    if (p.kind === 'unscheduled') given.push({ text: `a pod "${p.name}" that is not scheduled to any node` });
    else if (p.kind === 'completed' || p.kind === 'failed')
      given.push({ text: `a pod "${p.name}" on node "${p.node}" whose containers have ${p.kind}` });
    else if (p.kind === 'running') {
      const doc = manifestOf(p);
      given.push(
        doc
          ? { text: `a pod "${p.name}" running on node "${p.node}" with:`, doc }
          : { text: `a pod "${p.name}" running on node "${p.node}"` },
      );
      if (p.sigterm) given.push({ text: sigtermStep(p.name, p.sigterm) });
      if (p.init !== undefined)
        given.push({
          text: `init container "${INIT_CONTAINER}" of pod "${p.name}" completes after ${formatDuration(p.init)}`,
        });
    }
  }
  given.forEach((g, i) => {
    out.push(`    ${i === 0 ? 'Given' : 'And'} ${g.text}`);
    if (g.doc) append(out, docString(g.doc, '      '));
  });
  let first = true;
  for (const s of steps) {
    const step: Step = 'op' in s && typeof s.op === 'object' ? (s as Step) : { op: s as Op };
    const { text, doc } = stepOf(step.op);
    if (step.skipped) {
      out.push(`    # (skipped, ${step.skipped}) ${text}`);
      continue;
    }
    out.push(`    ${first ? 'When' : 'And'} ${text}`);
    if (doc) append(out, docString(doc, '      '));
    first = false;
  }
  return out.join('\n') + '\n';
}

// ---- generators: raw choices (indices), normalised into a Scenario so shrinking stays simple ----

const NODES = ['n1', 'n2'];
const POD_NAMES = ['p1', 'p2', 'p3', 'p4'];

const sigtermArb: fc.Arbitrary<Sigterm> = fc.oneof(
  fc.constant<Sigterm>({ kind: 'ignores' }),
  fc.constantFrom(500, 1000, 5000, 20_000, 45_000).map((afterMs): Sigterm => ({ kind: 'exits', afterMs })),
);

const optional = <T>(arb: fc.Arbitrary<T>, freq = 2) => fc.option(arb, { nil: undefined, freq });

const initialPodArb = fc.record({
  node: fc.nat(1),
  kind: fc.oneof(
    { arbitrary: fc.constant('running' as const), weight: 6 },
    { arbitrary: fc.constantFrom('completed' as const, 'failed' as const, 'unscheduled' as const), weight: 2 },
  ),
  finalizer: fc.boolean(),
  tgps: optional(fc.constantFrom(0, 1, 5, 30, 60)),
  sigterm: optional(sigtermArb),
  // One running pod in four has an init container, still running at T+0 or done by then.
  init: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(30_000, 90_000, 600_000) },
  ),
});

type RawOp =
  | { op: 'create'; pod: number; node: number }
  | {
      op: 'delete';
      pod: number;
      grace?: number;
      policy?: 'Background' | 'Foreground' | 'Orphan';
      uid?: 'current' | 'wrong';
      dryRun: boolean;
    }
  | { op: 'addFinalizer' | 'removeFinalizer'; pod: number }
  | { op: 'setCondition'; pod: number; status: 'True' | 'False' }
  | { op: 'wait'; ms: number }
  | { op: 'restartKubelet'; node: number }
  | { op: 'reachable'; node: number; reachable: boolean }
  | { op: 'sigterm'; pod: number; sigterm: Sigterm };

const podIndex = fc.nat(3);
const nodeIndex = fc.nat(1);
const rawOpArb: fc.Arbitrary<RawOp> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('create' as const), pod: podIndex, node: nodeIndex }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      pod: podIndex,
      grace: optional(fc.constantFrom(-1, 0, 1, 5, 30, 60), 3),
      policy: optional(fc.constantFrom('Background' as const, 'Foreground' as const, 'Orphan' as const), 2),
      uid: optional(fc.constantFrom('current' as const, 'wrong' as const), 2),
      dryRun: fc.nat(6).map((n) => n === 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constantFrom('addFinalizer' as const, 'removeFinalizer' as const), pod: podIndex }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('setCondition' as const),
      pod: podIndex,
      status: fc.constantFrom('True' as const, 'False' as const),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('wait' as const),
      ms: fc.oneof(
        fc.constantFrom(0, 1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000),
        fc.integer({ min: 0, max: 120_000 }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restartKubelet' as const), node: nodeIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('reachable' as const), node: nodeIndex, reachable: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sigterm' as const), pod: podIndex, sigterm: sigtermArb }) },
);

/** Turns the raw choices into a Scenario: names from indices, unusable operations dropped. */
type RawPod = typeof initialPodArb extends fc.Arbitrary<infer P> ? P : never;

function normalise(nodeCount: number, rawPods: RawPod[], rawOps: RawOp[]): Scenario {
  const nodes = NODES.slice(0, nodeCount);
  const nodeOf = (i: number) => nodes[i % nodes.length];
  const pods: InitialPod[] = rawPods.map((p, i) => {
    const name = POD_NAMES[i];
    if (p.kind === 'unscheduled') return { name, kind: 'unscheduled' };
    if (p.kind !== 'running') return { name, kind: p.kind, node: nodeOf(p.node) };
    return clean({
      name,
      kind: 'running',
      node: nodeOf(p.node),
      finalizer: p.finalizer,
      tgps: p.tgps,
      sigterm: p.sigterm,
      init: p.init,
    });
  });
  const ops: Op[] = [];
  for (const o of rawOps) {
    switch (o.op) {
      case 'create':
        ops.push({ op: 'create', pod: POD_NAMES[o.pod], node: nodeOf(o.node) });
        break;
      case 'delete':
        ops.push(
          clean({
            op: 'delete',
            pod: POD_NAMES[o.pod],
            grace: o.grace,
            policy: o.policy,
            uid: o.uid,
            dryRun: o.dryRun || undefined,
          }),
        );
        break;
      case 'addFinalizer':
      case 'removeFinalizer':
        ops.push({ op: o.op, pod: POD_NAMES[o.pod] });
        break;
      case 'setCondition':
        ops.push({ op: 'setCondition', pod: POD_NAMES[o.pod], status: o.status });
        break;
      case 'wait':
        ops.push({ op: 'wait', ms: o.ms });
        break;
      case 'restartKubelet':
        ops.push({ op: 'restartKubelet', node: nodeOf(o.node) });
        break;
      case 'reachable':
        ops.push({ op: 'reachable', node: nodeOf(o.node), reachable: o.reachable });
        break;
      case 'sigterm': {
        // `container … of pod …` steps only know pods declared up front (and need a node).
        const declared = pods.find((p) => p.name === POD_NAMES[o.pod]);
        if (declared && declared.kind !== 'unscheduled')
          ops.push({ op: 'sigterm', pod: declared.name, sigterm: o.sigterm });
        break;
      }
    }
  }
  return { nodes, pods, ops };
}

function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.integer({ min: 1, max: 2 }),
    fc.array(initialPodArb, { minLength: 1, maxLength: 3 }),
    fc.array(rawOpArb, { maxLength: 30, size: 'medium' }),
  )
  .map(([n, p, o]) => normalise(n, p, o));

// ---- running a scenario ----

/** One event a watch handed to its client. */
export interface Received {
  type: WatchEvent['type'];
  key: string;
  rv: string;
  object: KubeObject;
}

export interface RunResult {
  scenario: Scenario;
  steps: Step[];
  cluster: Cluster;
  /** The unfiltered pods watch opened on the fresh cluster (before anything was written). */
  watchFromStart: Received[];
  /** A second one, resumed from the list's resourceVersion at T+0. */
  watchFromT0: Received[];
  t0Revision: number;
  /** Invariant 6, checked at the moment of each kubelet final DELETE. */
  liveViolations: string[];
  settled: boolean;
  blockers: string[];
}

const key = (name: string) => `/registry/pods/default/${name}`;

/**
 * Runs a scenario the way the steps would: Given steps (nodes, pods with their behaviours, one
 * flush per pod), the warm-up, then each operation followed by a flush; at the end every node is
 * made reachable, every `example.com/x` finalizer removed and the cluster settled.
 */
export function runScenario(scenario: Scenario): RunResult {
  const cluster = new Cluster();
  const api = cluster.apiserver;
  const liveViolations: string[] = [];
  let t0 = cluster.clock.now() + WARMUP_MS;
  const offset = (now: number) => formatOffset(now - t0);

  // Invariant 6: when the status manager announces its final DELETE, nothing of the pod runs on its node.
  const timeline = cluster.timeline;
  const record = timeline.record.bind(timeline);
  timeline.record = (component, text, source, extra) => {
    const m = component === 'status' ? /^DELETE pods\/(\S+) .*preconditions\.uid=(\S+)/.exec(text) : null;
    if (m) {
      const [, name, uid] = m;
      for (const node of cluster.nodes.values()) {
        const sandbox = node.runtime.sandbox(uid);
        const running = [...(sandbox?.containers.values() ?? [])]
          .filter((c) => c.state === 'running')
          .map((c) => c.name);
        const what = `the kubelet on ${extra?.actor ?? '?'} sends its final DELETE of pods/${name} (uid ${uid}) at ${offset(cluster.clock.now())}`;
        if (running.length > 0)
          liveViolations.push(`6: ${what} while container(s) ${running.join(', ')} still run on node ${node.name}`);
        // K31/K36: killPod stopped the sandbox in SyncTerminatingPod, before SyncTerminatedPod could finish.
        else if (sandbox?.state === 'ready')
          liveViolations.push(`6: ${what} while its sandbox on node ${node.name} is still ready`);
      }
    }
    return record(component, text, source, extra);
  };

  const received = (into: Received[]) => (e: WatchEvent) =>
    into.push({
      type: e.type,
      key: key(e.object.metadata.name!),
      rv: e.object.metadata.resourceVersion!,
      object: e.object,
    });
  const watchFromStart: Received[] = [];
  const w = api.watch('pods', undefined, {}, received(watchFromStart));
  if (!w.ok) throw new Error(`cannot watch pods: ${w.status.message}`);

  // Given: steps/support/world.ts ensureStarted.
  // Behaviours are keyed by uid, as ClusterPlan sets them: a later pod of the same name is another pod.
  const planned = new Map<string, { node?: string; uid: string; behaviour?: ContainerBehaviour }>();
  for (const n of scenario.nodes) cluster.addNode(n);
  for (const p of scenario.pods) {
    const node = p.kind === 'unscheduled' ? undefined : p.node;
    let behaviour: ContainerBehaviour | undefined;
    let manifest = manifestOf(p);
    if (p.kind === 'completed' || p.kind === 'failed') {
      manifest = 'spec:\n  restartPolicy: Never\n';
      behaviour = { ...DEFAULT_BEHAVIOUR, exitsOnItsOwn: p.kind === 'completed' ? 0 : 1 };
    } else if (p.kind === 'running' && p.sigterm)
      behaviour = { ...DEFAULT_BEHAVIOUR, sigterm: p.sigterm as SigtermBehaviour };
    const r = api.create(USER, 'pods', 'default', podFromManifest(p.name, node, manifest));
    if (!r.ok) throw new Error(`pod "${p.name}" could not be created: ${r.status.message}`);
    const uid = r.object.metadata.uid!;
    planned.set(p.name, { node, uid, behaviour });
    if (node && behaviour) cluster.node(node).containerBehaviours.set(`${uid} app`, behaviour);
    if (node && p.kind === 'running' && p.init !== undefined)
      cluster.node(node).containerBehaviours.set(`${uid} ${INIT_CONTAINER}`, {
        ...DEFAULT_BEHAVIOUR,
        exitsOnItsOwn: 0,
        runsForMs: p.init,
      });
    cluster.flush();
  }
  cluster.flush();
  cluster.advance(WARMUP_MS);
  t0 = cluster.clock.now();

  const list = api.list('pods', undefined);
  const t0Revision = Number(list.ok ? list.object.resourceVersion : 0);
  const watchFromT0: Received[] = [];
  const w2 = api.watch('pods', undefined, { resourceVersion: String(t0Revision) }, received(watchFromT0));
  if (!w2.ok) throw new Error(`cannot watch pods from ${t0Revision}: ${w2.status.message}`);

  const steps: Step[] = [];
  let settled = true;
  let blockers: string[] = [];
  const apply = (op: Op): void => {
    const step: Step = { op };
    steps.push(step);
    const skip = (why: string) => void (step.skipped = why);
    switch (op.op) {
      case 'create': {
        // A created pod is a plain running one (ClusterPlan.userCreated): it does not inherit the
        // behaviour planned for an earlier pod of that name (a container that completes would
        // crash-loop under Always, K55), and later ops on the name mean it.
        const r = api.create(USER, 'pods', 'default', podFromManifest(op.pod, op.node, undefined));
        if (r.ok) planned.set(op.pod, { node: op.node, uid: r.object.metadata.uid! });
        break;
      }
      case 'delete': {
        const doc = deleteDocOf(op);
        if (doc === undefined) {
          api.delete(USER, 'pods', 'default', op.pod, {});
          break;
        }
        const got = api.get('pods', 'default', op.pod);
        if (op.uid === 'current' && !got.ok) return skip('the pod does not exist, so <uid of pod> cannot be filled in');
        const filled = doc.replace(/<uid of pod "[^"]+">/, () => JSON.stringify(got.ok ? got.object.metadata.uid : ''));
        api.delete(USER, 'pods', 'default', op.pod, parseYaml(filled, 'DeleteOptions') as DeleteOptions);
        break;
      }
      case 'addFinalizer':
      case 'removeFinalizer': {
        // steps/definitions/actions.steps.ts updateFinalizers: GET, change a copy, UPDATE.
        const got = api.get('pods', 'default', op.pod);
        if (!got.ok) return skip('the pod does not exist');
        const pod: Pod = structuredClone(got.object);
        const fs = pod.metadata.finalizers ?? [];
        if (op.op === 'removeFinalizer' && !fs.includes(FINALIZER))
          return skip(`the pod has no finalizer ${FINALIZER}`);
        pod.metadata.finalizers = op.op === 'addFinalizer' ? [...fs, FINALIZER] : fs.filter((f) => f !== FINALIZER);
        api.update(CONTROLLER, 'pods', 'default', pod);
        break;
      }
      case 'setCondition': {
        const got = api.get('pods', 'default', op.pod);
        if (!got.ok) return skip('the pod does not exist');
        const conditions: PodCondition[] = [
          ...(got.object.status?.conditions ?? []).filter((c) => c.type !== CONDITION),
          { type: CONDITION, status: op.status },
        ];
        api.patch(
          CONTROLLER,
          'pods',
          'default',
          op.pod,
          'merge',
          { status: { conditions } },
          { subresource: 'status' },
        );
        break;
      }
      case 'wait':
        cluster.advance(op.ms);
        return;
      case 'restartKubelet':
        cluster.node(op.node).restartKubelet();
        break;
      case 'reachable':
        cluster.node(op.node).setReachable(op.reachable);
        break;
      case 'sigterm': {
        // ClusterPlan.containerBehaviour after T+0: merged into the planned behaviour, set on the planned pod's node.
        const p = planned.get(op.pod);
        if (!p) throw new Error(`sigterm op for undeclared pod "${op.pod}"`);
        p.behaviour = { ...(p.behaviour ?? DEFAULT_BEHAVIOUR), sigterm: op.sigterm as SigtermBehaviour };
        if (p.node) cluster.node(p.node).containerBehaviours.set(`${p.uid} app`, p.behaviour);
        return;
      }
      case 'settle': {
        const r = cluster.settle();
        settled = r.settled;
        blockers = r.settled ? [] : r.blockers;
        return;
      }
    }
    cluster.flush();
  };

  for (const op of scenario.ops) apply(op);
  // Clean-up: every node reachable, every example.com/x finalizer removed, then settle.
  for (const n of scenario.nodes) if (!cluster.node(n).reachable) apply({ op: 'reachable', node: n, reachable: true });
  const pods = api.list('pods', 'default');
  for (const p of pods.ok ? pods.object.items : [])
    if ((p.metadata.finalizers ?? []).includes(FINALIZER)) apply({ op: 'removeFinalizer', pod: p.metadata.name! });
  apply({ op: 'settle' });

  return { scenario, steps, cluster, watchFromStart, watchFromT0, t0Revision, liveViolations, settled, blockers };
}

// ---- the invariants ----

type Meta = KubeObject['metadata'];
const metaOf = (o: unknown): Meta => (o as KubeObject).metadata;
const isPodKey = (k: string) => k.startsWith('/registry/pods/');

function describeEvent(e: EtcdEvent): string {
  return `rev ${e.revision} ${e.type} ${e.key}`;
}

/**
 * Checks invariants 1–7 and 9 (8, determinism, needs two runs: see sameTimeline) on a finished run.
 * Returns one message per violation, each starting with the invariant's number.
 */
export function checkRun(r: RunResult): string[] {
  const v: string[] = [...r.liveViolations];
  const api = r.cluster.apiserver;
  const history = api.etcd.fullHistory();

  // 1. Revisions strictly increase; a PUT's value carries its revision; a DELETE's value the deletion revision (R52, R57).
  let last = 1;
  for (const e of history) {
    if (e.revision <= last) v.push(`1: ${describeEvent(e)} follows revision ${last}`);
    last = e.revision;
    const rv = metaOf(e.value).resourceVersion;
    if (rv !== String(e.revision)) v.push(`1: ${describeEvent(e)} stores resourceVersion ${rv}`);
  }

  const podEvents = history.filter((e) => isPodKey(e.key));
  // 2. An object leaves storage only without finalizers and with deletionGracePeriodSeconds 0.
  for (const e of podEvents) {
    if (e.type !== 'DELETE') continue;
    const prev = metaOf(e.prev);
    const req = api.request(e.requestId);
    const where = `${describeEvent(e)} (request #${e.requestId} ${req?.verb ?? '?'} ${req?.name ?? ''})`;
    if (!req) {
      v.push(`2: ${where} was caused by no API request`);
      continue;
    }
    if (prev.deletionTimestamp === undefined) v.push(`2: ${where} removed a pod without deletionTimestamp`);
    if (req.verb === 'DELETE') {
      if ((prev.finalizers ?? []).length > 0)
        v.push(`2: ${where} removed a pod whose stored finalizers were ${JSON.stringify(prev.finalizers)}`);
      if (prev.deletionGracePeriodSeconds !== 0)
        v.push(
          `2: ${where} removed a pod whose stored deletionGracePeriodSeconds was ${prev.deletionGracePeriodSeconds}`,
        );
    } else if (req.verb === 'UPDATE' || req.verb === 'PATCH') {
      // R28/R30 delete-during-update: the stored version may still list the finalizer this update removed.
      const g = prev.deletionGracePeriodSeconds;
      if (g !== undefined && g !== 0)
        v.push(`2: ${where} removed (delete-during-update) a pod whose stored deletionGracePeriodSeconds was ${g}`);
      const resp = req.response;
      if (!resp?.ok) v.push(`2: ${where} removed the pod but the request answered ${resp?.code}`);
      else {
        const submitted = metaOf(resp.object).finalizers ?? [];
        if (submitted.length > 0)
          v.push(`2: ${where} removed the pod but the update still carried finalizers ${JSON.stringify(submitted)}`);
      }
    } else v.push(`2: ${where} removed the pod through a ${req.verb} request`);
  }

  // 3 and 4: per uid, deletionTimestamp never moves later nor is cleared; deletionGracePeriodSeconds
  // never grows. The one later deletionTimestamp allowed is the time of the write itself: from v1.33
  // a shortening whose computed time lies in the past stores now (V1), which may be after a deadline
  // that has already passed.
  const byUid = new Map<string, EtcdEvent[]>();
  for (const e of podEvents) {
    const uid = metaOf(e.value).uid!;
    if (!byUid.has(uid)) byUid.set(uid, []);
    byUid.get(uid)!.push(e);
  }
  for (const [uid, events] of byUid) {
    let dT: string | undefined;
    let dGP: number | undefined;
    for (const e of events) {
      const m = metaOf(e.value);
      if (dT !== undefined && m.deletionTimestamp === undefined)
        v.push(`4: ${describeEvent(e)} (uid ${uid}) clears deletionTimestamp ${dT}`);
      if (
        dT !== undefined &&
        m.deletionTimestamp !== undefined &&
        Date.parse(m.deletionTimestamp) > Date.parse(dT) &&
        m.deletionTimestamp !== toTime(e.at)
      ) {
        v.push(`3: ${describeEvent(e)} (uid ${uid}) moves deletionTimestamp later: ${dT} → ${m.deletionTimestamp}`);
      }
      if (dGP !== undefined && (m.deletionGracePeriodSeconds === undefined || m.deletionGracePeriodSeconds > dGP)) {
        v.push(
          `3: ${describeEvent(e)} (uid ${uid}) raises deletionGracePeriodSeconds: ${dGP} → ${m.deletionGracePeriodSeconds}`,
        );
      }
      if (m.deletionTimestamp !== undefined) dT = m.deletionTimestamp;
      if (m.deletionGracePeriodSeconds !== undefined) dGP = m.deletionGracePeriodSeconds;
    }
  }

  // 5. Each watcher's stream is the storage history of pods, in order, without gaps.
  const expected = (after: number): Received[] =>
    podEvents
      .filter((e) => e.revision > after)
      .map((e) => ({
        type: e.type === 'DELETE' ? 'DELETED' : e.prev ? 'MODIFIED' : 'ADDED',
        key: e.key,
        rv: String(e.revision),
        object: e.value as unknown as KubeObject,
      }));
  const compare = (name: string, got: Received[], want: Received[]) => {
    const n = Math.max(got.length, want.length);
    for (let i = 0; i < n; i++) {
      const a = got[i];
      const b = want[i];
      const same =
        a &&
        b &&
        a.type === b.type &&
        a.key === b.key &&
        a.rv === b.rv &&
        JSON.stringify(a.object) === JSON.stringify(b.object);
      if (!same) {
        const show = (x?: Received) => (x ? `${x.type} ${x.key} rv=${x.rv}` : 'nothing');
        v.push(
          `5: the ${name} watch's event #${i + 1} is ${show(a)}, storage history has ${show(b)} (received ${got.length}, history ${want.length})`,
        );
        return;
      }
    }
  };
  compare('unfiltered pods', r.watchFromStart, expected(0));
  compare(`pods (resumed from rv ${r.t0Revision})`, r.watchFromT0, expected(r.t0Revision));

  // 7. Every DELETED event follows a version (of the same uid) that carries a deletionTimestamp.
  const lastSeen = new Map<string, Received>();
  for (const e of r.watchFromStart) {
    const uid = e.object.metadata.uid!;
    if (e.type === 'DELETED') {
      const before = lastSeen.get(uid);
      if (!before) v.push(`7: DELETED ${e.key} rv=${e.rv} (uid ${uid}) without any earlier event of that object`);
      else if (before.object.metadata.deletionTimestamp === undefined)
        v.push(
          `7: DELETED ${e.key} rv=${e.rv} (uid ${uid}) follows ${before.type} rv=${before.rv}, which has no deletionTimestamp`,
        );
    }
    lastSeen.set(uid, e);
  }

  // 9. Liveness: with every node reachable and our finalizers gone, the cluster settles, no pod is
  //    left terminating, and nothing runs for a pod the API no longer has.
  if (!r.settled) v.push(`9: the cluster did not settle: ${r.blockers.join('; ')}`);
  const pods = api.list('pods', undefined);
  const stored = new Set<string>();
  for (const p of pods.ok ? pods.object.items : []) {
    stored.add(p.metadata.uid!);
    if (r.settled && p.metadata.deletionTimestamp !== undefined) {
      v.push(
        `9: pods/${p.metadata.name} is still terminating after the cluster settled (finalizers ${JSON.stringify(p.metadata.finalizers ?? [])}, dGP ${p.metadata.deletionGracePeriodSeconds}, phase ${p.status?.phase})`,
      );
    }
  }
  if (r.settled) {
    // A pod that is neither terminating nor finished runs on its node once everything is quiet.
    for (const p of pods.ok ? pods.object.items : []) {
      const nodeName = p.spec?.nodeName;
      if (
        !nodeName ||
        p.metadata.deletionTimestamp !== undefined ||
        p.status?.phase === 'Succeeded' ||
        p.status?.phase === 'Failed'
      )
        continue;
      const sandbox = r.cluster.node(nodeName).runtime.sandbox(p.metadata.uid!);
      if (sandbox?.state !== 'ready')
        v.push(
          `9: pods/${p.metadata.name} (uid ${p.metadata.uid}, phase ${p.status?.phase}) is not running on node ${nodeName} after the cluster settled (sandbox ${sandbox?.state ?? 'absent'})`,
        );
    }
    for (const node of r.cluster.nodes.values()) {
      for (const s of node.runtime.allSandboxes()) {
        if (stored.has(s.uid)) continue;
        const running = [...s.containers.values()].filter((c) => c.state === 'running').map((c) => c.name);
        if (running.length > 0)
          v.push(
            `9: on node ${node.name}, ${s.podRef} (uid ${s.uid}, gone from the API) still runs ${running.join(', ')} after the cluster settled`,
          );
      }
    }
  }
  return v;
}

/** Invariant 8: two runs of one scenario give the same timeline, byte for byte. Returns a message, or undefined. */
export function sameTimeline(a: readonly TimelineEvent[], b: readonly TimelineEvent[]): string | undefined {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x === y) return undefined;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ea = JSON.stringify(a[i]);
    const eb = JSON.stringify(b[i]);
    if (ea !== eb) return `8: the timelines differ at event #${i + 1}: ${ea ?? 'nothing'} vs ${eb ?? 'nothing'}`;
  }
  return '8: the timelines differ';
}

/** Runs a scenario twice and checks every invariant; returns the first run and all violations. */
export function checkScenario(scenario: Scenario): { run: RunResult; violations: string[] } {
  const run = runScenario(scenario);
  const violations = checkRun(run);
  const again = runScenario(scenario);
  const diff = sameTimeline(run.cluster.timeline.all(), again.cluster.timeline.all());
  if (diff) violations.push(diff);
  return { run, violations };
}

/** The invariant numbers of a list of violations ("2", "9", …). */
export function invariantsOf(violations: readonly string[]): Set<string> {
  return new Set(violations.map((v) => v.split(':')[0]));
}

/**
 * Greedy minimisation after fast-check's shrinking: drops operations, pods, the second node and
 * options, and shortens waits, as long as `fails` still holds. fast-check shrinks the raw choices
 * one position at a time; this pass removes what is left over (e.g. a pod no step needs).
 */
export function minimise(scenario: Scenario, fails: (s: Scenario) => boolean): Scenario {
  let best = scenario;
  const tryIt = (candidate: Scenario): boolean => {
    if (JSON.stringify(candidate) === JSON.stringify(best) || !fails(candidate)) return false;
    best = candidate;
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = best.ops.length - 1; i >= 0; i--) {
      if (i < best.ops.length) changed = tryIt({ ...best, ops: best.ops.filter((_, j) => j !== i) }) || changed;
    }
    for (const p of [...best.pods]) {
      const ops = best.ops.filter((o) => !(o.op === 'sigterm' && o.pod === p.name));
      changed = tryIt({ ...best, pods: best.pods.filter((q) => q !== p), ops }) || changed;
    }
    if (best.nodes.length > 1) {
      const [first, ...rest] = best.nodes;
      const remap = <T extends object>(o: T): T =>
        'node' in o && rest.includes(o.node as string) ? { ...o, node: first } : o;
      changed = tryIt({ nodes: [first], pods: best.pods.map(remap), ops: best.ops.map(remap) }) || changed;
    }
    for (let i = 0; i < best.ops.length; i++) {
      for (const simpler of simplerOps(best.ops[i]))
        changed = tryIt({ ...best, ops: best.ops.map((o, j) => (j === i ? simpler : o)) }) || changed;
    }
    for (let i = 0; i < best.pods.length; i++) {
      const p = best.pods[i];
      if (p.kind !== 'running') continue;
      const variants: InitialPod[] = [];
      if (p.finalizer) variants.push({ ...p, finalizer: false });
      if (p.tgps !== undefined) variants.push(dropKey(p, 'tgps'));
      if (p.sigterm) variants.push(dropKey(p, 'sigterm'));
      if (p.init !== undefined) variants.push(dropKey(p, 'init'));
      for (const v of variants)
        changed = tryIt({ ...best, pods: best.pods.map((q, j) => (j === i ? v : q)) }) || changed;
    }
  }
  return best;
}

function dropKey<T extends object>(o: T, k: keyof T): T {
  const copy = { ...o };
  delete copy[k];
  return copy;
}

function simplerOps(op: Op): Op[] {
  if (op.op === 'delete')
    return (['grace', 'policy', 'uid', 'dryRun'] as const)
      .filter((k) => op[k] !== undefined)
      .map((k) => dropKey(op, k));
  if (op.op === 'wait')
    return [0, 1000, 5000, 10_000, 30_000, 60_000, Math.ceil(op.ms / 1000) * 1000]
      .filter((ms) => ms < op.ms || (ms !== op.ms && ms === Math.ceil(op.ms / 1000) * 1000))
      .map((ms) => ({ op: 'wait', ms }));
  return [];
}

/** Random operation sequences for the property tests (fast-check arbitraries). */
import fc from 'fast-check';
import type { InitialPod, Op, Scenario, Sigterm } from './property-scenario';

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

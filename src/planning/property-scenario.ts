/**
 * The operation sequences of the property tests (invariants.test.ts) and the Gherkin that replays
 * a sequence through the scenario vocabulary (steps/*.ts): a failing case printed as a scenario.
 */
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

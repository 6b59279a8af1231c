/**
 * One operation sequence run against a fresh Cluster (the property tests, invariants.test.ts; the
 * invariants it must keep are in invariants.ts). Kept apart so a failing case can be replayed by hand:
 *
 *   node --require ./scripts/ts-hook.js -e \
 *     "const r = require('./src/planning/property-run').runScenario(SCENARIO); console.log(require('./src/planning/invariants').checkRun(r))"
 *
 * The runner drives the cluster exactly as the step definitions do (steps/support/world.ts ensureStarted,
 * steps/definitions/actions.steps.ts, steps/definitions/setup.steps.ts): same setup order, same request bodies (a delete's
 * options are the very YAML doc string the Gherkin shows, parsed and filled in the same way), same
 * flush after each action. So the Gherkin printed for a sequence replays it event for event.
 */
import type { KubeObject } from '../apimachinery/object';
import type { DeleteOptions, Pod, PodCondition } from '../apimachinery/types';
import type { WatchEvent } from '../apiserver/watch';
import { Cluster, CONTROLLER, USER } from '../cluster/cluster';
import { WARMUP_MS } from './cluster-plan';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour, type SigtermBehaviour } from '../components/kubelet/runtime';
import { parseYaml, podFromManifest } from './manifest';
import { formatOffset } from '../foundation/timeline/time';
import {
  CONDITION,
  deleteDocOf,
  FINALIZER,
  INIT_CONTAINER,
  manifestOf,
  type Op,
  type Scenario,
  type Step,
} from './property-scenario';

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
 * parseYaml, each text parsed once: the runs of a property test give the same few manifests and
 * DeleteOptions documents again and again (every sequence is also run twice, for invariant 8), and
 * parsing them was ≈ a tenth of a run. Each caller gets its own copy of the parsed value, as it got
 * a fresh one from parseYaml, so nothing a run does to a body reaches another run.
 */
const parsed = new Map<string, unknown>();
function parseOnce(text: string, what: string): unknown {
  if (!parsed.has(text)) parsed.set(text, parseYaml(text, what));
  return structuredClone(parsed.get(text));
}

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
    // podFromManifest parses a non-blank text itself; handing it the parsed mapping is the same pod.
    const overlay =
      manifest === undefined || manifest.trim() === ''
        ? manifest
        : parseOnce(manifest, `the manifest of pod "${p.name}"`);
    const r = api.create(
      USER,
      'pods',
      'default',
      podFromManifest(p.name, node, overlay as Record<string, unknown> | string | undefined),
    );
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
        api.delete(USER, 'pods', 'default', op.pod, parseOnce(filled, 'DeleteOptions') as DeleteOptions);
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

import type { Pod } from '../../apimachinery/types';
import { ClusterPlan } from '../../planning/cluster-plan';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import type { Dump, DumpObject } from '../../planning/restore/dump';
import type { Cluster } from '../../cluster/cluster';
import type { RuntimeContainer } from '../../components/kubelet/runtime';
import { formatOffset } from '../../foundation/timeline/time';
import { toTable } from '../server/table';
import { DETECTORS, nothingHolds, type Cause, type PodRun } from './causes';

/** How far the forward run looks (virtual time): long enough for every grace period, pod GC and taint eviction. */
export const EXPLAIN_HORIZON_MS = 60 * 60_000;
/** The forward run ends early once nothing but idle loops is due for this long (and it ran at least as long). */
const QUIET_MS = 10 * 60_000;

export interface PodExplanation {
  namespace: string;
  name: string;
  uid: string;
  node?: string;
  phase?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  /** Still in the API at the end of the run. */
  stuck: boolean;
  /** What `kubectl get pod` shows in STATUS at the end of the run, while it is there (Terminating; since v1.31 the terminal phase, e.g. Error, once it has one). */
  kubectlStatus?: string;
  /** When it left the API, T+… from the time the objects were read. */
  goneAt?: string;
  causes: Cause[];
}

export interface Explanation {
  /** The time the objects were read: T+0 of the run. */
  now: string;
  release: string;
  horizon: string;
  /** What the resume assumed (also on the run's timeline). */
  assumptions: string[];
  pods: PodExplanation[];
}

export interface ExplainRun {
  explanation: Explanation;
  plan: ClusterPlan;
  t0: number;
}

/**
 * X9 — `terminating explain`: resume the objects, run the cluster forward on the virtual clock for
 * at most EXPLAIN_HORIZON_MS, and say of each pod that was Terminating when the objects were read
 * (or was deleted during the run) what held it, what happened next and what would release it.
 */
export function explainDump(dump: Dump, options: { release?: Release; nowMs?: number; horizonMs?: number } = {}): ExplainRun {
  const plan = new ClusterPlan(options.release ?? DEFAULT_RELEASE);
  plan.objects(dump, options.nowMs);
  plan.start();
  const t0 = plan.cluster.clock.now();
  const horizon = options.horizonMs ?? EXPLAIN_HORIZON_MS;
  const pods = explainForward(plan.cluster, { t0, horizonMs: horizon, unmodelled: plan.restoredObjects?.unmodelled ?? [], fromRevision: 0 });
  const explanation: Explanation = {
    now: new Date(t0).toISOString(),
    release: String(plan.release),
    horizon: formatOffset(horizon),
    assumptions: (plan.restoredObjects?.assumptions ?? []).map((a) => a.text),
    pods,
  };
  return { explanation, plan, t0 };
}

/**
 * Runs the cluster forward from now until every pod that is (or becomes) Terminating is gone, or
 * for `horizonMs`, and explains each of them. Times are T+… from `t0`.
 */
export function explainForward(cluster: Cluster, options: { t0: number; horizonMs: number; unmodelled?: readonly DumpObject[]; fromRevision?: number }): PodExplanation[] {
  const { t0 } = options;
  const etcd = cluster.apiserver.etcd;
  // The pods deleting now (or, from `fromRevision`, every version written since: resumed objects
  // included), then those deleted during the run; each is known by its first deleting version.
  const before = new Map<string, Pod>();
  const gone = new Map<string, number>();
  const running = new Map<string, RuntimeContainer[]>();
  const remember = (pod: Pod) => {
    before.set(pod.metadata.uid!, pod);
    const sandbox = pod.spec?.nodeName ? cluster.nodes.get(pod.spec.nodeName)?.runtime.sandbox(pod.metadata.uid!) : undefined;
    running.set(pod.metadata.uid!, [...(sandbox?.containers.values() ?? [])].filter((c) => c.state === 'running'));
  };
  const listed = cluster.apiserver.list('pods', undefined);
  for (const p of listed.ok ? listed.object.items : []) if (p.metadata.deletionTimestamp !== undefined) remember(p);
  const seen = (from: number) => {
    for (const e of etcd.historySince(from)) {
      if (!e.key.startsWith('/registry/pods/')) continue;
      const pod = e.value as unknown as Pod;
      if (e.type === 'DELETE') gone.set(pod.metadata.uid!, e.at);
      else if (pod.metadata.deletionTimestamp !== undefined && !before.has(pod.metadata.uid!)) remember(pod);
    }
  };
  let mark = options.fromRevision ?? etcd.currentRevision;
  const allGone = () => {
    seen(mark);
    mark = etcd.currentRevision;
    return before.size > 0 && [...before.keys()].every((uid) => gone.has(uid));
  };
  // After QUIET_MS, a cluster with no foreground work due within QUIET_MS will not change any more
  // (what "the cluster settles" waits for): the run may end before the horizon.
  const start = cluster.clock.now();
  const quiet = () => {
    const now = cluster.clock.now();
    const next = cluster.clock.nextForegroundAt();
    return now - start >= QUIET_MS && (next === undefined || next > now + QUIET_MS);
  };
  cluster.runUntil(() => allGone() || quiet(), start + options.horizonMs);
  allGone();
  const pods: PodExplanation[] = [];
  for (const [uid, pod] of before) {
    const now = cluster.apiserver.get('pods', pod.metadata.namespace, pod.metadata.name!);
    const after = now.ok && now.object.metadata.uid === uid ? now.object : undefined;
    const run: PodRun = { cluster, t0, before: pod, after, goneAtMs: gone.get(uid), unmodelled: options.unmodelled ?? [], running: running.get(uid) ?? [] };
    const causes = DETECTORS.flatMap((d) => d(run));
    if (causes.length === 0) causes.push(nothingHolds(run));
    const goneAt = run.goneAtMs;
    pods.push({
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name!,
      uid,
      node: pod.spec?.nodeName,
      phase: (after ?? pod).status?.phase,
      deletionTimestamp: pod.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: pod.metadata.deletionGracePeriodSeconds,
      stuck: after !== undefined,
      ...(after ? { kubectlStatus: statusColumn(after, cluster) } : {}),
      ...(goneAt !== undefined ? { goneAt: formatOffset(goneAt - t0) } : {}),
      causes,
    });
  }
  return pods.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

/** The STATUS column kube-apiserver's pod printer gives the pod now (server-side printing, as kubectl get shows it). */
function statusColumn(pod: Pod, cluster: Cluster): string {
  const table = toTable('pods', [pod], { now: cluster.clock.now(), release: cluster.release }) as { rows: { cells: unknown[] }[] };
  return String(table.rows[0].cells[2]);
}

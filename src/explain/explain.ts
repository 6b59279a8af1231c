import type { Pod } from '../apiserver/types';
import { ClusterPlan } from '../cluster-plan';
import { DEFAULT_RELEASE, type Release } from '../release';
import type { Dump } from '../restore/dump';
import { formatOffset } from '../timeline/time';
import { DETECTORS, nothingHolds, type Cause, type PodRun } from './causes';

/** How far the forward run looks (virtual time): long enough for every grace period, pod GC and taint eviction. */
export const EXPLAIN_HORIZON_MS = 60 * 60_000;

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
 * `terminating explain` (E1): resume the objects, run the cluster forward on the virtual clock for
 * at most EXPLAIN_HORIZON_MS, and say of each pod that was Terminating when the objects were read
 * (or was deleted during the run) what held it, what happened next and what would release it.
 */
export function explainDump(dump: Dump, options: { release?: Release; nowMs?: number; horizonMs?: number } = {}): ExplainRun {
  const plan = new ClusterPlan(options.release ?? DEFAULT_RELEASE);
  plan.objects(dump, options.nowMs);
  plan.start();
  const cluster = plan.cluster;
  const t0 = cluster.clock.now();
  const before = new Map<string, Pod>();
  const gone = new Map<string, number>();
  const deleting = (p: Pod) => p.metadata.deletionTimestamp !== undefined;
  const listed = cluster.apiserver.list('pods', undefined);
  for (const p of listed.ok ? listed.object.items : []) if (deleting(p)) before.set(p.metadata.uid!, p);
  const w = cluster.apiserver.watch('pods', undefined, {}, (e) => {
    const uid = e.object.metadata.uid!;
    if (e.type === 'DELETED') gone.set(uid, cluster.clock.now());
    else if (deleting(e.object) && !before.has(uid)) before.set(uid, e.object);
  });
  const horizon = options.horizonMs ?? EXPLAIN_HORIZON_MS;
  cluster.runUntil(() => before.size > 0 && [...before.keys()].every((uid) => gone.has(uid)), t0 + horizon);
  if (w.ok) w.object.stop();
  const unmodelled = plan.restoredObjects?.unmodelled ?? [];
  const pods: PodExplanation[] = [];
  for (const [uid, pod] of before) {
    const now = cluster.apiserver.get('pods', pod.metadata.namespace, pod.metadata.name!);
    const after = now.ok && now.object.metadata.uid === uid ? now.object : undefined;
    const run: PodRun = { cluster, t0, before: pod, after, goneAtMs: gone.get(uid), unmodelled };
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
      ...(goneAt !== undefined ? { goneAt: formatOffset(goneAt - t0) } : {}),
      causes,
    });
  }
  pods.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
  const explanation: Explanation = {
    now: new Date(t0).toISOString(),
    release: String(plan.release),
    horizon: formatOffset(horizon),
    assumptions: (plan.restoredObjects?.assumptions ?? []).map((a) => a.text),
    pods,
  };
  return { explanation, plan, t0 };
}

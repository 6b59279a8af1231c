import type { Pod } from '../../apimachinery/types';
import { ClusterPlan } from '../../planning/cluster-plan';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import type { Dump, DumpObject } from '../../planning/restore/dump';
import type { Cluster } from '../../cluster/cluster';
import type { RuntimeContainer } from '../../components/kubelet/runtime';
import { formatDuration, formatOffset } from '../../foundation/timeline/time';
import { ModelledWebhookCaller } from '../../apiserver/webhook/modelled-caller';
import { contradiction, formatAge, suspects, unexplained } from './evidence';
import { checkRemedies } from './remedy-check';
import { suspectStep, type SuspectStep } from './suspect-step';
import { toTable } from '../server/table';
import { DETECTORS, nothingHolds, type Cause, type PodRun } from './causes';
import { attachWaits, type AttachWait } from './volume-attach';

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
  /** What the objects show, at T+0: its phase and how long it had been past its deletionTimestamp (negative: its grace period still runs). */
  shown: { phase?: string; overdue: string; overdueMs: number };
  /** X16 — the run released it far sooner than the cluster did: what the run contradicts, and the suspects are its causes. */
  contradiction?: string;
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
  /** X20 — pods that cannot start because another node holds their volume (read from the objects). */
  attachWaits?: AttachWait[];
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
export function explainDump(
  dump: Dump,
  options: { release?: Release; nowMs?: number; horizonMs?: number; checkRemedies?: boolean } = {},
): ExplainRun {
  const resume = (step?: SuspectStep) => {
    const plan = new ClusterPlan(options.release ?? DEFAULT_RELEASE);
    plan.objects(dump, options.nowMs);
    let caller: ModelledWebhookCaller | undefined;
    step?.apply(plan, () => {
      if (!caller) plan.cluster.apiserver.webhookCaller = caller = new ModelledWebhookCaller();
      return caller;
    });
    plan.start();
    return plan;
  };
  const plan = resume();
  const t0 = plan.cluster.clock.now();
  const horizon = options.horizonMs ?? EXPLAIN_HORIZON_MS;
  const pods = explainForward(plan.cluster, {
    t0,
    horizonMs: horizon,
    unmodelled: plan.restoredObjects?.unmodelled ?? [],
    objects: dump.objects,
    fromRevision: 0,
  });
  // X17 — each remedy of a pod still held is tried in a fork: the same objects resumed again.
  // For a pod the run contradicts, in forks where its top suspect that a step can model is made explicit.
  if (options.checkRemedies) {
    for (const p of pods) {
      const top =
        p.contradiction !== undefined
          ? p.causes.map((c) => suspectStep(c, p, dump)).find((x) => x !== undefined)
          : undefined;
      checkRemedies(p, { fork: () => resume(top).cluster, horizonMs: horizon, ...(top ? { suspect: top.text } : {}) });
    }
  }
  const explanation: Explanation = {
    now: new Date(t0).toISOString(),
    release: String(plan.release),
    horizon: formatOffset(horizon),
    assumptions: (plan.restoredObjects?.assumptions ?? []).map((a) => a.text),
    pods,
    attachWaits: attachWaits(dump.objects, t0, plan.release),
  };
  return { explanation, plan, t0 };
}

/**
 * Runs the cluster forward from now until every pod that is (or becomes) Terminating is gone, or
 * for `horizonMs`, and explains each of them. Times are T+… from `t0`.
 */
export function explainForward(
  cluster: Cluster,
  options: {
    t0: number;
    horizonMs: number;
    unmodelled?: readonly DumpObject[];
    objects?: readonly DumpObject[];
    fromRevision?: number;
  },
): PodExplanation[] {
  const { t0 } = options;
  const etcd = cluster.apiserver.etcd;
  // The pods deleting now (or, from `fromRevision`, every version written since: resumed objects
  // included), then those deleted during the run; each is known by its first deleting version.
  const before = new Map<string, Pod>();
  const gone = new Map<string, number>();
  const running = new Map<string, RuntimeContainer[]>();
  const remember = (pod: Pod) => {
    before.set(pod.metadata.uid!, pod);
    const sandbox = pod.spec?.nodeName
      ? cluster.nodes.get(pod.spec.nodeName)?.runtime.sandbox(pod.metadata.uid!)
      : undefined;
    running.set(
      pod.metadata.uid!,
      [...(sandbox?.containers.values() ?? [])].filter((c) => c.state === 'running'),
    );
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
  // Asked after every timer the run fires (an hour of heartbeats and resyncs): `before` and `gone`
  // change only with a new etcd revision, so the answer is kept until there is one.
  let answeredAt = -1;
  let answer = false;
  const allGone = () => {
    if (answeredAt === etcd.currentRevision) return answer;
    seen(mark);
    mark = answeredAt = etcd.currentRevision;
    answer = before.size > 0 && [...before.keys()].every((uid) => gone.has(uid));
    return answer;
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
    const shown = options.objects?.find(
      (o) => o.kind === 'Pod' && (o.obj.metadata as { uid?: string } | undefined)?.uid === uid,
    )?.obj as Pod | undefined;
    const run: PodRun = {
      cluster,
      t0,
      before: pod,
      shown,
      after,
      goneAtMs: gone.get(uid),
      unmodelled: options.unmodelled ?? [],
      objects: options.objects ?? [],
      running: running.get(uid) ?? [],
    };
    const causes = DETECTORS.flatMap((d) => d(run));
    // X16 — released far sooner than the cluster did: the suspects the objects support, never "nothing holds it".
    const contradicted = contradiction(run);
    if (contradicted) {
      const found = suspects(run);
      causes.splice(0, causes.length, ...(found.length > 0 ? found : [unexplained(run, contradicted)]));
    }
    if (causes.length === 0) causes.push(nothingHolds(run));
    const history = shown ?? pod;
    const overdueMs =
      history.metadata.deletionTimestamp !== undefined ? t0 - Date.parse(history.metadata.deletionTimestamp) : 0;
    const goneAt = run.goneAtMs;
    pods.push({
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name!,
      uid,
      node: pod.spec?.nodeName,
      phase: (after ?? pod).status?.phase,
      deletionTimestamp: history.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: history.metadata.deletionGracePeriodSeconds,
      shown: {
        phase: history.status?.phase,
        overdueMs,
        overdue: `${overdueMs >= 0 ? `Terminating for ${formatAge(overdueMs)} past its deletionTimestamp` : `${formatDuration(-overdueMs)} of its grace period left`}${deletedAt(history) === t0 ? ' (nothing in the objects is later than its DELETE: how long it has been Terminating since is unknown; --now says when they were read)' : ''}`,
      },
      ...(contradicted ? { contradiction: contradicted.text } : {}),
      stuck: after !== undefined,
      ...(after ? { kubectlStatus: statusColumn(after, cluster) } : {}),
      ...(goneAt !== undefined ? { goneAt: formatOffset(goneAt - t0) } : {}),
      causes,
    });
  }
  return pods.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

/** When the pod was deleted: its deletionTimestamp less its grace period (a graceful DELETE stores now + grace). */
function deletedAt(pod: Pod): number | undefined {
  const dt = pod.metadata.deletionTimestamp;
  return dt === undefined ? undefined : Date.parse(dt) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}

/** The STATUS column kube-apiserver's pod printer gives the pod now (server-side printing, as kubectl get shows it). */
function statusColumn(pod: Pod, cluster: Cluster): string {
  const table = toTable('pods', [pod], { now: cluster.clock.now(), release: cluster.release }) as {
    rows: { cells: unknown[] }[];
  };
  return String(table.rows[0].cells[2]);
}

/**
 * The invariants every run of an operation sequence must keep (property-run.ts runs one), two runs'
 * sameness, and the minimiser that shrinks a failing sequence before it is printed as Gherkin.
 */
import type { EtcdEvent } from '../apiserver/etcd';
import { toTime } from '../apimachinery/object';
import type { KubeObject } from '../apimachinery/object';
import type { TimelineEvent } from '../foundation/timeline/event';
import type { InitialPod, Op, Scenario } from './property-scenario';
import { runScenario, type Received, type RunResult } from './property-run';

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

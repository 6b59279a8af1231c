import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { EventRecorder } from '../../../client/event-recorder';
import { podDisruptionBudgetsFor } from '../../../apiserver/eviction';
import { fromTime, jsonEqual, type KubeObject } from '../../../apimachinery/object';
import {
  conditionsAreUpToDate,
  DISRUPTION_ALLOWED,
  setStatusCondition,
  SYNC_FAILED,
  updateDisruptionAllowedCondition,
} from '../../../helpers/pdb-helper';
import { isPodReady, updatePodCondition } from '../../../helpers/pod-util';
import { labelSelectorAsSelector } from '../../../apimachinery/selectors';
import type {
  Deployment,
  OwnerReference,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  StatefulSet,
} from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { keyOf, splitKey, type SharedInformer } from '../../../client/informer';
import { getControllerOf } from '../controller-utils';
import { WorkQueue } from '../../../client/workqueue';

const SOURCE = 'pkg/controller/disruption/disruption.go';
const IDENTITY: ClientIdentity = { name: 'disruption-controller', component: 'disruption' };

/** DeletionTimeout: how long an approved eviction keeps a pod out of the healthy count before it must be seen deleting. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;
/** stalePodDisruptionTimeout: a DisruptionTarget condition left on a pod that is not deleting is reset after this long. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;

/** A controller of pods and how many it wants (controllerAndScale). */
interface ControllerAndScale {
  uid: string;
  scale: number;
}

/** podControllerFinder: the scale of the controller a controllerRef names, or undefined when this finder does not know it. */
type Finder = (ref: OwnerReference, namespace: string) => ControllerAndScale | undefined;

const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/**
 * intstr.GetScaledValueFromIntOrPercent with rounding up: a whole number as it is, a percentage
 * of `total` rounded up.
 */
export function scaledValue(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  if (!match)
    throw new Error(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${value.replace(/%$/, '')}": invalid syntax`,
    );
  return Math.ceil((Number(match[1]) * total) / 100);
}

/**
 * The disruption controller (pkg/controller/disruption, rules D1–D4): for each
 * PodDisruptionBudget, the pods its selector picks (getPodsForPdb), how many should be healthy
 * (getExpectedPodCount: minAvailable as a number counts the pods themselves; a percentage or
 * maxUnavailable counts the scale of the pods' controllers, getExpectedScale), how many are
 * (countHealthyPods: ready, not deleting, not approved for eviction in the last two minutes), and
 * from that status.disruptionsAllowed with its DisruptionAllowed condition (updatePdbStatus),
 * written through poddisruptionbudgets/status. A budget that cannot be computed is set to allow
 * nothing (failSafe). Pods and budgets reach it through the shared informers; a budget is synced
 * again when an approved eviction's two minutes run out (the recheck queue), and a pod left with
 * a DisruptionTarget condition but never deleted has it reset to False after two minutes.
 */
export class DisruptionController extends ControllerBase {
  private readonly queue: WorkQueue;
  private readonly recheckQueue: WorkQueue;
  private readonly stalePodDisruptionQueue: WorkQueue;
  private readonly pdbs: SharedInformer<PodDisruptionBudget>;
  private readonly pods: SharedInformer<Pod>;
  private readonly replicaSets: SharedInformer<ReplicaSet>;
  private readonly deployments: SharedInformer<Deployment>;
  private readonly statefulSets: SharedInformer<StatefulSet>;
  private readonly recorder: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.recorder = this.eventRecorder({ component: 'controllermanager' }, 'disruption');
    this.queue = new WorkQueue(ctx.clock, (key) => this.sync(key));
    // processNextRecheckWorkItem: a key due for a recheck goes to the main queue through its rate limiter.
    this.recheckQueue = new WorkQueue(ctx.clock, (key) => this.queue.addRateLimited(key));
    this.stalePodDisruptionQueue = new WorkQueue(ctx.clock, (key) => this.syncStalePodDisruption(key));
    this.pdbs = ctx.informers.informerFor('poddisruptionbudgets');
    this.pods = ctx.informers.informerFor('pods');
    this.replicaSets = ctx.informers.informerFor('replicasets');
    this.deployments = ctx.informers.informerFor('deployments');
    this.statefulSets = ctx.informers.informerFor('statefulsets');
  }

  /** Registers the handlers: a budget's every change, and every pod change, queue the budget (addPod/updatePod/deletePod). */
  start(): this {
    this.pdbs.addEventHandler((key) => this.queue.add(key));
    this.pods.addEventHandler((_key, old, pod) => {
      const current = pod ?? old!;
      // Without budgets no pod has one: what is left is the stale DisruptionTarget of a pod not
      // being deleted (nonTerminatingPodHasStaleDisruptionCondition looks at the deletion first).
      if (this.pdbs.size === 0) {
        if (pod && !pod.metadata.deletionTimestamp && hasDisruptionTarget(pod)) this.enqueueStaleCondition(pod);
        return;
      }
      const pdb = this.getPdbForPod(current);
      if (pdb) this.queue.add(keyOf(pdb));
      if (pod) this.enqueueStaleCondition(pod);
    });
    return this;
  }

  /**
   * finders: the workload kinds whose scale the controller reads from listers (a ReplicaSet a
   * Deployment owns counts as its Deployment), then the scale subresource of any other kind.
   */
  private finders(): Finder[] {
    return [
      (ref, ns) => this.getPodDeployment(ref, ns),
      (ref, ns) => this.getPodReplicaSet(ref, ns),
      (ref, ns) => this.getPodStatefulSet(ref, ns),
      (ref) => getScaleController(ref),
    ];
  }

  /** The ReplicaSet a controllerRef names (group apps or extensions, uid checked). */
  private replicaSetOf(ref: OwnerReference, namespace: string): ReplicaSet | undefined {
    if (ref.kind !== 'ReplicaSet' || !['apps', 'extensions'].includes(groupOf(ref.apiVersion))) return undefined;
    const rs = this.replicaSets.get(`${namespace}/${ref.name}`);
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSet: a ReplicaSet no Deployment controls, and its spec.replicas. */
  private getPodReplicaSet(ref: OwnerReference, namespace: string): ControllerAndScale | undefined {
    const rs = this.replicaSetOf(ref, namespace);
    if (!rs || getControllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid!, scale: rs.spec?.replicas ?? 1 };
  }

  /** getPodDeployment: the Deployment controlling the pod's ReplicaSet, and its spec.replicas. */
  private getPodDeployment(ref: OwnerReference, namespace: string): ControllerAndScale | undefined {
    const rs = this.replicaSetOf(ref, namespace);
    const owner = rs && getControllerOf(rs);
    if (!owner || owner.kind !== 'Deployment' || !['apps', 'extensions'].includes(groupOf(owner.apiVersion)))
      return undefined;
    const d = this.deployments.get(`${namespace}/${owner.name}`);
    return d?.metadata.uid === owner.uid ? { uid: d.metadata.uid!, scale: d.spec?.replicas ?? 1 } : undefined;
  }

  /** getPodStatefulSet: the StatefulSet a controllerRef names (uid checked), and its spec.replicas. */
  private getPodStatefulSet(ref: OwnerReference, namespace: string): ControllerAndScale | undefined {
    if (ref.kind !== 'StatefulSet' || groupOf(ref.apiVersion) !== 'apps') return undefined;
    const ss = this.statefulSets.get(`${namespace}/${ref.name}`);
    return ss?.metadata.uid === ref.uid ? { uid: ss.metadata.uid!, scale: ss.spec?.replicas ?? 1 } : undefined;
  }

  /** getPdbForPod: the first budget selecting the pod; several give a Warning Event on the pod. */
  private getPdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    const budgets = podDisruptionBudgetsFor(pod, [...this.pdbs.scan(pod.metadata.namespace)]);
    if (budgets.length > 1) {
      const message = `Pod "${pod.metadata.namespace}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${budgets[0].metadata.name}" arbitrarily.`;
      this.recorder.event(podRef(pod), 'Warning', 'MultiplePodDisruptionBudgets', message);
    }
    return budgets[0];
  }

  /** sync: a budget gone needs nothing; a failed computation falls back to failSafe. */
  private sync(key: string): void | Error {
    const pdb = this.pdbs.get(key);
    if (!pdb) return;
    try {
      this.trySync(pdb);
    } catch (e) {
      // A conflict is retried without failSafe (the next sync sees the new version).
      if (e instanceof WriteError && e.code === 409) return e;
      return this.failSafe(pdb, (e as Error).message);
    }
  }

  private trySync(pdb: PodDisruptionBudget): void {
    const pods = this.getPodsForPdb(pdb);
    if (pods.length === 0) this.recorder.event(pdbRef(pdb), 'Normal', 'NoPods', 'No matching pods found');
    let expected: { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] };
    try {
      expected = this.getExpectedPodCount(pdb, pods);
    } catch (e) {
      this.recorder.event(
        pdbRef(pdb),
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${(e as Error).message}`,
      );
      throw e;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder.event(
        pdbRef(pdb),
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${formatSelector(pdb)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.clock.now();
    const { disruptedPods, recheckAt } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disruptedPods);
    if (recheckAt !== undefined) this.recheckQueue.addAfter(keyOf(pdb), recheckAt - now);
  }

  /** getPodsForPdb: the namespace's pods the selector matches (a selector that does not parse is an error). */
  private getPodsForPdb(pdb: PodDisruptionBudget): Pod[] {
    if (!pdb.spec?.selector) return [];
    const selector = labelSelectorAsSelector(pdb.spec.selector);
    const pods: Pod[] = [];
    for (const p of this.pods.scan(pdb.metadata.namespace)) if (selector.matches(p.metadata.labels)) pods.push(p);
    return pods;
  }

  /** getExpectedPodCount. */
  private getExpectedPodCount(
    pdb: PodDisruptionBudget,
    pods: Pod[],
  ): { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] } {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined) {
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      return {
        expectedCount,
        desiredHealthy: Math.max(0, expectedCount - scaledValue(maxUnavailable, expectedCount)),
        unmanagedPods,
      };
    }
    if (typeof minAvailable === 'number')
      return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
    if (typeof minAvailable === 'string') {
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      return { expectedCount, desiredHealthy: scaledValue(minAvailable, expectedCount), unmanagedPods };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  /** getExpectedScale: the sum of the scales of the pods' controllers (each counted once); pods without a controller are unmanaged. */
  private getExpectedScale(pods: Pod[]): { expectedCount: number; unmanagedPods: string[] } {
    const scales = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (!ref) {
        unmanagedPods.push(pod.metadata.name!);
        continue;
      }
      if (scales.has(ref.uid)) continue;
      let found: ControllerAndScale | undefined;
      for (const finder of this.finders()) if ((found = finder(ref, pod.metadata.namespace!))) break;
      // Its controller is gone, or is another object of that name (another uid).
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const scale of scales.values()) expectedCount += scale;
    return { expectedCount, unmanagedPods };
  }

  /**
   * buildDisruptedPodMap: the approved evictions still waiting to be seen, and when the earliest
   * of them runs out; one past its two minutes is dropped with a NotDeleted Event on the pod
   * (whose message names the budget's namespace twice, as upstream's does).
   */
  private buildDisruptedPodMap(
    pods: Pod[],
    pdb: PodDisruptionBudget,
    now: number,
  ): { disruptedPods: Record<string, string>; recheckAt?: number } {
    const previous = pdb.status?.disruptedPods;
    const disruptedPods: Record<string, string> = {};
    let recheckAt: number | undefined;
    if (!previous) return { disruptedPods };
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const at = previous[pod.metadata.name!];
      if (at === undefined) continue;
      const expectedDeletion = fromTime(at) + DELETION_TIMEOUT_MS;
      if (expectedDeletion < now) {
        this.recorder.event(
          podRef(pod),
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`,
        );
      } else {
        if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
        disruptedPods[pod.metadata.name!] = at;
      }
    }
    return { disruptedPods, recheckAt };
  }

  /** updatePdbStatus: nothing is written when the status already says it all. */
  private updatePdbStatus(
    pdb: PodDisruptionBudget,
    currentHealthy: number,
    desiredHealthy: number,
    expectedPods: number,
    disruptedPods: Record<string, string>,
  ): void {
    // expectedCount must be above 0: a budget that matches no pods yet stays safe when its first pods appear.
    const disruptionsAllowed =
      expectedPods <= 0 || currentHealthy - desiredHealthy <= 0 ? 0 : currentHealthy - desiredHealthy;
    const s = pdb.status;
    const sameDisrupted = jsonEqual(s?.disruptedPods ?? {}, disruptedPods);
    if (
      s &&
      s.currentHealthy === currentHealthy &&
      s.desiredHealthy === desiredHealthy &&
      s.expectedPods === expectedPods &&
      s.disruptionsAllowed === disruptionsAllowed &&
      sameDisrupted &&
      s.observedGeneration === pdb.metadata.generation &&
      conditionsAreUpToDate(pdb)
    )
      return;
    const next: PodDisruptionBudget = {
      ...pdb,
      status: {
        currentHealthy,
        desiredHealthy,
        expectedPods,
        disruptionsAllowed,
        ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
        observedGeneration: pdb.metadata.generation,
        conditions: s?.conditions ?? [],
      },
    };
    updateDisruptionAllowedCondition(next, this.clock.now());
    this.timeline.record(
      'disruption',
      `pdb ${pdb.metadata.name} allows ${disruptionsAllowed} (currentHealthy=${currentHealthy} desiredHealthy=${desiredHealthy} expectedPods=${expectedPods})`,
      `${SOURCE} updatePdbStatus`,
    );
    const written = this.writePdbStatus(next);
    if (written) throw written;
  }

  /** failSafe: disruptionsAllowed 0 and DisruptionAllowed False/SyncFailed with the error, so no eviction is approved on a stale count. */
  private failSafe(pdb: PodDisruptionBudget, message: string): void | Error {
    const status = { ...pdb.status!, disruptionsAllowed: 0 };
    status.conditions = setStatusCondition(
      status.conditions ?? [],
      {
        type: DISRUPTION_ALLOWED,
        status: 'False',
        reason: SYNC_FAILED,
        message,
        observedGeneration: status.observedGeneration,
      },
      this.clock.now(),
    );
    this.timeline.record(
      'disruption',
      `pdb ${pdb.metadata.name} allows 0 (SyncFailed: ${message})`,
      `${SOURCE} failSafe`,
    );
    return this.writePdbStatus({ ...pdb, status });
  }

  /** writePdbStatus: UpdateStatus, not retried here (a failure is retried by the queue). */
  private writePdbStatus(pdb: PodDisruptionBudget): WriteError | undefined {
    const r = this.client.update('poddisruptionbudgets', pdb.metadata.namespace, pdb, { subresource: 'status' });
    return r.ok ? undefined : new WriteError(r.status.message, r.code);
  }

  /** nonTerminatingPodHasStaleDisruptionCondition: a DisruptionTarget=True not set by the kubelet, on a pod neither deleting nor terminal. */
  private enqueueStaleCondition(pod: Pod): void {
    const waitFor = this.staleConditionWait(pod);
    if (waitFor !== undefined) this.stalePodDisruptionQueue.addAfter(keyOf(pod), waitFor);
  }

  private staleConditionWait(pod: Pod): number | undefined {
    if (pod.metadata.deletionTimestamp) return undefined;
    const condition = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    const phase = pod.status?.phase;
    if (
      !condition ||
      condition.status !== 'True' ||
      condition.reason === 'TerminationByKubelet' ||
      phase === 'Succeeded' ||
      phase === 'Failed'
    )
      return undefined;
    // A condition without lastTransitionTime is as old as Go's zero time: stale at once.
    if (!condition.lastTransitionTime) return 0;
    return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (this.clock.now() - fromTime(condition.lastTransitionTime)));
  }

  /** syncStalePodDisruption: the condition set to False through pods/status once its time is up. */
  private syncStalePodDisruption(key: string): void | Error {
    const pod = this.pods.get(key);
    if (!pod) return;
    const waitFor = this.staleConditionWait(pod);
    if (waitFor === undefined) return;
    if (waitFor > 0) return void this.stalePodDisruptionQueue.addAfter(key, waitFor);
    const status = { ...pod.status };
    if (!updatePodCondition(status, { type: 'DisruptionTarget', status: 'False' }, this.clock.now())) return;
    const { namespace } = splitKey(key);
    this.timeline.record(
      'disruption',
      `reset DisruptionTarget of pods/${pod.metadata.name}`,
      `${SOURCE} syncStalePodDisruption`,
    );
    const r = this.client.update('pods', namespace, { ...pod, status }, { subresource: 'status' });
    if (!r.ok) return new Error(r.status.message);
  }
}

/**
 * getScaleController for the kinds no lister finder knows: none of them serves a scale
 * subresource here, so a kind the apiserver serves is one that does not implement it, and any
 * other kind has no REST mapping (the RESTMapper's error).
 */
function getScaleController(ref: OwnerReference): ControllerAndScale | undefined {
  const group = groupOf(ref.apiVersion);
  // A workload kind with a lister finder: its scale names another object (NotFound or another uid), so no controller.
  if (SCALED_KINDS.includes(`${ref.kind}.${group}`)) return undefined;
  const served = UNSCALED_KINDS[`${ref.kind}.${group}`];
  if (served) throw new Error(`${served} does not implement the scale subresource`);
  throw new Error(`no matches for kind "${ref.kind}" in group "${group}"`);
}

/** Kinds with a scale subresource (their finders read listers first). */
const SCALED_KINDS: readonly string[] = [
  'ReplicaSet.apps',
  'ReplicaSet.extensions',
  'Deployment.apps',
  'StatefulSet.apps',
];

/** Kinds the apiserver serves without a scale subresource, by Kind.group, and their group-resource. */
const UNSCALED_KINDS: Readonly<Record<string, string>> = {
  'Pod.': 'pods',
  'Node.': 'nodes',
  'Namespace.': 'namespaces',
  'Service.': 'services',
  'Job.batch': 'jobs.batch',
  'DaemonSet.apps': 'daemonsets.apps',
  'Lease.coordination.k8s.io': 'leases.coordination.k8s.io',
};

/**
 * A pod the disruption controller acts on even without budgets: one not being deleted whose
 * DisruptionTarget condition may go stale (nonTerminatingPodHasStaleDisruptionCondition) — what
 * starts the controller lazily (src/components/controllers/registry.ts).
 */
export function isStaleDisruptionTargetCandidate(obj: KubeObject): boolean {
  const pod = obj as Pod;
  return !pod.metadata.deletionTimestamp && hasDisruptionTarget(pod);
}

/** Whether the pod carries a DisruptionTarget condition (an indexed loop: it runs for every pod event). */
function hasDisruptionTarget(pod: Pod): boolean {
  const conditions = pod.status?.conditions;
  if (!conditions) return false;
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'DisruptionTarget') return true;
  return false;
}

/** countHealthyPods: ready pods that are neither deleting nor approved for eviction within the last two minutes. */
export function countHealthyPods(
  pods: readonly Pod[],
  disruptedPods: Readonly<Record<string, string>>,
  now: number,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata.name!];
    if (at !== undefined && fromTime(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

function podRef(pod: Pod) {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
  };
}

function pdbRef(pdb: PodDisruptionBudget) {
  return {
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    namespace: pdb.metadata.namespace,
    name: pdb.metadata.name,
    uid: pdb.metadata.uid,
  };
}

/** The selector as Go's %v prints a *metav1.LabelSelector, as the UnmanagedPods Event shows it. */
function formatSelector(pdb: PodDisruptionBudget): string {
  const s = pdb.spec?.selector ?? {};
  const labels = Object.keys(s.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${s.matchLabels![k]},`)
    .join('');
  const expressions = (s.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** A status write the apiserver refused, with its code (a 409 Conflict is retried without failSafe). */
class WriteError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

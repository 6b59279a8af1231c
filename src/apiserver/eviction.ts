import { badRequest, conflict, forbidden, StatusError, tooManyRequests } from '../apimachinery/errors';
import { clone, toTime } from '../apimachinery/object';
import { updateDisruptionAllowedCondition } from '../helpers/pdb-helper';
import { isPodReady, updatePodCondition } from '../helpers/pod-util';
import { labelSelectorAsSelector, SelectorError } from '../apimachinery/selectors';
import type {
  DeleteOptions,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  PodDisruptionBudgetStatus,
} from '../apimachinery/types';
import type { Clock } from '../foundation/clock';
import type { Release } from '../foundation/release';
import { podStatusStrategy } from './pod-strategy';
import type { Store } from './store';
import type { Strategy } from './strategy';

/**
 * R78 — the pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go EvictionREST):
 * what `kubectl drain` and other evicting clients POST instead of a DELETE. Its decisions are
 * here; ApiServer.evict runs them against the pod store in one request.
 */
export const EVICTION_SOURCE = 'pkg/registry/core/pod/storage/eviction.go';

/** policy/v1 (or v1beta1) Eviction: the pod to evict, named in its metadata, and the DeleteOptions to delete it with. */
export interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: DeleteOptions | null;
}

/** The Eviction group versions the subresource accepts (EvictionREST.AcceptsGroupVersion); discovery names policy/v1. */
export const EVICTION_GROUP_VERSIONS: readonly string[] = ['policy/v1', 'policy/v1beta1'];

/** The condition addConditionAndDeletePod writes before the delete (PodDisruptionConditions). */
export const EVICTION_CONDITION: PodCondition = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'EvictionByEvictionAPI',
  message: 'Eviction API: evicting',
};

/**
 * The name check of EvictionREST.Create, then propagateDryRun: the request's ?dryRun goes into
 * the eviction's DeleteOptions unless they carry their own (the only valid value, All, makes a
 * mismatch impossible here).
 */
export function evictionDeleteOptions(name: string, eviction: Eviction, dryRun: boolean): DeleteOptions {
  if (eviction.metadata?.name !== name) throw badRequest('name in URL does not match name in Eviction object');
  const options: DeleteOptions = { ...eviction.deleteOptions };
  if (dryRun && (options.dryRun ?? []).length === 0) options.dryRun = ['All'];
  return options;
}

/** canIgnorePDB: a terminal, pending or already deleting pod is deleted without looking for PodDisruptionBudgets. */
export function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined
  );
}

/**
 * shouldEnforceResourceVersion: a pod that is neither terminal nor deleting is deleted with a
 * resourceVersion precondition (unless the client set one), so that it cannot have become ready
 * in between — a PodDisruptionBudget would then count it.
 */
export function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

/**
 * addConditionAndDeletePod's getLatestPod: the eviction's preconditions checked against the
 * freshest stored pod before the condition is written (409 naming "Pod", as upstream's
 * GroupResource{Resource: "Pod"} does).
 */
export function checkEvictionPreconditions(options: DeleteOptions, latest: Pod): void {
  const uid = options.preconditions?.uid;
  if (uid && uid !== latest.metadata.uid) {
    throw conflict(
      'Pod',
      latest.metadata.name ?? '',
      `the UID in the precondition (${uid}) does not match the UID in record (${latest.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv && rv !== latest.metadata.resourceVersion) {
    throw conflict(
      'Pod',
      latest.metadata.name ?? '',
      `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}

/** MaxDisruptedPodSize: evictions approved but not yet seen by the disruption controller, at most. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/**
 * getPodDisruptionBudgets (and the lister's GetPodPodDisruptionBudgets): the budgets of the pod's
 * namespace whose selector matches its labels. A budget without a selector, or with one that does
 * not parse, matches nothing; an empty selector matches every pod (policy/v1, since 1.21).
 */
export function podDisruptionBudgetsFor(pod: Pod, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  return budgets.filter(
    (pdb) => pdb.metadata.namespace === pod.metadata.namespace && budgetSelects(pdb, pod.metadata.labels),
  );
}

/** Whether the budget's selector (metav1.LabelSelectorAsSelector: absent selects nothing) matches these labels. */
export function budgetSelects(pdb: PodDisruptionBudget, labels: Readonly<Record<string, string>> | undefined): boolean {
  const selector = pdb.spec?.selector;
  if (!selector) return false;
  try {
    return labelSelectorAsSelector(selector).matches(labels);
  } catch (e) {
    if (e instanceof SelectorError) return false;
    throw e;
  }
}

/** What the budget check decided for a pod that cannot skip it. */
export type BudgetDecision =
  /** No budget covers the pod: delete it as asked. */
  | { kind: 'none' }
  /** The pod is not ready and the budget lets it go without spending a disruption: delete it with a resourceVersion precondition (it must not have become ready meanwhile). */
  | { kind: 'unhealthy'; pdb: PodDisruptionBudget }
  /** A disruption was spent: the budget's new status, to be written before the pod is deleted (not on a dry run). */
  | { kind: 'decrement'; pdb: PodDisruptionBudget; updated: PodDisruptionBudget };

/**
 * The PodDisruptionBudget part of EvictionREST.Create: more than one budget is a 500; a pod that
 * is not ready goes without spending a disruption when the budget's unhealthyPodEvictionPolicy
 * is AlwaysAllow, or (IfHealthyBudget, the default) while the budget has its desired healthy
 * pods; otherwise checkAndDecrement spends one disruption or refuses with 429.
 */
export function checkPodDisruptionBudgets(
  pod: Pod,
  budgets: readonly PodDisruptionBudget[],
  now: number,
  release: Release,
): BudgetDecision {
  const matching = podDisruptionBudgetsFor(pod, budgets);
  if (matching.length > 1) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 500,
      reason: '',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    });
  }
  if (matching.length === 0) return { kind: 'none' };
  const pdb = matching[0];
  const status: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  if (!isPodReady(pod)) {
    // The field is dropped on write while PDBUnhealthyPodEvictionPolicy is off, so only a release with it sees AlwaysAllow.
    if (release.enabled('PDBUnhealthyPodEvictionPolicy') && pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow')
      return { kind: 'unhealthy', pdb };
    if ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0)
      return { kind: 'unhealthy', pdb };
  }
  return { kind: 'decrement', pdb, updated: checkAndDecrement(pod.metadata.name!, pdb, now) };
}

/** createTooManyRequestsError: the budget's status is older than its spec, or a conflict after an unhealthy pod's check. */
export function budgetStillProcessing(pdbName: string): StatusError {
  return tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10, [
    { reason: 'DisruptionBudget', message: `The disruption budget ${pdbName} is still being processed by the server.` },
  ]);
}

/**
 * checkAndDecrement: refuses with 429 while the budget's status has not caught up with its
 * generation or allows no disruption (naming the healthy pods it needs and has), with 403 when
 * its count is negative or too many approved evictions wait for the controller; otherwise the
 * budget with one disruption fewer, its condition updated when none is left, and the pod entered
 * in disruptedPods so that the controller stops counting it.
 */
export function checkAndDecrement(podName: string, pdb: PodDisruptionBudget, now: number): PodDisruptionBudget {
  const name = pdb.metadata.name!;
  const status: PodDisruptionBudgetStatus = pdb.status ?? {
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    expectedPods: 0,
  };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetStillProcessing(name);
  const allowed = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw forbidden('poddisruptionbudget.policy', name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE)
    throw forbidden(
      'poddisruptionbudget.policy',
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  if (allowed === 0) {
    throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
      },
    ]);
  }
  const updated: PodDisruptionBudget = { ...pdb, status: { ...status, disruptionsAllowed: allowed - 1 } };
  if (allowed - 1 === 0) updateDisruptionAllowedCondition(updated, now);
  updated.status!.disruptedPods = { ...status.disruptedPods, [podName]: toTime(now) };
  return updated;
}

/** What EvictionREST writes through: the pods' and the budgets' stores (and the budgets' status strategy). */
export interface EvictionStorage {
  readonly pods: Store<Pod>;
  readonly budgets: Store<PodDisruptionBudget>;
  readonly budgetStatus: Strategy<PodDisruptionBudget>;
  readonly clock: Clock;
  readonly release: Release;
}

/**
 * EvictionREST.Create, after admission: a pod that may ignore budgets is deleted at once (with a
 * resourceVersion precondition while it is Pending, shouldEnforceResourceVersion); any other is
 * checked against the PodDisruptionBudget that selects it (checkPodDisruptionBudgets): a spent
 * disruption is written to the budget's status, in this request, before the pod is deleted; a
 * refusal is the 429 (or 403, 500) the check throws.
 */
export function createEviction(
  storage: EvictionStorage,
  namespace: string,
  name: string,
  eviction: Eviction,
  dryRunRequested: boolean,
): void {
  const options = evictionDeleteOptions(name, eviction, dryRunRequested);
  const dryRun = (options.dryRun ?? []).length > 0;
  const pod = storage.pods.get(namespace, name);
  const rvUnset = options.preconditions?.resourceVersion === undefined;
  const withResourceVersion = (): DeleteOptions => ({
    ...options,
    preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion },
  });
  if (canIgnorePDB(pod)) {
    addConditionAndDeletePod(
      storage,
      namespace,
      name,
      shouldEnforceResourceVersion(pod) && rvUnset ? withResourceVersion() : options,
    );
    return;
  }
  // The budget is read and written within this request: upstream's loopback client (GET, then
  // UpdateStatus with conflict retries) cannot interleave with other requests here.
  const decision = checkPodDisruptionBudgets(
    pod,
    storage.budgets.list(namespace).items,
    storage.clock.now(),
    storage.release,
  );
  if (decision.kind === 'decrement' && !dryRun) {
    const updated = decision.updated;
    storage.budgets.update(namespace, updated.metadata.name!, () => clone(updated), { strategy: storage.budgetStatus });
  }
  if (decision.kind !== 'unhealthy') {
    addConditionAndDeletePod(storage, namespace, name, options);
    return;
  }
  try {
    addConditionAndDeletePod(storage, namespace, name, withResourceVersion());
  } catch (e) {
    // The pod changed since it was judged unhealthy (it may be ready now): the client is told to retry.
    if (e instanceof StatusError && e.code === 409 && rvUnset) throw budgetStillProcessing(decision.pdb.metadata.name!);
    throw e;
  }
}

/**
 * addConditionAndDeletePod: DisruptionTarget=True (EvictionByEvictionAPI) written to the status
 * through the status strategy first (PodDisruptionConditions; not on a dry run), a
 * resourceVersion precondition moving on to that write, then the pod's Store.Delete.
 */
function addConditionAndDeletePod(
  storage: EvictionStorage,
  namespace: string,
  name: string,
  deleteOptions: DeleteOptions,
): void {
  let options = deleteOptions;
  if ((options.dryRun ?? []).length === 0 && storage.release.enabled('PodDisruptionConditions')) {
    const { object } = storage.pods.update(
      namespace,
      name,
      (latest) => {
        checkEvictionPreconditions(options, latest);
        const status = { ...latest.status };
        updatePodCondition(status, EVICTION_CONDITION, storage.clock.now());
        latest.status = status;
        return latest;
      },
      { strategy: podStatusStrategy },
    );
    if (options.preconditions?.resourceVersion !== undefined)
      options = {
        ...options,
        preconditions: { ...options.preconditions, resourceVersion: object.metadata.resourceVersion },
      };
  }
  storage.pods.delete(namespace, name, options);
}

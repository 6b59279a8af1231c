import { badRequest, conflict } from './errors';
import type { DeleteOptions, Pod, PodCondition } from './types';

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
export const EVICTION_CONDITION: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };

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
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
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
    throw conflict('Pod', latest.metadata.name ?? '', `the UID in the precondition (${uid}) does not match the UID in record (${latest.metadata.uid}). The object might have been deleted and then recreated`);
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv && rv !== latest.metadata.resourceVersion) {
    throw conflict('Pod', latest.metadata.name ?? '', `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion}). The object might have been modified`);
  }
}

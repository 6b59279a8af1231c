import type { OwnerReference, PersistentVolumeClaim, Pod, StatefulSet } from '../../../apimachinery/types';
import { newControllerRef } from '../controller-utils';
import { getOrdinal, getStartOrdinal } from './stateful-set-utils';

/**
 * P21 — a StatefulSet's persistentVolumeClaimRetentionPolicy expressed as owner references on its
 * claims (pkg/controller/statefulset/stateful_set_utils.go, KEP-1847, gate StatefulSetAutoDeletePVC):
 * the garbage collector then does the deleting.
 *
 *   whenScaled Retain, whenDeleted Retain: no reference from the set or the pod;
 *   whenScaled Retain, whenDeleted Delete: the set is the claim's controller;
 *   whenScaled Delete, whenDeleted Retain: the pod is, once its ordinal is out of range;
 *   whenScaled Delete, whenDeleted Delete: the set while the pod is in range, the pod once it is not.
 *
 * So a claim of a condemned ordinal is owned by its pod before the pod is deleted, and goes with it.
 */

export type RetentionPolicy = { whenDeleted: string; whenScaled: string };

const SET_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
const POD_KIND = { apiVersion: 'v1', kind: 'Pod' };
type Kind = typeof SET_KIND;

/** getPersistentVolumeClaimRetentionPolicy: Retain/Retain when the set gives none. */
export function getPersistentVolumeClaimRetentionPolicy(set: StatefulSet): RetentionPolicy {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

/** podInOrdinalRange: the pod's ordinal is one of the set's replicas. */
export function podInOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const ordinal = getOrdinal(set, pod);
  const start = getStartOrdinal(set);
  return ordinal >= start && ordinal < start + (set.spec?.replicas ?? 1);
}

type Owner = { metadata: { name?: string; uid?: string } };

/** matchesRef: the reference names the object's kind and name (whatever its UID). */
const matchesRef = (ref: OwnerReference, obj: Owner, kind: Kind): boolean =>
  ref.apiVersion === kind.apiVersion && ref.kind === kind.kind && ref.name === obj.metadata.name;

const refs = (claim: PersistentVolumeClaim): readonly OwnerReference[] => claim.metadata.ownerReferences ?? [];

/** hasOwnerRef: a reference to the owner's UID, controller or not. */
const hasOwnerRef = (claim: PersistentVolumeClaim, owner: Owner): boolean =>
  refs(claim).some((r) => r.uid === owner.metadata.uid);

/**
 * hasStaleOwnerRef: a reference to an object of this kind and name but another UID — the claim
 * still belongs to an earlier pod (or set) of that name.
 */
export function hasStaleOwnerRef(claim: PersistentVolumeClaim, obj: Owner, kind: Kind): boolean {
  const ref = refs(claim).find((r) => matchesRef(r, obj, kind));
  return ref !== undefined && ref.uid !== obj.metadata.uid;
}

/** hasStaleOwnerRef for a pod: the claim's pod reference names a pod of this name with another UID. */
export const hasStalePodRef = (claim: PersistentVolumeClaim, pod: Pod): boolean =>
  hasStaleOwnerRef(claim, pod, POD_KIND);

/**
 * hasUnexpectedController: under a policy that deletes, another controller of the claim (or a
 * reference to this set or pod with the wrong UID) means the policy leaves the claim alone.
 */
export function hasUnexpectedController(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const ref of refs(claim)) {
    if (matchesRef(ref, set, SET_KIND)) {
      if (ref.uid !== set.metadata.uid) return true;
      continue;
    }
    if (matchesRef(ref, pod, POD_KIND)) {
      if (ref.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (ref.controller) return true;
  }
  return false;
}

/** hasNonControllerOwner: the set or the pod owns the claim without being its controller. */
function hasNonControllerOwner(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  return refs(claim).some((r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && !r.controller);
}

/** isClaimOwnerUpToDate: whether the claim's references already say what the policy asks. */
export function isClaimOwnerUpToDate(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  // Owned by an earlier set or pod of the same name: not to be touched.
  if (hasStaleOwnerRef(claim, set, SET_KIND) || hasStaleOwnerRef(claim, pod, POD_KIND)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const { wantSet, wantPod } = wantedOwners(set, pod);
  return hasOwnerRef(claim, set) === wantSet && hasOwnerRef(claim, pod) === wantPod;
}

/** Which of the set and the pod the policy makes the claim's controller. */
function wantedOwners(set: StatefulSet, pod: Pod): { wantSet: boolean; wantPod: boolean } {
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const deleteOnScale = policy.whenScaled === 'Delete';
  const deleteWithSet = policy.whenDeleted === 'Delete';
  return {
    // With both Delete the set owns the claims of the pods in range only; with whenScaled Retain it owns all.
    wantSet: deleteWithSet && !(deleteOnScale && scaledDown),
    wantPod: deleteOnScale && scaledDown,
  };
}

/**
 * updateClaimOwnerRefForSetAndPod: the claim's references with those to this set and pod
 * replaced by what the policy asks (none when another controller holds the claim).
 */
export function claimOwnerRefsForSetAndPod(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): OwnerReference[] {
  const unexpected = hasUnexpectedController(claim, set, pod);
  const out = refs(claim).filter((r) => !matchesRef(r, set, SET_KIND) && !matchesRef(r, pod, POD_KIND));
  if (unexpected) return out;
  const { wantSet, wantPod } = wantedOwners(set, pod);
  if (wantPod) out.push(newControllerRef(pod, POD_KIND.apiVersion, POD_KIND.kind));
  if (wantSet) out.push(newControllerRef(set, SET_KIND.apiVersion, SET_KIND.kind));
  return out;
}

import type { ControllerRevision, Pod, StatefulSet } from '../../../apimachinery/types';
import type { Release } from '../../../foundation/release';
import { isPodAvailable } from '../../../helpers/pod-util';
import { newControllerRef } from '../controller-utils';
import { isPodReady } from '../../../helpers/pod-util';

export const SOURCE = 'pkg/controller/statefulset/stateful_set_utils.go';

/** apps/v1 labels a StatefulSet puts on its pods. */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The label a ControllerRevision carries with its hash (ControllerRevisionHashLabel in pkg/controller/history). */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** getParentNameAndOrdinal: `NAME-ORDINAL`; −1 when the name is not one of the set's. */
export function getOrdinal(set: StatefulSet, pod: Pod): number {
  const prefix = `${set.metadata.name}-`;
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(prefix)) return -1;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : -1;
}

/** getStartOrdinal: spec.ordinals.start (StatefulSetStartOrdinal, β on from 1.27), else 0. */
export function getStartOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

export function getPodName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

/** isCreated: the pod exists in the API (it has a phase). */
export const isCreated = (pod: Pod): boolean => !!pod.status?.phase;
export const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
export const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
export const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;
/** isRunningAndReady: phase Running and the Ready condition True. */
export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
/** isRunningAndAvailable: Running and ready for minReadySeconds. */
export const isRunningAndAvailable = (pod: Pod, minReadySeconds: number, now: number, release: Release): boolean =>
  pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now, release);
/** isHealthy: running, ready and not being deleted. */
export const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** allowsBurst: podManagementPolicy Parallel; OrderedReady is "monotonic". */
export function allowsBurst(set: StatefulSet): boolean {
  return set.spec?.podManagementPolicy === 'Parallel';
}

/**
 * newVersionedStatefulSetPod (newStatefulSetPod, initIdentity, updateStorage left out): the
 * template with the controller reference, the name NAME-ORDINAL, hostname and subdomain, the
 * `statefulset.kubernetes.io/pod-name` label, `apps.kubernetes.io/pod-index` with PodIndexLabel
 * (β on 1.28, GA 1.32) and the revision's `controller-revision-hash`.
 */
export function newStatefulSetPod(set: StatefulSet, ordinal: number, revision: string, release: Release): Pod {
  const template = set.spec!.template;
  const name = getPodName(set, ordinal);
  const labels: Record<string, string> = {
    ...template.metadata?.labels,
    [STATEFULSET_POD_NAME_LABEL]: name,
    [CONTROLLER_REVISION_HASH_LABEL]: revision,
  };
  if (release.enabled('PodIndexLabel')) labels[POD_INDEX_LABEL] = String(ordinal);
  const spec = structuredClone(template.spec ?? { containers: [] });
  updateStorage(set, ordinal, spec);
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace,
      labels,
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ...(template.metadata?.finalizers ? { finalizers: [...template.metadata.finalizers] } : {}),
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    spec,
  };
}

/**
 * controller.ComputeHash over the pod template and the collision count: FNV-32a, written as
 * rand.SafeEncodeString of its decimal digits. Upstream hashes Go's printed form of the object,
 * so the same template gets another value there; within a run the value is stable.
 */
export function computeHash(template: unknown, collisionCount: number): string {
  const text = JSON.stringify(template) + (collisionCount ? String(collisionCount) : '');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i) & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...String(h)].map((d) => alphabet[d.charCodeAt(0) % alphabet.length]).join('');
}

/**
 * newRevision (getPatch): a ControllerRevision `NAME-HASH` holding the template as a patch,
 * owned by the set, with the next revision number.
 */
export function newRevision(set: StatefulSet, revision: number): ControllerRevision {
  const hash = computeHash(set.spec?.template, set.status?.collisionCount ?? 0);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${set.metadata.name}-${hash}`,
      namespace: set.metadata.namespace,
      labels: { ...set.spec?.template?.metadata?.labels, [REVISION_HASH_LABEL]: hash },
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    data: { spec: { template: { ...structuredClone(set.spec?.template), $patch: 'replace' } } },
    revision,
  };
}

/** getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export function getPersistentVolumeClaimName(set: StatefulSet, template: string, ordinal: number): string {
  return `${template}-${set.metadata.name}-${ordinal}`;
}

/**
 * updateStorage: every volumeClaimTemplate becomes a volume of the pod, named after the template,
 * whose claim is that ordinal's claim (replacing a template volume of the same name).
 */
function updateStorage(set: StatefulSet, ordinal: number, spec: NonNullable<Pod['spec']>): void {
  const templates = set.spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return;
  const claimed = new Set(templates.map((t) => t.metadata?.name));
  spec.volumes = [
    ...templates.map((t) => ({
      name: t.metadata!.name!,
      persistentVolumeClaim: { claimName: getPersistentVolumeClaimName(set, t.metadata!.name!, ordinal) },
    })),
    ...(spec.volumes ?? []).filter((v) => !claimed.has(v.name)),
  ];
}

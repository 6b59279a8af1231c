import type { Deployment, PodTemplateSpec, ReplicaSet } from '../../../apimachinery/types';

/**
 * pkg/controller/deployment/util/deployment_util.go: revisions and annotations, the
 * pod-template-hash, maxSurge / maxUnavailable, and the replica counts a rollout reasons with.
 */

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** apps.DefaultDeploymentUniqueLabelKey. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** apimachinery/pkg/util/rand SafeEncodeString: every character mapped into the alphabet without vowels (and 0, 1, 3). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

/** hash/fnv New32a over bytes. */
export function fnv32a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Object keys sorted at every level, as a stable serialization of the template. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      // A null member is an unset one (Go decodes `creationTimestamp: null` to the zero time).
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined && (v as Record<string, unknown>)[k] !== null)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * controller.ComputeHash: fnv32a of the template, then of collisionCount's four bytes (little
 * endian) when there is one, the decimal sum encoded by SafeEncodeString. Upstream hashes spew's
 * dump of the Go struct (hashutil.DeepHashObject); the bytes hashed here are a canonical JSON of
 * the template instead, so the values differ from a real cluster's while behaving alike: a new
 * template (or collisionCount) gives a new name, the same template the same one.
 */
export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  const text = new TextEncoder().encode(canonical(template));
  let bytes = text;
  if (collisionCount !== undefined) {
    bytes = new Uint8Array(text.length + 4);
    bytes.set(text);
    new DataView(bytes.buffer).setUint32(text.length, collisionCount >>> 0, true);
  }
  return safeEncodeString(String(fnv32a(bytes)));
}

/**
 * The canonical JSON of stored (frozen, so never changing) templates without their hash label:
 * every sync compares the Deployment's template with each of its sets' (FindNewReplicaSet), and
 * writing them out was a visible share of a scenario with a Deployment.
 */
const strippedTemplates = new WeakMap<PodTemplateSpec, string>();

/** A template's canonical JSON without the pod-template-hash label. */
function stripHash(t: PodTemplateSpec | undefined): string {
  const frozen = t !== undefined && Object.isFrozen(t);
  const cached = frozen ? strippedTemplates.get(t) : undefined;
  if (cached !== undefined) return cached;
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  const text = canonical({
    ...t,
    metadata: { ...t?.metadata, labels: Object.keys(labels).length ? labels : undefined },
  });
  if (frozen) strippedTemplates.set(t, text);
  return text;
}

/** EqualIgnoreHash: two templates alike but for the pod-template-hash label. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return stripHash(a) === stripHash(b);
}

/** intstr.GetScaledValueFromIntOrPercent: an int as is, "N%" of total rounded up or down. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.parseInt(v, 10) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** ResolveFenceposts: surge rounded up, unavailable down; both 0 would stall, so unavailable becomes 1. */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const replicas = d.spec?.replicas ?? 1;
  const ru = d.spec?.strategy?.rollingUpdate;
  const surge = scaledValue(ru?.maxSurge, replicas, true);
  let unavailable = scaledValue(ru?.maxUnavailable, replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

const isRolling = (d: Deployment) => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

export function maxSurge(d: Deployment): number {
  return isRolling(d) ? resolveFenceposts(d).surge : 0;
}

export function maxUnavailable(d: Deployment): number {
  const replicas = d.spec?.replicas ?? 1;
  if (!isRolling(d) || replicas === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicas);
}

const specReplicas = (rs: ReplicaSet | undefined) => rs?.spec?.replicas ?? 0;

/** GetReplicaCountForReplicaSets: the sum of spec.replicas (what the sets are asked for, not the pods that exist). */
export function replicaCount(sets: readonly (ReplicaSet | undefined)[]): number {
  return sets.reduce((n, rs) => n + specReplicas(rs), 0);
}

/** GetAvailableReplicaCountForReplicaSets. */
export function availableCount(sets: readonly (ReplicaSet | undefined)[]): number {
  return sets.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/**
 * NewRSNewReplicas: under RollingUpdate, as many more as maxSurge leaves room for above
 * spec.replicas, counted in the sets' spec.replicas — pods already being deleted are not in any
 * count, so a surge can run beside old pods that are still terminating; Recreate: all at once.
 */
export function newRSNewReplicas(
  d: Deployment,
  all: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): number {
  const replicas = d.spec?.replicas ?? 1;
  if (!isRolling(d)) return replicas;
  const current = replicaCount(all);
  const maxTotal = replicas + maxSurge(d);
  if (current >= maxTotal) return specReplicas(newRS);
  return specReplicas(newRS) + Math.min(maxTotal - current, replicas - specReplicas(newRS));
}

export function revisionOf(rs: ReplicaSet): number {
  return Number.parseInt(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '0', 10) || 0;
}

/** FindNewReplicaSet: the oldest set whose template is the Deployment's (ignoring the hash label). */
export function findNewReplicaSet(d: Deployment, sets: readonly ReplicaSet[]): ReplicaSet | undefined {
  return byCreation(sets).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreation(sets: readonly ReplicaSet[]): ReplicaSet[] {
  return [...sets].sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    if (ta !== tb) return ta < tb ? -1 : 1;
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  });
}

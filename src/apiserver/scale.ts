import { badRequest, conflict } from '../apimachinery/errors';
import type { KubeObject } from '../apimachinery/object';
import type { Deployment, ReplicaSet, StatefulSet } from '../apimachinery/types';

/** The kinds with a `scale` subresource here (pkg/registry/apps/deployment, replicaset and statefulset storage ScaleREST). */
export type ScalableResource = 'deployments' | 'replicasets' | 'statefulsets';

type Scalable = Deployment | ReplicaSet | StatefulSet;

/** autoscaling/v1 Scale: what GET …/scale answers and what a PATCH or PUT of it carries. */
export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

/** metav1.FormatLabelSelector of matchLabels and matchExpressions, as Scale.status.selector carries it. */
function selectorString(obj: Scalable): string {
  const s = obj.spec?.selector;
  const parts = Object.keys(s?.matchLabels ?? {})
    .sort()
    .map((k) => `${k}=${s!.matchLabels![k]}`);
  for (const e of s?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/**
 * scaleFromDeployment / scaleFromReplicaSet / scaleFromStatefulSet (pkg/registry/apps/*\/storage): the Scale of the
 * object — its name, namespace, uid, resourceVersion and creationTimestamp; spec.replicas;
 * status.replicas and the selector as a string.
 */
export function scaleOf(obj: Scalable): Scale {
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: obj.spec?.replicas ?? 0 },
    status: { replicas: obj.status?.replicas ?? 0, selector: selectorString(obj) },
  };
}

/**
 * scaleUpdatedObjectInfo.UpdatedObject: the new Scale's spec.replicas goes to the object; a
 * resourceVersion in the Scale must be the object's (else 409); a negative count is refused
 * (ValidateScale, 422 in upstream; a 400 here).
 */
export function applyScale<T extends Scalable>(obj: T, scale: Scale, resource: ScalableResource): T {
  const rv = scale.metadata?.resourceVersion;
  if (rv && rv !== obj.metadata.resourceVersion) {
    throw conflict(
      `${resource}.apps`,
      obj.metadata.name ?? '',
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }
  const replicas = scale.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw badRequest(`spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`);
  obj.spec = { ...obj.spec!, replicas };
  return obj;
}

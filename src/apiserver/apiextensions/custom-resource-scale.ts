import { invalid } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { Scale } from '../scale';
import type { CustomResourceSubresources } from './types';

/** A CRD version's scale subresource: where replicas and the selector live in its objects. */
export type ScaleSubresource = NonNullable<CustomResourceSubresources['scale']>;

const steps = (path: string): string[] => path.replace(/^\./, '').split('.');

function nested(obj: unknown, path: string): unknown {
  let v = obj;
  for (const s of steps(path)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

/**
 * pkg/registry/customresource/etcd.go scaleFromCustomResource: the autoscaling/v1 Scale of a
 * custom resource — its name, namespace, uid, resourceVersion and creationTimestamp; spec.replicas
 * read at specReplicasPath and status.replicas at statusReplicasPath (0 when absent); the
 * selector, a string, at labelSelectorPath if the CRD names one.
 */
export function customScaleOf(obj: KubeObject, scale: ScaleSubresource): Scale {
  const m = obj.metadata;
  const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
  const selector = scale.labelSelectorPath ? nested(obj, scale.labelSelectorPath) : undefined;
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
    spec: { replicas: int(nested(obj, scale.specReplicasPath)) },
    status: {
      replicas: int(nested(obj, scale.statusReplicasPath)),
      ...(typeof selector === 'string' ? { selector } : {}),
    },
  };
}

/**
 * scaleUpdatedObjectInfo.UpdatedObject for custom resources: the Scale is validated
 * (ValidateScale: replicas ≥ 0, a 422 on `Scale.autoscaling`), its replicas are set at
 * specReplicasPath, and a resourceVersion it carries becomes the object's (the update then
 * conflicts when it is stale).
 */
export function applyCustomScale(obj: KubeObject, next: Scale, scale: ScaleSubresource): KubeObject {
  const replicas = next.spec?.replicas ?? 0;
  if (!Number.isInteger(replicas) || replicas < 0)
    throw invalid('Scale.autoscaling', next.metadata?.name ?? '', [
      { field: 'spec.replicas', type: 'Invalid', value: replicas, detail: 'must be greater than or equal to 0' },
    ]);
  const path = steps(scale.specReplicasPath);
  const out = { ...obj } as KubeObject & Record<string, unknown>;
  let parent = out as Record<string, unknown>;
  for (const s of path.slice(0, -1)) {
    const child = parent[s];
    parent[s] =
      child !== null && typeof child === 'object' && !Array.isArray(child)
        ? { ...(child as Record<string, unknown>) }
        : {};
    parent = parent[s] as Record<string, unknown>;
  }
  parent[path[path.length - 1]] = replicas;
  if (next.metadata?.resourceVersion)
    out.metadata = { ...out.metadata, resourceVersion: next.metadata.resourceVersion };
  return out;
}

import type { KubeObject } from '../apimachinery/object';
import type { Deployment, ReplicaSet, StatefulSet } from '../apimachinery/types';
import { applyCustomScale, customScaleOf, type ScaleSubresource } from './apiextensions/custom-resource-scale';
import { applyPatchBody, type PatchType } from './patch';
import { applyScale, scaleOf, type Scale, type ScalableResource } from './scale';

/** What a PATCH or PUT of …/scale carries: a patch of the Scale, or the whole Scale. */
export type ScaleChange = { patch: PatchType; body: unknown } | { scale: Scale };

/**
 * One kind's ScaleREST: how its scale subresource reads an object's Scale and writes a changed
 * Scale back to it (through the main strategy, in one update).
 */
export interface ScaleRest {
  get(obj: KubeObject): Scale;
  /** The object with the changed Scale's spec.replicas: a patch applies to the object's Scale, a Scale sent replaces it. */
  update(existing: KubeObject, change: ScaleChange): KubeObject;
}

/** pkg/registry/apps/{deployment,replicaset,statefulset}/storage ScaleREST. */
export function appsScaleRest(resource: ScalableResource): ScaleRest {
  type Scalable = Deployment | ReplicaSet | StatefulSet;
  return {
    get: (obj) => scaleOf(obj as Scalable),
    update: (existing, change) => {
      const next =
        'patch' in change
          ? (applyPatchBody(scaleOf(existing as Scalable), change.patch, change.body) as Scale)
          : change.scale;
      return applyScale(existing as Scalable, next, resource);
    },
  };
}

const APIEXTENSIONS_REGISTRY = 'staging/src/k8s.io/apiextensions-apiserver/pkg/registry';
export const CUSTOM_SCALE_SOURCE = `${APIEXTENSIONS_REGISTRY}/customresource/etcd.go ScaleREST.Update`;

/** apiextensions-apiserver pkg/registry/customresource ScaleREST, at the paths its CRD version names. */
export function customScaleRest(subresource: ScaleSubresource): ScaleRest {
  return {
    get: (obj) => customScaleOf(obj, subresource),
    update: (existing, change) => {
      const next =
        'patch' in change
          ? (applyPatchBody(customScaleOf(existing, subresource), change.patch, change.body) as Scale)
          : change.scale;
      return applyCustomScale(existing, next, subresource);
    },
  };
}

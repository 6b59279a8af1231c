import { jsonEqual, toTime, type KubeObject } from '../../apimachinery/object';
import type { Strategy } from '../strategy';
import { validateObjectMetaUpdate, validateQualifiedFinalizers } from '../../apimachinery/validation';
import type { Release } from '../../foundation/release';
import {
  decodeCustomResource,
  validateCustomResource,
  validateCustomResourceStatusUpdate,
  validateCustomResourceUpdate,
  type JSONSchemaProps,
} from './custom-resource-schema';

/** What a custom resource's strategy is built from: its CRD's names, scope and storage version. */
export interface CustomResourceShape {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly hasStatus: boolean;
  readonly schema?: JSONSchemaProps;
  /** spec.preserveUnknownFields: nothing is pruned (only CRDs created as v1beta1 have it). */
  readonly preserveUnknownFields: boolean;
  readonly release: Release;
  /** Where the warnings of an update go (the ratcheted errors of CEL rules, R316). */
  readonly warn?: (warning: string) => void;
}

/** Everything of the object but its metadata (customresource/strategy.go copyNonMetadata). */
function nonMetadata(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj as KubeObject & Record<string, unknown>;
  return rest;
}

/**
 * pkg/registry/customresource/strategy.go customResourceStrategy, for one CRD: namespaced or
 * cluster-scoped as its scope says, stored under /registry/<group>/<plural>, no graceful deletion
 * (a DELETE removes the object unless finalizers hold it) and no default garbage-collection
 * policy (background). With a status subresource, the main resource drops what is sent under
 * `status` (kept from the stored object on update) and only a change outside metadata and status
 * moves metadata.generation; without one, any change outside metadata moves it (status included).
 * Validation is the CRD's schema (custom-resource-schema.ts) and the finalizer names.
 */
export function customResourceStrategies(shape: CustomResourceShape): {
  main: Strategy<KubeObject>;
  status?: Strategy<KubeObject>;
} {
  const base = {
    kind: shape.kind,
    apiVersion: `${shape.group}/${shape.version}`,
    resource: `${shape.plural}.${shape.group}`,
    etcdPrefix: `${shape.group}/${shape.plural}`,
    namespaced: shape.namespaced,
    // customResourceStrategy.AllowUnconditionalUpdate: false — a PUT must carry a resourceVersion.
    allowUnconditionalUpdate: false,
    validate: (obj: KubeObject) => [
      ...validateQualifiedFinalizers(obj.metadata.finalizers ?? []),
      ...validateCustomResource(obj, shape.schema, shape.release),
    ],
  };
  const main: Strategy<KubeObject> = {
    ...base,
    prepareForCreate(obj, now) {
      // The decoder's pruning and defaulting (its unknown fields were reported by the served API).
      decodeCustomResource(obj as unknown as Record<string, unknown>, shape.schema, shape.preserveUnknownFields);
      if (shape.hasStatus) delete (obj as KubeObject & { status?: unknown }).status;
      obj.metadata.generation = 1;
      obj.metadata.creationTimestamp = toTime(now);
    },
    prepareForUpdate(next, old) {
      decodeCustomResource(next as unknown as Record<string, unknown>, shape.schema, shape.preserveUnknownFields);
      const n = next as KubeObject & { status?: unknown };
      const o = old as KubeObject & { status?: unknown };
      if (shape.hasStatus) {
        if (o.status !== undefined) n.status = o.status;
        else delete n.status;
      }
      if (!jsonEqual(nonMetadata(next), nonMetadata(old)))
        next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validateUpdate: (next, old) => [
      ...validateObjectMetaUpdate(next.metadata, old.metadata, validateQualifiedFinalizers),
      ...validateCustomResourceUpdate(next, old, shape.schema, shape.release, shape.warn),
    ],
  };
  if (!shape.hasStatus) return { main };
  // customresource/status_strategy.go PrepareForUpdate: the object becomes the stored one (its
  // metadata included) but for the status sent and the request's managedFields; the generation stays.
  const status: Strategy<KubeObject> = {
    ...base,
    prepareForCreate: () => undefined,
    prepareForUpdate(next, old) {
      decodeCustomResource(next as unknown as Record<string, unknown>, shape.schema, shape.preserveUnknownFields);
      const n = next as KubeObject & Record<string, unknown>;
      const sent = n.status;
      const managedFields = next.metadata.managedFields;
      for (const key of Object.keys(n)) delete n[key];
      Object.assign(n, old, { metadata: { ...old.metadata } });
      if (managedFields !== undefined) next.metadata.managedFields = managedFields;
      else delete next.metadata.managedFields;
      if (sent !== undefined) n.status = sent;
      else delete n.status;
    },
    validateUpdate: (next, old) => [
      ...validateObjectMetaUpdate(next.metadata, old.metadata, validateQualifiedFinalizers),
      ...validateCustomResourceStatusUpdate(next, old, shape.schema, shape.release, shape.warn),
    ],
  };
  return { main, status };
}

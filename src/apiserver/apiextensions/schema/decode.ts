/**
 * What kube-apiserver does to a custom resource it decodes, from a request body or from etcd, before
 * validation (R313): apiextensions-apiserver pkg/apiserver/customresource_handler.go
 * unstructuredSchemaCoercer.apply, then the codec's unstructuredDefaulter.
 *   1. the root metadata is re-encoded as ObjectMeta (its unknown members reported first);
 *   2. unless the CRD preserves unknown fields, the object is pruned (R305) and the nulls its schema
 *      neither allows nor defaults are dropped (R306);
 *   3. the metadata of embedded resources is re-encoded likewise (R312);
 *   4. defaults are applied (R306).
 * It returns the unknown fields' paths in that order, for fieldValidation's warnings or errors.
 */
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting';
import { coerceMeta, coerceObjectMeta } from './objectmeta';
import { prune } from './pruning';
import { type JSONSchemaProps, isJSONObject } from './types';

export interface DecodeOptions {
  /** The CRD's spec.preserveUnknownFields (false for every v1 CRD created as v1). */
  preserveUnknownFields?: boolean;
}

export function decodeCustomResource(
  obj: Record<string, unknown>,
  schema: JSONSchemaProps,
  options: DecodeOptions = {},
): string[] {
  const rootUnknown: string[] = [];
  if (isJSONObject(obj.metadata)) coerceMeta(obj.metadata, 'metadata', rootUnknown);
  const unknown = [...rootUnknown.sort()];
  if (!options.preserveUnknownFields) {
    unknown.push(...prune(obj, schema, true));
    pruneNonNullableNullsWithoutDefaults(obj, schema);
  }
  unknown.push(...coerceObjectMeta(obj, schema, false));
  applyDefaults(obj, schema);
  return unknown;
}

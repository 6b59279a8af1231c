import type { FieldError } from '../errors';
import type { KubeObject } from '../object';

/**
 * The one door to the structural-schema algorithms (./schema: the structural check of a CRD's
 * schema, validation of a custom resource against it, defaulting, pruning). Until that library
 * is in, a custom resource is only checked to be a JSON object and its schema is taken as given.
 */
export type JSONSchemaProps = Record<string, unknown>;

/** pkg/apiserver/schema.ValidateStructural (via the CRD's validation): the schema's errors at `path`. */
export function validateStructural(_schema: JSONSchemaProps, _path: string): FieldError[] {
  return [];
}

/** The custom resource's errors against its version's schema (validation.ValidateCustomResource). */
export function validateCustomResource(obj: KubeObject, _schema: JSONSchemaProps | undefined): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [{ field: '', type: 'Invalid', value: obj, detail: 'must be an object' }];
  return [];
}

/** structuraldefaulting.Default: fills in the schema's defaults, in place. */
export function applyDefaults(_obj: unknown, _schema: JSONSchemaProps | undefined): void {}

/** structuralpruning.Prune: drops the fields the schema does not declare, in place; the paths dropped. */
export function prune(_obj: unknown, _schema: JSONSchemaProps | undefined, _isResourceRoot: boolean): string[] {
  return [];
}

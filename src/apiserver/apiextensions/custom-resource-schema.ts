import type { Release } from '../../release';
import type { FieldError } from '../errors';

/**
 * The one door to the structural-schema algorithms (./schema: the structural check of a CRD's
 * schema, validation of a custom resource against it, pruning and defaulting), in the shape the
 * CRD and custom resource strategies and the served API call them. Until that library is in, a
 * custom resource is only checked to be a JSON object, and schemas are taken as given.
 */
export type JSONSchemaProps = Record<string, unknown>;

/** The CRD validation's structural check of one version's schema at `path` (ValidateStructural and the schema checks). */
export function validateCRDSchema(_schema: JSONSchemaProps, _path: string, _options: { statusSubresource: boolean; release: Release }): FieldError[] {
  return [];
}

/** A custom resource's errors against its version's schema (the customResourceStrategy's Validate). */
export function validateCustomResource(obj: unknown, _schema: JSONSchemaProps | undefined, _release: Release): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [{ field: '', type: 'Invalid', value: obj, detail: 'must be an object' }];
  return [];
}

/** The same for an update (ValidateUpdate, with ratcheting where the release has it). */
export function validateCustomResourceUpdate(obj: unknown, _old: unknown, schema: JSONSchemaProps | undefined, release: Release): FieldError[] {
  return validateCustomResource(obj, schema, release);
}

/**
 * What decoding does to a custom resource (the crdHandler's schema coercer and defaulter): prunes
 * the fields its schema does not declare (unless the CRD preserves unknown fields) and applies
 * its defaults, in place; answers the unknown fields' paths (`spec.foo`) for fieldValidation.
 */
export function decodeCustomResource(_obj: Record<string, unknown>, _schema: JSONSchemaProps | undefined, _preserveUnknownFields: boolean): string[] {
  return [];
}

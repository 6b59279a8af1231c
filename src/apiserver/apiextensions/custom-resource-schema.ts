import type { Release } from '../../release';
import type { FieldError } from '../errors';
import { decodeCustomResource as decode } from './schema/decode';
import { validateStructural } from './schema/structural';
import type { JSONSchemaProps } from './schema/types';
import { validateCustomResource as validateObject, validateCustomResourceStatusUpdate as validateStatus, validateCustomResourceUpdate as validateUpdate } from './schema/validation';

export type { JSONSchemaProps };

/**
 * The one door to the structural-schema algorithms (./schema: the structural check of a CRD's
 * schema, validation of a custom resource against it, pruning and defaulting), in the shape the
 * CRD and custom resource strategies and the served API call them.
 */

/** The CRD validation's check of one version's schema at `path` (…schema.openAPIV3Schema): structural, defaults, the OpenAPI checks. */
export function validateCRDSchema(schema: JSONSchemaProps, path: string, options: { statusSubresource: boolean; release: Release }): FieldError[] {
  return validateStructural(schema, path, options);
}

/** A custom resource is a JSON object before anything else (an unstructured.Unstructured). */
function notAnObject(obj: unknown): FieldError[] {
  return obj === null || typeof obj !== 'object' || Array.isArray(obj) ? [{ field: '', type: 'Invalid', value: obj, detail: 'must be an object' }] : [];
}

/** A custom resource's errors against its version's schema (the customResourceStrategy's Validate). */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps | undefined, release: Release): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return validateObject(obj, schema, { release });
}

/** The same for an update (ValidateUpdate, with ratcheting where the release has it). */
export function validateCustomResourceUpdate(obj: unknown, old: unknown, schema: JSONSchemaProps | undefined, release: Release): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return validateUpdate(obj, old, schema, { release });
}

/** An update through the status subresource: its status alone against the schema (ValidateStatusUpdate). */
export function validateCustomResourceStatusUpdate(obj: unknown, old: unknown, schema: JSONSchemaProps | undefined, release: Release): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return validateStatus(obj, old, schema, { release });
}

/**
 * What decoding does to a custom resource (the crdHandler's schema coercer and defaulter): prunes
 * the fields its schema does not declare (unless the CRD preserves unknown fields) and applies
 * its defaults, in place; answers the unknown fields' paths (`spec.foo`) for fieldValidation.
 */
export function decodeCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps | undefined, preserveUnknownFields: boolean): string[] {
  if (!schema) return [];
  return decode(obj, schema, { preserveUnknownFields });
}

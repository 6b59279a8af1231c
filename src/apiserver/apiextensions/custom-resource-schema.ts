import type { Release } from '../../foundation/release';
import type { FieldError } from '../../apimachinery/errors';
import type * as Decode from './schema/decode';
import type * as Structural from './schema/structural';
import type { JSONSchemaProps } from './schema/types';
import type * as Validation from './schema/validation';

export type { JSONSchemaProps };

/**
 * The one door to the structural-schema algorithms (./schema: the structural check of a CRD's
 * schema, validation of a custom resource against it, pruning and defaulting), in the shape the
 * CRD and custom resource strategies and the served API call them.
 */

let loaded: { decode: typeof Decode; structural: typeof Structural; validation: typeof Validation } | undefined;

/**
 * The library, loaded when a CRD or custom resource first needs it: its code (regular
 * expressions, formats, Go printing) is several MB once compiled, which a cluster without CRDs —
 * the 10 000-pod bench — never pays for.
 */
function library(): NonNullable<typeof loaded> {
  return (loaded ??= {
    decode: require('./schema/decode') as typeof Decode,
    structural: require('./schema/structural') as typeof Structural,
    validation: require('./schema/validation') as typeof Validation,
  });
}

/** The CRD validation's check of one version's schema at `path` (…schema.openAPIV3Schema): structural, defaults, the OpenAPI checks. */
export function validateCRDSchema(
  schema: JSONSchemaProps,
  path: string,
  options: { statusSubresource: boolean; release: Release },
): FieldError[] {
  return library().structural.validateStructural(schema, path, options);
}

/** A custom resource is a JSON object before anything else (an unstructured.Unstructured). */
function notAnObject(obj: unknown): FieldError[] {
  return obj === null || typeof obj !== 'object' || Array.isArray(obj)
    ? [{ field: '', type: 'Invalid', value: obj, detail: 'must be an object' }]
    : [];
}

/** A custom resource's errors against its version's schema (the customResourceStrategy's Validate). */
export function validateCustomResource(
  obj: unknown,
  schema: JSONSchemaProps | undefined,
  release: Release,
): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return library().validation.validateCustomResource(obj, schema, { release });
}

/** The same for an update (ValidateUpdate, with ratcheting where the release has it). */
export function validateCustomResourceUpdate(
  obj: unknown,
  old: unknown,
  schema: JSONSchemaProps | undefined,
  release: Release,
  warn?: (warning: string) => void,
): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return library().validation.validateCustomResourceUpdate(obj, old, schema, { release, warn });
}

/** An update through the status subresource: its status alone against the schema (ValidateStatusUpdate). */
export function validateCustomResourceStatusUpdate(
  obj: unknown,
  old: unknown,
  schema: JSONSchemaProps | undefined,
  release: Release,
  warn?: (warning: string) => void,
): FieldError[] {
  const bad = notAnObject(obj);
  if (bad.length > 0 || !schema) return bad;
  return library().validation.validateCustomResourceStatusUpdate(obj, old, schema, { release, warn });
}

/**
 * What decoding does to a custom resource (the crdHandler's schema coercer and defaulter): prunes
 * the fields its schema does not declare (unless the CRD preserves unknown fields) and applies
 * its defaults, in place; answers the unknown fields' paths (`spec.foo`) for fieldValidation.
 */
export function decodeCustomResource(
  obj: Record<string, unknown>,
  schema: JSONSchemaProps | undefined,
  preserveUnknownFields: boolean,
): string[] {
  if (!schema) return [];
  return library().decode.decodeCustomResource(obj, schema, { preserveUnknownFields });
}

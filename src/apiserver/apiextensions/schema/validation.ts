/**
 * validateCustomResource: what the custom resource strategy checks of a CR against its version's schema
 * (apiextensions-apiserver pkg/registry/customresource/strategy.go Validate, less what is not the
 * schema's: TypeMeta, the root ObjectMeta, scale paths, CEL rules):
 *   1. the OpenAPI value validation (./openapi-validator.ts), its errors turned into field errors as
 *      pkg/apiserver/validation/validation.go kubeOpenAPIResultToFieldErrors does (R302);
 *   2. the apiVersion and kind of each x-kubernetes-embedded-resource object (schema/objectmeta/validation.go) (R304);
 *   3. the uniqueness of x-kubernetes-list-type set and map items (schema/listtype/validation.go) (R303).
 * validateCustomResourceUpdate is the same for an update (strategy.go ValidateUpdate), which ratchets (R310);
 * validateCustomResourceStatusUpdate what an update of the status subresource checks (ValidateStatusUpdate).
 * Then, when the schema has x-kubernetes-validations and nothing above blocks them, its CEL rules
 * (./cel-validation.ts, R315).
 */
import { type FieldError, goJson } from '../../../apimachinery/errors';
import { DEFAULT_MINOR, type Release } from '../../../foundation/release';
import { validateCel, hasCelRules } from './cel-validation';
import { goBadValue } from './go-print';
import { dns1035 } from '../../../apimachinery/selectors';
import { embeddedObjectMetaErrors } from './objectmeta';
import { type OpenAPIError, openAPIErrors } from './openapi-validator';
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

export interface ValidationOptions {
  /** The modelled release (field.TooLong's wording changed in 1.32 and 1.34); 1.33 when absent. */
  release?: Release;
  /** Where an update's warnings go: the errors of CEL rules it ratchets (R316). */
  warn?: (warning: string) => void;
}

const atLeast = (options: ValidationOptions | undefined, minor: number): boolean =>
  options?.release ? options.release.atLeast(minor) : DEFAULT_MINOR >= minor;

/** field.Path.Child: a nil path (ValidateCustomResource is called with nil) prints as "<nil>", and its child as the name alone. */
function child(parent: string | undefined, name: string): string {
  return parent === undefined ? name : `${parent}.${name}`;
}

/** json.Marshal of an enum value for the "supported values" list (strings stay bare, then everything is strconv.Quote'd). */
function enumValueText(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isJSONObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

/** field.TooLong's detail: "may not be longer than N" to 1.31, "… more than N bytes" from 1.32, "1 byte" from 1.34. */
function tooLongDetail(max: number, options: ValidationOptions | undefined): string {
  if (!atLeast(options, 32)) return `may not be longer than ${max}`;
  return `may not be more than ${max} ${max === 1 && atLeast(options, 34) ? 'byte' : 'bytes'}`;
}

/** kubeOpenAPIResultToFieldErrors: one kube-openapi error as the field error kube-apiserver reports. */
function toFieldError(
  fldPath: string | undefined,
  err: OpenAPIError,
  options: ValidationOptions | undefined,
): FieldError {
  if (!err.validation)
    return { field: fldPath ?? '<nil>', type: 'Invalid', value: '', printedValue: '""', detail: err.message };
  const at =
    err.name.length > 0 && err.name !== '.' ? child(fldPath, err.name.replace(/^\./, '')) : (fldPath ?? '<nil>');
  const value = err.value ?? '';
  switch (err.code) {
    case 'Required':
      return { field: at, type: 'Required value', detail: '' };
    case 'Enum': {
      const values = (err.values ?? []).map((v) => JSON.stringify(enumValueText(v)));
      return {
        field: at,
        type: 'Unsupported value',
        value: err.value,
        printedValue: goBadValue(err.value),
        detail: values.length > 0 ? `supported values: ${values.join(', ')}` : '',
      };
    }
    case 'TooLong':
      return { field: at, type: 'Too long', detail: tooLongDetail(err.valid ?? -1, options) };
    case 'MaxItems':
    case 'TooManyProperties':
      return {
        field: at,
        type: 'Too many',
        value: err.value,
        printedValue: goBadValue(err.value),
        detail: `must have at most ${err.valid} items`,
      };
    case 'InvalidType':
      return {
        field: at,
        type: 'Invalid',
        typeInvalid: true,
        value,
        printedValue: goBadValue(value),
        detail: err.message,
      };
    default:
      return { field: at, type: 'Invalid', value, printedValue: goBadValue(value), detail: err.message };
  }
}

/**
 * apiservervalidation.ValidateCustomResource(fldPath, value, validator): the OpenAPI errors of a value
 * as field errors below fldPath (undefined for a whole custom resource, as the strategy passes nil).
 */
export function validateValue(
  fldPath: string | undefined,
  value: unknown,
  schema: JSONSchemaProps,
  options?: ValidationOptions,
  old?: { value: unknown },
): FieldError[] {
  // kube-openapi#412 came with 1.28; the k8s name formats are checked from 1.35 (./formats.ts).
  const opts = { propertyCountShortCircuits: !atLeast(options, 28), k8sNameFormats: atLeast(options, 35) };
  return openAPIErrors(value, schema, old, opts).map((e) => toFieldError(fldPath, e, options));
}

/** The identity of a value for set uniqueness: scalars by type and value, objects and lists by their JSON. */
function setKey(x: unknown): string {
  return isJSONObject(x) || Array.isArray(x) ? `c${JSON.stringify(sortKeys(x))}` : `s${typeof x}:${JSON.stringify(x)}`;
}

/** listtype.validateListSet: the index of each value's second occurrence. */
function nonUnique(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((x, i) => {
    const key = setKey(x);
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  });
  return out;
}

function duplicate(field: string, value: unknown): FieldError {
  return { field, type: 'Duplicate value', value, printedValue: goBadValue(value), detail: '' };
}

/** listtype.validateListMap: items must be objects, and unique by their map keys (missing keys count as unset). */
function validateListMap(path: string, s: JSONSchemaProps, list: unknown[]): FieldError[] {
  const bad = list.findIndex((x) => x !== null && !isJSONObject(x));
  if (bad >= 0)
    return [
      {
        field: `${path}[${bad}]`,
        type: 'Invalid',
        value: list[bad],
        printedValue: goBadValue(list[bad]),
        detail: 'must be an object for an array of list-type map',
      },
    ];
  if (list.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    for (const k of keyFields) if (isJSONObject(x) && Object.prototype.hasOwnProperty.call(x, k)) key[k] = x[k];
    return key;
  });
  return nonUnique(keys).map((i) => duplicate(`${path}[${i}]`, keys[i]));
}

function listTypeErrors(path: string, s: JSONSchemaProps | undefined, x: unknown): FieldError[] {
  if (!s) return [];
  if (Array.isArray(x)) {
    const errs: FieldError[] = [];
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set' && x.length > 1) errs.push(...nonUnique(x).map((i) => duplicate(`${path}[${i}]`, x[i])));
    if (listType === 'map') errs.push(...validateListMap(path, s, x));
    const items = itemsSchema(s);
    x.forEach((v, i) => errs.push(...listTypeErrors(`${path}[${i}]`, items, v)));
    return errs;
  }
  if (isJSONObject(x)) return listSetsAndMaps(path, s, x);
  return [];
}

/** listtype.ValidateListSetsAndMaps, from the root (a nil path) down. */
function listSetsAndMaps(path: string | undefined, s: JSONSchemaProps, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const additional = additionalPropertiesSchema(s);
  const keys = Object.keys(obj).sort();
  if (additional) for (const k of keys) errs.push(...listTypeErrors(`${path ?? ''}[${k}]`, additional, obj[k]));
  const props = s.properties ?? {};
  for (const k of keys)
    if (Object.prototype.hasOwnProperty.call(props, k)) errs.push(...listTypeErrors(child(path, k), props[k], obj[k]));
  return errs;
}

/** objectmeta.validateEmbeddedResource: apiVersion and kind, and the metadata (./objectmeta.ts). */
function validateEmbeddedResource(path: string | undefined, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string): string => child(path, name);
  if (!('apiVersion' in x)) errs.push({ field: at('apiVersion'), type: 'Required value', detail: 'must not be empty' });
  if (!('kind' in x)) errs.push({ field: at('kind'), type: 'Required value', detail: 'must not be empty' });
  const invalid = (name: string, value: unknown, detail: string): FieldError => ({
    field: at(name),
    type: 'Invalid',
    value,
    printedValue: goBadValue(value),
    detail,
  });
  if ('apiVersion' in x) {
    const v = x.apiVersion;
    if (typeof v !== 'string') errs.push(invalid('apiVersion', v, 'must be a string'));
    else if (v === '') errs.push(invalid('apiVersion', v, 'must not be empty'));
    else if (v.split('/').length > 2) errs.push(invalid('apiVersion', v, `unexpected GroupVersion string: ${v}`));
  }
  if ('kind' in x) {
    const v = x.kind;
    if (typeof v !== 'string') errs.push(invalid('kind', v, 'must be a string'));
    else if (v === '') errs.push(invalid('kind', v, 'must not be empty'));
    else {
      const problems = dns1035(v.toLowerCase());
      if (problems) errs.push(invalid('kind', v, `may have mixed case, but should otherwise match: ${problems}`));
    }
  }
  if ('metadata' in x) errs.push(...embeddedObjectMetaErrors(at('metadata'), x.metadata));
  return errs;
}

/** objectmeta.Validate(nil, obj, schema, false): every embedded resource below the root. */
function embeddedResourceErrors(path: string | undefined, x: unknown, s: JSONSchemaProps | undefined): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (isJSONObject(x)) {
    if (s['x-kubernetes-embedded-resource']) errs.push(...validateEmbeddedResource(path, x));
    const props = s.properties ?? {};
    const additional = additionalPropertiesSchema(s);
    for (const k of Object.keys(x).sort()) {
      if (Object.prototype.hasOwnProperty.call(props, k))
        errs.push(...embeddedResourceErrors(child(path, k), x[k], props[k]));
      else if (s.additionalProperties !== undefined)
        errs.push(...embeddedResourceErrors(`${path ?? ''}[${k}]`, x[k], additional));
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => errs.push(...embeddedResourceErrors(`${path ?? ''}[${i}]`, v, items)));
  }
  return errs;
}

/**
 * strategy.go hasBlockingErr: a value missing, of the wrong type, too long or too large, or outside
 * its enum keeps the CEL rules from running (they would fail on it), with one error saying so.
 */
const BLOCKING = new Set<FieldError['type']>(['Unsupported value', 'Required value', 'Too long', 'Too many']);
/**
 * field.Error.ErrorBody by release: from 1.34 a bad value that is a map or a list prints as JSON
 * (its keys sorted), not as Go's %#v (kubernetes#132314, V64; release.has('FieldErrorValuesAsJson')).
 */
function printedForRelease(errs: FieldError[], options: ValidationOptions | undefined): FieldError[] {
  const json = options?.release ? options.release.has('FieldErrorValuesAsJson') : atLeast(options, 34);
  if (!json) return errs;
  return errs.map((e) =>
    e.printedValue !== undefined && e.value !== null && typeof e.value === 'object'
      ? { ...e, printedValue: goJson(sortKeys(e.value)) }
      : e,
  );
}

function withCelRules(
  errs: FieldError[],
  obj: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  options: ValidationOptions | undefined,
): FieldError[] {
  if (!options?.release || !hasCelRules(schema)) return errs;
  if (errs.some((e) => BLOCKING.has(e.type) || e.typeInvalid)) {
    errs.push({
      field: '<nil>',
      type: 'Invalid',
      value: null,
      printedValue: 'null',
      detail:
        'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    });
    return errs;
  }
  errs.push(...validateCel(schema, obj, old, options.release, options.warn));
  return errs;
}

/**
 * The schema's errors of an update from `old` to `obj`. With CRDValidationRatcheting (β on from 1.30,
 * GA 1.33) a part that fails validation but is unchanged from the old object (ratcheting.go:
 * correlated by field, and by key in map lists) is let through, so a schema made stricter does not
 * block updates of other fields; embedded resources are checked as on create; list-type uniqueness is
 * checked only when the old object satisfied it.
 */
export function validateCustomResourceUpdate(
  obj: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  options?: ValidationOptions,
): FieldError[] {
  const ratcheting = options?.release ? options.release.enabled('CRDValidationRatcheting') : true;
  const errs = validateValue(undefined, obj, schema, options, ratcheting ? { value: old } : undefined);
  errs.push(...embeddedResourceErrors(undefined, obj, schema));
  if (isJSONObject(obj) && (!isJSONObject(old) || listSetsAndMaps(undefined, schema, old).length === 0))
    errs.push(...listSetsAndMaps(undefined, schema, obj));
  return printedForRelease(withCelRules(errs, obj, old, schema, options), options);
}

/**
 * validator.go ValidateStatusUpdate, the schema's part: only `status`, against the schema's
 * `properties.status`, with errors below `status` (composite ones on `status` itself), ratcheting as
 * an update does. An object without status, or a schema without one, has nothing to check.
 */
export function validateCustomResourceStatusUpdate(
  obj: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  options?: ValidationOptions,
): FieldError[] {
  const statusSchema = schema.properties?.status;
  const ratcheting = options?.release ? options.release.enabled('CRDValidationRatcheting') : true;
  const errs =
    !isJSONObject(obj) || !Object.prototype.hasOwnProperty.call(obj, 'status') || !statusSchema
      ? []
      : validateValue(
          'status',
          obj.status,
          statusSchema,
          options,
          ratcheting ? { value: isJSONObject(old) ? old.status : undefined } : undefined,
        );
  // status_strategy.go ValidateUpdate: the CEL rules of the whole object, as an update of the main resource.
  return printedForRelease(withCelRules(errs, obj, old, schema, options), options);
}

/** The schema's errors of a custom resource (a decoded JSON object), in the order the strategy collects them. */
export function validateCustomResource(
  obj: unknown,
  schema: JSONSchemaProps,
  options?: ValidationOptions,
): FieldError[] {
  const errs = validateValue(undefined, obj, schema, options);
  errs.push(...embeddedResourceErrors(undefined, obj, schema));
  if (isJSONObject(obj)) errs.push(...listSetsAndMaps(undefined, schema, obj));
  return printedForRelease(withCelRules(errs, obj, undefined, schema, options), options);
}

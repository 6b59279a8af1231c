/**
 * Defaulting of custom resources (apiextensions-apiserver pkg/apiserver/schema/defaulting) (R306).
 * kube-apiserver applies it when it decodes a request body and when it reads an object from etcd,
 * after pruning, so a default added to a schema shows on objects stored before it.
 */
import { clone } from '../../../apimachinery/object';
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

/** A null that the schema does not allow, where a default can stand in (algorithm.go isNonNullableNull). */
function nonNullableNull(x: unknown, s: JSONSchemaProps | undefined): boolean {
  return x === null && s !== undefined && !s.nullable;
}

function property(s: JSONSchemaProps | undefined, k: string): JSONSchemaProps | undefined {
  return s?.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
}

/**
 * algorithm.go Default: in every object that exists, each missing property with a default (or one
 * holding a null its schema does not allow) gets a copy of the default; then defaults apply inside each
 * field, those just added included. An absent parent object is not created, so the defaults of its
 * fields apply only once it exists. Array items and additionalProperties values that are such nulls
 * take their schema's default too.
 */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (isJSONObject(obj)) {
    for (const [k, prop] of Object.entries(schema.properties ?? {})) {
      if (prop.default === undefined) continue;
      if (!Object.prototype.hasOwnProperty.call(obj, k) || nonNullableNull(obj[k], prop)) obj[k] = clone(prop.default);
    }
    const additional = additionalPropertiesSchema(schema);
    for (const k of Object.keys(obj)) {
      const prop = property(schema, k);
      if (prop) applyDefaults(obj[k], prop);
      else if (schema.additionalProperties !== undefined) {
        if (nonNullableNull(obj[k], additional) && additional!.default !== undefined)
          obj[k] = clone(additional!.default);
        applyDefaults(obj[k], additional);
      }
    }
  } else if (Array.isArray(obj)) {
    const items = itemsSchema(schema);
    obj.forEach((v, i) => {
      if (nonNullableNull(v, items) && items!.default !== undefined) obj[i] = clone(items!.default);
      applyDefaults(obj[i], items);
    });
  }
}

/**
 * prunenulls.go PruneNonNullableNullsWithoutDefaults: drops the fields holding a null their schema does
 * not allow and has no default for. kube-apiserver runs it right after pruning, so such a null is
 * removed rather than refused; one with a default is left for applyDefaults to replace.
 */
export function pruneNonNullableNullsWithoutDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (isJSONObject(obj)) {
    for (const k of Object.keys(obj)) {
      const s = property(schema, k) ?? additionalPropertiesSchema(schema);
      if (obj[k] === null && s !== undefined && !s.nullable && s.default === undefined) delete obj[k];
      else pruneNonNullableNullsWithoutDefaults(obj[k], s);
    }
  } else if (Array.isArray(obj)) {
    const items = itemsSchema(schema);
    for (const v of obj) pruneNonNullableNullsWithoutDefaults(v, items);
  }
}

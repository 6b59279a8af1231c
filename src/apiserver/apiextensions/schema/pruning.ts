/**
 * Pruning: what kube-apiserver drops of a custom resource before it stores it or returns it
 * (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions) (R305).
 * Every object field the schema does not specify is removed, except below
 * x-kubernetes-preserve-unknown-fields (where only the specified parts are pruned further), and except
 * apiVersion, kind and metadata of the resource root and of x-kubernetes-embedded-resource objects.
 * A field under `additionalProperties` is kept; what it holds is pruned by its schema, and with
 * `additionalProperties: true` (no schema) an object held there loses every field.
 */
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** How handlers word an unknown field for fieldValidation=Warn (a warning) and Strict (an error). */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

class Walk {
  readonly unknown: string[] = [];

  record(path: string, key: string): void {
    this.unknown.push(join(path, key));
  }

  prune(x: unknown, s: JSONSchemaProps | undefined, path: string): void {
    if (s?.['x-kubernetes-preserve-unknown-fields']) return this.skipPrune(x, s, path);
    if (isJSONObject(x)) {
      for (const k of Object.keys(x)) {
        if (!s) {
          this.record(path, k);
          delete x[k];
          continue;
        }
        if (s['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) continue;
        const prop =
          s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
        if (prop) this.prune(x[k], prop, join(path, k));
        else if (s.additionalProperties !== undefined) this.prune(x[k], additionalPropertiesSchema(s), join(path, k));
        else {
          // A root meta field outside an embedded-resource schema is dropped silently (it is restored by the caller).
          if (!META_FIELDS.has(k) || path !== '') this.record(path, k);
          delete x[k];
        }
      }
    } else if (Array.isArray(x)) {
      const items = itemsSchema(s);
      x.forEach((v, i) => this.prune(v, items, `${path}[${i}]`));
    }
  }

  /** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, specified ones are pruned by their schema. */
  skipPrune(x: unknown, s: JSONSchemaProps | undefined, path: string): void {
    if (!s) return;
    if (isJSONObject(x)) {
      for (const k of Object.keys(x)) {
        if (s['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) continue;
        const prop =
          s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
        if (prop) this.prune(x[k], prop, join(path, k));
        else if (s.additionalProperties !== undefined) this.prune(x[k], additionalPropertiesSchema(s), join(path, k));
      }
    } else if (Array.isArray(x)) {
      const items = itemsSchema(s);
      x.forEach((v, i) => this.skipPrune(v, items, `${path}[${i}]`));
    }
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Prunes obj in place and returns the paths of the fields it dropped, sorted (`spec.foo`,
 * `spec.ports[0].bar`), for fieldValidation's unknown-field warnings and errors. With isResourceRoot
 * the root is treated as an embedded resource: its apiVersion, kind and metadata are never pruned.
 */
export function prune(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot: boolean): string[] {
  let s = schema;
  if (isResourceRoot && !s?.['x-kubernetes-embedded-resource'])
    s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const walk = new Walk();
  walk.prune(obj, s, '');
  return walk.unknown.sort();
}

import type { Json } from '../managedfields/fieldpath';
import type { OpenApiSchema, SmdSchema } from '../managedfields/schema';
import { merge, SmdError, toFieldSet } from '../managedfields/typed';

/** The schema of the object's kind: the server-side apply type converter's view (FieldManager). */
export interface TypeConverter {
  readonly schema: SmdSchema;
  rootOf(apiVersion: string, kind: string): OpenApiSchema;
}

/** An ApplyConfiguration that cannot be merged: the text patch/smd.go gives (the dispatcher prefixes the policy and binding). */
export class ApplyConfigurationError extends Error {}

const isMap = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * patch/smd.go findAtomics: the paths (`.spec.selector`, `.spec.containers[0].command`) of the
 * atomic lists, maps and structs the configuration sets. Lists are walked by index, whatever
 * their type; fields the schema does not declare are not walked. Untyped parts (the deduced
 * type) have granular maps and atomic lists.
 */
function findAtomics(schema: SmdSchema, node: OpenApiSchema | undefined, v: Json, path: string): string[] {
  const t = schema.type(node);
  const out: string[] = [];
  if (isMap(v) && (t.kind === 'map' || t.kind === 'untyped')) {
    if (t.kind === 'map' && t.atomic) out.push(path);
    for (const key of Object.keys(v)) {
      const child = t.kind === 'map' ? (t.fields?.[key] ?? t.element) : {};
      if (child !== undefined) out.push(...findAtomics(schema, child, v[key], `${path}.${key}`));
    }
  }
  if (Array.isArray(v) && (t.kind === 'list' || t.kind === 'untyped')) {
    if (t.kind === 'untyped' || t.relationship === 'atomic') out.push(path);
    const element = t.kind === 'list' ? t.element : {};
    v.forEach((item, i) => out.push(...findAtomics(schema, element, item, `${path}[${i}]`)));
  }
  return out;
}

/**
 * patch/smd.go ApplyStructuredMergeDiff: the configuration (the `Object{…}` value, with the
 * object's apiVersion and kind) merged over the object as server-side apply merges, without
 * recording field ownership: maps merge by key, associative lists (`x-kubernetes-list-type:
 * map`, or a patch-merge-key) by their keys, sets by value; scalars and atomic parts replace.
 * Refused: a configuration that is not valid for the schema (a field it does not declare, two
 * items of one key) and one that sets an atomic list, map or struct (validatePatch: `may not
 * mutate atomic arrays, maps or structs: …`), since merging would silently drop the members it
 * leaves out.
 */
export function applyConfiguration(
  converter: TypeConverter,
  object: Record<string, unknown>,
  configuration: Record<string, unknown>,
): Record<string, unknown> {
  const apiVersion = String(object.apiVersion ?? '');
  const kind = String(object.kind ?? '');
  const patch = { ...configuration, apiVersion, kind } as Json;
  const root = converter.rootOf(apiVersion, kind);
  try {
    toFieldSet(converter.schema, root, patch, true);
  } catch (e) {
    if (!(e instanceof SmdError)) throw e;
    throw new ApplyConfigurationError(
      `error applying patch: failed to convert patch object to typed object: ${e.message}`,
    );
  }
  const atomics = findAtomics(converter.schema, root, patch, '');
  if (atomics.length > 0)
    throw new ApplyConfigurationError(
      `error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`,
    );
  try {
    return merge(converter.schema, root, object as Json, patch) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof SmdError)) throw e;
    throw new ApplyConfigurationError(`error applying patch: failed to merge patch: ${e.message}`);
  }
}

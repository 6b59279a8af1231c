import { SmdSchema, type OpenApiSchema } from './managedfields/schema';
import { schemaDefinitions } from './schemas';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * R111/R240 — what kube-apiserver's decoder (apimachinery serializer/json with sigs.k8s.io/json,
 * the strict variant when `fieldValidation` asks for it) finds wrong in an object of a built-in
 * kind, by the kind's OpenAPI schema (src/apiserver/schemas.ts) as the release serves it:
 *
 * - a value of the wrong JSON type for its Go field, an integer field given a fraction or a
 *   number outside int32/int64: the decode fails at once, whatever `fieldValidation` says —
 *   `json: cannot unmarshal number 12.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64`
 *   (encoding/json UnmarshalTypeError: the struct holding the field and the field's path
 *   without list indexes). Only the first is reported, as the decoder does;
 * - fields the Go type does not declare (`unknown field "spec.replica"`) and, in a JSON body, a
 *   key written twice in one object (`duplicate field "spec.replicas"`): the strict decoder's
 *   errors (sigs.k8s.io/json UnmarshalStrict), all of them, which `fieldValidation` turns into a
 *   400, warnings or nothing.
 *
 * A field the client-node models know but the release does not declare (fields-by-release.json,
 * generated from k8s.io/api's types.go of each release by scripts/fields-by-release.mjs) is an
 * unknown field of that release, as it is for the real apiserver of that release.
 */
export interface DecodeProblems {
  /** The first type error, the decoder's message (refused with any fieldValidation). */
  readonly typeError?: string;
  /** `unknown field "…"` and `duplicate field "…"`, in the order met. */
  readonly strict: readonly string[];
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

type FieldsByRelease = Readonly<Record<string, Readonly<Record<string, readonly number[]>>>>;
const SINCE = JSON.parse(readFileSync(join(__dirname, 'fields-by-release.json'), 'utf8')) as FieldsByRelease;
/**
 * The fields typed by a named scalar of their package (`[]v1.PersistentVolumeAccessMode`,
 * `v1.RestartPolicy`), by definition: encoding/json's type error names that type, which the
 * OpenAPI schema (a plain string) cannot tell (types-by-release.json, scripts/fields-by-release.mjs).
 */
const NAMED = (
  JSON.parse(readFileSync(join(__dirname, 'types-by-release.json'), 'utf8')) as {
    named: Readonly<Record<string, Readonly<Record<string, string>>>>;
  }
).named;

const byMinor = new Map<number, Record<string, OpenApiSchema>>();

/**
 * The definitions as the release `minor` serves them: a property its k8s.io/api types.go does
 * not have in that release is dropped (OpenAPI documents and strict decoding read these).
 */
export function definitionsForRelease(minor: number): Record<string, OpenApiSchema> {
  let defs = byMinor.get(minor);
  if (defs) return defs;
  const all = schemaDefinitions();
  defs = {};
  for (const [name, def] of Object.entries(all)) {
    const fields = SINCE[name];
    if (!fields || !def.properties) {
      defs[name] = def;
      continue;
    }
    const properties = Object.fromEntries(Object.entries(def.properties).filter(([k]) => servedIn(fields[k], minor)));
    defs[name] = {
      ...def,
      properties,
      ...(def.required ? { required: def.required.filter((k) => k in properties) } : {}),
    };
  }
  byMinor.set(minor, defs);
  return defs;
}

function servedIn(range: readonly number[] | undefined, minor: number): boolean {
  if (!range) return true;
  const [first, last] = range;
  return minor >= first && (last === undefined || minor <= last);
}

const schemas = new Map<number, { schema: SmdSchema; roots: Map<string, OpenApiSchema> }>();

function schemaFor(minor: number): { schema: SmdSchema; roots: Map<string, OpenApiSchema> } {
  let s = schemas.get(minor);
  if (!s) {
    const defs = definitionsForRelease(minor);
    const roots = new Map<string, OpenApiSchema>();
    for (const [name, def] of Object.entries(defs)) {
      for (const g of def['x-kubernetes-group-version-kind'] ?? [])
        roots.set(gvkKey(g), { $ref: `#/definitions/${name}` });
    }
    schemas.set(minor, (s = { schema: new SmdSchema(defs), roots }));
  }
  return s;
}

const gvkKey = (g: GroupVersionKind) => `${g.group}/${g.version}/${g.kind}`;

/** Whether the kind has a schema here (custom resources and unmodelled kinds do not). */
export function hasSchema(gvk: GroupVersionKind, minor: number): boolean {
  return schemaFor(minor).roots.has(gvkKey(gvk));
}

const INT_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
};

/** The JSON kind encoding/json names in "cannot unmarshal X into …". */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * Decodes `value` (an object of kind `gvk`) against its schema: the problems the apiserver of
 * release `minor` reports. `drop` removes the unknown fields in place (what decoding into the Go
 * types does with Warn and Ignore). `duplicates`: the paths of keys written twice in the body
 * (duplicateFields), reported where met.
 */
export function decodeProblems(
  gvk: GroupVersionKind,
  value: unknown,
  minor: number,
  options: { drop?: boolean; duplicates?: ReadonlySet<string> } = {},
): DecodeProblems {
  const { schema, roots } = schemaFor(minor);
  const root = roots.get(gvkKey(gvk));
  const strict: string[] = [];
  let typeError: string | undefined;
  if (!root) return { strict };
  const duplicates = options.duplicates;
  const goType = (node: OpenApiSchema): string => {
    const ref = node.$ref ?? node.allOf?.[0]?.$ref;
    if (ref) {
      const name = ref.slice(ref.lastIndexOf('/') + 1);
      const parts = name.split('.');
      if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return 'resource.Quantity';
      return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
    }
    if (node['x-kubernetes-int-or-string']) return 'intstr.IntOrString';
    switch (node.type) {
      case 'array':
        return `[]${node.items ? goType(node.items) : 'interface {}'}`;
      case 'object':
        return node.additionalProperties && typeof node.additionalProperties === 'object'
          ? `map[string]${goType(node.additionalProperties)}`
          : 'map[string]interface {}';
      case 'integer':
        return node.format === 'int32' ? 'int32' : 'int64';
      case 'number':
        return 'float64';
      case 'boolean':
        return 'bool';
      case 'string':
        return node.format === 'byte' ? '[]uint8' : 'string';
      default:
        return 'interface {}';
    }
  };
  /**
   * `goPath`: the field path the decoder names (struct fields only); `struct`: the Go struct
   * holding the field; `named`: the field's Go type when a named scalar gives it (NAMED).
   */
  const walk = (
    v: unknown,
    node: OpenApiSchema,
    path: string,
    goPath: string,
    struct: string,
    named?: string,
  ): void => {
    if (v === null || v === undefined) return;
    const wrong = (what: string) => {
      typeError ??= `json: cannot unmarshal ${what} into Go ${goPath ? `struct field ${struct}.${goPath}` : 'value'} of type ${named ?? goType(node)}`;
    };
    const def = schema.deref(node);
    if (def['x-kubernetes-preserve-unknown-fields']) return;
    if (def['x-kubernetes-int-or-string']) {
      if (typeof v === 'string') return;
      if (typeof v !== 'number') return wrong(jsonKind(v));
      if (!Number.isInteger(v) || Math.abs(v) > 2 ** 31) return wrong(`number ${String(v)}`);
      return;
    }
    switch (def.type) {
      case 'integer': {
        if (typeof v !== 'number') return wrong(jsonKind(v));
        const [min, max] = INT_RANGE[def.format ?? 'int64'] ?? INT_RANGE.int64;
        if (!Number.isInteger(v) || v < min || v > max) return wrong(`number ${String(v)}`);
        return;
      }
      case 'number':
        if (typeof v !== 'number') wrong(jsonKind(v));
        return;
      case 'boolean':
        if (typeof v !== 'boolean') wrong(jsonKind(v));
        return;
      case 'string':
        // resource.Quantity takes a number too (its UnmarshalJSON); a byte slice a base64 string.
        if (typeof v !== 'string' && !(typeof v === 'number' && isQuantity(node))) wrong(jsonKind(v));
        return;
      case 'array':
        if (!Array.isArray(v)) return wrong(jsonKind(v));
        if (def.items) {
          const item = named?.startsWith('[]') ? named.slice(2) : undefined;
          v.forEach((x, i) => walk(x, def.items!, `${path}[${i}]`, goPath, struct, item));
        }
        return;
      default:
        break;
    }
    if (def.type !== 'object' && !def.properties) return;
    if (typeof v !== 'object' || Array.isArray(v)) return wrong(jsonKind(v));
    const o = v as Record<string, unknown>;
    const additional =
      def.additionalProperties && typeof def.additionalProperties === 'object' ? def.additionalProperties : undefined;
    const ref = node.$ref ?? node.allOf?.[0]?.$ref ?? '';
    const structName = ref.split('.').pop() ?? struct;
    const namedHere = NAMED[ref.slice(ref.lastIndexOf('/') + 1)];
    for (const k of Object.keys(o)) {
      // Strategic merge patch directives (`$patch`, `$setElementOrder/…`, `$retainKeys`, …) are not fields.
      if (k.startsWith('$')) continue;
      const field = path ? `${path}.${k}` : k;
      if (duplicates?.has(field)) strict.push(`duplicate field ${JSON.stringify(field)}`);
      const declared = def.properties?.[k];
      if (declared) walk(o[k], declared, field, goPath ? `${goPath}.${k}` : k, structName, namedHere?.[k]);
      else if (additional) walk(o[k], additional, field, goPath ? `${goPath}.${k}` : k, structName);
      else if (def.properties) {
        strict.push(`unknown field ${JSON.stringify(field)}`);
        if (options.drop) delete o[k];
      }
    }
  };
  walk(value, root, '', '', gvk.kind);
  return { typeError, strict };
}

/** resource.Quantity (schemas.ts marks them: the client-node models type them as strings). */
function isQuantity(node: OpenApiSchema): boolean {
  return node.format === 'quantity';
}

/**
 * The key paths written twice in one object of a JSON text (`spec.replicas`,
 * `spec.template.spec.containers[0].image`), as sigs.k8s.io/json's strict decoder reports them.
 * A small scanner over the text (JSON.parse keeps the last value silently); a text that is not
 * JSON gives none (its parse error is reported elsewhere).
 */
export function duplicateFields(text: string): Set<string> {
  const out = new Set<string>();
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        const field = path ? `${path}.${key}` : key;
        if (seen.has(key)) out.add(field);
        seen.add(key);
        ws();
        i++; // ':'
        value(field);
        ws();
        if (text[i++] !== ',') return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i++] !== ',') return;
      }
    }
    if (c === '"') {
      str();
      return;
    }
    while (i < text.length && !',}] \n\r\t'.includes(text[i])) i++;
  };
  try {
    value('');
  } catch {
    return new Set();
  }
  return out;
}

/**
 * validateStructural: the checks kube-apiserver makes of a v1 CRD version's openAPIV3Schema when the
 * CRD is created (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * validateCustomResourceDefinitionValidation, with the options of a new apiextensions.k8s.io/v1 CRD:
 * defaults allowed, structural schema, pruned defaults, valid types, atomic set items, map-list keys):
 *   - the root is not nullable;
 *   - the schema is structural (R307: pkg/apiserver/schema/convert.go NewStructural, then
 *     schema/validation.go ValidateStructural: its errors sorted by their text, as upstream sorts them);
 *   - only then, its defaults validate and are pruned (R308: schema/defaulting/validation.go ValidateDefaults);
 *   - ValidateCustomResourceDefinitionOpenAPISchema's checks of each node (R309): forbidden fields,
 *     additionalProperties with properties, the list and map types, the shape of x-kubernetes-validations.
 * With the status subresource, the root may hold only what survives taking `properties.status` out (R311).
 * When all of that passes, the CEL rules compile (./cel-validation.ts celSchemaErrors, R314).
 * Not modelled: the costs of x-kubernetes-validations rules, and the metadata a default inside an
 * embedded resource's metadata would produce.
 */
import { type FieldError, describeFieldError } from '../../../apimachinery/errors';
import { clone, jsonEqual } from '../../../apimachinery/object';
import { celSchemaErrors, validFieldPath } from './cel-validation';
import { compileGoRegexp } from './go-regexp';
import { goBadValue, goQuote } from './go-print';
import { prune } from './pruning';
import { type JSONSchemaProps, additionalPropertiesSchema, itemsSchema } from './types';
import { type ValidationOptions, validateValue } from './validation';

export interface StructuralOptions extends ValidationOptions {
  /** The CRD version has the status subresource (its root is then restricted). */
  statusSubresource?: boolean;
}

type Level = 'root' | 'item' | 'field';

const required = (field: string, detail: string): FieldError => ({ field, type: 'Required value', detail });
const forbidden = (field: string, detail: string): FieldError => ({ field, type: 'Forbidden', detail });
const invalid = (field: string, value: unknown, detail: string, printedValue = goBadValue(value)): FieldError => ({
  field,
  type: 'Invalid',
  value,
  printedValue,
  detail,
});
const unsupported = (field: string, value: string, supported: string[]): FieldError => ({
  field,
  type: 'Unsupported value',
  value,
  detail: `supported values: ${supported.map((v) => goQuote(v)).join(', ')}`,
});

const has = (o: Record<string, unknown> | undefined, k: string): boolean =>
  o !== undefined && Object.prototype.hasOwnProperty.call(o, k);
const sortedKeys = (o: Record<string, unknown> | undefined): string[] => Object.keys(o ?? {}).sort();
const prop = (p: string, k: string): string => `${p}.properties[${k}]`;

/** convert.go validateUnsupportedFields and newExtensions: what NewStructural cannot convert at all. */
function unconvertible(s: JSONSchemaProps): string | undefined {
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (Object.keys(s.patternProperties ?? {}).length > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (Object.keys(s.dependencies ?? {}).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (Object.keys(s.definitions ?? {}).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    ...(s.not ? [s.not] : []),
    ...Object.values(s.properties ?? {}),
    ...(itemsSchema(s) ? [itemsSchema(s)!] : []),
    ...(additionalPropertiesSchema(s) ? [additionalPropertiesSchema(s)!] : []),
  ];
  for (const c of children) {
    const err = unconvertible(c);
    if (err) return err;
  }
  return undefined;
}

/** anyOf: [{type: integer}, {type: string}] and nothing else: the int-or-string idiom, left alone. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return anyOf?.length === 2 && jsonEqual(anyOf[0], { type: 'integer' }) && jsonEqual(anyOf[1], { type: 'string' });
}

/** validation.go validateValueValidation: the composition clauses of a node, and its pattern. */
function valueValidation(
  s: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  p: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((c, i) => errs.push(...nested(c, false, `${p}.anyOf[${i}]`)));
  (s.allOf ?? []).forEach((c, i) => errs.push(...nested(c, skipFirstAllOfAnyOf && i === 0, `${p}.allOf[${i}]`)));
  (s.oneOf ?? []).forEach((c, i) => errs.push(...nested(c, false, `${p}.oneOf[${i}]`)));
  if (s.not) errs.push(...nested(s.not, false, `${p}.not`));
  if (s.pattern) {
    const re = compileGoRegexp(s.pattern);
    if (re instanceof Error)
      errs.push(invalid(`${p}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${re.message}`));
  }
  return errs;
}

/** validation.go validateNestedValueValidation: inside anyOf/allOf/oneOf/not only value checks may appear. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, p: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, p);
  const items = itemsSchema(v);
  if (items) errs.push(...nested(items, false, `${p}.items`));
  for (const k of sortedKeys(v.properties)) errs.push(...nested(v.properties![k], false, prop(p, k)));
  if (v.type) errs.push(forbidden(`${p}.type`, 'must be empty to be structural'));
  // additionalProperties: false converts to nothing here; true or a schema is refused.
  if (v.additionalProperties !== undefined && v.additionalProperties !== false)
    errs.push(forbidden(`${p}.additionalProperties`, 'must be undefined to be structural'));
  if (v.default !== undefined) errs.push(forbidden(`${p}.default`, 'must be undefined to be structural'));
  if (v.title) errs.push(forbidden(`${p}.title`, 'must be empty to be structural'));
  if (v.description) errs.push(forbidden(`${p}.description`, 'must be empty to be structural'));
  if (v.nullable) errs.push(forbidden(`${p}.nullable`, 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields'])
    errs.push(forbidden(`${p}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource'])
    errs.push(forbidden(`${p}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string'])
    errs.push(forbidden(`${p}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0)
    errs.push(forbidden(`${p}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (v['x-kubernetes-list-type'] !== undefined)
    errs.push(forbidden(`${p}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined)
    errs.push(forbidden(`${p}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if ((v['x-kubernetes-validations'] ?? []).length > 0)
    errs.push(forbidden(`${p}.x-kubernetes-validations`, 'must be empty to be structural'));
  if (has(v.properties, 'metadata'))
    errs.push(forbidden(prop(p, 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** validation.go validateStructuralMetadataInvariants: at the root, metadata may only restrict name and generateName. */
function metadataInvariants(m: JSONSchemaProps, checkMetadata: boolean, lvl: Level, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && m.type !== 'object') errs.push(invalid(`${p}.type`, m.type ?? '', 'must be object'));
  if (lvl === 'root') {
    // Its type and default are checked elsewhere; name and generateName are dropped when they are all it has.
    const { type: _type, default: _default, properties, additionalProperties, ...rest } = m;
    const names = Object.keys(properties ?? {});
    const onlyNames = names.length > 0 && names.length <= 2 && names.every((n) => n === 'name' || n === 'generateName');
    const restSet =
      additionalProperties !== undefined ||
      Object.values(rest).some(
        (v) => v !== undefined && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0),
      );
    if (restSet || (names.length > 0 && !onlyNames))
      errs.push(
        forbidden(
          p,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
  }
  return errs;
}

/** validation.go validateStructuralInvariants. */
function invariants(s: JSONSchemaProps, lvl: Level, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && s.items === undefined) errs.push(required(`${p}.items`, 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', `${p}.items`));
  for (const k of sortedKeys(s.properties)) errs.push(...invariants(s.properties![k], 'field', prop(p, k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(`${p}.additionalProperties`, 'must not be used at the root'));
    const ap = additionalPropertiesSchema(s);
    if (ap) errs.push(...invariants(ap, 'field', `${p}.additionalProperties`));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve)
    errs.push(
      invalid(`${p}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'),
    );
  if (intOrString && embedded)
    errs.push(
      invalid(`${p}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'),
    );
  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), p));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    if (!s.type) errs.push(required(`${p}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(`${p}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(`${p}.type`, `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined)
    errs.push(forbidden(`${p}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object')
    errs.push(invalid(`${p}.type`, s.type, 'must be object at the root'));
  for (const meta of ['kind', 'apiVersion']) {
    const m = s.properties?.[meta];
    if (m && has(s.properties, meta) && checkMetadata && m.type !== 'string')
      errs.push(invalid(`${prop(p, meta)}.type`, m.type ?? '', 'must be string'));
  }
  if (has(s.properties, 'metadata'))
    errs.push(...metadataInvariants(s.properties!.metadata, checkMetadata, lvl, prop(p, 'metadata')));
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(
      required(
        `${p}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/** complete.go: what anyOf/allOf/oneOf/not of the root mention must be specified by the schema itself. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  const clauses: [JSONSchemaProps, string][] = [
    ...(v.not ? [[v.not, `${vPath}.not`] as [JSONSchemaProps, string]] : []),
    ...(v.allOf ?? []).map((c, i): [JSONSchemaProps, string] => [c, `${vPath}.allOf[${i}]`]),
    ...(v.anyOf ?? []).map((c, i): [JSONSchemaProps, string] => [c, `${vPath}.anyOf[${i}]`]),
    ...(v.oneOf ?? []).map((c, i): [JSONSchemaProps, string] => [c, `${vPath}.oneOf[${i}]`]),
  ];
  for (const [c, cPath] of clauses) errs.push(...nestedCompleteness(c, s, sPath, cPath));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errs = completeness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems) {
    const sItems = itemsSchema(s);
    if (!sItems) errs.push(required(`${sPath}.items`, `because it is defined in ${vPath}.items`));
    else errs.push(...nestedCompleteness(vItems, sItems, `${sPath}.items`, `${vPath}.items`));
  }
  for (const k of sortedKeys(v.properties)) {
    if (!has(s.properties, k)) errs.push(required(prop(sPath, k), `because it is defined in ${prop(vPath, k)}`));
    else errs.push(...nestedCompleteness(v.properties![k], s.properties![k], prop(sPath, k), prop(vPath, k)));
  }
  return errs;
}

/** schema/validation.go ValidateStructural: invariants and completeness, sorted by their text. */
function structuralErrors(s: JSONSchemaProps, p: string): FieldError[] {
  const errs = [...invariants(s, 'root', p), ...completeness(s, s, p, p)];
  const text = new Map(errs.map((e) => [e, describeFieldError(e)]));
  return errs.sort((a, b) => (text.get(a)! < text.get(b)! ? -1 : text.get(a)! > text.get(b)! ? 1 : 0));
}

/** defaulting/validation.go validate: each default (not those under additionalProperties) is pruned already and valid. */
function defaultErrors(
  s: JSONSchemaProps,
  p: string,
  options: ValidationOptions | undefined,
  root = true,
): FieldError[] {
  const errs: FieldError[] = [];
  const embedded = root || s['x-kubernetes-embedded-resource'] === true;
  if (s.default !== undefined) {
    const pruned = clone(s.default);
    prune(pruned, s, embedded);
    if (!jsonEqual(pruned, s.default)) errs.push(invalid(`${p}.default`, s.default, 'must not have unknown fields'));
    errs.push(...validateValue(`${p}.default`, s.default, s, options));
  }
  const items = itemsSchema(s);
  if (items) errs.push(...defaultErrors(items, `${p}.items`, options, false));
  for (const k of sortedKeys(s.properties)) errs.push(...defaultErrors(s.properties![k], prop(p, k), options, false));
  return errs;
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

interface NodeContext {
  /** Why defaults are forbidden here (undefined: they are allowed). */
  defaultsForbidden?: string;
  insideResourceMeta: boolean;
}

/** %#v of a []string, as upstream prints x-kubernetes-list-map-keys. */
const goStrings = (xs: string[]): string => `[]string{${xs.map(goQuote).join(', ')}}`;

/** ValidateCustomResourceDefinitionOpenAPISchema, for one node and (recursively) its children. */
function openAPISchemaErrors(s: JSONSchemaProps, p: string, ctx: NodeContext, isRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
  // specStandardValidatorV3.validate
  if (s.type && !OPENAPI_V3_TYPES.includes(s.type)) errs.push(unsupported(`${p}.type`, s.type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && ctx.defaultsForbidden !== undefined)
    errs.push(forbidden(`${p}.default`, `must not be set${ctx.defaultsForbidden ? ` ${ctx.defaultsForbidden}` : ''}`));
  if (s.id) errs.push(forbidden(`${p}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(`${p}.additionalItems`, 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0)
    errs.push(forbidden(`${p}.patternProperties`, 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0)
    errs.push(forbidden(`${p}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(`${p}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(`${p}.$ref`, '$ref is not supported'));
  if (s.type === 'null')
    errs.push(forbidden(`${p}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0)
    errs.push(forbidden(`${p}.items`, 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'])
    errs.push(forbidden(`${p}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));

  if (s.uniqueItems)
    errs.push(
      forbidden(`${p}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'),
    );
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length > 0 && s.additionalProperties !== true) {
      errs.push(forbidden(`${p}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    const ap = additionalPropertiesSchema(s);
    const sub = ctx.insideResourceMeta
      ? { ...ctx, defaultsForbidden: 'inside additionalProperties applying to object metadata' }
      : ctx;
    if (ap) errs.push(...openAPISchemaErrors(ap, `${p}.additionalProperties`, sub, false));
  }
  for (const k of sortedKeys(s.properties)) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, defaultsForbidden: `in top-level ${k}` };
    }
    errs.push(...openAPISchemaErrors(s.properties![k], prop(p, k), sub, false));
  }
  if (s.not) errs.push(...openAPISchemaErrors(s.not, `${p}.not`, ctx, false));
  (s.allOf ?? []).forEach((c, i) => errs.push(...openAPISchemaErrors(c, `${p}.allOf[${i}]`, ctx, false)));
  (s.oneOf ?? []).forEach((c, i) => errs.push(...openAPISchemaErrors(c, `${p}.oneOf[${i}]`, ctx, false)));
  (s.anyOf ?? []).forEach((c, i) => errs.push(...openAPISchemaErrors(c, `${p}.anyOf[${i}]`, ctx, false)));
  for (const k of sortedKeys(s.definitions))
    errs.push(...openAPISchemaErrors(s.definitions![k], `${p}.definitions[${k}]`, ctx, false));
  const items = itemsSchema(s);
  if (items) errs.push(...openAPISchemaErrors(items, `${p}.items`, ctx, false));
  if (Array.isArray(s.items))
    s.items.forEach((c, i) => errs.push(...openAPISchemaErrors(c, `${p}.items[${i}]`, ctx, false)));
  for (const k of sortedKeys(s.dependencies)) {
    const dep = s.dependencies![k];
    if (!Array.isArray(dep)) errs.push(...openAPISchemaErrors(dep, `${p}.dependencies[${k}]`, ctx, false));
  }
  errs.push(...extensionErrors(s, p));
  return errs;
}

/** The x-kubernetes-* checks of ValidateCustomResourceDefinitionOpenAPISchema and validateMapListKeysMapSet. */
function extensionErrors(s: JSONSchemaProps, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = itemsSchema(s);
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errs.push(invalid(`${p}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (mapType !== undefined && s.type !== 'object') {
    if (!s.type) errs.push(required(`${p}.type`, 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(`${p}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(unsupported(`${p}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') {
    if (!s.type) errs.push(required(`${p}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(`${p}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    // Set items must be atomic: upstream prints the item's list type (a nil pointer: null) for the map-type case.
    if (
      items.type === 'array' &&
      items['x-kubernetes-list-type'] !== undefined &&
      items['x-kubernetes-list-type'] !== 'atomic'
    ) {
      errs.push(
        invalid(
          `${p}.items.x-kubernetes-list-type`,
          items['x-kubernetes-list-type'],
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      );
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(
        invalid(
          `${p}.items.x-kubernetes-map-type`,
          items['x-kubernetes-list-type'] ?? null,
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      );
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType))
    errs.push(unsupported(`${p}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (mapKeys.length > 0) {
    if (listType === undefined)
      errs.push(required(`${p}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map')
      errs.push(
        invalid(`${p}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'),
      );
  }
  if (listType === 'map') {
    if (mapKeys.length === 0)
      errs.push(required(`${p}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(required(`${p}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items))
      errs.push(invalid(`${p}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object')
      errs.push(
        invalid(`${p}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"),
      );
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const keySchema = items.properties?.[k];
        if (keySchema && has(items.properties, k)) {
          if (keySchema.type === 'array' || keySchema.type === 'object') {
            errs.push(
              invalid(
                `${prop(`${p}.items`, k)}.type`,
                items.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
          }
        } else
          errs.push(
            invalid(
              `${p}.x-kubernetes-list-map-keys`,
              mapKeys,
              'entries must all be names of item properties',
              goStrings(mapKeys),
            ),
          );
        if (seen.has(k))
          errs.push(
            invalid(
              `${p}.x-kubernetes-list-map-keys`,
              mapKeys,
              'must not contain duplicate entries',
              goStrings(mapKeys),
            ),
          );
        seen.add(k);
      }
    }
  }
  if (items && (listType === 'set' || listType === 'map')) {
    if (items.nullable)
      errs.push(forbidden(`${p}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
    if (listType === 'map') {
      const req = new Set(items.required ?? []);
      for (const k of mapKeys) {
        const keySchema = items.properties?.[k];
        if (!keySchema || !has(items.properties, k)) continue;
        if (!req.has(k) && keySchema.default === undefined) {
          errs.push(
            required(
              `${prop(`${p}.items`, k)}.default`,
              'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
            ),
          );
        }
        if (keySchema.nullable)
          errs.push(
            forbidden(
              `${prop(`${p}.items`, k)}.nullable`,
              'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
            ),
          );
      }
    }
  }
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) =>
    errs.push(...validationRuleErrors(s, rule, `${p}.x-kubernetes-validations[${i}]`)),
  );
  return errs;
}

/** The shape of one x-kubernetes-validations entry, and its fieldPath (its CEL is compiled in ./cel-validation.ts). */
function validationRuleErrors(
  s: JSONSchemaProps,
  rule: NonNullable<JSONSchemaProps['x-kubernetes-validations']>[number],
  p: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const trimmedRule = (rule.rule ?? '').trim();
  const message = rule.message ?? '';
  const trimmedMsg = message.trim();
  const newline = (t: string): boolean => /[\n\r]/.test(t);
  if (trimmedRule === '') errs.push(required(`${p}.rule`, 'rule is not specified'));
  else if (message.length > 0 && trimmedMsg === '')
    errs.push(invalid(`${p}.message`, message, 'message must be non-empty if specified'));
  else if (newline(trimmedMsg)) errs.push(invalid(`${p}.message`, message, 'message must not contain line breaks'));
  else if (newline(trimmedRule) && trimmedMsg === '')
    errs.push(required(`${p}.message`, 'message must be specified if rule contains line breaks'));
  if ((rule.messageExpression ?? '').length > 0 && rule.messageExpression!.trim() === '')
    errs.push(required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
  if (rule.reason !== undefined && !VALIDATION_REASONS.includes(rule.reason))
    errs.push(unsupported(`${p}.reason`, rule.reason, VALIDATION_REASONS));
  const fieldPath = rule.fieldPath ?? '';
  if (fieldPath.length > 0 && fieldPath.trim() === '')
    errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
  if (newline(fieldPath)) errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
  // pathValid: the fieldPath names a field of this node (cel.ValidFieldPath), when the node converts to a structural schema.
  if (fieldPath.length > 0 && unconvertible(s) === undefined && typeof validFieldPath(fieldPath, s) !== 'string')
    errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
  return errs;
}

/** The JSON names of the internal JSONSchemaProps fields, in their Go declaration order, with whether the status subresource allows them at the root. */
const ROOT_FIELDS: [keyof JSONSchemaProps, boolean][] = [
  ['id', false],
  ['$schema', false],
  ['$ref', false],
  ['description', true],
  ['type', true],
  ['nullable', false],
  ['format', true],
  ['title', true],
  ['default', false],
  ['maximum', true],
  ['exclusiveMaximum', true],
  ['minimum', true],
  ['exclusiveMinimum', true],
  ['maxLength', true],
  ['minLength', true],
  ['pattern', true],
  ['maxItems', true],
  ['minItems', true],
  ['uniqueItems', true],
  ['multipleOf', true],
  ['enum', false],
  ['maxProperties', false],
  ['minProperties', false],
  ['required', true],
  ['items', true],
  ['allOf', false],
  ['oneOf', false],
  ['anyOf', false],
  ['not', false],
  ['properties', true],
  ['additionalProperties', false],
  ['patternProperties', false],
  ['dependencies', false],
  ['additionalItems', false],
  ['definitions', false],
  ['externalDocs', true],
  ['example', true],
  ['x-kubernetes-preserve-unknown-fields', true],
  ['x-kubernetes-embedded-resource', false],
  ['x-kubernetes-int-or-string', false],
  ['x-kubernetes-list-map-keys', false],
  ['x-kubernetes-list-type', false],
  ['x-kubernetes-map-type', false],
  ['x-kubernetes-validations', true],
];
const ALLOWED_AT_ROOT =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

/** Fields held by pointer in Go, set even when false. */
const POINTER_FIELDS = new Set<keyof JSONSchemaProps>([
  'x-kubernetes-preserve-unknown-fields',
  'additionalProperties',
  'additionalItems',
]);

/** A Go zero value of a JSONSchemaProps field: absent, or a false or "" that is not behind a pointer. */
function isZero(name: keyof JSONSchemaProps, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  return !POINTER_FIELDS.has(name) && (v === false || v === '');
}

/**
 * validateCustomResourceDefinitionValidation with the status subresource: walking the root's fields in
 * declaration order, the first one not allowed (or a type other than object) is reported, and only it.
 * Upstream prints the whole schema as a Go struct there (with pointer addresses); it is elided here.
 */
function statusRootErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const [name, allowed] of ROOT_FIELDS) {
    if (isZero(name, schema[name])) continue;
    if (name === 'type') {
      if (schema.type !== 'object')
        return [
          invalid(
            `${path}.type`,
            schema.type,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      continue;
    }
    if (!allowed)
      return [
        invalid(
          path,
          schema,
          `only ${ALLOWED_AT_ROOT} fields are allowed at the root of the schema if the status subresource is enabled`,
          'apiextensions.JSONSchemaProps{…}',
        ),
      ];
  }
  return [];
}

/**
 * The errors of a v1 CRD version's openAPIV3Schema, found at `path`
 * (`spec.versions[0].schema.openAPIV3Schema`), in upstream's order and words.
 */
export function validateStructural(schema: JSONSchemaProps, path: string, options?: StructuralOptions): FieldError[] {
  const errs: FieldError[] = options?.statusSubresource ? statusRootErrors(schema, path) : [];
  if (schema.nullable) errs.push(forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  const initError = unconvertible(schema);
  // The CEL rules compile only in a structural schema whose defaults are valid (RootCELContext).
  let celContext = false;
  if (initError === undefined) {
    const structural = structuralErrors(schema, path);
    const defaults = structural.length > 0 ? structural : defaultErrors(schema, path, options);
    errs.push(...defaults);
    celContext = defaults.length === 0;
  }
  const nodeErrors = openAPISchemaErrors(schema, path, { insideResourceMeta: false }, true);
  errs.push(...nodeErrors);
  // NewStructural's refusals overlap the node checks: upstream shows them only when nothing else is wrong.
  if (errs.length === 0 && initError !== undefined) errs.push(invalid(path, '', initError));
  // Then the CEL errors, of each node with nothing wrong with it or below it (OpenAPISchemaErrorList.CELErrors).
  if (celContext && options?.release)
    errs.push(
      ...celSchemaErrors(
        schema,
        path,
        options.release,
        nodeErrors.map((e) => e.field),
      ),
    );
  return errs;
}

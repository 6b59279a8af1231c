/**
 * The OpenAPI v3 value validation kube-apiserver runs on a custom resource: kube-openapi's
 * pkg/validation/validate SchemaValidator (a go-openapi fork) over the CRD schema converted by
 * apiextensions-apiserver pkg/apiserver/validation/validation.go ConvertJSONSchemaPropsWithPostProcess.
 * It yields kube-openapi errors (pkg/validation/errors: a code, the failing value's dotted name and the
 * message); ./validation.ts turns them into field errors as kubeOpenAPIResultToFieldErrors does.
 *
 * Kept from upstream because they show in messages: the validator order of SchemaValidator.Validate
 * (type, allOf/oneOf/anyOf/not, string, format, number, array, enum, object), the first-failure-only
 * string checks, the per-result de-duplication by message (Result.AddErrors) and the MatchCount that
 * picks which failed anyOf/oneOf branch is reported. Go iterates maps in random order; properties are
 * taken here in sorted order, so the errors of one object come out in a stable order (R302; the
 * ratcheting of updates, R310).
 */
import { jsonEqual } from '../../../apimachinery/object';
import { formatCheck } from './formats';
import { compileGoRegexp } from './go-regexp';
import { goFloat, goNumber, goQuote, isGoInt } from './go-print';
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

/** kube-openapi errors/schema.go codes (the ones validation.go tells apart, plus the rest as Other). */
export type OpenAPIErrorCode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'Enum'
  | 'MaxItems'
  | 'TooManyProperties'
  | 'Other';

export interface OpenAPIError {
  code: OpenAPIErrorCode;
  /** The dotted name of the value ("spec.replicas", ".spec" for a required root field, "" for the root). */
  name: string;
  message: string;
  /** False for the composite-schema messages (errors.New): they carry no name and no value. */
  validation: boolean;
  value?: unknown;
  /** The limit (maxLength, maxItems, maxProperties). */
  valid?: number;
  /** The allowed values of an enum. */
  values?: unknown[];
}

export interface Options {
  /** kube-openapi before #412 (Kubernetes 1.26 and 1.27): minProperties/maxProperties end the object's checks. */
  propertyCountShortCircuits?: boolean;
  /** k8s-short-name and k8s-long-name are checked (from 1.35). */
  k8sNameFormats?: boolean;
}

class Result {
  errors: OpenAPIError[] = [];
  matchCount = 0;

  add(...errs: OpenAPIError[]): void {
    for (const e of errs) if (!this.errors.some((r) => r.message === e.message)) this.errors.push(e);
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (!o) continue;
      this.add(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

const IN = 'body';

function failure(err: OpenAPIError): Result {
  const r = new Result();
  r.errors.push(err);
  return r;
}

/** errors.InvalidType: the data's type (a string) is quoted with %q. */
function invalidType(name: string, typeName: string, value: string): OpenAPIError {
  return {
    code: 'InvalidType',
    name,
    value,
    validation: true,
    message: `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`,
  };
}

function other(name: string, message: string, value?: unknown): OpenAPIError {
  return { code: 'Other', name, value, validation: true, message };
}

/** errors.New(CompositeErrorCode, …): a message only, which validation.go reports on the root path. */
function composite(message: string): OpenAPIError {
  return { code: 'Other', name: '', validation: false, message };
}

/** The schema's types as converted: x-kubernetes-int-or-string stands for ["integer", "string"]. */
function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

/** The format that survives StripUnsupportedFormatsPostProcessorForVersion (an unsupported one is dropped). */
function formatOf(opts: Options, s: JSONSchemaProps): string {
  return formatCheck(s.format, opts.k8sNameFormats) ? s.format! : '';
}

/** The JSON type and strfmt format go-openapi infers from a decoded value (typeValidator.schemaInfoForType). */
function schemaInfo(data: unknown): [string, string] {
  if (typeof data === 'boolean') return ['boolean', ''];
  if (typeof data === 'string') return ['string', ''];
  if (typeof data === 'number') return isGoInt(data) ? ['integer', 'int64'] : ['number', 'float64'];
  if (Array.isArray(data)) return ['array', ''];
  return ['object', ''];
}

/** swag.IsFloat64AJSONInteger: integral, or within a relative 1e-9 of the integer below it. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / (Math.abs(f) + Math.abs(g)) < 1e-9;
}

function validateType(opts: Options, s: JSONSchemaProps, data: unknown, path: string): Result | undefined {
  const types = typesOf(s);
  const format = formatOf(opts, s);
  const r = new Result();
  r.matchCount++;
  if (data === null) {
    if (types.length > 0 && !types.includes('null') && !s.nullable)
      return failure(invalidType(path, types.join(','), 'null'));
    return r;
  }
  const [schType, dataFormat] = schemaInfo(data);
  const isStringOrArray = typeof data === 'string' || Array.isArray(data);
  const isFloatInt = schType === 'number' && isJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (
    !isStringOrArray &&
    format !== '' &&
    !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)
  ) {
    return failure(invalidType(path, format, dataFormat));
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && isStringOrArray) return r;
  if (!(types.includes(schType) || isFloatInt || isIntFloat))
    return failure(invalidType(path, types.join(','), schType));
  return r;
}

function validateString(s: JSONSchemaProps, data: string, path: string): Result | undefined {
  const length = [...data].length; // utf8.RuneCount
  if (s.maxLength !== undefined && length > s.maxLength) {
    return failure({
      code: 'TooLong',
      name: path,
      value: data,
      valid: s.maxLength,
      validation: true,
      message: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
    });
  }
  if (s.minLength !== undefined && length < s.minLength)
    return failure(other(path, `${path} in ${IN} should be at least ${s.minLength} chars long`, data));
  if (s.pattern) {
    const re = compileGoRegexp(s.pattern);
    if (re instanceof Error)
      return failure(
        other(path, `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.message}'`, data),
      );
    if (!re.test(data)) return failure(other(path, `${path} in ${IN} should match '${s.pattern}'`, data));
  }
  return undefined;
}

function validateFormat(opts: Options, s: JSONSchemaProps, data: string, path: string): Result | undefined {
  const check = formatCheck(s.format, opts.k8sNameFormats);
  if (!check || check(data)) return undefined;
  return failure(invalidType(path, s.format!, data));
}

/** %v of a bound: an int64 when the data is one (the *NativeType checks truncate the bound), else a float64. */
function bound(value: number, asInt: boolean): string {
  return asInt ? String(Math.trunc(value)) : goFloat(value);
}

function validateNumber(s: JSONSchemaProps, data: number, path: string): Result {
  const r = new Result();
  const asInt = isGoInt(data);
  const errs: OpenAPIError[] = [];
  if (s.multipleOf !== undefined) {
    const factor = asInt ? Math.trunc(s.multipleOf) : s.multipleOf;
    if (factor <= 0)
      errs.push(
        other(path, `factor MultipleOf declared for ${path} must be positive: ${bound(factor, asInt)}`, factor),
      );
    else {
      const multiple = asInt
        ? Number.isInteger(data / factor)
        : isJSONInteger(factor < 1 ? (1 / factor) * data : data / factor);
      if (!multiple) errs.push(other(path, `${path} in ${IN} should be a multiple of ${bound(factor, asInt)}`, data));
    }
  }
  if (s.minimum !== undefined) {
    const min = asInt ? Math.trunc(s.minimum) : s.minimum;
    if (s.exclusiveMinimum ? data <= min : data < min) {
      errs.push(
        other(
          path,
          `${path} in ${IN} should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${bound(min, asInt)}`,
          data,
        ),
      );
    }
  }
  if (s.maximum !== undefined) {
    const max = asInt ? Math.trunc(s.maximum) : s.maximum;
    if (s.exclusiveMaximum ? data >= max : data > max) {
      errs.push(
        other(
          path,
          `${path} in ${IN} should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${bound(max, asInt)}`,
          data,
        ),
      );
    }
  }
  r.add(...errs);
  r.matchCount++;
  return r;
}

/**
 * An old value correlated with a new one at the same place, for ratcheting (apiserver
 * pkg/cel/common/equality.go CorrelatedObject): a field correlates when both objects hold it and the
 * schema knows it (a property or an additionalProperties schema); a list item only in a
 * `x-kubernetes-list-type: map` list, with the old item of the same keys.
 */
export class Correlation {
  private equal: boolean | undefined;
  private readonly children = new Map<string | number, Correlation | undefined>();

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: JSONSchemaProps | undefined,
  ) {}

  key(field: string): Correlation | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let child: Correlation | undefined;
    if (
      this.schema &&
      isJSONObject(this.value) &&
      isJSONObject(this.old) &&
      has(this.value, field) &&
      has(this.old, field)
    ) {
      const schema =
        this.schema.properties && has(this.schema.properties, field)
          ? this.schema.properties[field]
          : additionalPropertiesSchema(this.schema);
      if (schema) child = new Correlation(this.value[field], this.old[field], schema);
    }
    this.children.set(field, child);
    return child;
  }

  index(i: number): Correlation | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let child: Correlation | undefined;
    const items = itemsSchema(this.schema);
    if (
      items &&
      Array.isArray(this.value) &&
      Array.isArray(this.old) &&
      i < this.value.length &&
      this.schema?.['x-kubernetes-list-type'] === 'map'
    ) {
      const item = this.value[i];
      const keys = this.schema['x-kubernetes-list-map-keys'] ?? [];
      const sameKeys = (o: unknown): boolean =>
        isJSONObject(o) && isJSONObject(item) && keys.every((k) => jsonEqual(o[k], item[k]));
      const old = this.old.find(sameKeys);
      if (old !== undefined) child = new Correlation(item, old, items);
    }
    this.children.set(i, child);
    return child;
  }

  /** CachedDeepEqual: unchanged, judged through the correlated children where there are some. */
  unchanged(): boolean {
    if (this.equal !== undefined) return this.equal;
    let equal: boolean;
    const { value, old } = this;
    if (value === null || old === null || value === undefined || old === undefined)
      equal = (value ?? null) === (old ?? null);
    else if (Array.isArray(value) !== Array.isArray(old) || isJSONObject(value) !== isJSONObject(old)) equal = false;
    else if (Array.isArray(value)) {
      const list = old as unknown[];
      if (value.length !== list.length) equal = false;
      else if (this.schema?.['x-kubernetes-list-type'] !== 'map') equal = jsonEqual(value, list);
      else equal = value.every((_, i) => this.index(i)?.unchanged() ?? false);
    } else if (isJSONObject(value)) {
      const keys = Object.keys(value);
      equal = keys.length === Object.keys(old as object).length && keys.every((k) => this.key(k)?.unchanged() ?? false);
    } else equal = jsonEqual(value, old);
    this.equal = equal;
    return equal;
  }
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function validateSlice(
  opts: Options,
  s: JSONSchemaProps,
  data: unknown[],
  path: string,
  corr: Correlation | undefined,
): Result {
  const r = new Result();
  const items = itemsSchema(s);
  if (items) data.forEach((v, i) => r.merge(validateSchema(opts, items, v, `${path}[${i}]`, corr?.index(i))));
  if (s.minItems !== undefined && data.length < s.minItems)
    r.add(other(path, `${path} in ${IN} should have at least ${s.minItems} items`, data.length));
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    r.add({
      code: 'MaxItems',
      name: path,
      value: data.length,
      valid: s.maxItems,
      validation: true,
      message: `${path} in ${IN} should have at most ${s.maxItems} items`,
    });
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v))))
    r.add(other(path, `${path} in ${IN} shouldn't contain duplicates`));
  r.matchCount++;
  return r;
}

/** %v of the enum's values ([a b c]), as errors.EnumFail words the (unreported) message. */
function enumList(values: unknown[]): string {
  const v = (x: unknown): string =>
    typeof x === 'string' ? x : typeof x === 'number' ? goNumber(x) : JSON.stringify(x);
  return `[${values.map(v).join(' ')}]`;
}

function validateEnum(s: JSONSchemaProps, data: unknown, path: string): Result | undefined {
  if (!s.enum || s.enum.length === 0) return undefined;
  // A null never matches (reflect.ValueOf(nil) is not valid), even an enum holding null.
  if (data !== null && s.enum.some((e) => e !== null && jsonEqual(data, e))) return undefined;
  return failure({
    code: 'Enum',
    name: path,
    value: data,
    values: s.enum,
    validation: true,
    message: `${path} in ${IN} should be one of ${enumList(s.enum)}`,
  });
}

/** The correlation of a field: none for the root's kind and apiVersion, which cannot be seen to change. */
function fieldCorrelation(corr: Correlation | undefined, path: string, field: string): Correlation | undefined {
  return path === '' && (field === 'kind' || field === 'apiVersion') ? undefined : corr?.key(field);
}

function validateObject(
  opts: Options,
  s: JSONSchemaProps,
  data: Record<string, unknown>,
  path: string,
  corr: Correlation | undefined,
): Result {
  const r = new Result();
  const keys = Object.keys(data).sort();
  const properties = s.properties ?? {};
  const known = (k: string): boolean => Object.prototype.hasOwnProperty.call(properties, k);
  if (s.minProperties !== undefined && keys.length < s.minProperties)
    r.add(other(path, `${path} in ${IN} should have at least ${s.minProperties} properties`, keys.length));
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    r.add({
      code: 'TooManyProperties',
      name: path,
      value: keys.length,
      valid: s.maxProperties,
      validation: true,
      message: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
    });
  }
  // Until kube-openapi#412 (1.28) a property-count error was the object's only error.
  if (opts.propertyCountShortCircuits && !r.valid) return failure(r.errors[0]);
  if (s.additionalProperties === false) {
    for (const k of keys) if (!known(k)) r.add(other(path, `${path}.${k} in ${IN} is a forbidden property`, k));
  } else {
    const additional = additionalPropertiesSchema(s);
    if (additional)
      for (const k of keys)
        if (!known(k))
          r.merge(validateSchema(opts, additional, data[k], `${path}.${k}`, fieldCorrelation(corr, path, k)));
  }
  for (const name of Object.keys(properties).sort()) {
    if (Object.prototype.hasOwnProperty.call(data, name))
      r.merge(
        validateSchema(
          opts,
          properties[name],
          data[name],
          path ? `${path}.${name}` : name,
          fieldCorrelation(corr, path, name),
        ),
      );
  }
  for (const k of s.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(data, k))
      r.add({ code: 'Required', name: `${path}.${k}`, validation: true, message: `${path}.${k} in ${IN} is required` });
  }
  return r;
}

function validateSchemaProps(
  opts: Options,
  s: JSONSchemaProps,
  data: unknown,
  path: string,
  corr: Correlation | undefined,
): Result {
  const main = new Result();
  if (s.anyOf && s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    for (const sub of s.anyOf) {
      const r = validateSchema(opts, sub, data, path, corr, false);
      if (r.valid) {
        best = undefined;
        firstSuccess = r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!firstSuccess) main.add(composite(`${goQuote(path)} must validate at least one schema (anyOf)`));
    main.merge(best ?? firstSuccess);
  }
  if (s.oneOf && s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateSchema(opts, sub, data, path, corr, false);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.add(composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${more}`));
      main.merge(best);
    } else main.merge(firstSuccess);
  }
  if (s.allOf && s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateSchema(opts, sub, data, path, corr, false);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length)
      main.add(
        composite(`${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`),
      );
  }
  if (s.not && validateSchema(opts, s.not, data, path, corr, false).valid)
    main.add(composite(`${goQuote(path)} must not validate the schema (not)`));
  main.matchCount++;
  return main;
}

/**
 * SchemaValidator.Validate of one value against one schema node, at its dotted path. With a
 * correlation (an update, CRDValidationRatcheting), a node that fails but equals its old value is let
 * through (ratcheting.go ratchetingValueValidator.Validate): the composition branches share their
 * node's correlation without ratcheting on their own.
 */
export function validateSchema(
  opts: Options,
  s: JSONSchemaProps,
  data: unknown,
  path: string,
  corr?: Correlation,
  ratchets = true,
): Result {
  const result = validateNode(opts, s, data, path, corr);
  if (!result.valid && ratchets && corr?.unchanged()) {
    const ratcheted = new Result();
    ratcheted.matchCount = result.matchCount;
    return ratcheted;
  }
  return result;
}

function validateNode(
  opts: Options,
  s: JSONSchemaProps,
  data: unknown,
  path: string,
  corr: Correlation | undefined,
): Result {
  const result = new Result();
  if (data === null || data === undefined) {
    // Only the type and the enum look at a null.
    result.merge(validateType(opts, s, null, path), validateEnum(s, null, path));
    return result;
  }
  const run = (r: Result | undefined): void => {
    result.merge(r);
    result.matchCount++;
  };
  if (typesOf(s).length > 0 || formatOf(opts, s) !== '') run(validateType(opts, s, data, path));
  run(validateSchemaProps(opts, s, data, path, corr));
  if (typeof data === 'string') {
    run(validateString(s, data, path));
    if (formatCheck(s.format, opts.k8sNameFormats)) run(validateFormat(opts, s, data, path));
  }
  if (typeof data === 'number') run(validateNumber(s, data, path));
  if (Array.isArray(data)) run(validateSlice(opts, s, data, path, corr));
  run(validateEnum(s, data, path));
  if (isJSONObject(data)) run(validateObject(opts, s, data, path, corr));
  result.matchCount++;
  return result;
}

/**
 * The errors of validating a decoded JSON value against a CRD schema, rooted at the empty name; with
 * `old`, as an update that ratchets (errors of parts left unchanged are dropped).
 */
export function openAPIErrors(
  data: unknown,
  schema: JSONSchemaProps,
  old?: { value: unknown },
  opts: Options = {},
): OpenAPIError[] {
  return validateSchema(opts, schema, data, '', old ? new Correlation(data, old.value, schema) : undefined).errors;
}

/**
 * How a structural schema node looks to CEL: its type for the checker and its values for the
 * evaluator, after staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go SchemaDeclType and
 * values.go UnstructuredToVal, over @marcbachmann/cel-js.
 *   - x-kubernetes-int-or-string is `dyn` (checked at run time);
 *   - an object with additionalProperties is `map(string, T)`, an array `list(T)`;
 *   - an object with properties is an object type with a field per property whose name escapes
 *     (escaping.go Escape: reserved words as `__if__`, `-` `.` `/` `__` spelled out); a property whose
 *     name cannot be escaped, or whose schema has no type (preserve-unknown-fields alone), is not a
 *     field (selecting it fails to compile), and unknown fields are never fields;
 *   - the root of a resource (and of an embedded resource) always has apiVersion, kind and
 *     metadata.name/generateName (WithTypeAndObjectMeta);
 *   - strings, booleans, integers (int), numbers (double); a string of format byte is `bytes` (its
 *     base64 decoded), duration a `google.protobuf.Duration`, date and date-time a
 *     `google.protobuf.Timestamp` (values that do not parse stay strings here; upstream makes them errors).
 * Object types are named as MaybeAssignTypeName names them (`selfType0.spec`); inside lists and maps,
 * where upstream leaves them `object`, they get `….__items__` / `….__values__` here (names must be unique
 * in cel-js).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { toCel } from '../../cel/value';
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

/** The string formats CEL gives a type of their own. */
type CelFormat = 'byte' | 'duration' | 'date' | 'date-time';

/** The CEL view of one schema node. */
export type CelNode =
  | { readonly kind: 'dyn' | 'scalar'; readonly type: string; readonly format?: CelFormat }
  | { readonly kind: 'list'; readonly type: string; readonly elem: CelNode }
  | { readonly kind: 'map'; readonly type: string; readonly elem: CelNode }
  | {
      readonly kind: 'object';
      readonly type: string;
      readonly fields: ReadonlyMap<string, { readonly property: string; readonly node: CelNode }>;
      readonly ctor: new (raw: unknown) => CelObject;
      /** At or below a list or a map, where upstream's types are all named `object` (so any two of them compare). */
      readonly anonymous: boolean;
    };

/** An object value: its declared fields as own properties, and the JSON it came from (equality compares the whole of it, unknown fields included). */
const RAW = Symbol('raw');
export class CelObject {
  readonly [RAW]: unknown;
  constructor(raw: unknown) {
    this[RAW] = raw;
  }
  /** The schema of the object's type (each type is a subclass that sets it). */
  static schema: JSONSchemaProps = {};
}

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/** escaping.go Escape: the CEL name of a property, or undefined when it has none. */
export function escapeProperty(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(
    /__|[-./]/g,
    (s) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[s] as string,
  );
}

const SCALARS: Readonly<Record<string, string>> = {
  string: 'string',
  boolean: 'bool',
  integer: 'int',
  number: 'double',
};

/** WithTypeAndObjectMeta: a resource root always shows apiVersion, kind, metadata.name and metadata.generateName. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties ?? {};
  const str = (x: JSONSchemaProps | undefined) => x?.type === 'string';
  if (
    str(p.kind) &&
    str(p.apiVersion) &&
    p.metadata?.type === 'object' &&
    str(p.metadata.properties?.name) &&
    str(p.metadata.properties?.generateName)
  )
    return s;
  const meta: JSONSchemaProps = {
    type: 'object',
    properties: { name: { type: 'string' }, generateName: { type: 'string' } },
  };
  return { ...s, properties: { ...p, kind: { type: 'string' }, apiVersion: { type: 'string' }, metadata: meta } };
}

/** SchemaDeclType with MaybeAssignTypeName(name): the node's CEL view, or undefined when CEL cannot see it. */
export function celNode(
  s: JSONSchemaProps,
  isResourceRoot: boolean,
  name: string,
  anonymous = false,
): CelNode | undefined {
  if (s['x-kubernetes-int-or-string']) return { kind: 'dyn', type: 'dyn' };
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const items = itemsSchema(s);
      const elem = items && celNode(items, !!items['x-kubernetes-embedded-resource'], `${name}.__items__`, true);
      return elem && { kind: 'list', type: `list<${elem.type}>`, elem };
    }
    case 'object': {
      const additional = additionalPropertiesSchema(s);
      if (additional) {
        const elem = celNode(additional, !!additional['x-kubernetes-embedded-resource'], `${name}.__values__`, true);
        return elem && { kind: 'map', type: `map<string, ${elem.type}>`, elem };
      }
      const fields = new Map<string, { property: string; node: CelNode }>();
      for (const [property, prop] of Object.entries(s.properties ?? {})) {
        const escaped = escapeProperty(property);
        const node =
          escaped === undefined
            ? undefined
            : celNode(prop, !!prop['x-kubernetes-embedded-resource'], `${name}.${escaped}`, anonymous);
        if (escaped !== undefined && node) fields.set(escaped, { property, node });
      }
      // One class per type, named after it (the evaluator knows a value's type by its constructor).
      const schema = s;
      const ctor = {
        [name]: class extends CelObject {
          static override schema = schema;
        },
      }[name];
      return { kind: 'object', type: name, fields, ctor, anonymous };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return { kind: 'scalar', type: 'bytes', format: s.format };
        case 'duration':
          return { kind: 'scalar', type: 'google.protobuf.Duration', format: s.format };
        case 'date':
        case 'date-time':
          return { kind: 'scalar', type: 'google.protobuf.Timestamp', format: s.format };
      }
      return { kind: 'scalar', type: 'string' };
    default:
      return s.type !== undefined && SCALARS[s.type] ? { kind: 'scalar', type: SCALARS[s.type] } : undefined;
  }
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
let durationOf: ((text: string) => unknown) | undefined;

/** A string of a format CEL types (strfmt's parsers: RFC 3339 date-times, full dates, Go durations, base64), or the string when it does not parse. */
function formatted(value: string, format: CelFormat): unknown {
  switch (format) {
    case 'byte':
      return /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0
        ? new Uint8Array(Buffer.from(value, 'base64'))
        : value;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
        ? new Date(`${value}T00:00:00Z`)
        : value;
    case 'date-time':
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? new Date(value) : value;
    case 'duration': {
      // CEL's duration() parses Go's duration syntax, as strfmt.ParseDuration does first.
      if (durationOf === undefined) {
        const { Environment } = require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
        const parse = new Environment().registerVariable('s', 'string').parse('duration(s)');
        durationOf = (text) => parse({ s: text });
      }
      try {
        return durationOf(value);
      } catch {
        return value;
      }
    }
  }
}

/** Deep equality of JSON values (numbers by value, objects by their keys), as CEL compares objects and lists. */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonDeepEqual(x, b[i]));
  if (isJSONObject(a) && isJSONObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonDeepEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * CEL's equality of two values of a schema (values.go Equal): objects key by key (unknown fields
 * included), x-kubernetes-list-type map lists by their keys and set lists as sets, whatever the
 * order of their items (unstructuredMapList, unstructuredSetList), other lists in order.
 */
export function celEqual(a: unknown, b: unknown, s: JSONSchemaProps | undefined): boolean {
  if (!s) return jsonDeepEqual(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const items = itemsSchema(s);
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set')
      return a.every((x) => b.some((y) => jsonDeepEqual(x, y))) && b.every((y) => a.some((x) => jsonDeepEqual(x, y)));
    if (listType === 'map') {
      const keys = s['x-kubernetes-list-map-keys'] ?? [];
      const sameKeys = (x: unknown, y: unknown) =>
        isJSONObject(x) && isJSONObject(y) && keys.every((k) => jsonDeepEqual(x[k], y[k]));
      return a.every((x) => {
        const y = b.find((c) => sameKeys(x, c));
        return y !== undefined && celEqual(x, y, items);
      });
    }
    return a.every((x, i) => celEqual(x, b[i], items));
  }
  if (isJSONObject(a) && isJSONObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    const additional = additionalPropertiesSchema(s);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) => Object.prototype.hasOwnProperty.call(b, k) && celEqual(a[k], b[k], s.properties?.[k] ?? additional),
      )
    );
  }
  return jsonDeepEqual(a, b);
}

/** Registers the object types of a node (fields, and `==` comparing their whole JSON) in env. */
export function registerCelTypes(env: Environment, node: CelNode): void {
  const objects: Extract<CelNode, { kind: 'object' }>[] = [];
  const collect = (n: CelNode): void => {
    if (n.kind === 'list' || n.kind === 'map') collect(n.elem);
    if (n.kind !== 'object') return;
    for (const f of n.fields.values()) collect(f.node);
    objects.push(n);
  };
  collect(node);
  const equal = (a: CelObject, b: CelObject) => celEqual(a[RAW], b[RAW], (a.constructor as typeof CelObject).schema);
  for (const o of objects) {
    env.registerType(o.type, {
      ctor: o.ctor,
      fields: Object.fromEntries([...o.fields].map(([k, f]) => [k, f.node.type])),
    } as never);
    env.registerOperator(`${o.type} == ${o.type}`, equal);
  }
  const anonymous = objects.filter((o) => o.anonymous);
  // The evaluator registers the mirrored overload itself.
  anonymous.forEach((a, i) =>
    anonymous.slice(i + 1).forEach((b) => env.registerOperator(`${a.type} == ${b.type}`, equal)),
  );
}

/**
 * UnstructuredToVal: a JSON value as CEL sees it through the node. A null field is absent (has() is
 * false, selecting it fails with `no such key`); a value of the wrong shape is given as it is.
 */
export function celValue(value: unknown, node: CelNode): unknown {
  switch (node.kind) {
    case 'list':
      return Array.isArray(value) ? value.map((v) => celValue(v, node.elem)) : toCel(value);
    case 'map':
      if (!isJSONObject(value)) return toCel(value);
      return Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => [k, celValue(v, node.elem)]),
      );
    case 'object': {
      if (!isJSONObject(value)) return toCel(value);
      const obj = new node.ctor(value) as CelObject & Record<string, unknown>;
      for (const [escaped, f] of node.fields) {
        const v = value[f.property];
        if (v !== null && v !== undefined) obj[escaped] = celValue(v, f.node);
      }
      return obj;
    }
    default:
      return node.kind === 'scalar' && node.format && typeof value === 'string'
        ? formatted(value, node.format)
        : toCel(value);
  }
}

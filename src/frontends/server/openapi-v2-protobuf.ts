import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Root, type Field, type Type } from 'protobufjs/light';
import { stringify } from 'yaml';
import { parseAccept } from './negotiation';

/**
 * R100 — `/openapi/v2` in protobuf: the Swagger 2.0 document (openapi.ts) as gnostic's
 * `openapi.v2.Document` message, which client-go's OpenAPISchema asks for in every release
 * (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, discovery_client.go) and
 * decodes, falling back on a 406 to the pre-1.10 `/swagger-2.0.0.pb-v1`, which no server serves
 * now. kubectl before 1.27 cannot create or apply without it: it reads it for `explain`,
 * client-side validation, apply's strategic merge patches and the QueryParamVerifier that decides
 * whether to send `fieldValidation` (cli-runtime resource/query_param_verifier.go; from 1.27 that
 * reads `/openapi/v3`). kube-openapi's handler turns its JSON document into that message with
 * gnostic's compiler (openapiv2/document.go ParseDocument → OpenAPIv2.go NewDocument), and this
 * does what that compiler does, message by message, from the descriptors
 * scripts/openapi-v2-descriptors.ts generates from gnostic-models' OpenAPIv2.proto:
 *
 * - a field takes the value of the JSON key named like it in camel case (`base_path` ← `basePath`,
 *   `_ref` ← `$ref`); Go's proto3 encoding leaves out a zero scalar and an empty list;
 * - the named maps — `definitions`, `properties`, `parameters`, `responses`, … (a message whose one
 *   field is `additional_properties`), `Paths.path` (keys starting `/`), `Responses.response_code`
 *   (three digits or `default`) and every `vendor_extension` (keys starting `x-`) — become repeated
 *   `Named*` entries `{name, value}` in the document's order;
 * - an `Any` (vendor extension values, `default`, `example`, `enum` members) carries the value as
 *   YAML (compiler.Marshal: block style, yaml.v3's four-space indent), never a google.protobuf.Any;
 * - `type` is a TypeItem (one name, or the list), `items` an ItemsItem holding the one schema;
 * - each oneof takes the alternative the compiler's checks would let through: a `$ref` object is
 *   a JsonReference, a parameter `in: body` a BodyParameter and the others the sub-schema of their
 *   `in`, `additionalProperties: true|false` the boolean;
 * - a key the compiler does not allow for that message fails the encoding (ParseDocument's
 *   "has invalid property"), as it would fail kube-openapi's.
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The subtype client-go v0.26 asks for, which kube-openapi still accepts (answering with the one above). */
const OPENAPI_V2_PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * Whether an Accept header asks for the protobuf form first: kube-openapi's handler serves the
 * first clause that names JSON or either protobuf subtype, wildcards meaning JSON. Everything
 * else (JSON, YAML, a 406) is the JSON document's negotiation, as before.
 */
export function acceptsOpenApiV2Protobuf(accept: string | undefined): boolean {
  for (const { type } of parseAccept(accept)) {
    if (type === OPENAPI_V2_PROTOBUF || type === OPENAPI_V2_PROTOBUF_DEPRECATED) return true;
    if (type === 'application/json' || type === 'application/yaml' || type === '*/*' || type === 'application/*')
      return false;
  }
  return false;
}

type Json = Record<string, unknown>;

const root = Root.fromJSON(JSON.parse(readFileSync(join(__dirname, 'openapi-v2-descriptors.json'), 'utf8')));
root.resolveAll();

const DOCUMENT = root.lookupType('openapi.v2.Document');

/** The field of a named-map message (Definitions, Properties, …) that takes every key of the object. */
const MAP_FIELD = 'additional_properties';

/** Fields that take the keys matching a pattern, not one key (the compiler's `MAP: … ^x-` fields). */
const PATTERN_FIELDS: Record<string, RegExp> = {
  vendor_extension: /^x-/,
  'Paths.path': /^\//,
  'Responses.response_code': /^([0-9]{3})$|^(default)$/,
};

/** Which member of a oneof an object is, as the compiler's tries of each alternative settle it. */
const ONEOFS: Record<string, (v: unknown) => string | undefined> = {
  AdditionalPropertiesItem: (v) => (typeof v === 'boolean' ? 'boolean' : isObject(v) ? 'schema' : undefined),
  ParametersItem: (v) => (isObject(v) ? ('$ref' in v ? 'json_reference' : 'parameter') : undefined),
  Parameter: (v) => (isObject(v) ? (v.in === 'body' ? 'body_parameter' : 'non_body_parameter') : undefined),
  NonBodyParameter: (v) =>
    isObject(v)
      ? ((
          {
            header: 'header_parameter_sub_schema',
            formData: 'form_data_parameter_sub_schema',
            query: 'query_parameter_sub_schema',
            path: 'path_parameter_sub_schema',
          } as Json
        )[String(v.in)] as string | undefined)
      : undefined,
  ResponseValue: (v) => (isObject(v) ? ('$ref' in v ? 'json_reference' : 'response') : undefined),
  // A schema of type file is also a valid Schema; FileSchema is tried last, so it wins.
  SchemaItem: (v) => (isObject(v) ? (v.type === 'file' ? 'file_schema' : 'schema') : undefined),
  SecurityDefinitionsItem: (v) => {
    if (!isObject(v)) return undefined;
    if (v.type === 'basic') return 'basic_authentication_security';
    if (v.type === 'apiKey') return 'api_key_security';
    const flows: Json = {
      implicit: 'oauth2_implicit_security',
      password: 'oauth2_password_security',
      application: 'oauth2_application_security',
      accessCode: 'oauth2_access_code_security',
    };
    return v.type === 'oauth2' ? (flows[String(v.flow)] as string | undefined) : undefined;
  },
};

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON key of a field: `base_path` → `basePath`, `_ref` → `$ref`. */
function jsonKey(field: Field): string {
  if (field.name === '_ref') return '$ref';
  return field.name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

const isZero = (v: unknown) => v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);

class OpenApiV2Error extends Error {
  override readonly name = 'OpenApiV2Error';
}

/** The YAML of an Any (compiler.Marshal: the node's style cleared, so block style). */
function yamlOf(value: unknown): string {
  return stringify(value, { aliasDuplicateObjects: false, indent: 4 });
}

function scalar(field: Field, v: unknown, where: string): unknown {
  const ok =
    field.type === 'string'
      ? typeof v === 'string'
      : field.type === 'bool'
        ? typeof v === 'boolean'
        : field.type === 'int64'
          ? Number.isInteger(v)
          : typeof v === 'number';
  if (!ok) throw new OpenApiV2Error(`${where}: has unexpected value for ${jsonKey(field)}: ${JSON.stringify(v)}`);
  return v;
}

/** One field's value: a scalar, a message, or a list of either. */
function fieldValue(field: Field, v: unknown, where: string): unknown {
  const one = (x: unknown, at: string) =>
    field.resolvedType ? message(field.resolvedType as Type, x, at) : scalar(field, x, at);
  if (!field.repeated) return one(v, where);
  if (!Array.isArray(v))
    throw new OpenApiV2Error(`${where}: has unexpected value for ${jsonKey(field)}: ${JSON.stringify(v)}`);
  return v.map((x, i) => one(x, `${where}[${i}]`));
}

/** Named* entries `{name, value}` for the keys of `obj` that `matches`, in the object's order. */
function namedEntries(field: Field, obj: Json, matches: (key: string) => boolean, where: string): Json[] {
  const named = field.resolvedType as Type;
  const valueField = named.fields.value;
  return Object.keys(obj)
    .filter(matches)
    .map((name) => ({ name, value: fieldValue(valueField, obj[name], `${where}.${name}`) }));
}

/** The plain object protobufjs's fromObject takes for the JSON value `v` of a `type` message. */
function message(type: Type, v: unknown, where: string): Json {
  switch (type.fullName) {
    case '.openapi.v2.Any':
      return { yaml: yamlOf(v) };
    case '.openapi.v2.TypeItem':
      if (typeof v === 'string') return { value: [v] };
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return { value: v };
      throw new OpenApiV2Error(`${where}: has unexpected value for string array: ${JSON.stringify(v)}`);
    case '.openapi.v2.ItemsItem':
      // The compiler takes only the one-schema form of `items` (a map), never a list of schemas.
      if (!isObject(v)) throw new OpenApiV2Error(`${where}: has unexpected value for item array: ${JSON.stringify(v)}`);
      return { schema: [message(type.fields.schema.resolvedType as Type, v, where)] };
    case '.openapi.v2.StringArray':
      return { value: fieldValue(type.fields.value, v, where) };
  }
  const oneof = ONEOFS[type.name];
  if (oneof) {
    const member = oneof(v);
    if (!member) throw new OpenApiV2Error(`${where}: contains an invalid ${type.name}`);
    const field = type.fields[member];
    // A oneof member is written even when it is a zero value (`additionalProperties: false`).
    return { [member]: fieldValue(field, v, where) };
  }
  if (!isObject(v)) throw new OpenApiV2Error(`${where}: has unexpected value: ${JSON.stringify(v)}`);
  const out: Json = {};
  const taken = new Set<string>();
  for (const field of type.fieldsArray) {
    const pattern = PATTERN_FIELDS[field.name] ?? PATTERN_FIELDS[`${type.name}.${field.name}`];
    if (pattern || (field.name === MAP_FIELD && type.fieldsArray.length === 1)) {
      const entries = namedEntries(field, v, (k) => !pattern || pattern.test(k), where);
      entries.forEach((e) => taken.add(e.name as string));
      if (entries.length > 0) out[field.name] = entries;
      continue;
    }
    const key = jsonKey(field);
    if (!(key in v)) continue;
    taken.add(key);
    const value = fieldValue(field, v[key], `${where}.${key}`);
    if (!isZero(value)) out[field.name] = value;
  }
  const invalid = Object.keys(v).filter((k) => !taken.has(k));
  if (invalid.length > 0)
    throw new OpenApiV2Error(
      `${where}: has invalid ${invalid.length === 1 ? 'property' : 'properties'}: ${invalid.join(', ')}`,
    );
  return out;
}

/** A Swagger 2.0 document (its JSON form) as the bytes of a gnostic openapi.v2.Document. */
export function encodeOpenApiV2(doc: object): Buffer {
  return Buffer.from(DOCUMENT.encode(DOCUMENT.fromObject(message(DOCUMENT, doc, '$root'))).finish());
}

const encoded = new WeakMap<object, Buffer>();

/** The protobuf form of a document, encoded on first use and kept with the document (it is big). */
export function openApiV2Protobuf(doc: object): Buffer {
  let bytes = encoded.get(doc);
  if (!bytes) encoded.set(doc, (bytes = encodeOpenApiV2(doc)));
  return bytes;
}

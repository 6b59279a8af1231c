/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version (`spec.versions[*].schema.openAPIV3Schema`),
 * as apiextensions.k8s.io/v1 serialises it (staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types_jsonschema.go).
 * kubernetes-types' JSONSchemaProps omits the `x-kubernetes-*` extensions, so the type is spelled out here.
 * Everything is optional: the structural checks (./structural.ts) say which combinations are allowed.
 */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema; an array of schemas is refused by the structural checks. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  /** CEL rules: checked for shape here, evaluated elsewhere (they are not part of this library). */
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One `x-kubernetes-validations` entry (types_jsonschema.go ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** The schema of `items` when it is a single schema (the only form a structural schema has). */
export function itemsSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = s?.items;
  return items === undefined || Array.isArray(items) ? undefined : items;
}

/** The schema of `additionalProperties` when it is one (`true` and `false` have none). */
export function additionalPropertiesSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const ap = s?.additionalProperties;
  return ap === undefined || typeof ap === 'boolean' ? undefined : ap;
}

/** A JSON object (not an array, not null), as decoded request bodies hold them. */
export function isJSONObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

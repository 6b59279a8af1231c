import { describe, it } from 'node:test';
import { expect } from 'chai';
import { describeFieldError } from '../../../apimachinery/errors';
import { validateStructural } from './structural';
import type { JSONSchemaProps } from './types';

const AT = 'spec.versions[0].schema.openAPIV3Schema';
const messages = (schema: JSONSchemaProps): string[] => validateStructural(schema, AT).map(describeFieldError);
const root = (properties: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...extra,
});

describe('validateStructural: a usual schema passes', () => {
  it('R307 a kubebuilder-style schema has no errors', () => {
    const schema = root({
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        required: ['size'],
        properties: {
          size: { type: 'string', enum: ['small', 'large'], default: 'small' },
          replicas: { type: 'integer', minimum: 0, default: 1 },
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
          raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    });
    expect(messages(schema)).to.deep.equal([]);
  });
});

describe('validateStructural: structural invariants (R307)', () => {
  it('R307 every specified node needs a type, worded per level', () => {
    expect(messages(root({ spec: {} }))).to.deep.equal([
      `${AT}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ]);
    expect(messages({ properties: { spec: { type: 'object' } } })).to.deep.equal([
      `${AT}.type: Required value: must not be empty at the root`,
    ]);
    expect(messages(root({ l: { type: 'array', items: {} } }))).to.deep.equal([
      `${AT}.properties[l].items.type: Required value: must not be empty for specified array items`,
    ]);
  });

  it('R307 no type is needed under x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields', () => {
    expect(
      messages(
        root({ a: { 'x-kubernetes-int-or-string': true }, b: { 'x-kubernetes-preserve-unknown-fields': true } }),
      ),
    ).to.deep.equal([]);
  });

  it('R307 an array needs items; the root must be an object without additionalProperties', () => {
    expect(messages(root({ l: { type: 'array' } }))).to.deep.equal([
      `${AT}.properties[l].items: Required value: must be specified`,
    ]);
    expect(messages({ type: 'array', items: { type: 'string' } })).to.deep.equal([
      `${AT}.type: Invalid value: "array": must be object at the root`,
    ]);
    expect(messages({ type: 'object', additionalProperties: { type: 'string' } })).to.deep.equal([
      `${AT}.additionalProperties: Forbidden: must not be used at the root`,
    ]);
  });

  it('R307 inside anyOf, allOf, oneOf and not only value validations may appear', () => {
    expect(
      messages(
        root({
          spec: {
            type: 'object',
            properties: { a: { type: 'string' } },
            anyOf: [{ type: 'string', description: 'd' }, { required: ['a'] }],
          },
        }),
      ),
    ).to.deep.equal([
      `${AT}.properties[spec].anyOf[0].description: Forbidden: must be empty to be structural`,
      `${AT}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it('R307 metadata at the root may restrict only name and generateName, and nothing nested may name it', () => {
    expect(
      messages(root({ metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } })),
    ).to.deep.equal([]);
    expect(messages(root({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } }))).to.deep.equal([
      `${AT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    expect(messages(root({ metadata: { type: 'string' } }))[0]).to.equal(
      `${AT}.properties[metadata].type: Invalid value: "string": must be object`,
    );
  });

  it('R307 what the root anyOf names must be specified by the schema itself', () => {
    expect(messages(root({ spec: { type: 'object' } }, { anyOf: [{ properties: { other: {} } }] }))).to.deep.equal([
      `${AT}.properties[other]: Required value: because it is defined in ${AT}.anyOf[0].properties[other]`,
    ]);
  });

  it('R307 an embedded resource is an object with properties or x-kubernetes-preserve-unknown-fields', () => {
    expect(messages(root({ t: { type: 'object', 'x-kubernetes-embedded-resource': true } }))).to.deep.equal([
      `${AT}.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
  });
});

describe('validateStructural: defaults (R308)', () => {
  it('R308 a default must validate against its own node', () => {
    expect(
      messages(root({ spec: { type: 'object', properties: { replicas: { type: 'integer', default: 'two' } } } })),
    ).to.deep.equal([
      `${AT}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
  });

  it('R308 a default must not hold fields its schema would prune', () => {
    expect(
      messages(root({ spec: { type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } } })),
    ).to.deep.equal([
      `${AT}.properties[spec].default: Invalid value: map[string]interface {}{"a":1, "b":2}: must not have unknown fields`,
    ]);
  });

  it('R308 defaults are forbidden in top-level metadata', () => {
    expect(messages(root({ metadata: { type: 'object', default: {} } }))).to.deep.equal([
      `${AT}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });
});

describe('validateStructural: node checks (R309)', () => {
  it('R309 forbidden fields', () => {
    expect(messages(root({ a: { type: 'string', $ref: '#/definitions/x' } }))).to.deep.equal([
      `${AT}.properties[a].$ref: Forbidden: $ref is not supported`,
    ]);
    expect(messages(root({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }))).to.deep.equal([
      `${AT}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]);
    expect(messages(root({ a: { type: 'null' } }))).to.include(
      `${AT}.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    );
    expect(messages(root({ a: { type: 'float' } }))).to.deep.equal([
      `${AT}.properties[a].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ]);
    expect(messages({ ...root({}), nullable: true })).to.deep.equal([
      `${AT}.nullable: Forbidden: nullable cannot be true at the root`,
    ]);
  });

  it('R309 additionalProperties and properties are mutually exclusive', () => {
    expect(
      messages(
        root({
          m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
        }),
      ),
    ).to.deep.equal([
      `${AT}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]);
  });

  it('R309 list types: map lists need keys that are required (or defaulted) scalar item properties', () => {
    expect(
      messages(
        root({
          l: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            items: { type: 'object', properties: { name: { type: 'string' } } },
          },
        }),
      ),
    ).to.deep.equal([
      `${AT}.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ]);
    expect(
      messages(
        root({
          l: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' } } },
          },
        }),
      ),
    ).to.deep.equal([
      `${AT}.properties[l].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(
      messages(root({ l: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } } })),
    ).to.deep.equal([
      `${AT}.properties[l].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ]);
    expect(messages(root({ s: { type: 'string', 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([
      `${AT}.properties[s].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    ]);
  });

  it('R309 x-kubernetes-validations: a rule is required; the CEL itself is not looked at here', () => {
    expect(
      messages(
        root({
          spec: { type: 'object', 'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.a > 0', reason: 'Nope' }] },
        }),
      ),
    ).to.deep.equal([
      `${AT}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${AT}.properties[spec].x-kubernetes-validations[1].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
  });

  it('R309 what NewStructural cannot convert is reported alone, when nothing else is', () => {
    expect(
      messages(root({ a: { type: 'string' } }, { $schema: 'http://json-schema.org/draft-04/schema#' })),
    ).to.deep.equal([`${AT}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]);
  });
});

describe('validateStructural: the root with the status subresource (R311)', () => {
  const withStatus = (schema: JSONSchemaProps): string[] =>
    validateStructural(schema, AT, { statusSubresource: true }).map(describeFieldError);

  it('R311 only what survives taking status out may stand at the root', () => {
    expect(
      withStatus(
        root({ spec: { type: 'object' }, status: { type: 'object' } }, { required: ['spec'], description: 'd' }),
      ),
    ).to.deep.equal([]);
    expect(
      withStatus(root({ spec: { type: 'object' }, status: { type: 'object' } }, { anyOf: [{ required: ['spec'] }] })),
    ).to.deep.equal([
      `${AT}: Invalid value: apiextensions.JSONSchemaProps{…}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
    ]);
    expect(
      validateStructural(root({ spec: { type: 'object' } }, { anyOf: [{ required: ['spec'] }] }), AT),
    ).to.deep.equal([]);
  });
});

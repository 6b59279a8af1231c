import { describe, it } from 'node:test';
import { expect } from 'chai';
import { describeFieldError } from '../../../apimachinery/errors';
import { Release } from '../../../foundation/release';
import { cr, withSpec } from './testing';
import type { JSONSchemaProps } from './types';
import {
  validateCustomResource,
  validateCustomResourceStatusUpdate,
  validateCustomResourceUpdate,
  validateValue,
} from './validation';

/** The messages kube-apiserver would list in the Status of an invalid custom resource. */
function messages(obj: unknown, schema: JSONSchemaProps, release?: Release): string[] {
  return validateCustomResource(obj, schema, { release }).map(describeFieldError);
}

describe('validateCustomResource: types (R302)', () => {
  it('R302 a string where an integer is declared names the JSON type it found', () => {
    expect(messages(cr({ replicas: 'three' }), withSpec({ replicas: { type: 'integer' } }))).to.deep.equal([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });

  it('R302 null is refused unless the field is nullable', () => {
    expect(messages(cr({ replicas: null }), withSpec({ replicas: { type: 'integer' } }))).to.deep.equal([
      'spec.replicas: Invalid value: "null": spec.replicas in body must be of type integer: "null"',
    ]);
    expect(messages(cr({ replicas: null }), withSpec({ replicas: { type: 'integer', nullable: true } }))).to.deep.equal(
      [],
    );
  });

  it('R302 an integral number is an integer and a number; a fraction is only a number', () => {
    expect(messages(cr({ a: 3, b: 3 }), withSpec({ a: { type: 'integer' }, b: { type: 'number' } }))).to.deep.equal([]);
    expect(messages(cr({ a: 1.5 }), withSpec({ a: { type: 'integer' } }))).to.deep.equal([
      'spec.a: Invalid value: "number": spec.a in body must be of type integer: "number"',
    ]);
  });

  it('R302 x-kubernetes-int-or-string takes either and names both when neither', () => {
    const schema = withSpec({ port: { 'x-kubernetes-int-or-string': true } });
    expect(messages(cr({ port: 80 }), schema)).to.deep.equal([]);
    expect(messages(cr({ port: 'http' }), schema)).to.deep.equal([]);
    expect(messages(cr({ port: true }), schema)).to.deep.equal([
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
  });

  it('R302 the cause reason of a type error is FieldValueTypeInvalid', () => {
    const [err] = validateCustomResource(cr({ replicas: 'x' }), withSpec({ replicas: { type: 'integer' } }));
    expect(err.typeInvalid).to.equal(true);
  });
});

describe('validateCustomResource: required, enum, bounds (R302)', () => {
  it('R302 a missing required field is a bare Required value', () => {
    expect(messages(cr({}), withSpec({ name: { type: 'string' } }, { required: ['name'] }))).to.deep.equal([
      'spec.name: Required value',
    ]);
    expect(
      messages(
        { apiVersion: 'example.com/v1', kind: 'Widget' },
        { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } },
      ),
    ).to.deep.equal(['spec: Required value']);
  });

  it('R302 a value outside the enum lists the supported values quoted', () => {
    expect(
      messages(cr({ size: 'huge' }), withSpec({ size: { type: 'string', enum: ['small', 'large'] } })),
    ).to.deep.equal(['spec.size: Unsupported value: "huge": supported values: "small", "large"']);
    expect(messages(cr({ level: 4 }), withSpec({ level: { type: 'integer', enum: [1, 2] } }))).to.deep.equal([
      'spec.level: Unsupported value: 4: supported values: "1", "2"',
    ]);
  });

  it('R302 minimum and maximum, inclusive and exclusive', () => {
    const schema = withSpec({
      n: { type: 'integer', minimum: 1, maximum: 10 },
      m: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true },
    });
    expect(messages(cr({ n: 11, m: 5 }), schema)).to.deep.equal([
      'spec.m: Invalid value: 5: spec.m in body should be less than 5',
      'spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10',
    ]);
    expect(messages(cr({ n: 0, m: 0 }), schema)).to.deep.equal([
      'spec.m: Invalid value: 0: spec.m in body should be greater than 0',
      'spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1',
    ]);
  });

  it('R301 R302 a fractional bound is printed as Go prints a float64', () => {
    expect(messages(cr({ r: 0.25 }), withSpec({ r: { type: 'number', minimum: 0.5 } }))).to.deep.equal([
      'spec.r: Invalid value: 0.25: spec.r in body should be greater than or equal to 0.5',
    ]);
    expect(messages(cr({ r: 2000000.5 }), withSpec({ r: { type: 'number', maximum: 1000000.5 } }))).to.deep.equal([
      'spec.r: Invalid value: 2.0000005e+06: spec.r in body should be less than or equal to 1.0000005e+06',
    ]);
  });

  it('R302 multipleOf', () => {
    expect(messages(cr({ n: 7 }), withSpec({ n: { type: 'integer', multipleOf: 5 } }))).to.deep.equal([
      'spec.n: Invalid value: 7: spec.n in body should be a multiple of 5',
    ]);
    expect(messages(cr({ n: 10 }), withSpec({ n: { type: 'integer', multipleOf: 5 } }))).to.deep.equal([]);
  });

  it('R302 string lengths: too long is reported without the value, worded per release', () => {
    const schema = withSpec({ name: { type: 'string', minLength: 2, maxLength: 5 } });
    expect(messages(cr({ name: 'abcdef' }), schema)).to.deep.equal([
      'spec.name: Too long: may not be more than 5 bytes',
    ]);
    expect(messages(cr({ name: 'abcdef' }), schema, Release.of(31))).to.deep.equal([
      'spec.name: Too long: may not be longer than 5',
    ]);
    expect(messages(cr({ name: 'a' }), schema)).to.deep.equal([
      'spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long',
    ]);
    // Characters, not UTF-16 units, are counted.
    expect(messages(cr({ name: '🙂🙂🙂' }), schema)).to.deep.equal([]);
  });

  it('R302 pattern is a Go regular expression, unanchored', () => {
    const schema = withSpec({
      id: { type: 'string', pattern: '^[a-z]+$' },
      tag: { type: 'string', pattern: 'v[0-9]' },
    });
    expect(messages(cr({ id: 'ABC', tag: 'release-v2' }), schema)).to.deep.equal([
      'spec.id: Invalid value: "ABC": spec.id in body should match \'^[a-z]+$\'',
    ]);
    expect(messages(cr({ id: 'Abc' }), withSpec({ id: { type: 'string', pattern: '(?i)^[a-z]+$' } }))).to.deep.equal(
      [],
    );
  });

  it('R302 formats the server supports are checked; others are ignored', () => {
    const schema = withSpec({
      when: { type: 'string', format: 'date-time' },
      ip: { type: 'string', format: 'ipv4' },
      x: { type: 'string', format: 'no-such-format' },
    });
    expect(messages(cr({ when: '2024-02-30T10:00:00Z', ip: '10.0.0.1', x: 'anything' }), schema)).to.deep.equal([
      'spec.when: Invalid value: "2024-02-30T10:00:00Z": spec.when in body must be of type date-time: "2024-02-30T10:00:00Z"',
    ]);
    expect(messages(cr({ when: '2024-02-29T10:00:00.5+01:00', ip: '10.0.0.256' }), schema)).to.deep.equal([
      'spec.ip: Invalid value: "10.0.0.256": spec.ip in body must be of type ipv4: "10.0.0.256"',
    ]);
  });
});

describe('validateCustomResource: arrays and objects (R302)', () => {
  it('R302 minItems and maxItems', () => {
    const schema = withSpec({ l: { type: 'array', minItems: 2, maxItems: 3, items: { type: 'string' } } });
    expect(messages(cr({ l: ['a'] }), schema)).to.deep.equal([
      'spec.l: Invalid value: 1: spec.l in body should have at least 2 items',
    ]);
    expect(messages(cr({ l: ['a', 'b', 'c', 'd'] }), schema)).to.deep.equal([
      'spec.l: Too many: 4: must have at most 3 items',
    ]);
  });

  it('R302 items are validated at their index', () => {
    const schema = withSpec({
      ports: {
        type: 'array',
        items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' } } },
      },
    });
    expect(messages(cr({ ports: [{ port: 1 }, { port: 'x' }, {}] }), schema)).to.deep.equal([
      'spec.ports[1].port: Invalid value: "string": spec.ports[1].port in body must be of type integer: "string"',
      'spec.ports[2].port: Required value',
    ]);
  });

  it('R302 minProperties and maxProperties', () => {
    const schema = withSpec({
      labels: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: { type: 'string' } },
    });
    expect(messages(cr({ labels: {} }), schema)).to.deep.equal([
      'spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties',
    ]);
    expect(messages(cr({ labels: { a: 'a', b: 'b', c: 'c' } }), schema)).to.deep.equal([
      'spec.labels: Too many: 3: must have at most 2 items',
    ]);
  });

  it('R302 additionalProperties: a schema checks every value; false forbids every key', () => {
    expect(
      messages(
        cr({ labels: { a: 1 } }),
        withSpec({ labels: { type: 'object', additionalProperties: { type: 'string' } } }),
      ),
    ).to.deep.equal([
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
    ]);
    expect(
      messages(cr({ labels: { a: 'x' } }), withSpec({ labels: { type: 'object', additionalProperties: false } })),
    ).to.deep.equal(['spec.labels: Invalid value: "a": spec.labels.a in body is a forbidden property']);
  });
});

describe('validateCustomResource: composition (R302)', () => {
  it('R302 oneOf: no branch valid is reported on the nil path, with the closest branch', () => {
    const schema = withSpec({}, { oneOf: [{ required: ['a'] }, { required: ['b'] }] });
    expect(messages(cr({}), schema)).to.deep.equal([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
      'spec.a: Required value',
    ]);
    expect(messages(cr({ a: 1, b: 2 }), schema)).to.deep.equal([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(messages(cr({ b: 2 }), schema)).to.deep.equal([]);
  });

  it('R302 anyOf, allOf and not', () => {
    expect(messages(cr({}), withSpec({}, { anyOf: [{ required: ['a'] }, { required: ['b'] }] }))).to.deep.equal([
      '<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)',
      'spec.a: Required value',
    ]);
    expect(messages(cr({ a: 1 }), withSpec({}, { allOf: [{ required: ['a'] }, { required: ['b'] }] }))).to.deep.equal([
      'spec.b: Required value',
      '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf)',
    ]);
    expect(messages(cr({ a: 1 }), withSpec({}, { not: { required: ['a'] } }))).to.deep.equal([
      '<nil>: Invalid value: "": "spec" must not validate the schema (not)',
    ]);
  });

  it('R302 a value validation error below a path passed in is rooted there (as defaults are checked)', () => {
    const errs = validateValue('spec.versions[0].schema.openAPIV3Schema.properties[replicas].default', 'two', {
      type: 'integer',
    });
    expect(errs.map(describeFieldError)).to.deep.equal([
      'spec.versions[0].schema.openAPIV3Schema.properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"',
    ]);
  });
});

describe('validateCustomResource: list types (R303)', () => {
  it('R303 a set reports each repeated value at its second occurrence', () => {
    const schema = withSpec({ tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } });
    expect(messages(cr({ tags: ['a', 'b', 'a', 'a', 'b'] }), schema)).to.deep.equal([
      'spec.tags[2]: Duplicate value: "a"',
      'spec.tags[4]: Duplicate value: "b"',
    ]);
  });

  it('R301 R303 a map list is unique by its keys, printed as a Go map up to v1.33, as JSON from v1.34 (V64)', () => {
    const schema = withSpec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, port: { type: 'integer' } },
        },
      },
    });
    const twice = cr({
      ports: [
        { name: 'http', port: 80 },
        { name: 'http', port: 81 },
      ],
    });
    expect(messages(twice, schema, Release.of(33))).to.deep.equal([
      'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}',
    ]);
    expect(messages(twice, schema)).to.deep.equal(['spec.ports[1]: Duplicate value: {"name":"http"}']);
  });
});

describe('validateCustomResource: embedded resources (R304)', () => {
  const schema = withSpec({
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  });

  it('R304 an embedded resource needs apiVersion and kind', () => {
    expect(messages(cr({ template: { metadata: {} } }), schema)).to.deep.equal([
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ]);
    expect(messages(cr({ template: { apiVersion: 'v1', kind: 'Pod' } }), schema)).to.deep.equal([]);
  });

  it('R304 its kind must read as a DNS-1035 label, in any case', () => {
    const [msg] = messages(cr({ template: { apiVersion: 'v1', kind: 'My_Kind' } }), schema);
    expect(msg).to.match(
      /^spec\.template\.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist/,
    );
  });
});

describe('validateCustomResourceUpdate: ratcheting (R310)', () => {
  const schema = withSpec({
    name: { type: 'string', maxLength: 3 },
    size: { type: 'integer', maximum: 5 },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
  });
  const update = (next: unknown, old: unknown, release?: Release): string[] =>
    validateCustomResourceUpdate(next, old, schema, { release }).map(describeFieldError);

  it('R310 a value that fails but is unchanged does not block the update of another field', () => {
    expect(update(cr({ name: 'toolong', size: 2 }), cr({ name: 'toolong', size: 1 }))).to.deep.equal([]);
  });

  it('R310 a changed value is validated, and so is every value before 1.30', () => {
    expect(update(cr({ name: 'toolong', size: 9 }), cr({ name: 'toolong', size: 1 }))).to.deep.equal([
      'spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5',
    ]);
    expect(update(cr({ name: 'toolong', size: 2 }), cr({ name: 'toolong', size: 1 }), Release.of(29))).to.deep.equal([
      'spec.name: Too long: may not be longer than 3',
    ]);
  });

  it('R310 map-list items correlate by key; other list items do not', () => {
    const keyed = withSpec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } },
        },
      },
      plain: { type: 'array', items: { type: 'integer', maximum: 100 } },
    });
    const errs = validateCustomResourceUpdate(
      cr({
        ports: [
          { name: 'b', port: 1 },
          { name: 'a', port: 500 },
        ],
        plain: [500, 1],
      }),
      cr({ ports: [{ name: 'a', port: 500 }], plain: [500] }),
      keyed,
    ).map(describeFieldError);
    expect(errs).to.deep.equal([
      'spec.plain[0]: Invalid value: 500: spec.plain[0] in body should be less than or equal to 100',
    ]);
  });

  it('R310 list-type uniqueness is checked only when the old object met it', () => {
    expect(update(cr({ tags: ['a', 'a', 'b'] }), cr({ tags: ['a', 'a'] }))).to.deep.equal([]);
    expect(update(cr({ tags: ['a', 'a'] }), cr({ tags: ['a'] }))).to.deep.equal(['spec.tags[1]: Duplicate value: "a"']);
  });
});

describe('validateCustomResource: releases (R302)', () => {
  it('R302 k8s-short-name and k8s-long-name are checked from 1.35', () => {
    const schema = withSpec({
      a: { type: 'string', format: 'k8s-short-name' },
      b: { type: 'string', format: 'k8s-long-name' },
    });
    const obj = cr({ a: 'Not_A_Name', b: 'ok.example' });
    expect(messages(obj, schema, Release.of(34))).to.deep.equal([]);
    expect(messages(obj, schema, Release.of(35))).to.deep.equal([
      'spec.a: Invalid value: "Not_A_Name": spec.a in body must be of type k8s-short-name: "Not_A_Name"',
    ]);
  });

  it('R302 before 1.28 a property-count error is the only error of its object', () => {
    const schema = withSpec({ labels: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } });
    const obj = cr({ labels: { a: 'x', b: 2 } });
    expect(messages(obj, schema)).to.deep.equal([
      'spec.labels: Too many: 2: must have at most 1 items',
      'spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"',
    ]);
    expect(messages(obj, schema, Release.of(27))).to.deep.equal([
      'spec.labels: Too many: 2: must have at most 1 items',
    ]);
  });
});

describe('validateCustomResourceStatusUpdate (R310)', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { n: { type: 'integer' } } },
      status: {
        type: 'object',
        required: ['phase'],
        properties: { phase: { type: 'string', enum: ['Ready'] }, count: { type: 'integer', maximum: 3 } },
      },
    },
  };
  const status = (s: unknown): Record<string, unknown> => ({ ...cr({ n: 'not checked here' }), status: s });

  it('R310 only the status is checked, below the status path', () => {
    expect(
      validateCustomResourceStatusUpdate(status({ phase: 'Gone', count: 4 }), status({ phase: 'Ready' }), schema).map(
        describeFieldError,
      ),
    ).to.deep.equal([
      'status.count: Invalid value: 4: count in body should be less than or equal to 3',
      'status.phase: Unsupported value: "Gone": supported values: "Ready"',
    ]);
    expect(
      validateCustomResourceStatusUpdate(status({}), status({ phase: 'Ready' }), schema).map(describeFieldError),
    ).to.deep.equal(['status.phase: Required value']);
    expect(validateCustomResourceStatusUpdate(cr({}), cr({}), schema)).to.deep.equal([]);
  });

  it('R310 the status ratchets like the rest of an update', () => {
    expect(
      validateCustomResourceStatusUpdate(
        status({ phase: 'Ready', count: 9 }),
        status({ phase: 'Old', count: 9 }),
        schema,
      ),
    ).to.deep.equal([]);
  });
});

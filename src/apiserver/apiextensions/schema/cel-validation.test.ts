import { describe, it } from 'node:test';
import { expect } from 'chai';
import { describeFieldError } from '../../../apimachinery/errors';
import { Release } from '../../../foundation/release';
import { validFieldPath } from './cel-validation';
import { validateStructural } from './structural';
import { cr, withSpec } from './testing';
import type { JSONSchemaProps, ValidationRule } from './types';
import { validateCustomResource, validateCustomResourceStatusUpdate, validateCustomResourceUpdate } from './validation';

const R33 = Release.of(33);
const AT = 'spec.versions[0].schema.openAPIV3Schema';
const crdErrors = (schema: JSONSchemaProps, release = R33): string[] =>
  validateStructural(schema, AT, { release }).map(describeFieldError);
const create = (schema: JSONSchemaProps, spec: unknown, release = R33): string[] =>
  validateCustomResource(cr(spec), schema, { release }).map(describeFieldError);
const update = (schema: JSONSchemaProps, spec: unknown, oldSpec: unknown, release = R33): string[] =>
  validateCustomResourceUpdate(cr(spec), cr(oldSpec), schema, { release }).map(describeFieldError);

/** A spec of replicas and maxReplicas with these rules on spec. */
const replicas = (...rules: ValidationRule[]): JSONSchemaProps =>
  withSpec(
    { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string' } },
    { 'x-kubernetes-validations': rules },
  );

describe('x-kubernetes-validations at CRD time (R314; validation.go ValidateCustomResourceDefinitionOpenAPISchema, cel/compilation.go)', () => {
  it('a rule that compiles passes; a typo in a field is a compilation error at the rule, with the rule printed as Go prints it', () => {
    expect(crdErrors(replicas({ rule: 'self.replicas <= self.maxReplicas' }))).to.deep.equal([]);
    expect(crdErrors(replicas({ rule: 'self.replica <= self.maxReplicas' }))).to.deep.equal([
      `${AT}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replica <= self.maxReplicas", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:6: undefined field 'replica'\n | self.replica <= self.maxReplicas\n | .....^`,
    ]);
  });

  it('a rule must be a bool, a messageExpression a string; types come from the schema', () => {
    expect(crdErrors(replicas({ rule: 'self.replicas' }))[0]).to.match(
      /\.rule: Invalid value: .*: cel expression must evaluate to a bool$/,
    );
    expect(crdErrors(replicas({ rule: "self.name == 'a'", messageExpression: 'self.replicas' }))[0]).to.match(
      /\.messageExpression: Invalid value: .*: messageExpression must evaluate to a string$/,
    );
    expect(crdErrors(replicas({ rule: "self.replicas == 'a'" }))[0]).to.contain(
      "found no matching overload for '_==_' applied to '(int, string)'",
    );
    expect(crdErrors(replicas({ rule: 'self.x.y' }))).to.have.length(1);
  });

  it('oldSelf only where old values correlate; optionalOldSelf only with oldSelf; fieldPath must name a field', () => {
    const list = withSpec({
      items: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
    });
    expect(crdErrors(list)).to.deep.equal([
      `${AT}.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${AT}.properties[spec].properties[items]`,
    ]);
    const mapList = withSpec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' } },
          'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
        },
      },
    });
    expect(crdErrors(mapList)).to.deep.equal([]);
    expect(crdErrors(replicas({ rule: 'self.replicas > 0', optionalOldSelf: true }))).to.deep.equal([
      `${AT}.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
    expect(crdErrors(replicas({ rule: 'self.replicas > 0', fieldPath: '.nope' }))).to.deep.equal([
      `${AT}.properties[spec].x-kubernetes-validations[0].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ]);
    expect(crdErrors(replicas({ rule: 'self.replicas > 0', fieldPath: '.replicas' }))).to.deep.equal([]);
  });

  it('a node with a schema error at it or below it is not compiled; other nodes are, children before their parent', () => {
    const s = withSpec(
      {
        a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self.x' }] },
        b: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self > 0' }, { rule: ' ', message: 'm' }] },
      },
      { 'x-kubernetes-validations': [{ rule: 'self.c' }] },
    );
    const errs = crdErrors(s);
    expect(errs[0]).to.equal(
      `${AT}.properties[spec].properties[b].x-kubernetes-validations[1].rule: Required value: rule is not specified`,
    );
    expect(errs.slice(1).map((e) => e.split(': Invalid value')[0])).to.deep.equal([
      `${AT}.properties[spec].properties[a].x-kubernetes-validations[0].rule`,
    ]);
    const clean = withSpec(
      { a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self.x' }] } },
      { 'x-kubernetes-validations': [{ rule: 'self.c' }] },
    );
    expect(crdErrors(clean).map((e) => e.split(': Invalid value')[0])).to.deep.equal([
      `${AT}.properties[spec].properties[a].x-kubernetes-validations[0].rule`,
      `${AT}.properties[spec].x-kubernetes-validations[0].rule`,
    ]);
  });

  it('follows the release: a 1.27 rule has no optional types; reason and fieldPath are unknown to 1.27', () => {
    expect(crdErrors(replicas({ rule: 'self.?replicas.orValue(1) > 0' }), Release.of(27))[0]).to.contain(
      'compilation failed',
    );
    expect(crdErrors(replicas({ rule: 'self.?replicas.orValue(1) > 0' }), Release.of(28))).to.deep.equal([]);
    expect(crdErrors(replicas({ rule: 'self.replica > 0' }), Release.of(27))[0]).to.contain(
      'apiextensions.ValidationRule{Rule:"self.replica > 0", Message:"", MessageExpression:""}',
    );
  });

  it('ValidFieldPath normalises dots and quoted keys, and refuses what is not a path', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { 'b.c': { type: 'string' } } },
        m: { type: 'object', additionalProperties: { type: 'string' } },
      },
    };
    expect(validFieldPath(".a['b.c']", s)).to.equal('a.b.c');
    expect(validFieldPath('.m.key', s)).to.equal('m[key]');
    expect(validFieldPath('a', s)).to.deep.equal({ error: 'expected [ or . but got: a' });
    expect(validFieldPath('.a.x', s)).to.deep.equal({ error: 'does not refer to a valid field' });
  });
});

describe('x-kubernetes-validations on custom resources (R315; cel/validation.go Validate)', () => {
  it('a false rule is an Invalid error on its node with `failed rule: …`, its message, or its messageExpression', () => {
    expect(
      create(replicas({ rule: 'self.replicas <= self.maxReplicas' }), { replicas: 3, maxReplicas: 5 }),
    ).to.deep.equal([]);
    expect(
      create(replicas({ rule: 'self.replicas <= self.maxReplicas' }), { replicas: 7, maxReplicas: 5 }),
    ).to.deep.equal(['spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas']);
    expect(
      create(
        replicas({ rule: 'self.replicas <= self.maxReplicas', message: ' replicas must not exceed maxReplicas ' }),
        { replicas: 7, maxReplicas: 5 },
      ),
    ).to.deep.equal(['spec: Invalid value: "object": replicas must not exceed maxReplicas']);
    expect(
      create(
        replicas({
          rule: 'self.replicas <= self.maxReplicas',
          messageExpression: "'replicas ' + string(self.replicas) + ' is over ' + string(self.maxReplicas)",
        }),
        { replicas: 7, maxReplicas: 5 },
      ),
    ).to.deep.equal(['spec: Invalid value: "object": replicas 7 is over 5']);
  });

  it('a messageExpression that fails, or gives an empty or multi-line string, leaves the message; 1.26 knows no messageExpression', () => {
    const rule = (messageExpression: string): ValidationRule => ({
      rule: 'self.replicas <= self.maxReplicas',
      message: 'too many',
      messageExpression,
    });
    for (const m of ["''", "'a\\nb'", 'string(self.nope)'])
      expect(create(replicas(rule(m)), { replicas: 7, maxReplicas: 5 }), m).to.deep.equal([
        'spec: Invalid value: "object": too many',
      ]);
    expect(create(replicas(rule("'custom'")), { replicas: 7, maxReplicas: 5 }, Release.of(26))).to.deep.equal([
      'spec: Invalid value: "object": too many',
    ]);
    expect(create(replicas(rule("'custom'")), { replicas: 7, maxReplicas: 5 }, Release.of(27))).to.deep.equal([
      'spec: Invalid value: "object": custom',
    ]);
  });

  it('reason gives the error type, fieldPath its field; a rule on a scalar reports its own type', () => {
    expect(
      create(replicas({ rule: 'self.replicas <= self.maxReplicas', reason: 'FieldValueDuplicate' }), {
        replicas: 7,
        maxReplicas: 5,
      }),
    ).to.deep.equal(['spec: Duplicate value: "object"']);
    expect(
      create(
        replicas({
          rule: 'self.replicas <= self.maxReplicas',
          reason: 'FieldValueForbidden',
          fieldPath: '.replicas',
          message: 'too many',
        }),
        { replicas: 7, maxReplicas: 5 },
      ),
    ).to.deep.equal(['spec.replicas: Forbidden: too many']);
    expect(
      create(replicas({ rule: 'has(self.name)', reason: 'FieldValueRequired', message: 'name is required' }), {
        replicas: 1,
      }),
    ).to.deep.equal(['spec: Required value: name is required']);
    const scalar = withSpec({ size: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self % 2 == 0' }] } });
    expect(create(scalar, { size: 3 })).to.deep.equal([
      'spec.size: Invalid value: "integer": failed rule: self % 2 == 0',
    ]);
  });

  it('rules run on every node present: list items, map values, the root (a nil path), nulls skipped', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('w')", message: 'name must start with w' }],
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } },
            labels: {
              type: 'object',
              additionalProperties: {
                type: 'string',
                nullable: true,
                'x-kubernetes-validations': [{ rule: 'self.size() < 4' }],
              },
            },
          },
        },
      },
    };
    // Keys in sorted order (upstream walks Go maps, in no fixed order).
    expect(create(s, { ports: [1, 0, -1], labels: { a: 'ok', b: 'long!', c: null } })).to.deep.equal([
      'spec.labels[b]: Invalid value: "string": failed rule: self.size() < 4',
      'spec.ports[1]: Invalid value: "integer": failed rule: self > 0',
      'spec.ports[2]: Invalid value: "integer": failed rule: self > 0',
    ]);
    expect(
      validateCustomResource({ ...cr({}), metadata: { name: 'x' } }, s, { release: R33 }).map(describeFieldError),
    ).to.deep.equal(['<nil>: Invalid value: "object": name must start with w']);
  });

  it('objects inside lists and maps are typed, and compare with ==', () => {
    const s = withSpec(
      {
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
        byName: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'string' } } } },
      },
      {
        'x-kubernetes-validations': [
          {
            rule: "self.items.exists_one(i, i.n == 'a') && self.items[0] == self.byName['x']",
            message: 'one a, first as x',
          },
        ],
      },
    );
    expect(crdErrors(s)).to.deep.equal([]);
    expect(
      crdErrors(
        withSpec(s.properties!.spec.properties!, {
          'x-kubernetes-validations': [{ rule: 'self.items.all(i, i.m == 1)' }],
        }),
      )[0],
    ).to.contain("undefined field 'm'");
    expect(create(s, { items: [{ n: 'a' }, { n: 'b' }], byName: { x: { n: 'a' } } })).to.deep.equal([]);
    expect(create(s, { items: [{ n: 'a' }, { n: 'a' }], byName: { x: { n: 'a' } } })).to.deep.equal([
      'spec: Invalid value: "object": one a, first as x',
    ]);
    expect(create(s, { items: [{ n: 'a' }], byName: { x: { n: 'b' } } })).to.deep.equal([
      'spec: Invalid value: "object": one a, first as x',
    ]);
  });

  it("evaluation errors in cel-go's words: an index past the end, a modulus by zero", () => {
    const s = withSpec(
      { ports: { type: 'array', items: { type: 'integer' } }, n: { type: 'integer' } },
      {
        'x-kubernetes-validations': [
          { rule: 'self.ports[2] > 0' },
          { rule: '10 % self.n == 0' },
          { rule: '10 / self.n == 1' },
        ],
      },
    );
    expect(create(s, { ports: [1], n: 0 })).to.deep.equal([
      'spec: Invalid value: "object": index out of bounds: 2 evaluating rule: self.ports[2] > 0',
      'spec: Invalid value: "object": modulus by zero evaluating rule: 10 % self.n == 0',
      'spec: Invalid value: "object": division by zero evaluating rule: 10 / self.n == 1',
    ]);
  });

  it('an absent field read at run time, and int-or-string compared across types', () => {
    expect(create(replicas({ rule: 'self.replicas <= self.maxReplicas' }), { replicas: 1 })).to.deep.equal([
      'spec: Invalid value: "object": no such key: maxReplicas evaluating rule: self.replicas <= self.maxReplicas',
    ]);
    const ios = withSpec({
      port: {
        'x-kubernetes-int-or-string': true,
        'x-kubernetes-validations': [{ rule: "type(self) == int ? self > 0 : self.endsWith('%')" }],
      },
    });
    expect(create(ios, { port: 80 })).to.deep.equal([]);
    expect(create(ios, { port: '50%' })).to.deep.equal([]);
    expect(create(ios, { port: 'http' })).to.deep.equal([
      `spec.port: Invalid value: "": failed rule: type(self) == int ? self > 0 : self.endsWith('%')`,
    ]);
  });

  it('R316 transition rules run only on update, with oldSelf; objects compare whole (unknown fields included)', () => {
    const immutable = replicas({ rule: 'self.name == oldSelf.name', message: 'name is immutable' });
    expect(create(immutable, { name: 'a' })).to.deep.equal([]);
    expect(update(immutable, { name: 'b' }, { name: 'a' })).to.deep.equal([
      'spec: Invalid value: "object": name is immutable',
    ]);
    const whole = withSpec({
      config: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
      },
    });
    expect(update(whole, { config: { a: 'x', extra: 1 } }, { config: { a: 'x', extra: 1 } })).to.deep.equal([]);
    expect(update(whole, { config: { a: 'x', extra: 2 } }, { config: { a: 'x', extra: 1 } })).to.deep.equal([
      'spec.config: Invalid value: "object": failed rule: self == oldSelf',
    ]);
    // Inside an object, map lists compare by their keys and set lists as sets, in any order.
    const lists = withSpec(
      {
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
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        order: { type: 'array', items: { type: 'string' } },
      },
      { 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] },
    );
    const before = {
      ports: [
        { name: 'a', port: 1 },
        { name: 'b', port: 2 },
      ],
      tags: ['x', 'y'],
      order: ['1', '2'],
    };
    expect(
      update(
        lists,
        {
          ports: [
            { name: 'b', port: 2 },
            { name: 'a', port: 1 },
          ],
          tags: ['y', 'x'],
          order: ['1', '2'],
        },
        before,
      ),
    ).to.deep.equal([]);
    expect(update(lists, { ...before, order: ['2', '1'] }, before)).to.deep.equal([
      'spec: Invalid value: "object": immutable',
    ]);
    expect(
      update(
        lists,
        {
          ...before,
          ports: [
            { name: 'b', port: 3 },
            { name: 'a', port: 1 },
          ],
        },
        before,
      ),
    ).to.deep.equal(['spec: Invalid value: "object": immutable']);
  });

  it('R316 in a map list, oldSelf is the item with the same keys; a new item has none', () => {
    const s = withSpec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, port: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.port >= oldSelf.port', message: 'ports only grow' }],
        },
      },
    });
    const old = {
      ports: [
        { name: 'a', port: 80 },
        { name: 'b', port: 90 },
      ],
    };
    expect(
      update(
        s,
        {
          ports: [
            { name: 'b', port: 91 },
            { name: 'a', port: 80 },
            { name: 'c', port: 1 },
          ],
        },
        old,
      ),
    ).to.deep.equal([]);
    expect(
      update(
        s,
        {
          ports: [
            { name: 'b', port: 89 },
            { name: 'a', port: 80 },
          ],
        },
        old,
      ),
    ).to.deep.equal(['spec.ports[0]: Invalid value: "object": ports only grow']);
  });

  it('R316 optionalOldSelf: the rule runs on create too, with oldSelf none (CRDValidationRatcheting)', () => {
    const s = replicas({
      rule: 'oldSelf.hasValue() || self.replicas == 1',
      optionalOldSelf: true,
      message: 'start with one replica',
    });
    expect(create(s, { replicas: 2 })).to.deep.equal(['spec: Invalid value: "object": start with one replica']);
    expect(update(s, { replicas: 2 }, { replicas: 1 })).to.deep.equal([]);
    // 1.29: the gate is α (off), the field is dropped: oldSelf is no optional, and the rule does not compile.
    expect(crdErrors(s, Release.of(29))[0]).to.contain('compilation failed');
    expect(crdErrors(s, Release.of(29, { CRDValidationRatcheting: true }))).to.deep.equal([]);
  });

  it('R316 ratcheting: a failing rule on an unchanged node lets the update through (1.30 on); 1.29 refuses it', () => {
    const s = withSpec({
      a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 10' }] },
      b: { type: 'string' },
    });
    const warnings: string[] = [];
    expect(
      validateCustomResourceUpdate(cr({ a: 20, b: 'new' }), cr({ a: 20, b: 'old' }), s, {
        release: R33,
        warn: (w) => warnings.push(w),
      }),
    ).to.deep.equal([]);
    expect(warnings).to.deep.equal(['spec.a: Invalid value: "integer": failed rule: self < 10']);
    expect(update(s, { a: 21, b: 'new' }, { a: 20, b: 'old' })).to.deep.equal([
      'spec.a: Invalid value: "integer": failed rule: self < 10',
    ]);
    expect(update(s, { a: 20, b: 'new' }, { a: 20, b: 'old' }, Release.of(29))).to.deep.equal([
      'spec.a: Invalid value: "integer": failed rule: self < 10',
    ]);
  });

  it('formats are typed: date-time and date as timestamps, duration as a duration, byte as bytes; names escape; embedded resources show their metadata', () => {
    const s = withSpec(
      {
        'start-at': { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        timeout: { type: 'string', format: 'duration' },
        key: { type: 'string', format: 'byte' },
        if: { type: 'string' },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
      {
        'x-kubernetes-validations': [
          {
            rule: "self.start__dash__at > timestamp('2024-01-01T00:00:00Z') && self.day < timestamp('2030-01-01T00:00:00Z')",
            message: 'dates',
          },
          { rule: "self.timeout <= duration('1h')", message: 'timeout' },
          { rule: 'self.key.size() == 3', message: 'key' },
          {
            rule: "self.__if__ == 'x' && self.template.kind == 'Pod' && self.template.metadata.name == 'p'",
            message: 'names',
          },
        ],
      },
    );
    const ok = {
      'start-at': '2025-06-01T10:00:00Z',
      day: '2026-01-02',
      timeout: '30m',
      key: 'YWJj',
      if: 'x',
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
    };
    expect(crdErrors(s)).to.deep.equal([]);
    expect(create(s, ok)).to.deep.equal([]);
    expect(
      create(s, { ...ok, 'start-at': '2023-06-01T10:00:00Z', timeout: '2h', key: 'YWJjZA==', if: 'y' }),
    ).to.deep.equal([
      'spec: Invalid value: "object": dates',
      'spec: Invalid value: "object": timeout',
      'spec: Invalid value: "object": key',
      'spec: Invalid value: "object": names',
    ]);
    expect(
      crdErrors(
        withSpec(
          { template: s.properties!.spec.properties!.template },
          { 'x-kubernetes-validations': [{ rule: 'has(self.template.spec)' }] },
        ),
      )[0],
    ).to.contain("undefined field 'spec'");
  });

  it('a blocking schema error keeps the rules from running; the status subresource runs the rules of the whole object', () => {
    expect(create(replicas({ rule: 'self.replicas <= self.maxReplicas' }), { replicas: 'x' })).to.deep.equal([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        status: {
          type: 'object',
          properties: { ready: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.ready >= 0' }],
        },
      },
    };
    const errs = validateCustomResourceStatusUpdate(
      { ...cr({}), status: { ready: -1 } },
      { ...cr({}), status: { ready: 0 } },
      s,
      { release: R33 },
    ).map(describeFieldError);
    expect(errs).to.deep.equal(['status: Invalid value: "object": failed rule: self.ready >= 0']);
  });
});

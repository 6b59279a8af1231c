import { describe, it } from 'node:test';
import { expect } from 'chai';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting';
import type { JSONSchemaProps } from './types';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', nullable: true, default: 'auto' },
        strategy: { type: 'object', properties: { type: { type: 'string', default: 'Rolling' } } },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            default: { port: 80 },
            properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
          },
        },
        limits: { type: 'object', additionalProperties: { type: 'string', default: '1' } },
        plain: { type: 'string' },
      },
    },
  },
};

describe('applyDefaults (R306)', () => {
  it('R306 a missing field takes its default, and defaults apply inside a default just added', () => {
    const obj: Record<string, unknown> = { apiVersion: 'example.com/v1', kind: 'Widget' };
    applyDefaults(obj, schema);
    expect(obj.spec).to.deep.equal({ replicas: 1, mode: 'auto' });
  });

  it('R306 the fields of an absent object are not defaulted; once it exists they are', () => {
    const obj = { spec: { replicas: 3 } as Record<string, unknown> };
    applyDefaults(obj, schema);
    expect(obj.spec.strategy).to.equal(undefined);
    obj.spec.strategy = {};
    applyDefaults(obj, schema);
    expect(obj.spec.strategy).to.deep.equal({ type: 'Rolling' });
    expect(obj.spec.replicas).to.equal(3);
  });

  it('R306 a null the schema does not allow is replaced by the default; an allowed null stays', () => {
    const obj = { spec: { replicas: null, mode: null } };
    applyDefaults(obj, schema);
    expect(obj.spec).to.deep.equal({ replicas: 1, mode: null });
  });

  it('R306 null array items and map values take the item and value defaults', () => {
    const obj = { spec: { ports: [null, { port: 8080 }], limits: { cpu: null, memory: '2' } } };
    applyDefaults(obj, schema);
    expect(obj.spec.ports).to.deep.equal([
      { port: 80, protocol: 'TCP' },
      { port: 8080, protocol: 'TCP' },
    ]);
    expect(obj.spec.limits).to.deep.equal({ cpu: '1', memory: '2' });
  });

  it('R306 each default is a copy', () => {
    const a = { spec: { ports: [null] } };
    const b = { spec: { ports: [null] } };
    applyDefaults(a, schema);
    applyDefaults(b, schema);
    (a.spec.ports[0] as unknown as Record<string, unknown>).port = 1;
    expect(b.spec.ports[0]).to.deep.equal({ port: 80, protocol: 'TCP' });
  });
});

describe('pruneNonNullableNullsWithoutDefaults (R306)', () => {
  it('R306 drops a null the schema neither allows nor defaults, and keeps the others', () => {
    const obj = { spec: { plain: null, replicas: null, mode: null, limits: { cpu: null } } };
    pruneNonNullableNullsWithoutDefaults(obj, schema);
    expect(obj.spec).to.deep.equal({ replicas: null, mode: null, limits: { cpu: null } });
  });
});

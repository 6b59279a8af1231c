import { describe, it } from 'node:test';
import { expect } from 'chai';
import { prune, unknownFieldMessage } from './pruning';
import { withSpec } from './testing';
import type { JSONSchemaProps } from './types';

const schema: JSONSchemaProps = withSpec({
  replicas: { type: 'integer' },
  ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } } },
  labels: { type: 'object', additionalProperties: { type: 'string' } },
  free: {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    properties: { strict: { type: 'object', properties: { a: { type: 'string' } } } },
  },
  template: {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
  },
});

describe('prune (R305)', () => {
  it('R305 drops the fields the schema does not specify and returns their paths, sorted', () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', whatever: 1 },
      spec: { replicas: 1, foo: 'x', ports: [{ port: 80, name: 'http' }] },
      extra: true,
    };
    expect(prune(obj, schema, true)).to.deep.equal(['extra', 'spec.foo', 'spec.ports[0].name']);
    expect(obj).to.deep.equal({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', whatever: 1 },
      spec: { replicas: 1, ports: [{ port: 80 }] },
    });
  });

  it('R305 the warnings name each path as fieldValidation reports it', () => {
    expect(unknownFieldMessage('spec.foo')).to.equal('unknown field "spec.foo"');
  });

  it('R305 additionalProperties keeps every key', () => {
    const obj = { spec: { labels: { a: 'x', b: 'y' } } };
    expect(prune(obj, schema, true)).to.deep.equal([]);
    expect(obj.spec.labels).to.deep.equal({ a: 'x', b: 'y' });
  });

  it('R305 x-kubernetes-preserve-unknown-fields keeps unknown fields but still prunes the specified ones', () => {
    const obj = { spec: { free: { anything: { deep: 1 }, strict: { a: 'k', b: 'dropped' } } } };
    expect(prune(obj, schema, true)).to.deep.equal(['spec.free.strict.b']);
    expect(obj.spec.free).to.deep.equal({ anything: { deep: 1 }, strict: { a: 'k' } });
  });

  it('R305 an embedded resource keeps apiVersion, kind and metadata; its other fields are pruned', () => {
    const obj = {
      spec: {
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a', y: 'b' }, status: {} },
      },
    };
    expect(prune(obj, schema, true)).to.deep.equal(['spec.template.spec.y', 'spec.template.status']);
    expect(obj.spec.template).to.deep.equal({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { x: 'a' },
    });
  });

  it('R305 not at a resource root, apiVersion, kind and metadata are pruned like any field', () => {
    const obj = { kind: 'X', spec: {} };
    expect(prune(obj, { type: 'object', properties: { spec: { type: 'object' } } }, false)).to.deep.equal([]);
    expect(obj).to.deep.equal({ spec: {} });
    const nested = { spec: { kind: 'X' } };
    expect(prune(nested, { type: 'object', properties: { spec: { type: 'object' } } }, false)).to.deep.equal([
      'spec.kind',
    ]);
  });

  it('R305 a preserve-unknown-fields root keeps everything', () => {
    const obj = { spec: { anything: 1 } };
    expect(prune(obj, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, true)).to.deep.equal([]);
    expect(obj).to.deep.equal({ spec: { anything: 1 } });
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { decodeCustomResource } from './decode';
import { withSpec } from './testing';
import type { JSONSchemaProps } from './types';

const schema: JSONSchemaProps = withSpec({
  replicas: { type: 'integer', default: 1 },
  note: { type: 'string' },
  template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
});

describe('decodeCustomResource (R313)', () => {
  it('R313 root metadata, pruning, nulls, embedded metadata, then defaults; unknown fields in that order', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', zzz: 1 },
      spec: { note: null, foo: 'x', template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', extra: 1 } } },
      top: true,
    };
    expect(decodeCustomResource(obj, schema)).to.deep.equal([
      'metadata.zzz',
      'spec.foo',
      'top',
      'spec.template.metadata.extra',
    ]);
    expect(obj).to.deep.equal({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { replicas: 1, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } },
    });
  });

  it('R313 a CRD that preserves unknown fields is neither pruned nor stripped of nulls, but still defaulted', () => {
    const obj: Record<string, unknown> = { metadata: { name: 'w' }, spec: { note: null, foo: 'x' } };
    expect(decodeCustomResource(obj, schema, { preserveUnknownFields: true })).to.deep.equal([]);
    expect(obj.spec).to.deep.equal({ note: null, foo: 'x', replicas: 1 });
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { describeFieldError } from '../../../apimachinery/errors';
import { coerceObjectMeta, embeddedObjectMetaErrors } from './objectmeta';
import { withSpec } from './testing';

const messages = (meta: unknown): string[] =>
  embeddedObjectMetaErrors('spec.template.metadata', meta).map(describeFieldError);

describe('embeddedObjectMetaErrors (R304)', () => {
  it('R304 plain metadata, and metadata without a name, pass', () => {
    expect(
      messages({
        name: 'web',
        namespace: 'default',
        labels: { app: 'web' },
        annotations: { 'example.com/x': 'y' },
        finalizers: ['example.com/f'],
      }),
    ).to.deep.equal([]);
    expect(messages({ labels: { app: 'web' } })).to.deep.equal([]);
  });

  it('R304 metadata that does not decode into an ObjectMeta is reported whole', () => {
    expect(messages({ name: 5 })).to.deep.equal([
      'spec.template.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    ]);
    expect(messages({ labels: { app: true } })[0]).to.match(
      /json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string$/,
    );
    expect(messages('web')).to.deep.equal([
      'spec.template.metadata: Invalid value: "web": json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    ]);
  });

  it('R304 names are path segments, the namespace a DNS label', () => {
    expect(messages({ name: 'a/b', generateName: '..' })).to.deep.equal([
      'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
    expect(messages({ name: '..' })).to.deep.equal([
      'spec.template.metadata.name: Invalid value: "..": may not be \'..\'',
    ]);
    expect(messages({ namespace: 'Default' })[0]).to.match(
      /^spec\.template\.metadata\.namespace: Invalid value: "Default": a lowercase RFC 1123 label must consist/,
    );
  });

  it('R304 labels, annotations and finalizers', () => {
    expect(
      messages({ labels: { 'bad key': 'ok', good: 'bad value!' } }).map((m) => m.split(': ').slice(0, 3).join(': ')),
    ).to.deep.equal([
      'spec.template.metadata.labels: Invalid value: "bad key"',
      'spec.template.metadata.labels: Invalid value: "bad value!"',
    ]);
    expect(messages({ annotations: { big: 'x'.repeat(256 * 1024) } })).to.deep.equal([
      'spec.template.metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    expect(messages({ finalizers: ['orphan', 'foregroundDeletion'] })).to.deep.equal([
      'spec.template.metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });
});

describe('coerceObjectMeta (R312)', () => {
  const schema = withSpec({
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  });

  it('R312 drops what ObjectMeta lacks from embedded metadata, and reports it', () => {
    const obj = {
      metadata: { name: 'w', bogus: 1 },
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'p',
            extra: true,
            labels: {},
            ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', color: 'red' }],
          },
        },
      },
    };
    expect(coerceObjectMeta(obj, schema, false)).to.deep.equal([
      'spec.template.metadata.extra',
      'spec.template.metadata.ownerReferences[0].color',
    ]);
    expect(obj.spec.template.metadata).to.deep.equal({
      name: 'p',
      ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }],
    });
    expect(obj.metadata).to.deep.equal({ name: 'w', bogus: 1 });
  });

  it('R312 at a resource root the root metadata is coerced too', () => {
    const obj = { metadata: { name: 'w', bogus: 1 } };
    expect(coerceObjectMeta(obj, schema, true)).to.deep.equal(['metadata.bogus']);
    expect(obj.metadata).to.deep.equal({ name: 'w' });
  });

  it('R312 metadata that does not decode is left for validation to report', () => {
    const obj = { spec: { template: { metadata: { name: 5, extra: 1 } } } };
    expect(coerceObjectMeta(obj, schema, false)).to.deep.equal([]);
    expect(obj.spec.template.metadata).to.deep.equal({ name: 5, extra: 1 });
  });
});

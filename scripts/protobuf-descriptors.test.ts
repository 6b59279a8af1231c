import { describe, it } from 'node:test';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { OUTPUT, parseGoTypes, parseProto } from './protobuf-descriptors';

describe('scripts/protobuf-descriptors.ts (R77)', () => {
  it('reads messages, repeated and map fields from a generated.proto, comments left out', () => {
    const proto = [
      'message Secret {',
      '  // Standard object metadata.',
      '  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;',
      '  map<string, bytes> data = 2;',
      '  repeated string finalizers = 5;',
      '}',
    ].join('\n');
    expect(Object.fromEntries(parseProto(proto, 'k8s.io.api.core.v1'))).to.deep.equal({
      'k8s.io.api.core.v1.Secret': {
        fields: {
          metadata: { type: '.k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', id: 1 },
          data: { keyType: 'string', type: 'bytes', id: 2 },
          finalizers: { type: 'string', id: 5, rule: 'repeated' },
        },
      },
    });
  });

  it('reads JSON names, omitempty, pointers and inline embedding from Go struct tags, and named slices', () => {
    const go = [
      'type Volume struct {',
      '\tName string `json:"name" protobuf:"bytes,1,opt,name=name"`',
      '\tVolumeSource `json:",inline" protobuf:"bytes,2,opt,name=volumeSource"`',
      '}',
      'type Probe struct {',
      '\tPeriodSeconds int32 `json:"periodSeconds,omitempty" protobuf:"varint,4,opt,name=periodSeconds"`',
      '\tTerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,7,opt,name=terminationGracePeriodSeconds"`',
      '}',
      'type ExtraValue []string',
    ].join('\n');
    const { structs, lists } = parseGoTypes(go);
    expect(Object.fromEntries(structs.get('Volume')!)).to.deep.equal({
      name: { json: 'name', omitempty: false, inline: false, pointer: false },
      volumeSource: { json: '', omitempty: false, inline: true, pointer: false },
    });
    expect(structs.get('Probe')!.get('periodSeconds')).to.deep.include({ omitempty: true, pointer: false });
    expect(structs.get('Probe')!.get('terminationGracePeriodSeconds')).to.deep.include({
      omitempty: true,
      pointer: true,
    });
    expect([...lists]).to.deep.equal(['ExtraValue']);
  });

  it('the committed descriptors carry those facts for the served kinds', () => {
    const d = JSON.parse(readFileSync(OUTPUT, 'utf8'));
    const core = d.nested.k8s.nested.io.nested.api.nested.core.nested.v1.nested;
    expect(core.Volume.fields.volumeSource.options).to.deep.equal({ inline: true });
    expect(core.Container.fields.image.options).to.deep.equal({ omitempty: true });
    expect(core.ContainerStatus.fields.ready.options).to.equal(undefined);
    expect(Object.keys(core)).to.include.members([
      'Pod',
      'PodList',
      'Secret',
      'ConfigMap',
      'ServiceAccount',
      'Namespace',
      'Node',
      'Event',
    ]);
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { failure, newSim, NS, ok, USER } from './testing';
import type { ConfigMap } from '../apimachinery/types';

const configMap = (name: string, fields: Partial<ConfigMap> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  ...fields,
});

describe('R91 ConfigMaps', () => {
  it('keys are config keys and unique across data and binaryData; an immutable ConfigMap keeps both', () => {
    const sim = newSim();
    const dup = failure(
      sim.api.create(USER, 'configmaps', NS, configMap('c', { data: { k: 'v' }, binaryData: { k: 'YQ==' } })),
      422,
      'Invalid',
    );
    expect(dup.message).to.equal(
      'ConfigMap "c" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData',
    );
    const cm = ok(sim.api.create(USER, 'configmaps', NS, configMap('c', { data: { k: 'v' }, immutable: true })));
    expect(cm.metadata.generation).to.equal(undefined);
    const changed = failure(
      sim.api.update(USER, 'configmaps', NS, { ...cm, data: { k: 'w' }, binaryData: { b: 'YQ==' } }),
      422,
      'Invalid',
    );
    expect(changed.message).to.equal(
      'ConfigMap "c" is invalid: [data: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../apimachinery/types';
import { DEFAULT_RELEASE, Release } from '../foundation/release';
import { ManifestError } from './manifest';
import { refuseAsApiserver } from './manifest-decoding';

const pod = (name: string, container: Record<string, unknown>): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx', ...container }] },
  }) as Pod;

/** The refusal thrown, as message and field. */
function refusal(what: string, obj: Pod, release = DEFAULT_RELEASE): { message: string; field?: string } | undefined {
  try {
    refuseAsApiserver(what, 'pods', obj, release);
    return undefined;
  } catch (e) {
    expect(e).to.be.instanceOf(ManifestError);
    return { message: (e as ManifestError).message, field: (e as ManifestError).field };
  }
}

describe('refuseAsApiserver (R240, R242): the same content, refused again, names its own object', () => {
  it('a content refused by validation names each object that has it, with the same field', () => {
    const bad = { lifecycle: { preStop: {} } };
    const first = refusal('pod "a"', pod('web', bad));
    const again = refusal('pod "b"', pod('web', bad));
    expect(first?.message).to.match(/^pod "a" is refused as kube-apiserver refuses it: Pod "web" is invalid: /);
    expect(again?.message).to.equal(first?.message.replace('pod "a"', 'pod "b"'));
    expect(again?.field).to.equal(first?.field).and.to.be.a('string');
  });

  it('a content refused by strict decoding too, and a release named twice is the same release', () => {
    const misspelt = { imagePullPolicyy: 'Always' };
    const first = refusal('pod "a"', pod('web', misspelt), Release.of(30));
    const again = refusal('pod "b"', pod('web', misspelt), Release.of(30));
    expect(first?.message).to.match(/^pod "a" is refused .*strict decoding error: unknown field/);
    expect(again?.message).to.equal(first?.message.replace('pod "a"', 'pod "b"'));
  });

  it('a content that passes passes again; a change of content is decided anew', () => {
    expect(refusal('pod "a"', pod('web', {}))).to.equal(undefined);
    expect(refusal('pod "b"', pod('web', {}))).to.equal(undefined);
    expect(refusal('pod "c"', pod('web', { lifecycle: { preStop: {} } }))).to.not.equal(undefined);
    // undefined and an absent field are one JSON text; the key tells them apart, and both pass here.
    expect(refusal('pod "d"', pod('web', { command: undefined }))).to.equal(undefined);
  });
});

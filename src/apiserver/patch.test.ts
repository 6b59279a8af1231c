import { describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../apimachinery/errors';
import { applyPatchBody } from './patch';

const POD = {
  metadata: { name: 'web', finalizers: ['example.com/a', 'example.com/b'], labels: { app: 'web', tier: 'fe' } },
  spec: { containers: [{ name: 'app', image: 'v1' }] },
};

describe('applyPatchBody: JSON merge patch (RFC 7386)', () => {
  it('merges objects key by key and leaves the rest alone', () => {
    const out = applyPatchBody(POD, 'merge', { metadata: { labels: { tier: 'be' } } });
    expect(out.metadata.labels).to.deep.equal({ app: 'web', tier: 'be' });
    expect(out.metadata.finalizers).to.deep.equal(POD.metadata.finalizers);
  });

  it('null deletes a member (how a controller drops every finalizer)', () => {
    const out = applyPatchBody(POD, 'merge', { metadata: { finalizers: null } });
    expect(out.metadata).to.not.have.property('finalizers');
  });

  it('arrays are replaced, not merged (how a controller removes one finalizer)', () => {
    const out = applyPatchBody(POD, 'merge', { metadata: { finalizers: ['example.com/b'] } });
    expect(out.metadata.finalizers).to.deep.equal(['example.com/b']);
  });

  it('never mutates the current object', () => {
    applyPatchBody(POD, 'merge', { metadata: { labels: null } });
    expect(POD.metadata.labels).to.deep.equal({ app: 'web', tier: 'fe' });
  });
});

describe('applyPatchBody: JSON Patch (RFC 6902)', () => {
  it('applies operations in order', () => {
    const out = applyPatchBody(POD, 'json', [
      { op: 'test', path: '/metadata/finalizers/0', value: 'example.com/a' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'replace', path: '/spec/containers/0/image', value: 'v2' },
    ]);
    expect(out.metadata.finalizers).to.deep.equal(['example.com/b']);
    expect(out.spec.containers[0].image).to.equal('v2');
    expect(POD.spec.containers[0].image).to.equal('v1');
  });

  it('a patch that cannot apply (failed test op) is a 422 Invalid', () => {
    let err: unknown;
    try {
      applyPatchBody(POD, 'json', [{ op: 'test', path: '/metadata/name', value: 'other' }]);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StatusError);
    expect([(err as StatusError).code, (err as StatusError).reason]).to.deep.equal([422, 'Invalid']);
  });
});

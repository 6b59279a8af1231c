import { describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../apimachinery/errors';
import { applyPatchBody } from './patch';
import { apiCreatePod, KUBELET, newSim, NS, ok } from './testing';

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

describe('PATCH of pods/status: the lists of the body', () => {
  it('are stored as copies and left as the client sent them, shared or not', () => {
    for (const managedFields of [false, true]) {
      const sim = newSim();
      if (managedFields) sim.api.trackManagedFields();
      const pod = apiCreatePod(sim, 'web');
      const containerStatuses = [{ name: 'app', ready: true, restartCount: 0, image: '', imageID: '' }];
      const conditions = [{ type: 'Ready', status: 'True' }];
      const body = { metadata: { uid: pod.metadata.uid }, status: { phase: 'Running', containerStatuses, conditions } };
      const sent = JSON.stringify(body);
      const stored = ok(sim.api.patch(KUBELET, 'pods', NS, 'web', 'merge', body, { subresource: 'status' }));
      // The client keeps its lists, unchanged and not frozen (a kubelet's status cache holds them)…
      expect(JSON.stringify(body)).to.equal(sent);
      expect(Object.isFrozen(containerStatuses) || Object.isFrozen(containerStatuses[0])).to.equal(false);
      // …and what is stored is its own, frozen, with the same content.
      expect(stored.status?.containerStatuses).to.not.equal(containerStatuses);
      expect(stored.status?.containerStatuses?.[0]).to.not.equal(containerStatuses[0]);
      expect(stored.status?.conditions).to.not.equal(conditions);
      expect(Object.isFrozen(stored.status?.containerStatuses?.[0])).to.equal(true);
      expect(stored.status?.containerStatuses).to.deep.equal(containerStatuses);
    }
  });
});

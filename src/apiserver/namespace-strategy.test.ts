import { describe, it } from 'node:test';
import { expect } from 'chai';
import { newSim, ok, USER } from './testing';

describe('R93 Namespaces', () => {
  it('a new namespace is Active with the kubernetes finalizer and its name label; an update keeps status and finalizers and resets the label', () => {
    const sim = newSim();
    const ns = ok(
      sim.api.create(USER, 'namespaces', undefined, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'x', labels: { team: 'a' } },
        spec: { finalizers: ['example.com/hold'] },
        status: { phase: 'Terminating' },
      }),
    );
    expect(ns.status).to.deep.equal({ phase: 'Active' });
    expect(ns.spec).to.deep.equal({ finalizers: ['example.com/hold', 'kubernetes'] });
    expect(ns.metadata.labels).to.deep.equal({ team: 'a', 'kubernetes.io/metadata.name': 'x' });
    expect(ns.metadata.generation).to.equal(undefined);
    const updated = ok(
      sim.api.update(USER, 'namespaces', undefined, {
        ...ns,
        metadata: { ...ns.metadata, labels: { 'kubernetes.io/metadata.name': 'other' } },
        spec: {},
        status: { phase: 'Terminating' },
      }),
    );
    expect(updated.metadata.labels).to.deep.equal({ 'kubernetes.io/metadata.name': 'x' });
    expect(updated.spec).to.deep.equal({ finalizers: ['example.com/hold', 'kubernetes'] });
    expect(updated.status).to.deep.equal({ phase: 'Active' });
  });
});

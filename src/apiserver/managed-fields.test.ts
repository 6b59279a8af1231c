import { describe, it } from 'node:test';
import { expect } from 'chai';
import { KUBELET, newSim, NS, ok, USER } from './testing';

const managed = (o: {
  metadata: { managedFields?: { manager?: string; operation?: string; subresource?: string; fieldsV1?: unknown }[] };
}) =>
  (o.metadata.managedFields ?? []).map((e) => ({
    manager: e.manager,
    operation: e.operation,
    ...(e.subresource ? { subresource: e.subresource } : {}),
    fieldsV1: e.fieldsV1,
  }));

describe('R112 — the apiserver records managedFields when asked (trackManagedFields)', () => {
  it('off by default: scenarios write no managedFields', () => {
    const sim = newSim();
    const pod = ok(
      sim.api.create(USER, 'pods', NS, { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } }),
    );
    expect(pod.metadata.managedFields).to.equal(undefined);
  });

  it("a create owns the scheme's defaults, not what admission and the strategy add (tolerations, a namespace's finalizer and phase)", () => {
    const sim = newSim();
    sim.api.trackManagedFields();
    const ns = ok(
      sim.api.create(
        USER,
        'namespaces',
        undefined,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } },
        { fieldManager: 'kubectl-create' },
      ),
    );
    expect(managed(ns)).to.deep.equal([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } },
      },
    ]);
    const pod = ok(
      sim.api.create(USER, 'pods', NS, {
        metadata: { name: 'web' },
        spec: { containers: [{ name: 'app', image: 'nginx' }] },
      }),
    );
    const fields = JSON.stringify(pod.metadata.managedFields![0].fieldsV1);
    expect(pod.metadata.managedFields![0].manager, "no fieldManager: the client's name").to.equal('user');
    expect(fields)
      .to.include('"f:terminationGracePeriodSeconds":{}')
      .and.include('"f:imagePullPolicy":{}')
      .and.not.include('f:tolerations')
      .and.not.include('f:status');
  });

  it("a status write through pods/status is the writer's, with its subresource; it never owns spec", () => {
    const sim = newSim();
    sim.api.trackManagedFields();
    const pod = ok(
      sim.api.create(USER, 'pods', NS, { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } }),
    );
    const next = ok(
      sim.api.update(
        KUBELET,
        'pods',
        NS,
        { ...pod, spec: { ...pod.spec!, nodeName: 'elsewhere' }, status: { ...pod.status, phase: 'Running' } },
        { subresource: 'status' },
      ),
    );
    expect(managed(next).find((e) => e.subresource)).to.deep.equal({
      manager: 'n1',
      operation: 'Update',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:phase': {} } },
    });
  });
});

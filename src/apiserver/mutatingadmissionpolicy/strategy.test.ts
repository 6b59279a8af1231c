import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { findResource, resourcesOf } from '../resources';
import { failure, newSim, ok, USER } from '../testing';

const PODS = {
  resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};
const LABEL = {
  patchType: 'JSONPatch',
  jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/team", value: "a"}]' },
};

describe('MutatingAdmissionPolicy served and validated (R317, V77; apiserver pkg/features MutatingAdmissionPolicy GA in v1.36)', () => {
  it('v1.36: a policy and its binding are stored, failurePolicy and matchConstraints defaulted', () => {
    const sim = newSim(Release.of(36));
    const p = ok(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'p' },
        spec: { matchConstraints: PODS, mutations: [LABEL] },
      }),
    );
    expect(p.spec?.failurePolicy).to.equal('Fail');
    // The mutations are applied (dispatcher.test.ts): no Warning says otherwise.
    const created = sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
      metadata: { name: 'q' },
      spec: { matchConstraints: PODS, mutations: [LABEL] },
    });
    expect(created.warnings ?? []).to.deep.equal([]);
    expect(p.spec?.matchConstraints?.matchPolicy).to.equal('Equivalent');
    const b = ok(
      sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, {
        metadata: { name: 'b' },
        spec: { policyName: 'p' },
      }),
    );
    expect(b.spec?.policyName).to.equal('p');
  });

  it('v1.35: the gate is off by default, the resource is not served: 404 on create, list and get', () => {
    const sim = newSim(Release.of(35));
    const s = failure(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'p' },
        spec: { matchConstraints: PODS, mutations: [LABEL] },
      }),
      404,
      'NotFound',
    );
    expect(s.message).to.contain('the server could not find the requested resource');
    failure(sim.api.list('mutatingadmissionpolicies', undefined), 404, 'NotFound');
    failure(sim.api.get('mutatingadmissionpolicies', undefined, 'p'), 404, 'NotFound');
    failure(
      sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, {
        metadata: { name: 'b' },
        spec: { policyName: 'p' },
      }),
      404,
      'NotFound',
    );
  });

  it('1.36 with the gate turned off (GA, not locked): not served', () => {
    const sim = newSim(Release.of(36, { MutatingAdmissionPolicy: false }));
    failure(sim.api.list('mutatingadmissionpolicies', undefined), 404, 'NotFound');
  });

  it('discovery lists both resources at admissionregistration.k8s.io/v1 from v1.36 only', () => {
    const listed = (minor: number) =>
      resourcesOf('admissionregistration.k8s.io', 'v1', newSim(Release.of(minor)).api)
        .map((r) => r.resource)
        .filter((r) => r.startsWith('mutatingadmission'));
    expect(listed(36)).to.deep.equal(['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);
    expect(listed(35)).to.deep.equal([]);
    expect(listed(32)).to.deep.equal([]);
    const api35 = newSim(Release.of(35)).api;
    expect(findResource('admissionregistration.k8s.io', 'v1', 'mutatingadmissionpolicies', api35)).to.equal(undefined);
    expect(findResource('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies', api35)).to.not.equal(
      undefined,
    );
  });

  it('refuses a policy without matchConstraints or mutations, and an unknown patchType, reinvocationPolicy or failurePolicy', () => {
    const sim = newSim(Release.of(36));
    const s = failure(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'p' },
        spec: {},
      }),
      422,
      'Invalid',
    );
    expect(s.message).to.contain('spec.matchConstraints: Required value');
    expect(s.message).to.contain('spec.mutations: Required value');
    const t = failure(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'p' },
        spec: {
          matchConstraints: PODS,
          failurePolicy: 'Maybe',
          reinvocationPolicy: 'Always',
          mutations: [{ patchType: 'Merge' }, { patchType: 'JSONPatch' }],
        },
      }),
      422,
      'Invalid',
    );
    expect(t.message).to.contain('spec.failurePolicy: Unsupported value: "Maybe"');
    expect(t.message).to.contain('spec.reinvocationPolicy: Unsupported value: "Always"');
    expect(t.message).to.contain('spec.mutations[0].patchType: Unsupported value: "Merge"');
    expect(t.message).to.contain('spec.mutations[1].jsonPatch.expression: Required value');
  });

  it('refuses a binding without policyName', () => {
    const sim = newSim(Release.of(36));
    const s = failure(
      sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, { metadata: { name: 'b' }, spec: {} }),
      422,
      'Invalid',
    );
    expect(s.message).to.contain('spec.policyName: Required value');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { apiCreatePod, failure, newSim, NS, ok, USER, type Sim } from '../testing';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicySpec,
} from '../../apimachinery/types';

const PODS = {
  resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

function policy(sim: Sim, spec: Partial<ValidatingAdmissionPolicySpec>, name = 'pod-rules'): void {
  const p: ValidatingAdmissionPolicy = { metadata: { name }, spec: { matchConstraints: PODS, ...spec } };
  ok(sim.api.create(USER, 'validatingadmissionpolicies', undefined, p));
}
function binding(
  sim: Sim,
  validationActions: string[],
  o: Partial<NonNullable<ValidatingAdmissionPolicyBinding['spec']>> = {},
  name = 'pod-rules-binding',
  policyName = 'pod-rules',
): void {
  ok(
    sim.api.create(USER, 'validatingadmissionpolicybindings', undefined, {
      metadata: { name },
      spec: { policyName, validationActions, ...o },
    }),
  );
}
const label = (sim: Sim, labels: Record<string, string>) =>
  sim.api.patch(USER, 'pods', NS, 'web', 'merge', { metadata: { labels } });
const texts = (sim: Sim) => sim.timeline.all().map((e) => e.text);

describe('ValidatingAdmissionPolicy (R209, R210; policy/validating/dispatcher.go, validator.go)', () => {
  it('a failed validation with Deny: 422 Invalid, `ValidatingAdmissionPolicy … with binding … denied request: failed expression: …`, the message a cause', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    policy(sim, {
      validations: [{ expression: "!has(object.metadata.labels) || !('frozen' in object.metadata.labels)" }],
    });
    binding(sim, ['Deny']);
    const status = failure(label(sim, { frozen: 'yes' }), 422, 'Invalid');
    const text =
      "ValidatingAdmissionPolicy 'pod-rules' with binding 'pod-rules-binding' denied request: failed expression: !has(object.metadata.labels) || !('frozen' in object.metadata.labels)";
    expect(status.message).to.equal(`pods "web" is forbidden: ${text}`);
    expect(status.details?.causes).to.deep.equal([{ message: text }]);
    ok(label(sim, { team: 'a' }));
    expect(texts(sim)).to.include(
      `policy pod-rules binding pod-rules-binding denied UPDATE pods/web: failed expression: !has(object.metadata.labels) || !('frozen' in object.metadata.labels)`,
    );
  });

  it('message, messageExpression (with variables) and reason decide the text and the code', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    policy(sim, {
      variables: [{ name: 'team', expression: "object.metadata.?labels.?team.orValue('')" }],
      validations: [
        {
          expression: "variables.team != 'blocked'",
          messageExpression: "'team ' + variables.team + ' may not change pods'",
          reason: 'Forbidden',
        },
        { expression: "variables.team != 'other'", message: 'no other team' },
      ],
    });
    binding(sim, ['Deny']);
    expect(failure(label(sim, { team: 'blocked' }), 403, 'Forbidden').message).to.equal(
      "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'pod-rules' with binding 'pod-rules-binding' denied request: team blocked may not change pods",
    );
    expect(failure(label(sim, { team: 'other' }), 422, 'Invalid').message).to.contain('denied request: no other team');
  });

  it("Warn answers with a warning and lets the request on; Audit only records it; a binding's matchResources narrow the policy", () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    policy(sim, { validations: [{ expression: 'false', message: 'never' }] });
    binding(sim, ['Warn', 'Audit']);
    const r = label(sim, { a: 'b' });
    expect(r.ok).to.equal(true);
    expect(r.warnings).to.deep.equal([
      "Validation failed for ValidatingAdmissionPolicy 'pod-rules' with binding 'pod-rules-binding': never",
    ]);
    binding(sim, ['Deny'], { matchResources: { objectSelector: { matchLabels: { strict: 'yes' } } } }, 'strict-only');
    ok(label(sim, { c: 'd' }));
    failure(label(sim, { strict: 'yes' }), 422, 'Invalid');
  });

  it('an expression that errs: Fail denies with the error, Ignore lets it on; matchConditions that are false skip the policy', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    policy(sim, { validations: [{ expression: "object.spec.priorityClassName == 'x'" }] });
    binding(sim, ['Deny']);
    expect(failure(label(sim, { a: 'b' }), 422, 'Invalid').message).to.equal(
      "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'pod-rules' with binding 'pod-rules-binding' denied request: expression 'object.spec.priorityClassName == 'x'' resulted in error: no such key: priorityClassName",
    );
    policy(
      sim,
      {
        failurePolicy: 'Ignore',
        validations: [{ expression: 'variables.missing == 1' }],
        variables: [{ name: 'missing', expression: 'object.spec.nope' }],
      },
      'lenient',
    );
    binding(sim, ['Deny'], {}, 'lenient-binding', 'lenient');
    policy(
      sim,
      { matchConditions: [{ name: 'never', expression: 'false' }], validations: [{ expression: 'false' }] },
      'skipped',
    );
    binding(sim, ['Deny'], {}, 'skipped-binding', 'skipped');
    // pod-rules still denies: delete it, the others let the update on.
    ok(sim.api.delete(USER, 'validatingadmissionpolicybindings', undefined, 'pod-rules-binding', {}));
    ok(label(sim, { a: 'c' }));
  });

  it("namespaceObject is the request's namespace", () => {
    const sim = newSim();
    ok(sim.api.create(USER, 'namespaces', undefined, { metadata: { name: NS, labels: { frozen: 'yes' } } }));
    apiCreatePod(sim, 'web');
    policy(sim, {
      validations: [
        {
          expression: "namespaceObject.metadata.name == 'default' && !('frozen' in namespaceObject.metadata.labels)",
          message: 'the namespace is frozen',
        },
      ],
    });
    binding(sim, ['Deny']);
    expect(failure(label(sim, { a: 'b' }), 422, 'Invalid').message).to.contain(
      'denied request: the namespace is frozen',
    );
  });

  it("validates policies and bindings in upstream's words; before 1.30 neither is served", () => {
    const sim = newSim();
    const bad = failure(
      sim.api.create(USER, 'validatingadmissionpolicies', undefined, {
        metadata: { name: 'bad' },
        spec: {
          validations: [{ expression: 'object.metadata.name', reason: 'Nope' }],
          matchConstraints: { resourceRules: [] },
        },
      }),
      422,
      'Invalid',
    );
    expect(bad.message).to.equal(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: [spec.matchConstraints.resourceRules: Required value, spec.validations[0].expression: Invalid value: "object.metadata.name": must evaluate to bool but got dyn, spec.validations[0].reason: Unsupported value: "Nope": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"]',
    );
    const badBinding = failure(
      sim.api.create(USER, 'validatingadmissionpolicybindings', undefined, {
        metadata: { name: 'b' },
        spec: { policyName: 'p', validationActions: ['Deny', 'Warn'] },
      }),
      422,
      'Invalid',
    );
    expect(badBinding.message).to.equal(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    );
    const old = newSim(Release.of(29));
    expect(
      failure(
        old.api.create(USER, 'validatingadmissionpolicies', undefined, {
          metadata: { name: 'p' },
          spec: { matchConstraints: PODS, validations: [{ expression: 'true' }] },
        }),
        422,
        'Invalid',
      ).message,
    ).to.contain('is served at admissionregistration.k8s.io/v1 from Kubernetes v1.30');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from '../../cluster/cluster';
import { databaseCRD } from '../apiextensions/testing';
import type { KubeObject } from '../../apimachinery/object';
import { apiCreatePod, failure, newSim, NS, ok, USER, type Sim } from '../testing';
import type { ValidatingAdmissionPolicyBinding, ValidatingAdmissionPolicySpec } from '../../apimachinery/types';

const PODS = {
  resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};
const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' };
type ParamRef = NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']>;

function policy(sim: Sim, spec: Partial<ValidatingAdmissionPolicySpec>, name = 'p') {
  return sim.api.create(USER, 'validatingadmissionpolicies', undefined, {
    metadata: { name },
    spec: { matchConstraints: PODS, ...spec },
  });
}
function binding(sim: Sim, paramRef: ParamRef | undefined, name = 'b', validationActions = ['Deny']) {
  return sim.api.create(USER, 'validatingadmissionpolicybindings', undefined, {
    metadata: { name },
    spec: { policyName: 'p', validationActions, ...(paramRef ? { paramRef } : {}) },
  });
}
const configMap = (sim: Sim, name: string, data: Record<string, string>, labels?: Record<string, string>) =>
  ok(sim.api.create(USER, 'configmaps', NS, { metadata: { name, ...(labels ? { labels } : {}) }, data }));
const label = (sim: Sim, labels: Record<string, string>) =>
  sim.api.patch(USER, 'pods', NS, 'web', 'merge', { metadata: { labels } });
const DENIED = "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ";

describe('ValidatingAdmissionPolicy parameters and auditAnnotations (R209, R210; generic/policy_dispatcher.go CollectParams)', () => {
  it("a ConfigMap param by name, in the request's namespace: params in the validation, the message and the matchConditions", () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    ok(
      policy(sim, {
        paramKind: CONFIGMAP,
        matchConditions: [{ name: 'enabled', expression: "params.data.enabled == 'true'" }],
        validations: [
          {
            expression: '!has(object.metadata.labels) || !(params.data.forbidden in object.metadata.labels)',
            messageExpression: "'label ' + params.data.forbidden + ' is forbidden'",
          },
        ],
      }),
    );
    ok(binding(sim, { name: 'limits', parameterNotFoundAction: 'Deny' }));
    configMap(sim, 'limits', { enabled: 'true', forbidden: 'frozen' });
    expect(failure(label(sim, { frozen: 'yes' }), 422, 'Invalid').message).to.equal(
      `${DENIED}label frozen is forbidden`,
    );
    ok(label(sim, { other: 'yes' }));
    ok(sim.api.patch(USER, 'configmaps', NS, 'limits', 'merge', { data: { enabled: 'false' } }));
    ok(label(sim, { frozen: 'yes' }));
  });

  it("a missing param: Deny fails the request with upstream's text whatever the actions, Allow skips the binding, failurePolicy Ignore lets it on", () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    ok(policy(sim, { paramKind: CONFIGMAP, validations: [{ expression: 'false' }] }));
    ok(binding(sim, { name: 'absent', parameterNotFoundAction: 'Deny' }, 'b', ['Audit']));
    const status = failure(label(sim, { a: 'b' }), 422, 'Invalid');
    expect(status.message).to.equal(
      `${DENIED}failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`,
    );
    expect(sim.timeline.all().map((e) => e.text)).to.include(
      'policy p binding b denied UPDATE pods/web: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
    );
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicybindings', undefined, 'b', 'merge', {
        spec: { paramRef: { parameterNotFoundAction: 'Allow' } },
      }),
    );
    ok(label(sim, { a: 'c' }));
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicybindings', undefined, 'b', 'merge', {
        spec: { paramRef: { parameterNotFoundAction: 'Deny' } },
      }),
    );
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicies', undefined, 'p', 'merge', {
        spec: { failurePolicy: 'Ignore' },
      }),
    );
    ok(label(sim, { a: 'd' }));
  });

  it('a selector evaluates the policy once per matching param; paramRef.namespace picks the namespace', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    ok(sim.api.create(USER, 'namespaces', undefined, { metadata: { name: 'rules' } }));
    ok(
      sim.api.create(USER, 'configmaps', 'rules', {
        metadata: { name: 'one', labels: { rule: 'yes' } },
        data: { forbidden: 'frozen' },
      }),
    );
    ok(
      sim.api.create(USER, 'configmaps', 'rules', {
        metadata: { name: 'two', labels: { rule: 'yes' } },
        data: { forbidden: 'held' },
      }),
    );
    ok(sim.api.create(USER, 'configmaps', 'rules', { metadata: { name: 'three' }, data: { forbidden: 'team' } }));
    ok(
      policy(sim, {
        paramKind: CONFIGMAP,
        validations: [
          {
            expression: '!(params.data.forbidden in object.metadata.labels)',
            messageExpression: "params.metadata.name + ' forbids ' + params.data.forbidden",
          },
        ],
      }),
    );
    ok(
      binding(sim, { selector: { matchLabels: { rule: 'yes' } }, namespace: 'rules', parameterNotFoundAction: 'Deny' }),
    );
    expect(failure(label(sim, { held: 'x' }), 422, 'Invalid').message).to.equal(`${DENIED}two forbids held`);
    expect(failure(label(sim, { frozen: 'x' }), 422, 'Invalid').message).to.equal(`${DENIED}one forbids frozen`);
    ok(label(sim, { team: 'x' }));
  });

  it("a paramKind nothing serves fails the policy's requests (`failed to configure policy`); a namespaced param kind needs a namespace for a cluster-scoped request", () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    ok(
      policy(sim, {
        paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' },
        validations: [{ expression: 'true' }],
      }),
    );
    ok(binding(sim, { name: 'x', parameterNotFoundAction: 'Allow' }));
    expect(failure(label(sim, { a: 'b' }), 422, 'Invalid').message).to.equal(
      "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limit'",
    );
    expect(sim.timeline.all().map((e) => e.text)).to.include(
      "policy p denied UPDATE pods/web: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limit'",
    );
    ok(sim.api.delete(USER, 'validatingadmissionpolicies', undefined, 'p', {}));
    ok(sim.api.create(USER, 'namespaces', undefined, { metadata: { name: 'fresh' } }));
    const NAMESPACES = {
      resourceRules: [
        { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] },
      ],
    };
    ok(policy(sim, { matchConstraints: NAMESPACES, paramKind: CONFIGMAP, validations: [{ expression: 'true' }] }));
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicybindings', undefined, 'b', 'merge', {
        spec: { paramRef: { parameterNotFoundAction: 'Deny' } },
      }),
    );
    const denied = "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: ";
    // POST /api/v1/namespaces has no namespace (requestinfo.go); a request on one namespace has its name as namespace.
    expect(
      failure(sim.api.create(USER, 'namespaces', undefined, { metadata: { name: 'other' } }), 422, 'Invalid').message,
    ).to.equal(
      `namespaces "other" is forbidden: ${denied}cannot use namespaced paramRef in policy binding that matches cluster-scoped resources`,
    );
    expect(
      failure(
        sim.api.patch(USER, 'namespaces', undefined, 'fresh', 'merge', { metadata: { labels: { a: 'b' } } }),
        422,
        'Invalid',
      ).message,
    ).to.equal(
      `namespaces "fresh" is forbidden: ${denied}no params found for policy binding with \`Deny\` parameterNotFoundAction`,
    );
  });

  it('a custom resource as param kind: cluster-scoped, so paramRef.namespace is refused; without it the object is params', () => {
    // A Cluster: its CRD controllers establish the kind, so the apiserver serves it.
    const cluster = new Cluster();
    cluster.apiserver.ensureSystemNamespaces();
    const sim: Sim = { clock: cluster.clock, timeline: cluster.timeline, api: cluster.apiserver };
    apiCreatePod(sim, 'web');
    ok(sim.api.create(USER, 'customresourcedefinitions', undefined, databaseCRD({ scope: 'Cluster' })));
    cluster.flush();
    ok(
      sim.api.create(USER, 'databases.example.com', undefined, {
        apiVersion: 'example.com/v1',
        kind: 'Database',
        metadata: { name: 'limits' },
        spec: { engine: 'frozen' },
      } as KubeObject),
    );
    ok(
      policy(sim, {
        paramKind: { apiVersion: 'example.com/v1', kind: 'Database' },
        validations: [
          {
            expression: "params.kind == 'Database' && !(params.spec.engine in object.metadata.labels)",
            messageExpression: "'label ' + params.spec.engine + ' is forbidden'",
          },
        ],
      }),
    );
    ok(binding(sim, { name: 'limits', namespace: NS, parameterNotFoundAction: 'Deny' }));
    expect(failure(label(sim, { a: 'b' }), 422, 'Invalid').message).to.equal(
      `${DENIED}failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped \`paramKind\``,
    );
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicybindings', undefined, 'b', 'merge', {
        spec: { paramRef: { namespace: null } },
      }),
    );
    ok(label(sim, { a: 'c' }));
    expect(failure(label(sim, { frozen: 'yes' }), 422, 'Invalid').message).to.equal(
      `${DENIED}label frozen is forbidden`,
    );
  });

  it('auditAnnotations: a string is recorded on the admission lane as POLICY/KEY, null and "" are not, an error fails under Fail', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web');
    ok(
      policy(sim, {
        auditAnnotations: [
          { key: 'team', valueExpression: "'team-' + object.metadata.?labels.?team.orValue('none')" },
          { key: 'skipped', valueExpression: 'null' },
        ],
      }),
    );
    ok(binding(sim, undefined, 'b', ['Audit']));
    ok(label(sim, { team: 'blue' }));
    const texts = sim.timeline.all().map((e) => e.text);
    expect(texts).to.include('policy p audit annotation UPDATE pods/web: p/team=team-blue');
    expect(texts.some((t) => t.includes('p/skipped'))).to.equal(false);
    ok(
      sim.api.patch(USER, 'validatingadmissionpolicies', undefined, 'p', 'merge', {
        spec: { auditAnnotations: [{ key: 'bad', valueExpression: "object.spec.nope == 1 ? 'a' : 'b'" }] },
      }),
    );
    expect(failure(label(sim, { team: 'red' }), 422, 'Invalid').message).to.equal(
      `${DENIED}expression 'object.spec.nope == 1 ? 'a' : 'b'' resulted in error: no such key: nope`,
    );
  });

  it("validates paramKind, paramRef and auditAnnotations in upstream's words", () => {
    const sim = newSim();
    const bad = failure(
      policy(sim, {
        paramKind: { apiVersion: 'a/b/c' },
        auditAnnotations: [
          { key: 'x y', valueExpression: 'true' },
          { key: 'x y', valueExpression: "'v'" },
        ],
      }),
      422,
      'Invalid',
    );
    expect(bad.message).to.equal(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c, spec.paramKind.kind: Required value, ' +
        "spec.auditAnnotations[0].key: Invalid value: \"p/x y\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        'spec.auditAnnotations[0].valueExpression: Invalid value: "true": must evaluate to one of [string null_type] but got bool, ' +
        "spec.auditAnnotations[1].key: Invalid value: \"p/x y\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        'spec.auditAnnotations[1].key: Duplicate value: "x y"]',
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }));
    expect(failure(policy(sim, { auditAnnotations: many }), 422, 'Invalid').message).to.equal(
      `ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.auditAnnotations: Invalid value: []admissionregistration.AuditAnnotation{${many.map((a) => `admissionregistration.AuditAnnotation{Key:"${a.key}", ValueExpression:"'v'"}`).join(', ')}}: must not have more than 20 auditAnnotations`,
    );
    expect(
      failure(policy(sim, { validations: [{ expression: 'params == null' }] }), 422, 'Invalid').message,
    ).to.contain("undeclared reference to 'params'");
    const empty = failure(policy(sim, {}), 422, 'Invalid');
    expect(empty.message).to.equal(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.validations: Required value: validations or auditAnnotations must contain at least one item, spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item]',
    );
    const badRef = failure(binding(sim, { name: 'a', selector: {}, parameterNotFoundAction: 'Maybe' }), 422, 'Invalid');
    expect(badRef.message).to.equal(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector: Forbidden: name and selector are mutually exclusive, spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"]',
    );
    expect(failure(binding(sim, {} as ParamRef), 422, 'Invalid').message).to.equal(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.paramRef: Required value: one of name or selector must be specified, spec.paramRef.parameterNotFoundAction: Required value]',
    );
  });
});

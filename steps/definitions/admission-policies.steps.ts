import { Given, When } from '@cucumber/cucumber';
import { USER } from '../../src/cluster/cluster';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../src/apimachinery/types';
import { isObject, parseYaml } from '../../src/planning/manifest';
import { deleteClusterScoped, operation } from './admission.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * A ValidatingAdmissionPolicy `pod-policy` (then `pod-policy-2`, …) on {word} (CREATE, UPDATE,
 * DELETE or *) of pods, with one validation: the CEL expression given, which must hold, and a
 * binding of the same name with validationActions Deny (R209, R210). A request for which it is
 * false fails with 422 Invalid, `pods "web" is forbidden: ValidatingAdmissionPolicy 'pod-policy'
 * with binding 'pod-policy' denied request: failed expression: EXPRESSION`. Created once the
 * planned nodes and pods exist. Needs a release that serves the kind (1.30 on).
 */
Given(
  'a validating admission policy on {word} of pods that requires {string}',
  function (this: TerminatingWorld, op: string, expression: string) {
    const operations = [operation(op)];
    this.plan.afterStart(() => {
      const api = this.cluster.apiserver;
      const existing = api.list('validatingadmissionpolicies', undefined);
      const n = existing.ok ? existing.object.items.length + 1 : 1;
      const name = n === 1 ? 'pod-policy' : `pod-policy-${n}`;
      const policy: ValidatingAdmissionPolicy = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name },
        spec: {
          matchConstraints: {
            resourceRules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          },
          validations: [{ expression }],
        },
      };
      const binding: ValidatingAdmissionPolicyBinding = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name },
        spec: { policyName: name, validationActions: ['Deny'] },
      };
      for (const [resource, obj] of [
        ['validatingadmissionpolicies', policy],
        ['validatingadmissionpolicybindings', binding],
      ] as const) {
        const r = api.create(USER, resource, undefined, obj as never);
        if (!r.ok)
          throw new ScenarioError(
            `the validating admission policy could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`,
          );
      }
      this.cluster.flush();
    });
  },
);

/** DELETE validatingadmissionpolicybindings/NAME: its policy judges no request through it from then on. */
When('the user deletes validating admission policy binding {string}', function (this: TerminatingWorld, name: string) {
  deleteClusterScoped(this, 'validatingadmissionpolicybindings', name);
});

/**
 * One CREATE of a MutatingAdmissionPolicy (admissionregistration.k8s.io/v1, R317): the doc string
 * is its manifest in YAML or JSON (metadata.name and spec). Served from 1.36 only: before, the
 * request is the 404 of a resource the server does not serve. Stored and validated; with a binding
 * (`the user creates a mutating admission policy binding with:`) its mutations apply to the
 * requests it matches.
 */
When('the user creates a mutating admission policy with:', function (this: TerminatingWorld, doc: string) {
  const body = parseYaml(doc, 'the MutatingAdmissionPolicy of the step');
  if (!isObject(body)) throw new ScenarioError('the MutatingAdmissionPolicy must be a YAML or JSON object');
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.create(USER, 'mutatingadmissionpolicies', undefined, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    ...body,
  } as never);
  this.lastKubectl = undefined;
  this.cluster.flush();
});

/**
 * One CREATE of a MutatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1, R317): the doc
 * string is its manifest in YAML or JSON (metadata.name and spec: policyName, and paramRef and
 * matchResources when wanted). From then on the policy mutates the CREATE and UPDATE requests
 * both match. Served from 1.36 only.
 */
When('the user creates a mutating admission policy binding with:', function (this: TerminatingWorld, doc: string) {
  const body = parseYaml(doc, 'the MutatingAdmissionPolicyBinding of the step');
  if (!isObject(body)) throw new ScenarioError('the MutatingAdmissionPolicyBinding must be a YAML or JSON object');
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.create(USER, 'mutatingadmissionpolicybindings', undefined, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicyBinding',
    ...body,
  } as never);
  this.lastKubectl = undefined;
  this.cluster.flush();
});

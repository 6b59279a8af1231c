import type { FieldError } from '../../apimachinery/errors';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import { genericStrategy } from '../generic-strategy';
import type { Strategy } from '../strategy';
import { typedVariables } from '../cel/admission';
import { celEnvironment } from '../cel/environment';
import { compileMutationExpression, patchTypesEnvironment } from '../cel/mutation';
import {
  celFieldError,
  defaultMatchResources,
  validateMatchResources,
  validateParamKind,
  validatePolicyBindingSpec,
  validateVariables,
} from '../validatingadmissionpolicy/strategy';
import { ADMISSION_REGISTRATION } from '../webhook/configuration';
import { validateMatchConditions } from '../webhook/match-conditions';

const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** staging/src/k8s.io/api/admissionregistration/v1/types.go: PatchType, FailurePolicyType, ReinvocationPolicyType. */
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];

/**
 * R317 — MutatingAdmissionPolicy (KEP-3962) is served at admissionregistration.k8s.io/v1 only from
 * Kubernetes v1.36, where its gate `MutatingAdmissionPolicy` went GA and on by default
 * (k8s.io/apiserver pkg/features/kube_features.go at v0.36.0: alpha off in 1.32, beta off in 1.34,
 * GA on in 1.36). Before, it is v1alpha1 (1.32) / v1beta1 (1.34) behind the gate and
 * --runtime-config, both off by default: the resource does not exist (every request for it is the
 * 404 `the server could not find the requested resource`, and discovery does not list it).
 */
export function mutatingAdmissionPolicyServed(release: Release): boolean {
  // v1 exists from 1.36 (the GA); the gate, on by default there but not locked, can turn it off.
  return release.atLeast(36) && release.enabled('MutatingAdmissionPolicy');
}

/**
 * validateMutatingAdmissionPolicy (pkg/apis/admissionregistration/validation), the parts
 * modelled: failurePolicy and reinvocationPolicy among their values, paramKind and matchConstraints
 * as for a ValidatingAdmissionPolicy (resourceRules required), matchConditions and variables as
 * its (compiled), at least one mutation, each with a known patchType and the expression of that
 * type, which compiles with the patch types (validateApplyConfiguration: to `Object`;
 * validateJSONPatch: to `list(JSONPatch)`). Expressions compile in the compatibility version of
 * new expressions (the release before); the update's StoredExpressions are not told apart.
 */
export function validateMutatingPolicy(policy: MutatingAdmissionPolicy, release: Release): FieldError[] {
  const errs: FieldError[] = [];
  const spec = policy.spec ?? {};
  // New expressions compile in the release before (the compatibility version), variables typed as compiled there.
  const decls = typedVariables(
    release.minor - 1,
    { authorizer: true, namespaceObject: true, params: spec.paramKind !== undefined },
    spec.variables ?? [],
  );
  errs.push(
    ...validateMatchConditions(
      spec.matchConditions ?? [],
      'spec.matchConditions',
      release,
      new Set(),
      spec.paramKind !== undefined,
    ),
  );
  errs.push(...validateVariables(spec.variables ?? [], () => celEnvironment(release.minor - 1, decls)));
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy))
    errs.push({
      field: 'spec.failurePolicy',
      type: 'Unsupported value',
      value: spec.failurePolicy,
      detail: `supported values: ${quoted(FAILURE_POLICIES)}`,
    });
  if (spec.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(spec.reinvocationPolicy))
    errs.push({
      field: 'spec.reinvocationPolicy',
      type: 'Unsupported value',
      value: spec.reinvocationPolicy,
      detail: `supported values: ${quoted(REINVOCATION_POLICIES)}`,
    });
  if (spec.paramKind !== undefined) errs.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (spec.matchConstraints === undefined)
    errs.push({ field: 'spec.matchConstraints', type: 'Required value', detail: '' });
  else errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', true));
  const mutations = spec.mutations ?? [];
  if (mutations.length === 0) errs.push({ field: 'spec.mutations', type: 'Required value', detail: '' });
  mutations.forEach((m, i) => {
    const at = `spec.mutations[${i}]`;
    if (!m.patchType) {
      errs.push({ field: `${at}.patchType`, type: 'Required value', detail: '' });
      return;
    }
    if (!PATCH_TYPES.includes(m.patchType)) {
      errs.push({
        field: `${at}.patchType`,
        type: 'Unsupported value',
        value: m.patchType,
        detail: `supported values: ${quoted(PATCH_TYPES)}`,
      });
      return;
    }
    const key = m.patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration';
    const expression = m[key]?.expression?.trim() ?? '';
    if (!expression) {
      errs.push({ field: `${at}.${key}.expression`, type: 'Required value', detail: '' });
      return;
    }
    const compiled = compileMutationExpression(
      patchTypesEnvironment(release.minor - 1, decls),
      expression,
      key === 'jsonPatch' ? 'list(JSONPatch)' : 'Object',
    );
    if ('error' in compiled) errs.push(celFieldError(`${at}.${key}.expression`, expression, compiled.error));
  });
  return errs;
}

/** validateMutatingAdmissionPolicyBinding, the parts modelled: a policyName, its paramRef and matchResources as a ValidatingAdmissionPolicyBinding's. */
export function validateMutatingBinding(
  binding: MutatingAdmissionPolicyBinding,
  validateName: (name: string) => FieldError[],
): FieldError[] {
  return validatePolicyBindingSpec(binding.spec ?? {}, validateName);
}

/** SetDefaults_MutatingAdmissionPolicySpec: failurePolicy Fail; the matchConstraints' defaults. */
function defaults(p: MutatingAdmissionPolicy): void {
  p.spec ??= {};
  p.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(p.spec.matchConstraints);
}

/** The policy's registry strategy (pkg/registry/admissionregistration/mutatingadmissionpolicy/strategy.go). */
export function mutatingAdmissionPolicyStrategy(release: Release): Strategy<MutatingAdmissionPolicy> {
  const base = genericStrategy<MutatingAdmissionPolicy>({
    kind: 'MutatingAdmissionPolicy',
    apiVersion: ADMISSION_REGISTRATION,
    resource: 'mutatingadmissionpolicies',
    namespaced: false,
  });
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaults(obj);
    },
    validate: (obj) => [...base.validate(obj), ...validateMutatingPolicy(obj, release)],
    prepareForUpdate(next, old) {
      defaults(next);
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [...base.validateUpdate(next, old), ...validateMutatingPolicy(next, release)],
  };
}

/** The binding's registry strategy: its matchResources defaulted when given. */
export function mutatingAdmissionPolicyBindingStrategy(
  validateName: (name: string) => FieldError[],
): Strategy<MutatingAdmissionPolicyBinding> {
  const base = genericStrategy<MutatingAdmissionPolicyBinding>({
    kind: 'MutatingAdmissionPolicyBinding',
    apiVersion: ADMISSION_REGISTRATION,
    resource: 'mutatingadmissionpolicybindings',
    namespaced: false,
  });
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaultMatchResources(obj.spec?.matchResources);
    },
    validate: (obj) => [...base.validate(obj), ...validateMutatingBinding(obj, validateName)],
    prepareForUpdate(next, old) {
      defaultMatchResources(next.spec?.matchResources);
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [...base.validateUpdate(next, old), ...validateMutatingBinding(next, validateName)],
  };
}

import type { Release } from '../../foundation/release';
import { typedVariables } from '../cel/admission';
import { compileExpression } from '../cel/compile';
import { celEnvironment } from '../cel/environment';
import type { FieldError } from '../../apimachinery/errors';
import { dns1035, dns1123Subdomain, qualifiedNameErrors } from '../../apimachinery/selectors';
import { genericStrategy } from '../generic-strategy';
import type { Strategy } from '../strategy';
import type {
  MatchResources,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicySpec,
} from '../../apimachinery/types';
import { ADMISSION_REGISTRATION, validateRule } from '../webhook/configuration';
import { validateMatchConditions } from '../webhook/match-conditions';

/**
 * R209 — admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
 * (v1 from 1.30, #123405): their defaults (pkg/apis/admissionregistration/v1/defaults.go) and
 * validation (pkg/apis/admissionregistration/validation/validation.go ValidateValidatingAdmissionPolicy,
 * ValidateValidatingAdmissionPolicyBinding) as pkg/registry/admissionregistration/
 * {validatingadmissionpolicy,validatingadmissionpolicybinding} run them, with parameter resources
 * (validateParamKind, validateParamRef) and auditAnnotations (validateAuditAnnotation).
 */

const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
/** CEL's reserved words, which a variable may not be named (validation.go isCELIdentifier). */
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/** SetDefaults_MatchResources (and SetDefaults_Rule for its rules): matchPolicy Equivalent, empty selectors, scope `*`. */
export function defaultMatchResources(m: MatchResources | undefined): void {
  if (m === undefined) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const rule of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])]) rule.scope ??= '*';
}

/** validateMatchResources: the policy's matchConstraints (resourceRules required) or a binding's matchResources. */
export function validateMatchResources(m: MatchResources, at: string, requireRules: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined) errs.push({ field: `${at}.matchPolicy`, type: 'Required value', detail: '' });
  else if (!['Equivalent', 'Exact'].includes(m.matchPolicy))
    errs.push({
      field: `${at}.matchPolicy`,
      type: 'Unsupported value',
      value: m.matchPolicy,
      detail: `supported values: ${quoted(['Equivalent', 'Exact'])}`,
    });
  if (requireRules && (m.resourceRules ?? []).length === 0)
    errs.push({ field: `${at}.resourceRules`, type: 'Required value', detail: '' });
  for (const key of ['resourceRules', 'excludeResourceRules'] as const) {
    (m[key] ?? []).forEach((rule, i) => {
      const here = `${at}.${key}[${i}]`;
      const names = new Set<string>();
      (rule.resourceNames ?? []).forEach((n, j) => {
        if (names.has(n))
          errs.push({ field: `${here}.resourceNames[${j}]`, type: 'Duplicate value', value: n, detail: '' });
        names.add(n);
      });
      errs.push(...validateRule(rule, here));
    });
  }
  return errs;
}

/**
 * validateVariable (validation.go), for a policy's `variables`: a unique CEL identifier as name,
 * and an expression that compiles (to anything) in the environment `envFor` gives it.
 */
export function validateVariables(
  variables: readonly { name: string; expression: string }[],
  envFor: (expression: string) => ReturnType<typeof celEnvironment>,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  variables.forEach((v, i) => {
    const at = `spec.variables[${i}]`;
    if (!v.name?.trim()) errs.push({ field: `${at}.name`, type: 'Required value', detail: 'name is not specified' });
    else if (!CEL_IDENTIFIER.test(v.name) || CEL_RESERVED.has(v.name))
      errs.push({ field: `${at}.name`, type: 'Invalid', value: v.name, detail: 'name is not a valid CEL identifier' });
    else if (names.has(v.name)) errs.push({ field: `${at}.name`, type: 'Duplicate value', value: v.name, detail: '' });
    names.add(v.name);
    if (!v.expression?.trim())
      errs.push({ field: `${at}.expression`, type: 'Required value', detail: 'expression is not specified' });
    else {
      const compiled = compileExpression(envFor(v.expression), v.expression, ['dyn']);
      if ('error' in compiled) errs.push(celFieldError(`${at}.expression`, v.expression, compiled.error));
    }
  });
  return errs;
}

/** A compile error as the field error convertCELErrorToValidationError makes of it. */
export function celFieldError(
  field: string,
  expression: string,
  error: { type: 'Invalid' | 'Internal'; detail: string },
): FieldError {
  return error.type === 'Invalid'
    ? { field, type: 'Invalid', value: expression, detail: error.detail }
    : { field, type: 'Internal error', detail: error.detail };
}

/** The variable declarations of a policy's expressions: the authorizer (not for messageExpression), `params` when it has a paramKind, and its variables' names. */
export function policyVariables(policy: ValidatingAdmissionPolicy, authorizer: boolean, minor: number) {
  // Policies are served from 1.30, which has namespaceObject; the variables typed as compiled.
  return typedVariables(
    minor,
    { authorizer, namespaceObject: true, params: policy.spec?.paramKind !== undefined },
    policy.spec?.variables ?? [],
  );
}

/** maxAuditAnnotations, maxAuditAnnotationValueExpressionLength (validation.go). */
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_LENGTH = 5 * 1024;

/** parseGroupVersion (validation.go): `group/version`, a bare version, or an error for more slashes. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | string {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return `unexpected GroupVersion string: ${apiVersion}`;
}

/** validateParamKind: an apiVersion whose group is a DNS subdomain and whose version a DNS-1035 label, and a kind. */
export function validateParamKind(
  paramKind: NonNullable<ValidatingAdmissionPolicySpec['paramKind']>,
  at: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = paramKind.apiVersion ?? '';
  const gv = parseGroupVersion(apiVersion);
  if (apiVersion === '') errs.push({ field: `${at}.apiVersion`, type: 'Required value', detail: '' });
  else if (typeof gv === 'string')
    errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: apiVersion, detail: gv });
  else {
    const groupError = gv.group ? dns1123Subdomain(gv.group) : undefined;
    if (groupError) errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: gv.group, detail: groupError });
    const versionError = gv.version ? dns1035(gv.version) : undefined;
    if (!gv.version)
      errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: apiVersion, detail: 'version must be specified' });
    else if (versionError)
      errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: gv.version, detail: versionError });
  }
  const kindError = paramKind.kind ? dns1035(paramKind.kind.toLowerCase()) : undefined;
  if (!paramKind.kind) errs.push({ field: `${at}.kind`, type: 'Required value', detail: '' });
  else if (kindError)
    errs.push({
      field: `${at}.kind`,
      type: 'Invalid',
      value: paramKind.kind,
      detail: `may have mixed case, but should otherwise match: ${kindError}`,
    });
  return errs;
}

/**
 * validateAuditAnnotation: `POLICY/KEY` a qualified name, a valueExpression (at most 5 KiB) that
 * compiles to a string or null; keys unique (the caller), at most 20.
 */
function validateAuditAnnotations(
  policy: ValidatingAdmissionPolicy,
  envFor: (expression: string) => ReturnType<typeof celEnvironment>,
): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = policy.spec?.auditAnnotations ?? [];
  // The value as Go's %#v prints the internal type's slice.
  if (annotations.length > MAX_AUDIT_ANNOTATIONS)
    errs.push({
      field: 'spec.auditAnnotations',
      type: 'Invalid',
      value: annotations,
      printedValue: `[]admissionregistration.AuditAnnotation{${annotations.map((x) => `admissionregistration.AuditAnnotation{Key:${JSON.stringify(x.key)}, ValueExpression:${JSON.stringify(x.valueExpression)}}`).join(', ')}}`,
      detail: `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`,
    });
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    const name = policy.metadata.name ?? '';
    if (name === '')
      errs.push({ field: `${at}.key`, type: 'Invalid', value: a.key, detail: 'requires metadata.name be non-empty' });
    else
      for (const msg of qualifiedNameErrors(`${name}/${a.key ?? ''}`))
        errs.push({ field: `${at}.key`, type: 'Invalid', value: `${name}/${a.key ?? ''}`, detail: msg });
    const value = (a.valueExpression ?? '').trim();
    if (value === '')
      errs.push({ field: `${at}.valueExpression`, type: 'Required value', detail: 'valueExpression is not specified' });
    else if (value.length > MAX_VALUE_EXPRESSION_LENGTH)
      errs.push({
        field: `${at}.valueExpression`,
        type: 'Required value',
        detail: `must not exceed ${MAX_VALUE_EXPRESSION_LENGTH} bytes in length`,
      });
    else {
      const compiled = compileExpression(envFor(a.valueExpression), value, ['string', 'null_type']);
      if ('error' in compiled) errs.push(celFieldError(`${at}.valueExpression`, a.valueExpression, compiled.error));
    }
    if (keys.has(a.key)) errs.push({ field: `${at}.key`, type: 'Duplicate value', value: a.key, detail: '' });
    keys.add(a.key);
  });
  return errs;
}

/** The expressions the old policy already had (validationOptions.preexistingExpressions): they compile in the release's own environment. */
function storedExpressions(old: ValidatingAdmissionPolicy | undefined): Set<string> {
  const spec = old?.spec;
  return new Set([
    ...(spec?.validations ?? []).flatMap((v) => [v.expression, v.messageExpression ?? '']),
    ...(spec?.variables ?? []).map((v) => v.expression),
    ...(spec?.matchConditions ?? []).map((c) => c.expression.trim()),
    ...(spec?.auditAnnotations ?? []).map((a) => a.valueExpression),
  ]);
}

export function validatePolicy(
  policy: ValidatingAdmissionPolicy,
  release: Release,
  old?: ValidatingAdmissionPolicy,
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = policy.spec ?? {};
  const stored = storedExpressions(old);
  const envFor = (expression: string, authorizer: boolean) => {
    const minor = stored.has(expression) ? release.minor : release.minor - 1;
    return celEnvironment(minor, policyVariables(policy, authorizer, minor));
  };
  if (spec.failurePolicy !== undefined && !['Fail', 'Ignore'].includes(spec.failurePolicy))
    errs.push({
      field: 'spec.failurePolicy',
      type: 'Unsupported value',
      value: spec.failurePolicy,
      detail: `supported values: ${quoted(['Fail', 'Ignore'])}`,
    });
  if (spec.paramKind !== undefined) errs.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (spec.matchConstraints === undefined)
    errs.push({ field: 'spec.matchConstraints', type: 'Required value', detail: '' });
  else errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', true));
  // allowParamsInMatchConditions: a policy with a paramKind may read params in its conditions.
  errs.push(
    ...validateMatchConditions(
      spec.matchConditions ?? [],
      'spec.matchConditions',
      release,
      stored,
      spec.paramKind !== undefined,
    ),
  );
  errs.push(...validateVariables(spec.variables ?? [], (expression) => envFor(expression, true)));
  (spec.validations ?? []).forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    if (!v.expression?.trim())
      errs.push({ field: `${at}.expression`, type: 'Required value', detail: 'expression is not specified' });
    else {
      const compiled = compileExpression(envFor(v.expression, true), v.expression, ['bool']);
      if ('error' in compiled) errs.push(celFieldError(`${at}.expression`, v.expression, compiled.error));
    }
    const messageExpression = v.messageExpression ?? '';
    if (messageExpression.length > 0 && messageExpression.trim() === '')
      errs.push({
        field: `${at}.messageExpression`,
        type: 'Invalid',
        value: messageExpression,
        detail: 'must be non-empty if specified',
      });
    else if (messageExpression.trim() !== '') {
      const compiled = compileExpression(envFor(messageExpression, false), messageExpression, ['string']);
      if ('error' in compiled) errs.push(celFieldError(`${at}.messageExpression`, messageExpression, compiled.error));
    }
    const message = v.message ?? '';
    if (message.length > 0 && message.trim() === '')
      errs.push({
        field: `${at}.message`,
        type: 'Invalid',
        value: message,
        detail: 'message must be non-empty if specified',
      });
    else if (/[\n\r]/.test(message.trim()))
      errs.push({
        field: `${at}.message`,
        type: 'Invalid',
        value: message,
        detail: 'message must not contain line breaks',
      });
    if (v.reason !== undefined && !REASONS.includes(v.reason))
      errs.push({
        field: `${at}.reason`,
        type: 'Unsupported value',
        value: v.reason,
        detail: `supported values: ${quoted(REASONS)}`,
      });
  });
  if ((spec.validations ?? []).length === 0 && (spec.auditAnnotations ?? []).length === 0) {
    for (const field of ['spec.validations', 'spec.auditAnnotations'])
      errs.push({
        field,
        type: 'Required value',
        detail: 'validations or auditAnnotations must contain at least one item',
      });
  } else errs.push(...validateAuditAnnotations(policy, (expression) => envFor(expression, true)));
  return errs;
}

/** validateValidationActions: known, no duplicates, not both Deny and Warn, at least one. */
function validateValidationActions(actions: readonly string[], at: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a))
      errs.push({
        field: `${at}[${i}]`,
        type: 'Unsupported value',
        value: a,
        detail: `supported values: ${quoted(ACTIONS)}`,
      });
    if (seen.has(a)) errs.push({ field: `${at}[${i}]`, type: 'Duplicate value', value: a, detail: '' });
    seen.add(a);
  });
  // The value as Go's %#v prints the internal type's slice.
  const printedValue = `[]admissionregistration.ValidationAction{${actions.map((a) => JSON.stringify(a)).join(', ')}}`;
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push({
      field: at,
      type: 'Invalid',
      value: actions,
      printedValue,
      detail:
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    });
  if (seen.size === 0)
    errs.push({ field: at, type: 'Required value', detail: 'at least one validation action is required' });
  return errs;
}

/** validatePathSegmentName (apimachinery path): what a name in a URL path may not be. */
function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return [
    ...(name.includes('/') ? ["may not contain '/'"] : []),
    ...(name.includes('%') ? ["may not contain '%'"] : []),
  ];
}

/** validateParamRef: a name (a path segment) or a selector, not both; parameterNotFoundAction Deny or Allow, required. */
export function validateParamRef(
  ref: NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']>,
  at: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const exclusive = 'name and selector are mutually exclusive';
  if (ref.name) {
    for (const msg of pathSegmentErrors(ref.name))
      errs.push({ field: `${at}.name`, type: 'Invalid', value: ref.name, detail: msg });
    if (ref.selector !== undefined) errs.push({ field: `${at}.name`, type: 'Forbidden', detail: exclusive });
  }
  if (ref.selector !== undefined && ref.name)
    errs.push({ field: `${at}.selector`, type: 'Forbidden', detail: exclusive });
  if (!ref.name && ref.selector === undefined)
    errs.push({ field: at, type: 'Required value', detail: 'one of name or selector must be specified' });
  const action = ref.parameterNotFoundAction ?? '';
  if (action === '') errs.push({ field: `${at}.parameterNotFoundAction`, type: 'Required value', detail: '' });
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push({
      field: `${at}.parameterNotFoundAction`,
      type: 'Unsupported value',
      value: action,
      detail: `supported values: ${quoted(['Deny', 'Allow'])}`,
    });
  return errs;
}

export function validateBinding(
  binding: ValidatingAdmissionPolicyBinding,
  validateName: (name: string) => FieldError[],
): FieldError[] {
  const spec = binding.spec ?? {};
  return [
    ...validatePolicyBindingSpec(spec, validateName),
    ...validateValidationActions(spec.validationActions ?? [], 'spec.validationActions'),
  ];
}

/**
 * What every admission policy binding's spec is checked for, validating or mutating: its
 * policyName, paramRef and matchResources (validation.go validateValidatingAdmissionPolicyBindingSpec
 * and validateMutatingAdmissionPolicyBindingSpec share these checks).
 */
export function validatePolicyBindingSpec(
  spec: {
    policyName?: string;
    paramRef?: NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef'];
    matchResources?: MatchResources;
  },
  validateName: (name: string) => FieldError[],
): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push({ field: 'spec.policyName', type: 'Required value', detail: '' });
  else errs.push(...validateName(spec.policyName).map((e) => ({ ...e, field: 'spec.policyName' })));
  if (spec.paramRef !== undefined) errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  if (spec.matchResources !== undefined)
    errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources', false));
  return errs;
}

/**
 * admissionregistration.k8s.io/v1 serves both kinds from 1.30 (#123405); before, they are
 * v1alpha1 (1.26–1.27) and v1beta1 (1.28–1.29), off by default behind --runtime-config and the
 * ValidatingAdmissionPolicy gate, which this simulation does not model: a write is refused.
 */
function servedIn(release: Release, kind: string): FieldError[] {
  if (release.atLeast(30)) return [];
  return [
    {
      field: 'apiVersion',
      type: 'Forbidden',
      detail: `${kind} is served at admissionregistration.k8s.io/v1 from Kubernetes v1.30; the modelled release ${release.toString()} serves it only as v1alpha1/v1beta1 behind --runtime-config, which this simulation does not model`,
    },
  ];
}

/** The policy's registry strategy: cluster-scoped, failurePolicy Fail and matchConstraints defaulted, validated as above. */
export function validatingAdmissionPolicyStrategy(release: Release): Strategy<ValidatingAdmissionPolicy> {
  const base = genericStrategy<ValidatingAdmissionPolicy>({
    kind: 'ValidatingAdmissionPolicy',
    apiVersion: ADMISSION_REGISTRATION,
    resource: 'validatingadmissionpolicies',
    namespaced: false,
  });
  const defaults = (p: ValidatingAdmissionPolicy) => {
    p.spec ??= {};
    p.spec.failurePolicy ??= 'Fail';
    defaultMatchResources(p.spec.matchConstraints);
  };
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaults(obj);
    },
    validate: (obj) => [
      ...base.validate(obj),
      ...servedIn(release, 'ValidatingAdmissionPolicy'),
      ...validatePolicy(obj, release),
    ],
    prepareForUpdate(next, old) {
      defaults(next);
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [
      ...base.validateUpdate(next, old),
      ...servedIn(release, 'ValidatingAdmissionPolicy'),
      ...validatePolicy(next, release, old),
    ],
  };
}

/** The binding's registry strategy: cluster-scoped, its matchResources defaulted when given. */
export function validatingAdmissionPolicyBindingStrategy(
  release: Release,
  validateName: (name: string) => FieldError[],
): Strategy<ValidatingAdmissionPolicyBinding> {
  const base = genericStrategy<ValidatingAdmissionPolicyBinding>({
    kind: 'ValidatingAdmissionPolicyBinding',
    apiVersion: ADMISSION_REGISTRATION,
    resource: 'validatingadmissionpolicybindings',
    namespaced: false,
  });
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaultMatchResources(obj.spec?.matchResources);
    },
    validate: (obj) => [
      ...base.validate(obj),
      ...servedIn(release, 'ValidatingAdmissionPolicyBinding'),
      ...validateBinding(obj, validateName),
    ],
    prepareForUpdate(next, old) {
      defaultMatchResources(next.spec?.matchResources);
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [
      ...base.validateUpdate(next, old),
      ...servedIn(release, 'ValidatingAdmissionPolicyBinding'),
      ...validateBinding(next, validateName),
    ],
  };
}

import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { admissionActivation } from '../cel/admission';
import { compileExpression, type CompiledExpression } from '../cel/compile';
import { lazyVariables } from '../cel/composition';
import { celEnvironment } from '../cel/environment';
import { typeName } from '../cel/library/library';
import { StatusError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../apimachinery/types';
import { collectParams, namespaceObject, requestNamespace } from '../admissionpolicy/generic/policy-dispatcher';
import { PolicyMatcher } from '../admissionpolicy/generic/policy-matcher';
import type * as generic from '../admissionpolicy/generic/policy-source';
import { hookParams } from '../admissionpolicy/generic/policy-source';
import { admissionRequest, type AdmissionRequestInfo } from '../webhook/dispatcher';
import { ConditionMatcher } from '../webhook/match-conditions';
import type { AdmissionAttributes } from '../webhook/matching';
import { policyVariables } from './strategy';

const PLUGIN = 'staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating';

/** A ValidatingAdmissionPolicy with the bindings that name it (generic/policy_source.go PolicyHook). */
export type PolicyHook = generic.PolicyHook<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding>;

/** Where the plugin reads its policies, namespaces and params. */
export type PolicySource = generic.PolicySource<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding>;

/** A policy's expressions compiled once, in the release's environment (validating/plugin.go compilePolicy). */
class CompiledPolicy {
  readonly matcher: ConditionMatcher;
  readonly variables: readonly { readonly name: string; readonly program: CompiledExpression | string }[];
  readonly validations: readonly {
    readonly program: CompiledExpression | string;
    readonly message?: CompiledExpression;
  }[];
  readonly auditAnnotations: readonly { readonly key: string; readonly program: CompiledExpression | string }[];

  constructor(
    readonly policy: ValidatingAdmissionPolicy,
    release: Release,
  ) {
    const spec = policy.spec ?? {};
    this.matcher = new ConditionMatcher(spec, release, spec.paramKind !== undefined);
    const withAuthz = celEnvironment(release.minor, policyVariables(policy, true, release.minor));
    const withoutAuthz = celEnvironment(release.minor, policyVariables(policy, false, release.minor));
    const compile = (env: typeof withAuthz, expression: string, types: string[]) => {
      const r = compileExpression(env, expression, types);
      return 'error' in r ? r.error.detail : r.program;
    };
    this.variables = (spec.variables ?? []).map((v) => ({
      name: v.name,
      program: compile(withAuthz, v.expression, ['dyn']),
    }));
    this.validations = (spec.validations ?? []).map((v) => {
      const message = v.messageExpression?.trim() ? compile(withoutAuthz, v.messageExpression, ['string']) : undefined;
      return {
        program: compile(withAuthz, v.expression, ['bool']),
        message: typeof message === 'string' ? undefined : message,
      };
    });
    this.auditAnnotations = (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      program: compile(withAuthz, a.valueExpression.trim(), ['string', 'null_type']),
    }));
  }
}

/** One failed validation of one binding (validating/policy_decision.go PolicyDecision, action Deny). */
interface Decision {
  readonly policy: string;
  /** Absent for a policy's own configuration error (`failed to configure policy: …`). */
  readonly binding?: string;
  readonly message: string;
  readonly reason: string;
}

/** reasonToCode: the HTTP code of a validation's reason. */
const CODES: Readonly<Record<string, number>> = {
  Forbidden: 403,
  Unauthorized: 401,
  RequestEntityTooLarge: 413,
  Invalid: 422,
};

/**
 * R210 — the ValidatingAdmissionPolicy admission plugin (plugin/policy/validating/dispatcher.go
 * Dispatch, validator.go Validate), which runs before the validating webhooks. For each policy
 * whose matchConstraints match the request and each of its bindings whose matchResources do, the
 * policy's matchConditions, then its variables (evaluated when an expression reads them) and
 * validations are evaluated. A validation that is false fails with its message
 * (messageExpression, else message, else `failed expression: EXPR`) and reason (Invalid by
 * default); one that errs fails under failurePolicy Fail with the error and passes under Ignore.
 * The binding's validationActions decide: Deny fails the request with the first such failure,
 * `ValidatingAdmissionPolicy 'P' with binding 'B' denied request: MESSAGE`; Warn adds the warning
 * `Validation failed for ValidatingAdmissionPolicy 'P' with binding 'B': MESSAGE`; Audit (no audit
 * log here) only records it. Each outcome is an event on the `admission` lane.
 */
export class PolicyAdmission {
  private readonly compiled = new WeakMap<ValidatingAdmissionPolicy, CompiledPolicy>();

  constructor(
    private readonly timeline: Timeline,
    private readonly source: PolicySource,
    private readonly release: Release,
  ) {}

  has(): boolean {
    return this.source.hooks().length > 0;
  }

  /** Validates one request; returns its warnings, or throws the denial. */
  validate(info: AdmissionRequestInfo, object: KubeObject | undefined, oldObject: KubeObject | undefined): string[] {
    const a = info.attributes;
    const matcher = new PolicyMatcher(a, object, oldObject, (ns) => this.source.namespaceLabels(ns));
    const denied: Decision[] = [];
    const warnings: string[] = [];
    for (const { policy, bindings } of this.source.hooks()) {
      if (!matcher.definitionMatches(policy)) continue;
      const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
      const name = policy.metadata.name ?? '';
      // dispatcher.go addConfigError: a configuration error fails the request under Fail, whatever the binding's actions.
      const configError = (message: string, binding?: string) => {
        if (failurePolicy === 'Ignore') return;
        const d: Decision = { policy: name, binding, message, reason: 'Invalid' };
        denied.push(d);
        this.event(d, info, 'denied');
      };
      const paramKind = policy.spec?.paramKind;
      const params = hookParams(paramKind, this.source);
      if ('error' in params) {
        configError(params.error);
        continue;
      }
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) {
        compiled = new CompiledPolicy(policy, this.release);
        this.compiled.set(policy, compiled);
      }
      const annotations = new Map<string, string[]>();
      for (const binding of bindings) {
        if (!matcher.bindingMatches(binding)) continue;
        const collected = collectParams(paramKind, params.resource, binding, requestNamespace(info));
        if (typeof collected === 'string') {
          configError(`failed to configure binding: ${collected}`, binding.metadata.name ?? '');
          continue;
        }
        for (const param of collected) {
          const { decisions, audit } = this.evaluate(compiled, binding, info, object, oldObject, param);
          for (const d of decisions) {
            const actions = binding.spec?.validationActions ?? [];
            if (actions.includes('Deny')) denied.push(d);
            if (actions.includes('Warn'))
              warnings.push(
                `Validation failed for ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}': ${d.message}`,
              );
            this.event(d, info, actions.includes('Deny') ? 'denied' : actions.includes('Warn') ? 'warned' : 'audited');
          }
          for (const r of audit) {
            if ('error' in r) {
              const d: Decision = {
                policy: name,
                binding: binding.metadata.name ?? '',
                message: r.error,
                reason: 'Invalid',
              };
              denied.push(d);
              this.event(d, info, 'denied');
            } else {
              // auditAnnotationCollector.add: each distinct value once.
              const values = annotations.get(r.key) ?? [];
              if (!values.includes(r.value)) values.push(r.value);
              annotations.set(r.key, values);
            }
          }
        }
      }
      this.publish(name, annotations, info);
    }
    if (denied.length > 0) throw denial(denied[0], a);
    return warnings;
  }

  /** validator.go Validate for one binding and one param: its failed validations and its audit annotations. */
  private evaluate(
    compiled: CompiledPolicy,
    binding: ValidatingAdmissionPolicyBinding,
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    params: unknown,
  ): { decisions: Decision[]; audit: AuditResult[] } {
    const policy = compiled.policy;
    const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
    const decision = (message: string, reason = 'Invalid'): Decision => ({
      policy: policy.metadata.name ?? '',
      binding: binding.metadata.name ?? '',
      message,
      reason,
    });
    const request = admissionRequest(info, object, oldObject);
    const nsObject = namespaceObject(info, this.source);
    const match = compiled.matcher.match(request, object, oldObject, nsObject, params);
    if ('error' in match) return { decisions: failurePolicy === 'Ignore' ? [] : [decision(match.error)], audit: [] };
    if (!match.matches) return { decisions: [], audit: [] };
    const activation = admissionActivation({
      object,
      oldObject,
      request,
      namespaceObject: nsObject,
      params,
      variables: {},
    });
    activation.variables = lazyVariables(compiled, activation);
    const decisions: Decision[] = [];
    policy.spec?.validations?.forEach((v, i) => {
      const { program, message } = compiled.validations[i];
      const result =
        typeof program === 'string' ? { error: `compilation error: ${program}` } : program.evaluate(activation);
      if ('error' in result) {
        if (failurePolicy !== 'Ignore') decisions.push(decision(result.error));
        return;
      }
      if (result.value === true) return;
      const evaluated = message?.evaluate(activation);
      let text = evaluated && 'value' in evaluated && typeof evaluated.value === 'string' ? evaluated.value.trim() : '';
      if (text.includes('\n') || text.length > 5 * 1024) text = '';
      if (text === '') text = v.message?.trim() || `failed expression: ${v.expression.trim()}`;
      decisions.push(decision(text, v.reason ?? 'Invalid'));
    });
    return { decisions, audit: auditAnnotations(compiled, activation, failurePolicy) };
  }

  /**
   * auditAnnotationCollector.publish: the policy's annotations as `POLICY/KEY` (several distinct
   * values joined with `, `). There is no audit log here: each is an event on the `admission` lane.
   */
  private publish(
    policy: string,
    annotations: ReadonlyMap<string, readonly string[]>,
    info: AdmissionRequestInfo,
  ): void {
    const a = info.attributes;
    const path = `${a.resource}/${a.name}${a.subresource ? `/${a.subresource}` : ''}`;
    for (const key of [...annotations.keys()].sort()) {
      this.timeline.record(
        'admission',
        `policy ${policy} audit annotation ${a.operation} ${path}: ${policy}/${key}=${annotations.get(key)!.join(', ')}`,
        `${PLUGIN}/dispatcher.go`,
      );
    }
  }

  /** `policy P binding B denied UPDATE pods/web: MESSAGE` (warned, audited likewise; `policy P denied …` for the policy's own configuration error). */
  private event(d: Decision, info: AdmissionRequestInfo, what: 'denied' | 'warned' | 'audited'): void {
    const a = info.attributes;
    const path = `${a.resource}/${a.name}${a.subresource ? `/${a.subresource}` : ''}`;
    if (d.binding === undefined)
      this.timeline.record(
        'admission',
        `policy ${d.policy} ${what} ${a.operation} ${path}: ${d.message}`,
        `${PLUGIN}/dispatcher.go`,
      );
    else
      this.timeline.record(
        'admission',
        `policy ${d.policy} binding ${d.binding} ${what} ${a.operation} ${path}: ${d.message}`,
        `${PLUGIN}/dispatcher.go`,
      );
  }
}

/** One audit annotation's outcome (validator.go): published with its value, or an error that fails the request under Fail. */
type AuditResult = { readonly key: string; readonly value: string } | { readonly error: string };

/**
 * validator.go Validate, its audit annotations: a string is published (an empty one, and null,
 * are not); an error, or a value of another type, fails the request under failurePolicy Fail and
 * is left out under Ignore. A value is cut at 10 KiB (maxAuditAnnotationValueLength).
 */
function auditAnnotations(
  compiled: CompiledPolicy,
  activation: Record<string, unknown>,
  failurePolicy: string,
): AuditResult[] {
  const results: AuditResult[] = [];
  const failed = (error: string) => {
    if (failurePolicy !== 'Ignore') results.push({ error });
  };
  for (const { key, program } of compiled.auditAnnotations) {
    if (typeof program === 'string') {
      failed(`compilation error: ${program}`);
      continue;
    }
    const r = program.evaluate(activation);
    if ('error' in r) failed(r.error);
    else if (typeof r.value === 'string') {
      if (r.value !== '') results.push({ key, value: r.value.slice(0, 10 * 1024) });
    } else if (r.value !== null)
      failed(
        `valueExpression '${program.expression}' resulted in unsupported return type: ${typeName(r.value)}. Return type must be either string or null.`,
      );
  }
  return results;
}

/**
 * The denial (dispatcher.go): admission.NewForbidden's message (`pods "web" is forbidden: …`)
 * with the decision's reason and its code, the message also as a cause.
 */
function denial(d: Decision, a: AdmissionAttributes): StatusError {
  const text =
    d.binding === undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  const resource = a.group ? `${a.resource}.${a.group}` : a.resource;
  const message = `${resource}${a.name ? ` "${a.name}"` : ''} is forbidden: ${text}`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: d.reason,
    details: { name: a.name, ...(a.group ? { group: a.group } : {}), kind: a.resource, causes: [{ message: text }] },
    code: CODES[d.reason] ?? 422,
  });
}

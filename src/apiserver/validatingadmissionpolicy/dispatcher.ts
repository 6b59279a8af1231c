import type { Release } from '../../release';
import type { Timeline } from '../../timeline/timeline';
import { admissionActivation, celNamespaceObject } from '../cel/admission';
import { compileExpression, type CompiledExpression } from '../cel/compile';
import { celEnvironment } from '../cel/environment';
import { CelFunctionError } from '../cel/library/library';
import { StatusError } from '../errors';
import type { KubeObject } from '../object';
import type { Labels } from '../selectors';
import type { Namespace, NamedRuleWithOperations, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../types';
import { admissionRequest, type AdmissionRequestInfo } from '../webhook/dispatcher';
import { ConditionMatcher } from '../webhook/match-conditions';
import { ruleMatches, selectorsMatch, type AdmissionAttributes } from '../webhook/matching';
import { policyVariables } from './strategy';

const PLUGIN = 'staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating';

/** A policy with the bindings that name it (generic/policy_source.go PolicyHook). */
export interface PolicyHook {
  readonly policy: ValidatingAdmissionPolicy;
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
}

/** Where the plugin reads its policies and namespaces (the policy source's informers). */
export interface PolicySource {
  /** Policies in name order, each with its bindings in name order; bindings of a policy that does not exist are left out. */
  hooks(): readonly PolicyHook[];
  namespace(name: string): Namespace | undefined;
  namespaceLabels(name: string): Labels;
}

/** A policy's expressions compiled once, in the release's environment (validating/plugin.go compilePolicy). */
class CompiledPolicy {
  readonly matcher: ConditionMatcher;
  readonly variables: readonly { readonly name: string; readonly program: CompiledExpression | string }[];
  readonly validations: readonly { readonly program: CompiledExpression | string; readonly message?: CompiledExpression }[];

  constructor(readonly policy: ValidatingAdmissionPolicy, release: Release) {
    const spec = policy.spec ?? {};
    this.matcher = new ConditionMatcher(spec, release);
    const withAuthz = celEnvironment(release.minor, policyVariables(policy, true));
    const withoutAuthz = celEnvironment(release.minor, policyVariables(policy, false));
    const compile = (env: typeof withAuthz, expression: string, types: string[]) => {
      const r = compileExpression(env, expression, types);
      return 'error' in r ? r.error.detail : r.program;
    };
    this.variables = (spec.variables ?? []).map((v) => ({ name: v.name, program: compile(withAuthz, v.expression, ['dyn']) }));
    this.validations = (spec.validations ?? []).map((v) => {
      const message = v.messageExpression?.trim() ? compile(withoutAuthz, v.messageExpression, ['string']) : undefined;
      return { program: compile(withAuthz, v.expression, ['bool']), message: typeof message === 'string' ? undefined : message };
    });
  }
}

/** One failed validation of one binding (validating/policy_decision.go PolicyDecision, action Deny). */
interface Decision {
  readonly policy: string;
  readonly binding: string;
  readonly message: string;
  readonly reason: string;
}

/** reasonToCode: the HTTP code of a validation's reason. */
const CODES: Readonly<Record<string, number>> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

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
    const nsLabels = (ns: string) => this.source.namespaceLabels(ns);
    const denied: Decision[] = [];
    const warnings: string[] = [];
    for (const { policy, bindings } of this.source.hooks()) {
      const constraints = policy.spec?.matchConstraints;
      if (!constraints || !matchesResources(constraints.resourceRules, constraints.excludeResourceRules, constraints.namespaceSelector, constraints.objectSelector, a, object, oldObject, nsLabels, true)) continue;
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) {
        compiled = new CompiledPolicy(policy, this.release);
        this.compiled.set(policy, compiled);
      }
      for (const binding of bindings) {
        const m = binding.spec?.matchResources;
        if (m && !matchesResources(m.resourceRules, m.excludeResourceRules, m.namespaceSelector, m.objectSelector, a, object, oldObject, nsLabels, false)) continue;
        for (const d of this.evaluate(compiled, binding, info, object, oldObject)) {
          const actions = binding.spec?.validationActions ?? [];
          if (actions.includes('Deny')) denied.push(d);
          if (actions.includes('Warn')) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}': ${d.message}`);
          this.event(d, info, actions.includes('Deny') ? 'denied' : actions.includes('Warn') ? 'warned' : 'audited');
        }
      }
    }
    if (denied.length > 0) throw denial(denied[0], a);
    return warnings;
  }

  /** validator.go Validate for one binding: its failed validations. */
  private evaluate(compiled: CompiledPolicy, binding: ValidatingAdmissionPolicyBinding, info: AdmissionRequestInfo, object: KubeObject | undefined, oldObject: KubeObject | undefined): Decision[] {
    const policy = compiled.policy;
    const failurePolicy = policy.spec?.failurePolicy ?? 'Fail';
    const decision = (message: string, reason = 'Invalid'): Decision => ({ policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '', message, reason });
    const request = admissionRequest(info, object, oldObject);
    // The namespace of a namespaced request (a Namespace itself has none), for namespaceObject.
    const nsName = info.attributes.kind === 'Namespace' && info.attributes.group === '' ? '' : (info.attributes.namespace ?? '');
    const namespaceObject = nsName ? celNamespaceObject(this.source.namespace(nsName) as never) : null;
    const match = compiled.matcher.match(request, object, oldObject, namespaceObject);
    if ('error' in match) return failurePolicy === 'Ignore' ? [] : [decision(match.error)];
    if (!match.matches) return [];
    const activation = admissionActivation({ object, oldObject, request, namespaceObject, variables: {} });
    activation.variables = lazyVariables(compiled, activation);
    const decisions: Decision[] = [];
    policy.spec?.validations?.forEach((v, i) => {
      const { program, message } = compiled.validations[i];
      const result = typeof program === 'string' ? { error: `compilation error: ${program}` } : program.evaluate(activation);
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
    return decisions;
  }

  /** `policy P binding B denied UPDATE pods/web: MESSAGE` (warned, audited likewise). */
  private event(d: Decision, info: AdmissionRequestInfo, what: 'denied' | 'warned' | 'audited'): void {
    const a = info.attributes;
    const path = `${a.resource}/${a.name}${a.subresource ? `/${a.subresource}` : ''}`;
    this.timeline.record('admission', `policy ${d.policy} binding ${d.binding} ${what} ${a.operation} ${path}: ${d.message}`, `${PLUGIN}/dispatcher.go`);
  }
}

/**
 * composition.go: `variables.NAME` is evaluated when an expression first reads it, once per
 * request; its error is the reading expression's (`composited variable "NAME" fails to evaluate: …`).
 */
function lazyVariables(compiled: CompiledPolicy, activation: Record<string, unknown>): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const { name, program } of compiled.variables) {
    let cached: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(vars, name, {
      enumerable: true,
      get() {
        if (cached === undefined) {
          if (typeof program === 'string') cached = { error: `composited variable ${JSON.stringify(name)} fails to compile: ${program}` };
          else {
            const r = program.evaluate(activation);
            cached = 'error' in r ? { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${r.cause}` } : { value: r.value };
          }
        }
        if ('error' in cached) throw new CelFunctionError(cached.error);
        return cached.value;
      },
    });
  }
  return vars;
}

/**
 * policy/matching/matching.go Matches: the selectors, no exclude rule matching, and one of the
 * resource rules (with its resourceNames, when given). A binding without rules matches every
 * resource its policy does; a policy needs rules (validation requires them).
 */
function matchesResources(rules: readonly NamedRuleWithOperations[] | undefined, exclude: readonly NamedRuleWithOperations[] | undefined, nsSelector: Parameters<typeof selectorsMatch>[0], objSelector: Parameters<typeof selectorsMatch>[1], a: AdmissionAttributes, object: KubeObject | undefined, oldObject: KubeObject | undefined, namespaceLabels: (ns: string) => Labels, requireRules: boolean): boolean {
  if (!selectorsMatch(nsSelector, objSelector, a, object, oldObject, namespaceLabels)) return false;
  const named = (r: NamedRuleWithOperations) => ruleMatches(r, a) && ((r.resourceNames ?? []).length === 0 || r.resourceNames!.includes(a.name));
  if ((exclude ?? []).some(named)) return false;
  if ((rules ?? []).length === 0) return !requireRules;
  return rules!.some(named);
}

/**
 * The denial (dispatcher.go): admission.NewForbidden's message (`pods "web" is forbidden: …`)
 * with the decision's reason and its code, the message also as a cause.
 */
function denial(d: Decision, a: AdmissionAttributes): StatusError {
  const text = `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
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

import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { admissionActivation, celNamespaceObject } from '../cel/admission';
import { compileExpression, type CompiledExpression } from '../cel/compile';
import { celEnvironment } from '../cel/environment';
import { CelFunctionError, typeName } from '../cel/library/library';
import { StatusError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import { labelSelectorAsSelector, type Labels } from '../../apimachinery/selectors';
import type {
  Namespace,
  NamedRuleWithOperations,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicySpec,
} from '../../apimachinery/types';
import { admissionRequest, type AdmissionRequestInfo } from '../webhook/dispatcher';
import { ConditionMatcher } from '../webhook/match-conditions';
import { ruleMatches, selectorsMatch, type AdmissionAttributes } from '../webhook/matching';
import { parseGroupVersion, policyVariables } from './strategy';

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
  /** The served resource of a paramKind (the policy source's REST mapping), or undefined when nothing serves that kind. */
  paramResource(apiVersion: string, kind: string): ParamResource | undefined;
}

/** The objects of a param kind (the param informer's lister): cluster-scoped, or listed by namespace. */
export interface ParamResource {
  readonly namespaced: boolean;
  list(namespace: string | undefined): readonly KubeObject[];
}

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
    const nsLabels = (ns: string) => this.source.namespaceLabels(ns);
    const denied: Decision[] = [];
    const warnings: string[] = [];
    for (const { policy, bindings } of this.source.hooks()) {
      const constraints = policy.spec?.matchConstraints;
      if (
        !constraints ||
        !matchesResources(
          constraints.resourceRules,
          constraints.excludeResourceRules,
          constraints.namespaceSelector,
          constraints.objectSelector,
          a,
          object,
          oldObject,
          nsLabels,
          true,
        )
      )
        continue;
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
      const params =
        paramKind === undefined
          ? undefined
          : this.source.paramResource(paramKind.apiVersion ?? '', paramKind.kind ?? '');
      if (paramKind !== undefined && params === undefined) {
        // policy_source.go ensureParamsForPolicyLocked: the hook's ConfigurationError (a schema.GroupVersionKind as %v prints it).
        const gv = parseGroupVersion(paramKind.apiVersion ?? '');
        const gvk =
          typeof gv === 'string' ? `/, Kind=${paramKind.kind}` : `${gv.group}/${gv.version}, Kind=${paramKind.kind}`;
        configError(`failed to configure policy: failed to find resource referenced by paramKind: '${gvk}'`);
        continue;
      }
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) {
        compiled = new CompiledPolicy(policy, this.release);
        this.compiled.set(policy, compiled);
      }
      const annotations = new Map<string, string[]>();
      for (const binding of bindings) {
        const m = binding.spec?.matchResources;
        if (
          m &&
          !matchesResources(
            m.resourceRules,
            m.excludeResourceRules,
            m.namespaceSelector,
            m.objectSelector,
            a,
            object,
            oldObject,
            nsLabels,
            false,
          )
        )
          continue;
        const collected = collectParams(paramKind, params, binding, requestNamespace(info));
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
    // The namespace of a namespaced request (a Namespace itself has none), for namespaceObject.
    const nsName =
      info.attributes.kind === 'Namespace' && info.attributes.group === '' ? '' : (info.attributes.namespace ?? '');
    const namespaceObject = nsName ? celNamespaceObject(this.source.namespace(nsName) as never) : null;
    const match = compiled.matcher.match(request, object, oldObject, namespaceObject, params);
    if ('error' in match) return { decisions: failurePolicy === 'Ignore' ? [] : [decision(match.error)], audit: [] };
    if (!match.matches) return { decisions: [], audit: [] };
    const activation = admissionActivation({ object, oldObject, request, namespaceObject, params, variables: {} });
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
 * The request's namespace as admission.Attributes GetNamespace gives it: that of a namespaced
 * object; for a Namespace, the name in the request path (requestinfo.go: none for a CREATE, which
 * posts to /api/v1/namespaces); else none.
 */
export function requestNamespace(info: AdmissionRequestInfo): string {
  const a = info.attributes;
  if (a.group === '' && a.kind === 'Namespace') return a.operation === 'CREATE' ? '' : a.name;
  return a.namespace ?? '';
}

/**
 * generic/policy_dispatcher.go CollectParams: the params one binding evaluates its policy with.
 * No paramKind, or no paramRef: once with params null. A namespaced param kind is looked up in
 * paramRef.namespace, else the request's namespace (none for a cluster-scoped request: an error);
 * a cluster-scoped one refuses a namespace. By name, the one object (none when it is missing); by
 * selector, every matching one, each evaluated in turn. None found with parameterNotFoundAction
 * Deny is an error; with Allow the binding is skipped. An error is a string.
 */
export function collectParams(
  paramKind: ValidatingAdmissionPolicySpec['paramKind'],
  resource: ParamResource | undefined,
  binding: ValidatingAdmissionPolicyBinding,
  namespace: string,
): readonly unknown[] | string {
  const ref = binding.spec?.paramRef;
  if (paramKind === undefined || ref === undefined || resource === undefined) return [null];
  let paramsNamespace: string | undefined;
  if (resource.namespaced) {
    paramsNamespace = ref.namespace || namespace;
    if (!paramsNamespace)
      return 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources';
  } else if (ref.namespace) return 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`';
  let found: readonly KubeObject[];
  if (ref.name) {
    if (ref.selector !== undefined) return 'paramRef.name and paramRef.selector are mutually exclusive';
    found = resource.list(paramsNamespace).filter((o) => o.metadata.name === ref.name);
  } else if (ref.selector !== undefined) {
    const selector = labelSelectorAsSelector(ref.selector as never);
    found = resource.list(paramsNamespace).filter((o) => selector.matches(o.metadata.labels ?? {}));
  } else return 'one of name or selector must be provided';
  if (found.length === 0 && ref.parameterNotFoundAction === 'Deny')
    return 'no params found for policy binding with `Deny` parameterNotFoundAction';
  // wrappedParam: a built-in object's TypeMeta is filled in from the paramKind, so CEL sees apiVersion and kind.
  return found.map((o) => ({ apiVersion: paramKind.apiVersion, kind: paramKind.kind, ...o }));
}

/**
 * composition.go: `variables.NAME` is evaluated when an expression first reads it, once per
 * request; its error is the reading expression's (`composited variable "NAME" fails to evaluate: …`).
 */
export function lazyVariables(
  compiled: { readonly variables: readonly { readonly name: string; readonly program: CompiledExpression | string }[] },
  activation: Record<string, unknown>,
): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const { name, program } of compiled.variables) {
    let cached: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(vars, name, {
      enumerable: true,
      get() {
        if (cached === undefined) {
          if (typeof program === 'string')
            cached = { error: `composited variable ${JSON.stringify(name)} fails to compile: ${program}` };
          else {
            const r = program.evaluate(activation);
            cached =
              'error' in r
                ? { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${r.cause}` }
                : { value: r.value };
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
export function matchesResources(
  rules: readonly NamedRuleWithOperations[] | undefined,
  exclude: readonly NamedRuleWithOperations[] | undefined,
  nsSelector: Parameters<typeof selectorsMatch>[0],
  objSelector: Parameters<typeof selectorsMatch>[1],
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  namespaceLabels: (ns: string) => Labels,
  requireRules: boolean,
): boolean {
  if (!selectorsMatch(nsSelector, objSelector, a, object, oldObject, namespaceLabels)) return false;
  const named = (r: NamedRuleWithOperations) =>
    ruleMatches(r, a) && ((r.resourceNames ?? []).length === 0 || r.resourceNames!.includes(a.name));
  if ((exclude ?? []).some(named)) return false;
  if ((rules ?? []).length === 0) return !requireRules;
  return rules!.some(named);
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

import { admissionActivation, admissionVariables } from '../cel/admission';
import { compileExpression, type CompiledExpression } from '../cel/compile';
import { celEnvironment } from '../cel/environment';
import type { FieldError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import { qualifiedNameErrors } from '../../apimachinery/selectors';
import type { Release } from '../../foundation/release';
import type { AdmissionRequest } from './caller';
import type { Webhook, WebhookConfiguration } from './configuration';

/**
 * R208 — webhook matchConditions (KEP-3716; gate AdmissionWebhookMatchConditions: α 1.27 #116261,
 * β on 1.28, GA 1.30, removed 1.33): CEL conditions a request must all meet for the webhook to be
 * called. Validation after pkg/apis/admissionregistration/validation/validation.go
 * validateMatchConditions; evaluation after staging/src/k8s.io/apiserver/pkg/admission/plugin/
 * webhook/matchconditions/matcher.go Match.
 */

export interface MatchCondition {
  name: string;
  expression: string;
}

const MAX_CONDITIONS = 64;
/** MatchCondition.ReturnTypes: a condition is a bool. */
const RETURN_TYPES = ['bool'];
/** The declarations of a webhook's conditions: no params, the authorizer (validateMatchConditionsExpression, generic/webhook.go); namespaceObject from 1.28. */
const variablesOf = (release: Release, params = false) =>
  admissionVariables({ authorizer: true, namespaceObject: release.atLeast(28), params });

/**
 * DropDisabledValidatingWebhookConfigurationFields / …Mutating…: with the gate off (before 1.28,
 * and 1.26 has no such field at all), a configuration's conditions are dropped, unless the old
 * configuration already had some.
 */
export function dropDisabledMatchConditions(
  next: WebhookConfiguration,
  old: WebhookConfiguration | undefined,
  release: Release,
): void {
  if (release.enabled('AdmissionWebhookMatchConditions')) return;
  if (((old?.webhooks ?? []) as Webhook[]).some((h) => (h.matchConditions ?? []).length > 0)) return;
  for (const hook of (next.webhooks ?? []) as Webhook[])
    if (hook.matchConditions !== undefined) hook.matchConditions = [];
}

/**
 * validateMatchConditions / validateMatchCondition: at most 64, each with a qualified name (unique)
 * and an expression that compiles to a bool. A new expression compiles in the environment of the
 * compatibility version (the release before, environment.NewExpressions); one the old object
 * already had, in the release's own (StoredExpressions), so an update never fails on it.
 */
export function validateMatchConditions(
  conditions: readonly MatchCondition[],
  at: string,
  release: Release,
  stored: ReadonlySet<string>,
  params = false,
): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_CONDITIONS)
    errs.push({
      field: at,
      type: 'Too many',
      value: conditions.length,
      detail: `must have at most ${MAX_CONDITIONS} items`,
    });
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const here = `${at}[${i}]`;
    const expression = (c.expression ?? '').trim();
    if (expression === '') errs.push({ field: `${here}.expression`, type: 'Required value', detail: '' });
    else {
      const minor = stored.has(expression) ? release.minor : release.minor - 1;
      const compiled = compileExpression(celEnvironment(minor, variablesOf(release, params)), expression, RETURN_TYPES);
      if ('error' in compiled) {
        errs.push(
          compiled.error.type === 'Invalid'
            ? { field: `${here}.expression`, type: 'Invalid', value: expression, detail: compiled.error.detail }
            : { field: `${here}.expression`, type: 'Internal error', detail: compiled.error.detail },
        );
      }
    }
    if (!c.name) errs.push({ field: `${here}.name`, type: 'Required value', detail: '' });
    else
      for (const msg of qualifiedNameErrors(c.name))
        errs.push({ field: `${here}.name`, type: 'Invalid', value: c.name, detail: msg });
    if (c.name) {
      if (names.has(c.name)) errs.push({ field: `${here}.name`, type: 'Duplicate value', value: c.name, detail: '' });
      names.add(c.name);
    }
  });
  return errs;
}

/** The expressions a configuration already stores (validationOptions.preexistingExpressions). */
export function storedConditionExpressions(config: WebhookConfiguration | undefined): Set<string> {
  return new Set(
    ((config?.webhooks ?? []) as Webhook[]).flatMap((h) => (h.matchConditions ?? []).map((c) => c.expression.trim())),
  );
}

/** Match's outcome: call the webhook, skip it (the first condition that was false), or fail the request. */
export type MatchResult =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string; readonly ignoredError?: string }
  | { readonly error: string };

/** A webhook's conditions, compiled once (GetCompiledMatcher) in the release's environment. */
export class ConditionMatcher {
  private readonly compiled: readonly (CompiledExpression | string)[];

  /** `hook`: a webhook, or a ValidatingAdmissionPolicy's spec (its conditions and failurePolicy; `params` declared when it has a paramKind). */
  constructor(
    private readonly hook: { readonly matchConditions?: readonly MatchCondition[]; readonly failurePolicy?: string },
    release: Release,
    params = false,
  ) {
    const env = celEnvironment(release.minor, variablesOf(release, params));
    this.compiled = (hook.matchConditions ?? []).map((c) => {
      const r = compileExpression(env, c.expression, RETURN_TYPES);
      // activation.go Evaluate: a condition that did not compile is an evaluation error.
      return 'error' in r ? `compilation error: ${r.error.detail}` : r.program;
    });
  }

  /**
   * matcher.go Match: every condition in order; one that is false skips the webhook at once;
   * errors (a condition that errs, or is not a bool) are, when no condition was false, decided
   * by the failurePolicy: Fail fails the request with them (one, or `[a, b]`), Ignore skips the
   * webhook.
   */
  match(
    request: AdmissionRequest,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    namespaceObject: unknown = null,
    params: unknown = null,
  ): MatchResult {
    const activation = admissionActivation({ object, oldObject, request, namespaceObject, params });
    const errors: string[] = [];
    for (const [i, c] of this.compiled.entries()) {
      if (typeof c === 'string') {
        errors.push(c);
        continue;
      }
      const result = c.evaluate(activation);
      if ('error' in result) errors.push(result.error);
      else if (result.value === false) return { matches: false, failedCondition: this.hook.matchConditions![i].name };
      else if (result.value !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload`);
    }
    if (errors.length === 0) return { matches: true };
    // utilerrors.NewAggregate: one error as it is, several as `[a, b]`.
    const error = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return this.hook.failurePolicy === 'Ignore' ? { matches: false, ignoredError: error } : { error };
  }
}

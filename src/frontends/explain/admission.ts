import type { ClientIdentity } from '../../apiserver/apiserver';
import { celNamespaceObject } from '../../apiserver/cel/admission';
import type { Namespace, Pod, ValidatingAdmissionPolicy } from '../../apimachinery/types';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../apimachinery/validation';
import { ConditionMatcher, type MatchResult } from '../../apiserver/webhook/match-conditions';
import { admissionRequest } from '../../apiserver/webhook/dispatcher';
import type { Webhook } from '../../apiserver/webhook/configuration';
import type { AdmissionAttributes } from '../../apiserver/webhook/matching';
import { KUBECTL } from '../../cluster/cluster';
import type { Release } from '../../foundation/release';

/**
 * What admission does to the UPDATE that would release a held pod: the one removing a finalizer,
 * sent by the finalizer's holder. explain asks the resumed cluster's admission chain (R210's
 * policies) with a server-side dry run, and evaluates a webhook's matchConditions (R208) itself,
 * since the webhook's server is the real cluster's and is never called.
 */

/** The client that removes a finalizer: Kubernetes' own controller, as the run knows it; for any other, the kubectl of the remedy. */
export function finalizerHolder(finalizer: string): ClientIdentity {
  const own: Record<string, ClientIdentity> = {
    'batch.kubernetes.io/job-tracking': { name: 'job-controller', component: 'job' },
    [FINALIZER_FOREGROUND]: { name: 'garbage-collector', component: 'gc' },
    [FINALIZER_ORPHAN]: { name: 'garbage-collector', component: 'gc' },
  };
  return own[finalizer] ?? KUBECTL;
}

/** The JSON patch that removes the finalizer at `index`, guarded by a test (what explain's remedies send). */
export function finalizerRemoval(index: number, finalizer: string): unknown[] {
  return [
    { op: 'test', path: `/metadata/finalizers/${index}`, value: finalizer },
    { op: 'remove', path: `/metadata/finalizers/${index}` },
  ];
}

/** A policy denial as dispatcher.go words it: `ValidatingAdmissionPolicy 'P' with binding 'B' denied request: MESSAGE`. */
export interface PolicyDenial {
  policy: string;
  binding: string;
  message: string;
  /** The whole Status message the client gets (`pods "x" is forbidden: …`) and its code. */
  status: string;
  code: number;
}

const DENIAL = /ValidatingAdmissionPolicy '([^']*)' with binding '([^']*)' denied request: (.*)$/s;

/** Reads a denial from a Status message; undefined when the request failed for another reason. */
export function policyDenial(status: string, code: number): PolicyDenial | undefined {
  const m = DENIAL.exec(status);
  return m ? { policy: m[1], binding: m[2], message: m[3], status, code } : undefined;
}

/**
 * The validation of `policy` whose failure gave `message` (validator.go: the messageExpression's
 * value, else the message, else `failed expression: EXPR`): found by its message or expression;
 * with one validation, that one. Undefined when no validation can be told apart (a
 * messageExpression's text, among several).
 */
export function failedValidation(
  policy: ValidatingAdmissionPolicy,
  message: string,
): { expression: string; index: number } | undefined {
  const validations = policy.spec?.validations ?? [];
  const index = validations.findIndex(
    (v) =>
      message === `failed expression: ${v.expression.trim()}` ||
      (v.message?.trim() !== undefined && v.message.trim() === message),
  );
  if (index >= 0) return { expression: validations[index].expression.trim(), index };
  return validations.length === 1 ? { expression: validations[0].expression.trim(), index: 0 } : undefined;
}

/** What a webhook's matchConditions decide for the finalizer removal: called, or not (and which condition), or the request fails. */
export type ConditionsOutcome =
  | { called: true; conditions: string[] }
  | { called: false; condition?: string; ignoredError?: string }
  | { error: string };

/**
 * generic/webhook.go ShouldCallHook's last step for the UPDATE of `before` into `after` by `holder`:
 * the webhook's matchConditions (matchconditions/matcher.go Match, R208), evaluated as the
 * apiserver would. Undefined when it has none, or the release does not evaluate them (before 1.28
 * the gate is off and the apiserver dropped them on write).
 */
export function webhookConditions(
  hook: Webhook,
  before: Pod,
  after: Pod,
  holder: ClientIdentity,
  release: Release,
  namespace?: Namespace,
): ConditionsOutcome | undefined {
  const conditions = hook.matchConditions ?? [];
  if (conditions.length === 0 || !release.enabled('AdmissionWebhookMatchConditions')) return undefined;
  const attributes: AdmissionAttributes = {
    operation: 'UPDATE',
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    subresource: '',
    namespaced: true,
    namespace: before.metadata.namespace ?? 'default',
    name: before.metadata.name ?? '',
    dryRun: false,
  };
  const request = admissionRequest(
    {
      attributes,
      username: holder.name,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
      requestId: 0,
    },
    after,
    before,
  );
  const result: MatchResult = new ConditionMatcher(hook, release).match(
    request,
    after,
    before,
    celNamespaceObject(namespace as never),
  );
  if ('error' in result) return { error: result.error };
  if (result.matches) return { called: true, conditions: conditions.map((c) => c.name) };
  return { called: false, condition: result.failedCondition, ignoredError: result.ignoredError };
}

import type { Release } from '../../foundation/release';
import type { FieldError } from '../../apimachinery/errors';
import { genericStrategy } from '../generic-strategy';
import type { Strategy } from '../strategy';
import type {
  MutatingWebhook,
  MutatingWebhookConfiguration,
  RuleWithOperations,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from '../../apimachinery/types';
import { dropDisabledMatchConditions, storedConditionExpressions, validateMatchConditions } from './match-conditions';

/**
 * R201 — admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration:
 * their defaults (pkg/apis/admissionregistration/v1/defaults.go) and validation
 * (pkg/apis/admissionregistration/validation/validation.go), as the registry strategies of
 * pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration run them.
 */

/** One webhook of either kind; the mutating one adds reinvocationPolicy. */
export type Webhook = ValidatingWebhook & Partial<Pick<MutatingWebhook, 'reinvocationPolicy'>>;
export type WebhookConfiguration = ValidatingWebhookConfiguration | MutatingWebhookConfiguration;

export const ADMISSION_REGISTRATION = 'admissionregistration.k8s.io/v1';

/**
 * SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook / SetDefaults_Rule /
 * SetDefaults_ServiceReference: failurePolicy Fail, matchPolicy Equivalent, empty selectors
 * (everything), timeoutSeconds 10, rules' scope `*`, a service's port 443, and for mutating
 * webhooks reinvocationPolicy Never. Applied in place, as the decoder's defaulting does.
 */
export function defaultWebhooks(config: WebhookConfiguration, mutating: boolean): void {
  for (const hook of (config.webhooks ?? []) as Webhook[]) {
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    for (const rule of hook.rules ?? []) rule.scope ??= '*';
    if (hook.clientConfig?.service) hook.clientConfig.service.port ??= 443;
  }
}

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * validateValidatingWebhook / validateMutatingWebhook, for the fields this simulation reads;
 * matchConditions as match-conditions.ts validates them (R208), in the release's CEL
 * environment, an expression the old configuration had compiling as a stored one.
 */
export function validateWebhooks(
  config: WebhookConfiguration,
  mutating: boolean,
  release: Release,
  old?: WebhookConfiguration,
): FieldError[] {
  const stored = storedConditionExpressions(old);
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ((config.webhooks ?? []) as Webhook[]).forEach((hook, i) => {
    const at = `webhooks[${i}]`;
    if (!hook.name) errs.push({ field: `${at}.name`, type: 'Required value', detail: '' });
    else if (hook.name.split('.').length < 3)
      errs.push({
        field: `${at}.name`,
        type: 'Invalid',
        value: hook.name,
        detail: 'should be a domain with at least three segments separated by dots',
      });
    else if (names.has(hook.name))
      errs.push({ field: `${at}.name`, type: 'Invalid', value: hook.name, detail: 'Duplicate value' });
    names.add(hook.name);
    const versions = hook.admissionReviewVersions ?? [];
    if (versions.length === 0)
      errs.push({
        field: `${at}.admissionReviewVersions`,
        type: 'Required value',
        detail: 'must specify one of v1, v1beta1',
      });
    else if (!versions.some((v) => v === 'v1' || v === 'v1beta1'))
      errs.push({
        field: `${at}.admissionReviewVersions`,
        type: 'Invalid',
        value: versions,
        detail: 'must include at least one of v1, v1beta1',
      });
    if (hook.failurePolicy !== undefined && !['Fail', 'Ignore'].includes(hook.failurePolicy))
      errs.push({
        field: `${at}.failurePolicy`,
        type: 'Unsupported value',
        value: hook.failurePolicy,
        detail: `supported values: ${quoted(['Fail', 'Ignore'])}`,
      });
    if (hook.matchPolicy !== undefined && !['Equivalent', 'Exact'].includes(hook.matchPolicy))
      errs.push({
        field: `${at}.matchPolicy`,
        type: 'Unsupported value',
        value: hook.matchPolicy,
        detail: `supported values: ${quoted(['Equivalent', 'Exact'])}`,
      });
    if (hook.sideEffects === undefined || hook.sideEffects === '')
      errs.push({
        field: `${at}.sideEffects`,
        type: 'Required value',
        detail: 'must specify one of None, NoneOnDryRun',
      });
    else if (!['None', 'NoneOnDryRun'].includes(hook.sideEffects))
      errs.push({
        field: `${at}.sideEffects`,
        type: 'Unsupported value',
        value: hook.sideEffects,
        detail: `supported values: ${quoted(['None', 'NoneOnDryRun'])}`,
      });
    if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds < 1 || hook.timeoutSeconds > 30))
      errs.push({
        field: `${at}.timeoutSeconds`,
        type: 'Invalid',
        value: hook.timeoutSeconds,
        detail: 'the timeout value must be between 1 and 30 seconds',
      });
    if (mutating && hook.reinvocationPolicy !== undefined && !['Never', 'IfNeeded'].includes(hook.reinvocationPolicy))
      errs.push({
        field: `${at}.reinvocationPolicy`,
        type: 'Unsupported value',
        value: hook.reinvocationPolicy,
        detail: `supported values: ${quoted(['IfNeeded', 'Never'])}`,
      });
    errs.push(...validateClientConfig(hook, `${at}.clientConfig`));
    (hook.rules ?? []).forEach((rule, j) => errs.push(...validateRule(rule, `${at}.rules[${j}]`)));
    errs.push(...validateMatchConditions(hook.matchConditions ?? [], `${at}.matchConditions`, release, stored));
  });
  return errs;
}

function validateClientConfig(hook: Webhook, at: string): FieldError[] {
  const cc = hook.clientConfig ?? {};
  if ((cc.url === undefined) === (cc.service === undefined))
    return [{ field: at, type: 'Required value', detail: 'exactly one of url or service is required' }];
  if (cc.url !== undefined) {
    let url: URL;
    try {
      url = new URL(cc.url);
    } catch {
      return [{ field: `${at}.url`, type: 'Invalid', value: cc.url, detail: 'host must be specified' }];
    }
    if (url.protocol !== 'https:')
      return [{ field: `${at}.url`, type: 'Invalid', value: cc.url, detail: "'https' is the only allowed URL scheme" }];
    if (url.hash)
      return [{ field: `${at}.url`, type: 'Invalid', value: cc.url, detail: 'fragments are not permitted in the URL' }];
    if (url.search)
      return [
        { field: `${at}.url`, type: 'Invalid', value: cc.url, detail: 'query parameters are not permitted in the URL' },
      ];
    return [];
  }
  const svc = cc.service!;
  const errs: FieldError[] = [];
  if (!svc.name) errs.push({ field: `${at}.service.name`, type: 'Required value', detail: 'service name is required' });
  if (!svc.namespace)
    errs.push({ field: `${at}.service.namespace`, type: 'Required value', detail: 'service namespace is required' });
  if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535))
    errs.push({
      field: `${at}.service.port`,
      type: 'Invalid',
      value: svc.port,
      detail: 'port is not valid: must be between 1 and 65535, inclusive',
    });
  return errs;
}

export function validateRule(rule: RuleWithOperations, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errs.push({ field: `${at}.operations`, type: 'Required value', detail: '' });
  for (const [k, op] of ops.entries())
    if (!OPERATIONS.includes(op))
      errs.push({
        field: `${at}.operations[${k}]`,
        type: 'Unsupported value',
        value: op,
        detail: `supported values: ${quoted(OPERATIONS)}`,
      });
  for (const field of ['apiGroups', 'apiVersions', 'resources'] as const) {
    const values = rule[field] ?? [];
    if (values.length === 0) errs.push({ field: `${at}.${field}`, type: 'Required value', detail: '' });
    if (values.length > 1 && values.includes('*'))
      errs.push({
        field: `${at}.${field}`,
        type: 'Invalid',
        value: values,
        detail: "if '*' is present, must not specify other values",
      });
  }
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope))
    errs.push({
      field: `${at}.scope`,
      type: 'Unsupported value',
      value: rule.scope,
      detail: `supported values: ${quoted(SCOPES)}`,
    });
  return errs;
}

/** The registry strategy of either kind: cluster-scoped, defaulted on every write, disabled fields dropped, validated as above. */
export function webhookConfigurationStrategy<T extends WebhookConfiguration>(
  kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration',
  resource: string,
  release: Release,
): Strategy<T> {
  const mutating = kind === 'MutatingWebhookConfiguration';
  const base = genericStrategy<T>({ kind, apiVersion: ADMISSION_REGISTRATION, resource, namespaced: false });
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaultWebhooks(obj, mutating);
      dropDisabledMatchConditions(obj, undefined, release);
    },
    validate: (obj) => [...base.validate(obj), ...validateWebhooks(obj, mutating, release)],
    prepareForUpdate(next, old) {
      defaultWebhooks(next, mutating);
      dropDisabledMatchConditions(next, old, release);
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [
      ...base.validateUpdate(next, old),
      ...validateWebhooks(next, mutating, release, old),
    ],
  };
}

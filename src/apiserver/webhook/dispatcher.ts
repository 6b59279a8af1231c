import { applyPatch, type Operation } from 'fast-json-patch';
import { hash } from 'node:crypto';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { forbidden, StatusError } from '../../apimachinery/errors';
import { clone, jsonEqual, type KubeObject } from '../../apimachinery/object';
import type { Labels } from '../../apimachinery/selectors';
import type { AdmissionRequest, AdmissionReview, AdmissionResponse, WebhookCaller, WebhookOutcome } from './caller';
import type { Webhook } from './configuration';
import { callingWebhookMessage, internalError, webhookDenied } from './errors';
import { ConditionMatcher } from './match-conditions';
import { shouldCallHook, type AdmissionAttributes } from './matching';

const PLUGIN = 'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook';

/** A webhook with the configuration it belongs to (webhook.WebhookAccessor). */
export interface ConfiguredWebhook {
  readonly configuration: string;
  readonly hook: Webhook;
}

/** Where admission reads its webhooks and namespaces (the configuration managers' informers). */
export interface WebhookSource {
  /** Webhooks of every configuration of the kind, configurations sorted by name, webhooks in order. */
  webhooks(mutating: boolean): readonly ConfiguredWebhook[];
  namespaceLabels(namespace: string): Labels;
}

/** One request as admission sees it: its attributes and who sent it. */
export interface AdmissionRequestInfo {
  readonly attributes: AdmissionAttributes;
  readonly username: string;
  /** The request's options (CreateOptions, UpdateOptions, PatchOptions as UpdateOptions, DeleteOptions). */
  readonly options: Record<string, unknown> | null;
  /** The apiserver's request id: the reviews' uids derive from it, so runs repeat. */
  readonly requestId: number;
  /**
   * The scheme's defaulter of the object's kind (ObjectInterfaces.GetObjectDefaulter): the
   * mutating plugins default every object they patched (R203). Absent: the kind has no defaults.
   */
  readonly defaults?: (obj: KubeObject) => void;
}

/**
 * R203–R205 — the MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (webhook/mutating/
 * dispatcher.go, webhook/validating/dispatcher.go): for each webhook that should be called
 * (generic/webhook.go ShouldCallHook), an AdmissionReview through the WebhookCaller, its answer
 * verified and applied, and failures handled by the webhook's failurePolicy. Synchronous: the
 * caller answers at once (see WebhookCaller). Each call is one event on the `admission` lane.
 */
export class WebhookAdmission {
  /** Each webhook's compiled matchConditions (GetCompiledMatcher), for as long as its configuration is unchanged. */
  private readonly matchers = new WeakMap<Webhook, ConditionMatcher>();

  constructor(
    private readonly timeline: Timeline,
    private readonly source: WebhookSource,
    private readonly caller: () => WebhookCaller,
    private readonly release: Release,
  ) {}

  /** Are there webhooks of this kind at all (the plugins' Handles: nothing to do without them)? */
  has(mutating: boolean): boolean {
    return this.source.webhooks(mutating).length > 0;
  }

  /**
   * mutating/dispatcher.go Dispatch: the webhooks one after the other, each seeing the object as
   * the previous ones left it; a JSONPatch answer changes it. reinvocationPolicy IfNeeded: a
   * webhook that ran before another one changed the object is called once more, after the
   * first round (the reinvocation round of admission.ReinvocationContext). A DELETE has no
   * object (the dispatcher is called with none): its webhooks can deny it, not patch it.
   */
  mutate(
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    /**
     * The plugins before this one in the chain's second pass (the MutatingAdmissionPolicy
     * plugin's reinvocation), run between the webhooks' two rounds; `changed`: whether the
     * webhooks' first round changed the object. A change it makes asks every IfNeeded webhook
     * that ran to run again (IsOutputChangedSinceLastWebhookInvocation).
     */
    reinvokeBefore?: (object: KubeObject | undefined, changed: boolean) => KubeObject | undefined,
  ): KubeObject | undefined {
    const hooks = this.source
      .webhooks(true)
      .filter((w) =>
        shouldCallHook(w.hook, info.attributes, object, oldObject, (ns) => this.source.namespaceLabels(ns)),
      );
    let current = object;
    const changedAfter = new Map<string, boolean>();
    const round = (list: readonly ConfiguredWebhook[], n: number) => {
      for (const w of list) {
        // The conditions see the object as the webhooks before this one left it.
        if (!this.conditionsMatch(w.hook, info, current, oldObject, n)) continue;
        const before = current;
        current = this.callMutating(w.hook, info, current, oldObject, n);
        if (before !== current)
          for (const name of changedAfter.keys()) if (name !== w.hook.name) changedAfter.set(name, true);
        if (!changedAfter.has(w.hook.name)) changedAfter.set(w.hook.name, false);
      }
    };
    round(hooks, 0);
    if (reinvokeBefore !== undefined) {
      const before = current;
      current = reinvokeBefore(current, current !== object);
      if (current !== before) for (const name of changedAfter.keys()) changedAfter.set(name, true);
    }
    const again = hooks.filter((w) => w.hook.reinvocationPolicy === 'IfNeeded' && changedAfter.get(w.hook.name));
    if (again.length > 0) round(again, 1);
    return current;
  }

  /**
   * validating/dispatcher.go Dispatch: every matching webhook sees the final object (upstream
   * calls them in parallel; here in order, and the first failure in configuration order is the
   * answer, where upstream's is the first to arrive).
   */
  validate(info: AdmissionRequestInfo, object: KubeObject | undefined, oldObject: KubeObject | undefined): void {
    // Every webhook's conditions are decided before any is called (a condition's error ends the request first).
    const hooks = this.source
      .webhooks(false)
      .filter(
        (w) =>
          shouldCallHook(w.hook, info.attributes, object, oldObject, (ns) => this.source.namespaceLabels(ns)) &&
          this.conditionsMatch(w.hook, info, object, oldObject, 0),
      );
    let first: StatusError | undefined;
    for (const w of hooks) {
      try {
        const result = this.call(w.hook, info, object, oldObject, 0);
        if (result === undefined) continue;
        if (result.patch !== undefined && result.patch !== '')
          throw this.callFailed(
            w.hook,
            info,
            'received invalid webhook response: validating webhooks may not return patches',
          );
        if (!result.allowed) throw this.denied(w.hook, info, result);
        this.event(w.hook, info, 'allowed', undefined);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        first ??= e;
      }
    }
    if (first) throw first;
  }

  /**
   * R208 — generic/webhook.go ShouldCallHook's last step: a webhook with matchConditions is called
   * only when they all hold (matchconditions/matcher.go Match). A condition that errs under
   * failurePolicy Fail ends the request with a 403 Forbidden naming the error; a skipped webhook
   * is an event (`webhook NAME skipped …: matchCondition "C" is false`).
   */
  private conditionsMatch(
    hook: Webhook,
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    round: number,
  ): boolean {
    if ((hook.matchConditions ?? []).length === 0) return true;
    let matcher = this.matchers.get(hook);
    if (matcher === undefined) {
      matcher = new ConditionMatcher(hook, this.release);
      this.matchers.set(hook, matcher);
    }
    const result = matcher.match(admissionReview(hook, info, object, oldObject, round).request, object, oldObject);
    if ('error' in result) {
      const a = info.attributes;
      const err = forbidden(a.group ? `${a.resource}.${a.group}` : a.resource, a.name, result.error);
      this.event(hook, info, 'failed', err.status.message);
      throw err;
    }
    if (!result.matches)
      this.event(
        hook,
        info,
        'skipped',
        result.failedCondition
          ? `matchCondition ${JSON.stringify(result.failedCondition)} is false`
          : `${result.ignoredError} (failurePolicy Ignore)`,
      );
    return result.matches;
  }

  private callMutating(
    hook: Webhook,
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    round: number,
  ): KubeObject | undefined {
    const result = this.call(hook, info, object, oldObject, round);
    if (result === undefined) return object;
    if (!result.allowed) throw this.denied(hook, info, result);
    if (result.patch === undefined || result.patch === '' || object === undefined) {
      this.event(hook, info, 'allowed', undefined);
      return object;
    }
    let ops: Operation[];
    try {
      ops = JSON.parse(Buffer.from(result.patch, 'base64').toString('utf8')) as Operation[];
      if (!Array.isArray(ops)) throw new Error('a JSON patch is an array of operations');
    } catch (e) {
      throw this.failed(hook, info, internalError((e as Error).message));
    }
    let patched: KubeObject;
    try {
      patched = applyPatch(clone(object), ops, true, false).newDocument;
    } catch (e) {
      throw this.failed(hook, info, internalError((e as Error).message));
    }
    if (jsonEqual(patched, object)) {
      this.event(hook, info, 'allowed', undefined);
      return object;
    }
    this.event(hook, info, 'patched', `${ops.length} operation${ops.length === 1 ? '' : 's'}`);
    // mutating/dispatcher.go callAttrMutatingHook: the patched object is decoded and defaulted
    // again (GetObjectDefaulter().Default), so a default the patch removed is back (R203).
    info.defaults?.(patched);
    return patched;
  }

  /**
   * One call and its verification (request/admissionreview.go VerifyAdmissionResponse): the
   * response, or undefined when the call failed and failurePolicy Ignore lets the request on.
   */
  private call(
    hook: Webhook,
    info: AdmissionRequestInfo,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    round: number,
  ): AdmissionResponse | undefined {
    const review = admissionReview(hook, info, object, oldObject, round);
    const outcome: WebhookOutcome = this.caller().call(hook, review);
    let reason: string;
    if ('callError' in outcome) reason = `failed to call webhook: ${outcome.callError}`;
    else {
      const invalid = verify(outcome.response, review.request.uid);
      if (invalid === undefined) return outcome.response;
      reason = `received invalid webhook response: ${invalid}`;
    }
    if (hook.failurePolicy === 'Ignore') {
      this.event(hook, info, 'failed', `${reason} (failurePolicy Ignore: allowed)`);
      return undefined;
    }
    throw this.callFailed(hook, info, reason);
  }

  private callFailed(hook: Webhook, info: AdmissionRequestInfo, reason: string): StatusError {
    return this.failed(hook, info, internalError(callingWebhookMessage(hook.name, reason)));
  }

  private failed(hook: Webhook, info: AdmissionRequestInfo, err: StatusError): StatusError {
    this.event(hook, info, 'failed', err.status.message);
    return err;
  }

  private denied(hook: Webhook, info: AdmissionRequestInfo, result: AdmissionResponse): StatusError {
    const err = webhookDenied(hook.name, result.status);
    this.event(hook, info, 'denied', result.status?.message || result.status?.reason || 'without explanation');
    return err;
  }

  /** `webhook NAME denied UPDATE pods/web: MSG` (allowed, patched, failed likewise). */
  private event(
    hook: Webhook,
    info: AdmissionRequestInfo,
    what: 'allowed' | 'denied' | 'patched' | 'failed' | 'skipped',
    detail: string | undefined,
  ): void {
    const a = info.attributes;
    const path = `${a.resource}/${a.name}${a.subresource ? `/${a.subresource}` : ''}`;
    const dispatcher = hook.reinvocationPolicy === undefined ? 'validating' : 'mutating';
    this.timeline.record(
      'admission',
      `webhook ${hook.name} ${what} ${a.operation} ${path}${detail ? `: ${detail}` : ''}`,
      `${PLUGIN}/${dispatcher}/dispatcher.go`,
    );
  }
}

/** VerifyAdmissionResponse for v1 reviews: an answer, for this request. */
function verify(response: AdmissionResponse | undefined, uid: string): string | undefined {
  if (response === undefined || response === null) return 'webhook response was absent';
  if (response.uid !== uid)
    return `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`;
  if (response.patch !== undefined && response.patch !== '' && response.patchType === undefined)
    return 'webhook returned response.patch but not response.patchType';
  if (response.patchType !== undefined && response.patchType !== 'JSONPatch')
    return `webhook returned invalid response.patchType of ${JSON.stringify(response.patchType)}`;
  return undefined;
}

/**
 * CreateV1AdmissionReview: the request as the webhook sees it. The uid (a random UUID upstream)
 * derives from the request, the webhook and the reinvocation round, so runs repeat.
 */
export function admissionReview(
  hook: Webhook,
  info: AdmissionRequestInfo,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  round: number,
): AdmissionReview {
  const h = hash('sha1', `admission#${info.requestId}#${hook.name}#${round}`, 'hex');
  const uid = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: admissionRequest(info, object, oldObject, uid),
  };
}

/** The AdmissionRequest of one request (also what CEL's `request` is made from, without the uid). */
export function admissionRequest(
  info: AdmissionRequestInfo,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  uid = '',
): AdmissionRequest {
  const a = info.attributes;
  const kind = a.objectKind ?? { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  const request: AdmissionRequest = {
    uid,
    kind,
    resource,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: kind,
    requestResource: resource,
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    name: a.name,
    ...(a.namespaced ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: { username: info.username },
    object: object ?? null,
    oldObject: oldObject ?? null,
    dryRun: a.dryRun,
    options: info.options,
  };
  return request;
}

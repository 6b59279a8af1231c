import type { KubeObject } from '../../apimachinery/object';
import type { Webhook } from './configuration';

/**
 * admission/v1 AdmissionReview as kube-apiserver sends it to a webhook
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go
 * CreateV1AdmissionReview).
 */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind: { group: string; version: string; kind: string };
  requestResource: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo: { username: string; groups?: string[] };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: Record<string, unknown> | null;
}

export interface AdmissionReview {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  request: AdmissionRequest;
}

/** admission/v1 AdmissionResponse, as a webhook answers (only the fields kube-apiserver reads). */
export interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string; details?: unknown };
  /** A base64-encoded JSON Patch (patchType JSONPatch), mutating webhooks only. */
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

/**
 * What calling one webhook came to: the webhook's response, or the reason the call failed
 * (`Post "URL": …`, worded as Go's HTTP client words it), subject to the failurePolicy.
 */
export type WebhookOutcome = { response: AdmissionResponse } | { callError: string };

/**
 * How the apiserver reaches webhooks. The admission chain is synchronous (the core is): a caller
 * answers at once. In scenarios the answer is modelled (ModelledWebhookCaller); in `serve` the
 * HTTP layer calls the real webhook before the request runs and hands the answers in
 * (src/frontends/server/webhook-client.ts), throwing WebhookCallPending for a call it has not made yet.
 */
export interface WebhookCaller {
  call(hook: Webhook, review: AdmissionReview): WebhookOutcome;
}

/**
 * Thrown by a caller that has no answer yet: the request stops before anything is stored (the
 * admission chain runs before storage) and leaves no trace, and the HTTP layer runs it again once
 * it has called the webhook.
 */
export class WebhookCallPending extends Error {
  constructor(
    readonly hook: Webhook,
    readonly review: AdmissionReview,
  ) {
    super(`webhook "${hook.name}" has not been called yet`);
    this.name = 'WebhookCallPending';
  }
}

/** The caller when none is configured: every call fails as an unreachable address does. */
export const NO_WEBHOOK_CALLER: WebhookCaller = {
  call: (hook) => ({
    callError: `Post "${webhookUrl(hook)}": no webhook server is reachable from this simulated kube-apiserver`,
  }),
};

/**
 * The URL kube-apiserver posts to (webhook/config ClientConfig + rest client): `url` as given,
 * or `https://NAME.NAMESPACE.svc:PORT/PATH` for a service; both with `?timeout=Ns`, the request
 * timeout client-go's rest client adds to the query.
 */
export function webhookUrl(hook: Webhook): string {
  const cc = hook.clientConfig ?? {};
  const timeout = `timeout=${hook.timeoutSeconds ?? 10}s`;
  if (cc.url !== undefined) return `${cc.url}${cc.url.includes('?') ? '&' : '?'}${timeout}`;
  const svc = cc.service!;
  const path = svc.path ?? '';
  return `https://${svc.name}.${svc.namespace}.svc:${svc.port ?? 443}${path}?${timeout}`;
}

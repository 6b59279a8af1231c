import { StatusError } from '../../apimachinery/errors';
import type { Status } from '../../apimachinery/types';

/**
 * R204 — the errors webhook admission answers with (staging/src/k8s.io/apiserver/pkg/admission/plugin/
 * webhook/errors/statuserror.go ToStatusErr, and webhook/errors.go ErrCallingWebhook as the
 * dispatchers turn it into apierrors.NewInternalError).
 */

/**
 * ToStatusErr: a webhook's rejection. Its status keeps the webhook's code (at least 400) and
 * reason; the message says who denied it and why: the webhook's message, else its reason, else
 * `without explanation`.
 */
export function webhookDenied(
  webhookName: string,
  result: { code?: number; message?: string; reason?: string; details?: unknown } | undefined,
): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const code = result?.code !== undefined && result.code >= 400 ? result.code : 400;
  const message = result?.message
    ? `${deniedBy}: ${result.message}`
    : result?.reason
      ? `${deniedBy}: ${result.reason}`
      : `${deniedBy} without explanation`;
  const status: Status & { code: number; reason: string; message: string } = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: result?.reason ?? '',
    code,
  };
  if (result?.details !== undefined) status.details = result.details as Status['details'];
  // An answer to the client, never a bug to trace: no stack (a webhook down answers every request it sees).
  return new StatusError(status, false);
}

/** ErrCallingWebhook.Error(): `failed calling webhook "NAME": REASON`. */
export function callingWebhookMessage(webhookName: string, reason: string): string {
  return `failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`;
}

/**
 * apierrors.NewInternalError: 500 InternalError, `Internal error occurred: …`, with the error as
 * the one cause (a webhook that cannot be called under failurePolicy Fail, or a bad patch).
 */
export function internalError(message: string): StatusError {
  return new StatusError(
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${message}`,
      reason: 'InternalError',
      details: { causes: [{ message }] },
      code: 500,
    },
    // The client's answer, as webhookDenied's: no stack.
    false,
  );
}

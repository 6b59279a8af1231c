import { StatusError } from '../../apimachinery/errors';

export { unknownError } from '../../apimachinery/errors';
import type { Status } from '../../apimachinery/types';

/**
 * R75 — the HTTP-level failures of kube-apiserver as metav1.Status
 * (staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go; the not-found handler of
 * staging/src/k8s.io/apiserver/pkg/util/notfoundhandler).
 */
function failure(code: number, reason: string, message: string, details?: Status['details']): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

/** A path no route serves (notfoundhandler: errors.NewNotFound(schema.GroupResource{}, "")). */
export function pathNotFound(): StatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** errors.NewMethodNotSupported: a verb the resource does not offer. */
export function methodNotSupported(group: string, resource: string, action: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualified}"`, {
    group,
    kind: resource,
  });
}

/** errors.NewUnsupportedMediaTypeError: a body in a format the endpoint does not decode. */
export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** negotiation.NewNotAcceptableError: no Accept entry the server can produce. */
export function notAcceptable(accepted: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** errors.NewRequestEntityTooLargeError, as handlers/rest.go limitedReadBody answers an oversized body. */
export function requestEntityTooLarge(limit: number): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** errors.NewInternalError: a bug of the simulation, reported rather than crashing the server. */
export function internalError(err: unknown): StatusError {
  const message = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

import type { Status } from './types';
import type { StatusCause } from 'kubernetes-types/meta/v1';

/**
 * An Error that can be built without capturing a stack trace (`withStack` false): for errors that
 * are expected answers, always caught, where the stack would never be read but costs a walk of the
 * call stack each time. The message stays complete.
 */
export class ErrorWithOptionalStack extends Error {
  constructor(message: string, withStack: boolean) {
    const limit = Error.stackTraceLimit;
    if (!withStack) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * An API error shaped like the apiserver's `metav1.Status` failures
 * (upstream: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go).
 */
export class StatusError extends ErrorWithOptionalStack {
  readonly status: Status & { code: number; reason: string; message: string };

  /**
   * `withStack` false builds it without a stack trace (ErrorWithOptionalStack): for answers that
   * are expected (a GET of a pod already gone is routine for the kubelet and the controllers).
   */
  constructor(status: Status & { code: number; reason: string; message: string }, withStack = true) {
    super(status.message, withStack);
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason;
  }
}

function failure(
  code: number,
  reason: string,
  message: string,
  details: Status['details'],
  withStack = true,
): StatusError {
  return new StatusError(
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code },
    withStack,
  );
}

/** errors.NewNotFound: `pods "web" not found`. */
export function notFound(resource: string, name: string): StatusError {
  return failure(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource }, false);
}

/** errors.NewAlreadyExists; the store prefixes "object is being deleted: " for a terminating object (R34). */
export function alreadyExists(resource: string, name: string, beingDeleted = false): StatusError {
  const message = `${beingDeleted ? 'object is being deleted: ' : ''}${resource} "${name}" already exists`;
  return failure(409, 'AlreadyExists', message, { name, kind: resource });
}

/** errors.NewConflict: `Operation cannot be fulfilled on pods "web": <cause>`. */
export function conflict(resource: string, name: string, cause: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${name}": ${cause}`, {
    name,
    kind: resource,
  });
}

/** One field error of a validation failure (field.Error). */
export interface FieldError {
  field: string;
  type:
    | 'Invalid'
    | 'Forbidden'
    | 'Unsupported value'
    | 'Required value'
    | 'Too long'
    | 'Too many'
    | 'Duplicate value'
    | 'Internal error';
  detail: string;
  value?: unknown;
  /** The value as upstream prints it, where JSON would print it otherwise (Go's %#v of a map or a list). */
  printedValue?: string;
  /** field.TypeInvalid: prints as Invalid, but its cause reason is FieldValueTypeInvalid. */
  typeInvalid?: boolean;
}

/**
 * encoding/json's text of a value built in Go's field order, as field.Error.ErrorBody prints a
 * map, list or struct from 1.34 (kubernetes#132314): a map's keys sorted (Go sorts them; the
 * caller sorts), and `<`, `>`, `&`, U+2028 and U+2029 escaped as Go's HTMLEscape does.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function describeFieldError(e: FieldError): string {
  const value =
    e.printedValue !== undefined ? `: ${e.printedValue}` : e.value === undefined ? '' : `: ${JSON.stringify(e.value)}`;
  // field.Error.ErrorBody: Required, Forbidden, Too long and Internal error print no value; with no detail they end at their type.
  if (e.type === 'Forbidden' || e.type === 'Required value' || e.type === 'Too long' || e.type === 'Internal error')
    return e.detail ? `${e.field}: ${e.type}: ${e.detail}` : `${e.field}: ${e.type}`;
  // field.ErrorTypeInvalid prints as "Invalid value" (field/errors.go ErrorType.String).
  const body = `${e.field}: ${e.type === 'Invalid' ? 'Invalid value' : e.type}${value}`;
  return e.detail === '' ? body : `${body}: ${e.detail}`;
}

/** field.ErrorType -> metav1.CauseType, as errors.NewInvalid reports them. */
const CAUSE_REASON: Record<FieldError['type'], string> = {
  Invalid: 'FieldValueInvalid',
  Forbidden: 'FieldValueForbidden',
  'Unsupported value': 'FieldValueNotSupported',
  'Required value': 'FieldValueRequired',
  'Too long': 'FieldValueTooLong',
  'Too many': 'FieldValueTooMany',
  'Duplicate value': 'FieldValueDuplicate',
  'Internal error': 'InternalError',
};

/** errors.NewInvalid: `Pod "web" is invalid: metadata.finalizers: Forbidden: …` (422). */
export function invalid(qualifiedKind: string, name: string, errs: readonly FieldError[]): StatusError {
  const list = errs.map(describeFieldError);
  const body = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  const causes: StatusCause[] = errs.map((e) => ({
    reason: e.typeInvalid ? 'FieldValueTypeInvalid' : CAUSE_REASON[e.type],
    message: describeFieldError(e).slice(e.field.length + 2),
    field: e.field,
  }));
  return failure(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${body}`, {
    name,
    kind: qualifiedKind.split('.')[0],
    causes,
  });
}

/**
 * A 422 Invalid whose message is the whole explanation (no field causes): errors.NewGenericServerResponse
 * with StatusUnprocessableEntity, as patch.go answers a patch that cannot be applied.
 */
export function unprocessable(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'Invalid',
    code: 422,
    message,
  });
}

/** errors.NewBadRequest (400). */
export function badRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message, undefined);
}

/** errors.NewTooManyRequests: 429 TooManyRequests; details.retryAfterSeconds when given (the server sends it as Retry-After). */
export function tooManyRequests(message: string, retryAfterSeconds: number, causes: StatusCause[] = []): StatusError {
  return failure(429, 'TooManyRequests', message, {
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    ...(causes.length > 0 ? { causes } : {}),
  });
}

/** errors.NewForbidden: `poddisruptionbudgets.policy "web-pdb" is forbidden: <cause>`. */
export function forbidden(qualifiedResource: string, name: string, cause: string): StatusError {
  const [resource, ...group] = qualifiedResource.split('.');
  // An empty name is left out of the message (`pods is forbidden: …`).
  return failure(403, 'Forbidden', `${qualifiedResource}${name ? ` "${name}"` : ''} is forbidden: ${cause}`, {
    name,
    group: group.join('.') || undefined,
    kind: resource,
  });
}

/**
 * responsewriters.ErrorToAPIStatus of an error that is not a Status (a bare Go error reaching
 * scope.err): 500 with the error's own text and the empty StatusReasonUnknown, which the JSON
 * encoding omits.
 */
export function unknownError(message: string): StatusError {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
  return new StatusError(status as ConstructorParameters<typeof StatusError>[0]);
}

import { badRequest, unknownError } from '../apimachinery/errors';
import { clone } from '../apimachinery/object';
import type { DeleteOptions } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/** DELETE's options in the canonical order (docs/steps.md): `gracePeriodSeconds=0 propagationPolicy=Background …`. */
export function describeDeleteOptions(o: DeleteOptions): string {
  const parts: string[] = [];
  if (o.gracePeriodSeconds !== undefined) parts.push(`gracePeriodSeconds=${o.gracePeriodSeconds}`);
  if (o.propagationPolicy !== undefined) parts.push(`propagationPolicy=${o.propagationPolicy}`);
  if (o.orphanDependents !== undefined) parts.push(`orphanDependents=${o.orphanDependents}`);
  if (o.preconditions?.uid !== undefined) parts.push(`preconditions.uid=${o.preconditions.uid}`);
  if (o.preconditions?.resourceVersion !== undefined)
    parts.push(`preconditions.resourceVersion=${o.preconditions.resourceVersion}`);
  if (o.dryRun !== undefined && o.dryRun.length > 0) parts.push(`dryRun=${o.dryRun.join(',')}`);
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/**
 * R1 — handlers/delete.go DeleteResource: a non-empty body (`undefined` here means an empty one;
 * even `{}` is a body of two bytes) is the only source of DeleteOptions; with an empty body they
 * are decoded from the query string (meta/v1 conversion.go: gracePeriodSeconds through
 * strconv.ParseInt, where a bad value is a 400; orphanDependents false only for "0" or "false",
 * any case, true otherwise; dryRun taken as given).
 */
export function deleteOptionsFromRequest(
  body: DeleteOptions | undefined,
  query: Record<string, string> = {},
): DeleteOptions {
  if (body !== undefined) return clone(body);
  const options: DeleteOptions = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === 'gracePeriodSeconds') {
      if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
      }
      options.gracePeriodSeconds = Number(value);
    } else if (key === 'propagationPolicy') options.propagationPolicy = value;
    else if (key === 'orphanDependents') options.orphanDependents = !(value === '0' || value.toLowerCase() === 'false');
    else if (key === 'dryRun') options.dryRun = [value];
  }
  return options;
}

/** The Go type of each top-level metav1.DeleteOptions field, as encoding/json names it in its errors. */
const GO_TYPES: Record<string, 'int64' | 'bool' | 'v1.DeletionPropagation' | '[]string' | 'v1.Preconditions'> = {
  gracePeriodSeconds: 'int64',
  preconditions: 'v1.Preconditions',
  orphanDependents: 'bool',
  propagationPolicy: 'v1.DeletionPropagation',
  dryRun: '[]string',
  ignoreStoreReadErrorWithClusterBreakingPotential: 'bool',
};

/** How encoding/json names a JSON value in an UnmarshalTypeError. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // 'string' | 'number' | 'object'
}

/** The first field whose JSON value does not fit its Go type, as encoding/json reports it; null fits every field. */
function typeError(options: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(options)) {
    const type = GO_TYPES[field];
    if (type === undefined || value === null) continue;
    const where = `Go struct field DeleteOptions.${field} of type`;
    const kind = jsonKind(value);
    if (type === 'int64') {
      if (kind !== 'number') return `json: cannot unmarshal ${kind} into ${where} int64`;
      if (!Number.isSafeInteger(value)) return `json: cannot unmarshal number ${String(value)} into ${where} int64`;
    } else if (type === 'bool' && kind !== 'bool') return `json: cannot unmarshal ${kind} into ${where} bool`;
    else if (type === 'v1.DeletionPropagation' && kind !== 'string')
      return `json: cannot unmarshal ${kind} into ${where} ${type}`;
    else if (type === 'v1.Preconditions' && kind !== 'object')
      return `json: cannot unmarshal ${kind} into ${where} ${type}`;
    else if (type === '[]string') {
      if (kind !== 'array') return `json: cannot unmarshal ${kind} into ${where} []string`;
      const bad = (value as unknown[]).find((v) => typeof v !== 'string' && v !== null);
      if (bad !== undefined) return `json: cannot unmarshal ${jsonKind(bad)} into ${where} string`;
    }
  }
  return undefined;
}

/**
 * V7 — a DeleteOptions body whose fields have the wrong JSON types (handlers/delete.go
 * DeleteResource and DeleteCollection, decoding the body). Up to v1.34 the decoder's error went
 * to scope.err as a bare error: 500 with reason Unknown. From v1.35 it is wrapped in
 * errors.NewBadRequest (kubernetes#133358): 400 BadRequest, same message.
 */
export function checkDeleteOptionsTypes(options: Record<string, unknown>, release: Release): DeleteOptions {
  const message = typeError(options);
  if (message === undefined) return options as DeleteOptions;
  throw release.atLeast(35) ? badRequest(message) : unknownError(message);
}

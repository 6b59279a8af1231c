import { badRequest } from '../apimachinery/errors';
import { clone } from '../apimachinery/object';
import type { DeleteOptions } from '../apimachinery/types';

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

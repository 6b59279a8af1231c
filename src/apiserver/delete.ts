import type { DeleteOptions } from '../apimachinery/types';
import { conflict, invalid } from '../apimachinery/errors';
import { fromTime, toTime, type KubeObject } from '../apimachinery/object';
import type { Strategy } from './strategy';
import type { Release } from '../foundation/release';
import { validateDeleteOptions } from '../apimachinery/validation';

export interface BeforeDeleteResult {
  /** The object should be stamped (deletionTimestamp/deletionGracePeriodSeconds) rather than removed now. */
  graceful: boolean;
  /** The object is already being deleted with a grace period no longer than the one asked for: do nothing. */
  pending: boolean;
}

/**
 * rest.BeforeDelete: decides, for one stored copy of the object, whether a DELETE stamps it
 * (graceful), does nothing (pending) or falls through to removal. Mutates both `obj` (the copy)
 * and `options` (the computed grace is written back, R10), as upstream does.
 */
export function beforeDelete<T extends KubeObject>(
  strategy: Strategy<T>,
  obj: T,
  options: DeleteOptions,
  now: number,
  release: Release,
): BeforeDeleteResult {
  const meta = obj.metadata;
  // R2: options are validated again here for callers that bypass the HTTP handler.
  const errs = validateDeleteOptions(options);
  if (errs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', '', errs);
  // R41: preconditions are checked first, against this copy; the error names the kind, not the resource.
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    throw conflict(
      strategy.kind,
      meta.name ?? '',
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      strategy.kind,
      meta.name ?? '',
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
  // R5/R20: negative grace, asked or stored, counts as 1 s on the delete path (since v1.22).
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0)
    meta.deletionGracePeriodSeconds = 1;

  if (!strategy.checkGracefulDelete) return { graceful: false, pending: false };

  if (meta.deletionTimestamp !== undefined) {
    const stored = meta.deletionGracePeriodSeconds;
    // R19: stamped with no or zero grace: nothing left to wait for, delete now (recovery path).
    if (stored === undefined || stored === 0) return { graceful: false, pending: false };
    if (options.gracePeriodSeconds === undefined) {
      // R22: no grace asked: the pending deletion keeps its grace.
      options.gracePeriodSeconds = stored;
      return { graceful: false, pending: true };
    }
    const period = options.gracePeriodSeconds;
    // R21: only a shorter grace period may be given.
    if (period >= stored) return { graceful: false, pending: true };
    // R23: shorten, anchored to the time of the first DELETE.
    let deletionTimestamp = fromTime(meta.deletionTimestamp) - stored * 1000 + period * 1000;
    let grace = period;
    // Since v1.33 (kubernetes#122646) a time before now becomes now, and a graceful request (g > 0)
    // whose grace has run out keeps one second, so that someone still sends the final grace-0
    // DELETE. Up to v1.32 the past time and g were stored as computed.
    if (release.atLeast(33) && deletionTimestamp < now) {
      deletionTimestamp = now;
      if (period !== 0) grace = 1;
    }
    meta.deletionTimestamp = toTime(deletionTimestamp);
    meta.deletionGracePeriodSeconds = grace;
    return { graceful: true, pending: false };
  }

  if (!strategy.checkGracefulDelete(obj, options)) return { graceful: false, pending: false };
  const period = options.gracePeriodSeconds ?? 0;
  // R12: first stamping; the generation moves only when deletionTimestamp goes from unset to set.
  meta.deletionTimestamp = toTime(now + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pending: false };
}

import type { DeleteOptions, ObjectMeta } from './types';
import type { FieldError } from './errors';
import { qualifiedNameErrors } from './selectors';

/** The two finalizers the garbage collector owns (metav1.FinalizerOrphanDependents / FinalizerDeleteDependents). */
export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
const STANDARD_FINALIZERS = new Set(['kubernetes', FINALIZER_ORPHAN, FINALIZER_FOREGROUND]);

/**
 * R2 — apimachinery/pkg/apis/meta/v1/validation ValidateDeleteOptions and ValidateDryRun:
 * orphanDependents and propagationPolicy are exclusive, the policy must be one of three values,
 * and dryRun may only hold "All". The grace period itself is never validated.
 */
export function validateDeleteOptions(options: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push({
      field: 'propagationPolicy',
      type: 'Invalid',
      value: options.propagationPolicy,
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  const policy = options.propagationPolicy;
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    errs.push({
      field: 'propagationPolicy',
      type: 'Unsupported value',
      value: policy,
      detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  }
  const bad = (options.dryRun ?? []).filter((v) => v !== 'All');
  if (bad.length > 0) {
    errs.push({ field: 'dryRun', type: 'Unsupported value', value: options.dryRun, detail: 'supported values: "All"' });
  }
  return errs;
}

/**
 * apimachinery/pkg/api/validation/objectmeta.go ValidateFinalizers: names must be standard or
 * domain-qualified, and "orphan" and "foregroundDeletion" cannot be set together (R31).
 */
export function validateFinalizers(finalizers: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    if (
      !STANDARD_FINALIZERS.has(f) &&
      !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(f)
    ) {
      errs.push({
        field: `metadata.finalizers[${i}]`,
        type: 'Invalid',
        value: f,
        detail: 'name is neither a standard finalizer name nor is it fully qualified',
      });
    }
  });
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_FOREGROUND)) {
    errs.push({
      field: 'metadata.finalizers',
      type: 'Invalid',
      value: finalizers,
      detail: `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_FOREGROUND} cannot be both set`,
    });
  }
  return errs;
}

/**
 * apimachinery/pkg/api/validation/objectmeta.go ValidateFinalizers as the apiextensions-apiserver
 * runs it for CRDs and custom resources: each name only a qualified name (an optional DNS
 * prefix and `/`, then up to 63 characters), without the core kinds' "standard or fully
 * qualified" rule (which custom resources only warn about).
 */
export function validateQualifiedFinalizers(finalizers: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    for (const detail of qualifiedNameErrors(f))
      errs.push({ field: `metadata.finalizers[${i}]`, type: 'Invalid', value: f, detail });
  });
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_FOREGROUND)) {
    errs.push({
      field: 'metadata.finalizers',
      type: 'Invalid',
      value: finalizers,
      detail: `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_FOREGROUND} cannot be both set`,
    });
  }
  return errs;
}

/**
 * R31/R32 — objectmeta.go ValidateObjectMetaAccessorUpdate and ValidateNoNewFinalizers: while the
 * stored object is being deleted no finalizer may be added, and identity and deletion fields are
 * immutable through an update (only DELETE changes them).
 */
export function validateObjectMetaUpdate(
  next: ObjectMeta,
  old: ObjectMeta,
  finalizerNames: (finalizers: readonly string[]) => FieldError[] = validateFinalizers,
): FieldError[] {
  const errs = finalizerNames(next.finalizers ?? []);
  if (old.deletionTimestamp !== undefined) {
    const known = new Set(old.finalizers ?? []);
    const added = (next.finalizers ?? []).filter((f) => !known.has(f));
    if (added.length > 0) {
      errs.push({
        field: 'metadata.finalizers',
        type: 'Forbidden',
        detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
      });
    }
  }
  for (const [key, field] of IMMUTABLE_META) {
    if (next[key] !== old[key])
      errs.push({ field, type: 'Invalid', value: next[key] ?? null, detail: 'field is immutable' });
  }
  return errs;
}

/** The metadata fields an update may not change, with their paths (built once: every update checks them). */
const IMMUTABLE_META: readonly (readonly [keyof ObjectMeta, string])[] = [
  ['name', 'metadata.name'],
  ['namespace', 'metadata.namespace'],
  ['uid', 'metadata.uid'],
  ['creationTimestamp', 'metadata.creationTimestamp'],
  ['deletionTimestamp', 'metadata.deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'metadata.deletionGracePeriodSeconds'],
];

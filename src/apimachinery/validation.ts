import type { DeleteOptions, ObjectMeta } from './types';
import { type FieldError, goJson } from './errors';
import type { Release } from '../foundation/release';
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
  // Only an update that carries finalizers can add one (no Set built for the many that carry none).
  if (old.deletionTimestamp !== undefined && (next.finalizers ?? []).length > 0) {
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
  // An index loop without destructuring: a destructured for-of may build an iterator result per
  // entry, and every update of every object runs this.
  for (let i = 0; i < IMMUTABLE_META.length; i++) {
    const key = IMMUTABLE_META[i][0];
    if (next[key] !== old[key])
      errs.push({
        field: IMMUTABLE_META[i][1],
        type: 'Invalid',
        value: next[key] ?? null,
        detail: 'field is immutable',
      });
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

type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number];

/** GroupVersion of an apiVersion as schema.ParseGroupVersion reads it; undefined when it does not parse. */
function versionOf(apiVersion: string): string | undefined {
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return apiVersion;
  if (slashes === 1) return apiVersion.slice(apiVersion.indexOf('/') + 1);
  return undefined;
}

/** An owner reference as a field error prints it: Go's %#v of metav1.OwnerReference up to 1.33, its JSON from 1.34. */
function printOwnerReference(ref: OwnerReference, release: Release): string {
  if (release.has('FieldErrorValuesAsJson')) {
    const json: Record<string, unknown> = {
      apiVersion: ref.apiVersion ?? '',
      kind: ref.kind ?? '',
      name: ref.name ?? '',
      uid: ref.uid ?? '',
    };
    if (ref.controller !== undefined && ref.controller !== null) json.controller = ref.controller;
    if (ref.blockOwnerDeletion !== undefined && ref.blockOwnerDeletion !== null)
      json.blockOwnerDeletion = ref.blockOwnerDeletion;
    return goJson(json);
  }
  // A *bool that is set prints as an address, which changes with every run upstream: a fixed stand-in.
  const ptr = (v: boolean | undefined | null) => `(*bool)(${v === undefined || v === null ? 'nil' : '0xc000000000'})`;
  return `v1.OwnerReference{APIVersion:${JSON.stringify(ref.apiVersion ?? '')}, Kind:${JSON.stringify(ref.kind ?? '')}, Name:${JSON.stringify(ref.name ?? '')}, UID:${JSON.stringify(ref.uid ?? '')}, Controller:${ptr(ref.controller)}, BlockOwnerDeletion:${ptr(ref.blockOwnerDeletion)}}`;
}

/**
 * R249 — apimachinery/pkg/api/validation/objectmeta.go ValidateOwnerReferences, part of
 * ValidateObjectMeta(Update) for every kind: each reference has a version in its apiVersion, a
 * kind, a name and a uid (their messages lost the field's name in 1.34: `kind must not be empty`
 * became `must not be empty`, kubernetes#132513, release.has('DetailsWithoutFieldName')), no Event (v1) owns anything (BannedOwners), and at most one reference is the
 * controller. The field is `metadata.ownerReferences` for every reference (upstream does not index it).
 */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, release: Release): FieldError[] {
  const at = 'metadata.ownerReferences';
  const errs: FieldError[] = [];
  const named = (what: string) =>
    release.has('FieldErrorValuesAsJson') ? 'must not be empty' : `${what} must not be empty`;
  let firstController = '';
  for (const ref of refs ?? []) {
    if (ref === null || typeof ref !== 'object') continue;
    const apiVersion = ref.apiVersion ?? '';
    const version = versionOf(apiVersion);
    const kind = ref.kind ?? '';
    if (!version)
      errs.push({ field: `${at}.apiVersion`, type: 'Invalid', value: apiVersion, detail: 'version must not be empty' });
    if (kind === '') errs.push({ field: `${at}.kind`, type: 'Invalid', value: kind, detail: named('kind') });
    if (!ref.name) errs.push({ field: `${at}.name`, type: 'Invalid', value: ref.name ?? '', detail: named('name') });
    if (!ref.uid) errs.push({ field: `${at}.uid`, type: 'Invalid', value: ref.uid ?? '', detail: named('uid') });
    // BannedOwners: the GroupVersionKind {"", v1, Event} (FromAPIVersionAndKind).
    if (apiVersion === 'v1' && kind === 'Event')
      errs.push({
        field: at,
        type: 'Invalid',
        printedValue: printOwnerReference(ref, release),
        detail: '/v1, Kind=Event is disallowed from being an owner',
      });
    if (ref.controller === true) {
      const current = `${kind}/${ref.name ?? ''}`;
      if (firstController !== '')
        errs.push({
          field: at,
          type: 'Invalid',
          printedValue: release.has('FieldErrorValuesAsJson')
            ? `[${(refs ?? []).map((r) => printOwnerReference(r, release)).join(',')}]`
            : `[]v1.OwnerReference{${(refs ?? []).map((r) => printOwnerReference(r, release)).join(', ')}}`,
          detail: `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
        });
      else firstController = current;
    }
  }
  return errs;
}

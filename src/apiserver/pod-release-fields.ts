import type { FieldError } from '../apimachinery/errors';
import type { Container, ObjectMeta, PodSpec } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/**
 * Pod fields kube-apiserver drops while their feature gate is off, and the pod-deletion-cost
 * annotation's validation (pkg/api/pod/util.go dropDisabledFields; pkg/apis/core/validation
 * ValidatePodSpecificAnnotations). Each drop keeps the field when the stored pod already uses it
 * (an update must not strip what the pod was created with), as upstream's `…InUse(oldPodSpec)`.
 */

function containersOf(spec: PodSpec | undefined): Container[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

/** A container's lifecycle with the stopSignal field (KEP-4960; not in this project's Container type). */
type WithStopSignal = { lifecycle?: Record<string, unknown> & { stopSignal?: string } };

/**
 * pkg/api/pod/util.go dropContainerStopSignals: with `ContainerStopSignals` off (alpha in
 * v1.33–v1.35, so by default) and no stop signal in the stored pod, `lifecycle.stopSignal` is
 * removed from every container, and a lifecycle left empty goes with it.
 */
export function dropContainerStopSignals(spec: PodSpec | undefined, old: PodSpec | undefined, release: Release): void {
  const inUse = (s: PodSpec | undefined) =>
    containersOf(s).some((c) => (c as WithStopSignal).lifecycle?.stopSignal !== undefined);
  if (release.enabled('ContainerStopSignals') || inUse(old)) return;
  for (const c of containersOf(spec) as WithStopSignal[]) {
    if (c.lifecycle?.stopSignal === undefined) continue;
    delete c.lifecycle.stopSignal;
    if (Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
  }
}

/**
 * pkg/api/pod/util.go dropDisabledFields (SidecarContainers): with the gate off (v1.28, where it
 * is alpha; v1.26–v1.27 have no such field, which decoding drops the same way) and no restartable
 * init container in the stored pod, every init container's `restartPolicy` is removed: the would-be
 * sidecar is a plain init container that must run to completion before the app starts.
 */
export function dropRestartableInitContainers(
  spec: PodSpec | undefined,
  old: PodSpec | undefined,
  release: Release,
): void {
  const inUse = (s: PodSpec | undefined) => (s?.initContainers ?? []).some((c) => c.restartPolicy !== undefined);
  if (release.enabled('SidecarContainers') || inUse(old)) return;
  for (const c of spec?.initContainers ?? []) delete c.restartPolicy;
}

/** core.PodDeletionCost. */
const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const MIN_INT32 = -(2 ** 31);
const MAX_INT32 = 2 ** 31 - 1;

/**
 * pkg/apis/core/helper GetDeletionCostFromPodAnnotations: validFirstDigit (a minus sign, a digit
 * 1–9, or exactly "0": no plus sign, no leading zero), then strconv.ParseInt(value, 10, 32) (which
 * takes the digits after a minus sign as they come: "-007" is -7).
 */
function validDeletionCost(value: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return n >= MIN_INT32 && n <= MAX_INT32;
}

/**
 * pkg/apis/core/validation ValidatePodSpecificAnnotations: `controller.kubernetes.io/pod-deletion-cost`
 * must be a 32-bit integer (`"+10"`, `"008"`, `"1.5"`, `"3000000000"` are refused: 422 Invalid),
 * unless the stored pod already had an invalid one (GetValidationOptionsFromPodSpecAndMeta
 * AllowInvalidPodDeletionCost).
 */
export function validatePodDeletionCost(meta: ObjectMeta, old?: ObjectMeta): FieldError[] {
  const value = meta.annotations?.[POD_DELETION_COST];
  if (value === undefined || validDeletionCost(value)) return [];
  const oldValue = old?.annotations?.[POD_DELETION_COST];
  if (oldValue !== undefined && !validDeletionCost(oldValue)) return [];
  return [
    { field: `metadata.annotations[${POD_DELETION_COST}]`, type: 'Invalid', value, detail: 'must be a 32bit integer' },
  ];
}

/** A container with the KEP-5307 fields (not in this project's Container type). */
type WithRestartRules = { restartPolicy?: string; restartPolicyRules?: unknown[] };

/**
 * V51 — pkg/api/pod/util.go dropContainerRestartRules: with `ContainerRestartRules` off (alpha in
 * v1.34; v1.26–v1.27 have no such fields, which decoding drops the same way; v1.28–v1.33 see below) and no restart rule in
 * the stored pod (containerRestartRulesInUse: an init container's policy other than Always or any
 * rules, a regular container's policy), every regular container loses `restartPolicy` and
 * `restartPolicyRules`, every init container its rules and any policy but Always.
 */
export function dropContainerRestartRules(spec: PodSpec | undefined, old: PodSpec | undefined, release: Release): void {
  const inUse = (s: PodSpec | undefined) =>
    ((s?.initContainers ?? []) as WithRestartRules[]).some(
      (c) => (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') || (c.restartPolicyRules ?? []).length > 0,
    ) || ((s?.containers ?? []) as WithRestartRules[]).some((c) => c.restartPolicy !== undefined);
  if (release.enabled('ContainerRestartRules') || inUse(old)) return;
  // v1.28–v1.33: Container.restartPolicy exists (sidecars, kubernetes#116429) and nothing drops it:
  // validation refuses it where it is not a sidecar's Always (container-restart-rules.ts); only
  // restartPolicyRules, a field those releases do not know, is lost in decoding.
  if (release.atLeast(28) && !release.atLeast(34)) {
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])] as WithRestartRules[])
      delete c.restartPolicyRules;
    return;
  }
  for (const c of (spec?.initContainers ?? []) as WithRestartRules[]) {
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') delete c.restartPolicy;
    delete c.restartPolicyRules;
  }
  for (const c of (spec?.containers ?? []) as WithRestartRules[]) {
    delete c.restartPolicy;
    delete c.restartPolicyRules;
  }
}

import type { KubeObject } from '../apimachinery/object';
import type { PersistentVolumeClaim, StorageClass } from '../apimachinery/types';

/** The finalizers the StorageObjectInUseProtection admission plugin adds (P6). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
/** storageutil.IsDefaultStorageClassAnnotation (the beta annotation is read too). */
const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

export function isDefaultStorageClass(sc: StorageClass): boolean {
  return DEFAULT_CLASS_ANNOTATIONS.some((a) => sc.metadata.annotations?.[a] === 'true');
}

/**
 * P6 — plugin/pkg/admission/storage/storageobjectinuseprotection Admit: every created
 * PersistentVolume gets `kubernetes.io/pv-protection` and every created PersistentVolumeClaim
 * `kubernetes.io/pvc-protection` (each kind module passes its own), so that their deletion waits for the protection controllers.
 */
export function admitStorageObjectInUseProtection(obj: KubeObject, finalizer: string): void {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
}

/**
 * P6 — plugin/pkg/admission/storage/storageclass/setdefault Admit: a claim created without
 * spec.storageClassName (absent, not "") gets the default StorageClass's name; with several
 * defaults the newest wins (GetDefaultClass, since v1.26 #110559), ties by name.
 */
export function admitDefaultStorageClass(pvc: PersistentVolumeClaim, classes: readonly StorageClass[]): void {
  if (pvc.spec?.storageClassName !== undefined && pvc.spec.storageClassName !== null) return;
  const defaults = classes
    .filter(isDefaultStorageClass)
    .sort(
      (a, b) =>
        (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
        (a.metadata.name! < b.metadata.name! ? -1 : 1),
    );
  if (defaults.length === 0) return;
  pvc.spec ??= {};
  pvc.spec.storageClassName = defaults[0].metadata.name;
}

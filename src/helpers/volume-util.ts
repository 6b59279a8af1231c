import { createHash } from 'node:crypto';
import type { CSIDriver, PersistentVolume, PersistentVolumeClaim, Pod } from '../apimachinery/types';

/**
 * Volume helpers shared by the attach/detach controller, the kubelet and the CSI sidecars (upstream
 * pkg/volume/util and pkg/controller/volume/persistentvolume/util).
 */

/** The annotations of pkg/controller/volume/persistentvolume/util (and the scheduler's selected node). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/**
 * P22 — pkg/volume/util ControllerManagedAttachAnnotation: a kubelet run with
 * enableControllerAttachDetach (the default) puts it on the Node it registers, and the
 * attach/detach controller manages the volumes only of nodes that carry it.
 */
export const ANN_CONTROLLER_MANAGED_ATTACH_DETACH = 'volumes.kubernetes.io/controller-managed-attach-detach';

/** The claims a pod's spec names (persistentVolumeClaim volumes); none for most pods. */
export function podClaimNames(pod: Pod): string[] {
  const volumes = pod.spec?.volumes;
  if (!volumes) return [];
  const out: string[] = [];
  for (const v of volumes) if (v.persistentVolumeClaim?.claimName) out.push(v.persistentVolumeClaim.claimName);
  return out;
}

/** The CSI plugin's name (pkg/volume/csi: csiPluginName). */
export const CSI_PLUGIN_NAME = 'kubernetes.io/csi';

/** One volume of a pod that the attach/detach controller (or the kubelet) has to attach: a CSI PersistentVolume whose driver needs attaching. */
export interface AttachableVolume {
  /** The PersistentVolume's name (what VOLUME means in the timeline and the Events). */
  readonly pv: string;
  /** The unique volume name (GetUniqueVolumeNameFromSpec): `kubernetes.io/csi/DRIVER^HANDLE`, as Node status lists it. */
  readonly unique: string;
  readonly driver: string;
  readonly handle: string;
  /** util.IsMultiAttachAllowed: ReadOnlyMany or ReadWriteMany allow it; ReadWriteOnce(Pod) do not. */
  readonly multiAttach: boolean;
}

/** csi_attacher.go getAttachmentName: `csi-` and the sha256 of volume handle, driver and node. */
export function attachmentName(handle: string, driver: string, node: string): string {
  return `csi-${createHash('sha256').update(`${handle}${driver}${node}`).digest('hex')}`;
}

/**
 * The attachable volume behind a pod's claim: the claim must be bound to a CSI PersistentVolume
 * whose CSIDriver requires attach (an absent CSIDriver object means it does: csi_plugin.go
 * skipAttach). undefined: nothing to attach (or not yet resolvable: an unbound claim).
 */
export function attachableVolume(
  pvc: PersistentVolumeClaim | undefined,
  pv: PersistentVolume | undefined,
  driverOf: (name: string) => CSIDriver | undefined,
): AttachableVolume | undefined {
  if (!pvc || !pv || !pvc.spec?.volumeName || pvc.spec.volumeName !== pv.metadata.name) return undefined;
  const csi = pv.spec?.csi;
  if (!csi?.driver || !csi.volumeHandle) return undefined;
  if (driverOf(csi.driver)?.spec?.attachRequired === false) return undefined;
  const modes = pv.spec?.accessModes ?? [];
  const multiAttach = modes.length > 0 && !modes.includes('ReadWriteOnce') && !modes.includes('ReadWriteOncePod');
  return {
    pv: pv.metadata.name!,
    unique: `${CSI_PLUGIN_NAME}/${csi.driver}^${csi.volumeHandle}`,
    driver: csi.driver,
    handle: csi.volumeHandle,
    multiAttach,
  };
}

/**
 * volumeutil.IsPodTerminated as DetermineVolumeAction reads it: a pod whose phase is terminal,
 * or that is being deleted and whose status shows no container running. A pod stuck
 * Terminating on a lost node still shows its containers running: its volumes stay desired.
 */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  if (!pod.metadata.deletionTimestamp) return false;
  const notRunning = (statuses: readonly { state?: { terminated?: unknown; waiting?: unknown } }[] | undefined) =>
    (statuses ?? []).every((s) => s.state?.terminated !== undefined || s.state?.waiting !== undefined);
  return (
    notRunning(pod.status?.initContainerStatuses) &&
    notRunning(pod.status?.containerStatuses) &&
    notRunning(pod.status?.ephemeralContainerStatuses)
  );
}

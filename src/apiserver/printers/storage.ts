import type {
  CSIDriver,
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../../apimachinery/types';
import { isDefaultStorageClass } from '../storage-admission';
import { accessModes, AGE, age, column, count, NAME, type Printer } from './printer';

// printPersistentVolume, printPersistentVolumeClaim, printStorageClass, printCSIDriver, printCSINode, printVolumeAttachment (P7).
export const persistentVolumePrinter: Printer = {
  columns: [
    NAME,
    column('Capacity', 'The storage capacity of the volume.'),
    column('Access Modes', 'RWO, ROX, RWX, RWOP.'),
    column('Reclaim Policy', 'What happens to the volume once its claim is gone.'),
    column('Status', 'Its phase, or Terminating.'),
    column('Claim', 'namespace/name of the claim bound to it.'),
    column('StorageClass', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'VolumeAttributesClass of the pv'),
    column('Reason', 'Why the volume is in its phase.'),
    AGE,
    column('VolumeMode', 'Filesystem or Block.', 1),
  ],
  cells: (obj, now) => {
    const pv = obj as PersistentVolume;
    const claim = pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '';
    const phase = pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? '');
    return [
      pv.metadata.name ?? '',
      String(pv.spec?.capacity?.storage ?? ''),
      accessModes(pv.spec?.accessModes),
      pv.spec?.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      pv.spec?.storageClassName ?? '',
      pv.spec?.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      age(pv.metadata.creationTimestamp, now),
      pv.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    NAME,
    column('Status', 'Its phase, or Terminating.'),
    column('Volume', 'The PersistentVolume bound to it.'),
    column('Capacity', "The bound volume's capacity."),
    column('Access Modes', "The bound volume's access modes."),
    column('StorageClass', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'VolumeAttributesClass of the pvc'),
    AGE,
    column('VolumeMode', 'Filesystem or Block.', 1),
  ],
  cells: (obj, now) => {
    const pvc = obj as PersistentVolumeClaim;
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
    const bound = !!pvc.spec?.volumeName;
    return [
      pvc.metadata.name ?? '',
      phase,
      pvc.spec?.volumeName ?? '',
      bound ? String(pvc.status?.capacity?.storage ?? '') : '',
      bound ? accessModes(pvc.status?.accessModes) : '',
      pvc.spec?.storageClassName ?? '',
      pvc.spec?.volumeAttributesClassName ?? '<unset>',
      age(pvc.metadata.creationTimestamp, now),
      pvc.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const storageClassPrinter: Printer = {
  columns: [
    NAME,
    column('Provisioner', 'Who provisions its volumes.'),
    column('ReclaimPolicy', 'Delete or Retain.'),
    column('VolumeBindingMode', 'Immediate or WaitForFirstConsumer.'),
    { ...column('AllowVolumeExpansion', 'Whether its claims may grow.'), type: 'boolean' },
    AGE,
  ],
  cells: (obj, now) => {
    const sc = obj as StorageClass;
    const name = (sc.metadata.name ?? '') + (isDefaultStorageClass(sc) ? ' (default)' : '');
    return [
      name,
      sc.provisioner ?? '',
      sc.reclaimPolicy ?? 'Delete',
      sc.volumeBindingMode ?? 'Immediate',
      sc.allowVolumeExpansion ?? false,
      age(sc.metadata.creationTimestamp, now),
    ];
  },
};

export const csiDriverPrinter: Printer = {
  columns: [
    NAME,
    { ...column('AttachRequired', 'Whether volumes are attached before they are mounted.'), type: 'boolean' },
    { ...column('PodInfoOnMount', 'Whether mounts are told the pod.'), type: 'boolean' },
    { ...column('StorageCapacity', 'Whether the driver reports capacity.'), type: 'boolean' },
    column('TokenRequests', 'Audiences of service account tokens passed to the driver.'),
    { ...column('RequiresRepublish', 'Whether NodePublishVolume is called periodically.'), type: 'boolean' },
    column('Modes', 'Volume lifecycle modes.'),
    AGE,
  ],
  cells: (obj, now) => {
    const d = obj as CSIDriver;
    const modes = (d.spec?.volumeLifecycleModes ?? []).join(',');
    const audiences = (d.spec?.tokenRequests ?? []).map((t) => t.audience).join(',');
    return [
      d.metadata.name ?? '',
      d.spec?.attachRequired ?? true,
      d.spec?.podInfoOnMount ?? false,
      d.spec?.storageCapacity ?? false,
      audiences || '<unset>',
      d.spec?.requiresRepublish ?? false,
      modes || '<none>',
      age(d.metadata.creationTimestamp, now),
    ];
  },
};

export const csiNodePrinter: Printer = {
  columns: [NAME, count('Drivers', 'How many CSI drivers the node registered.'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    ((obj as CSINode).spec?.drivers ?? []).length,
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const volumeAttachmentPrinter: Printer = {
  columns: [
    NAME,
    column('Attacher', 'The CSI driver that attaches the volume.'),
    column('PV', 'The PersistentVolume attached.'),
    column('Node', 'The node it is attached to.'),
    { ...column('Attached', 'Whether the attacher has attached it (status.attached).'), type: 'boolean' },
    AGE,
  ],
  cells: (obj, now) => {
    const va = obj as VolumeAttachment;
    return [
      va.metadata.name ?? '',
      va.spec?.attacher ?? '',
      va.spec?.source?.persistentVolumeName ?? '',
      va.spec?.nodeName ?? '',
      va.status?.attached ?? false,
      age(va.metadata.creationTimestamp, now),
    ];
  },
};

import type { CSIDriver, CSINode, StorageClass, VolumeAttachment } from '../../apimachinery/types';
import { csiDriverPrinter, csiNodePrinter, storageClassPrinter, volumeAttachmentPrinter } from '../printers/storage';
import {
  csiDriverStrategy,
  csiNodeStrategy,
  storageClassStrategy,
  volumeAttachmentStrategies,
} from '../storage-strategies';
import { ALL_VERBS, type BuiltinKind, STATUS } from './kind';

/** storage.k8s.io/v1: pkg/registry/storage/<kind>/storage, all cluster-scoped (storage-strategies.ts, P1–P5). */
const storage = { group: 'storage.k8s.io', version: 'v1', namespaced: false, verbs: ALL_VERBS } as const;

export const csiDrivers: BuiltinKind<CSIDriver, 'csidrivers'> = {
  ...storage,
  kind: 'CSIDriver',
  resource: 'csidrivers',
  singularName: 'csidriver',
  subresources: {},
  strategies: () => ({ main: csiDriverStrategy() }),
  quiet: true,
  printer: csiDriverPrinter,
  openapi: 'V1CSIDriver',
  protobuf: 'k8s.io.api.storage.v1.CSIDriver',
};

export const csiNodes: BuiltinKind<CSINode, 'csinodes'> = {
  ...storage,
  kind: 'CSINode',
  resource: 'csinodes',
  singularName: 'csinode',
  subresources: {},
  strategies: () => ({ main: csiNodeStrategy() }),
  quiet: true,
  printer: csiNodePrinter,
  openapi: 'V1CSINode',
  protobuf: 'k8s.io.api.storage.v1.CSINode',
};

export const storageClasses: BuiltinKind<StorageClass, 'storageclasses'> = {
  ...storage,
  kind: 'StorageClass',
  resource: 'storageclasses',
  singularName: 'storageclass',
  shortNames: ['sc'],
  subresources: {},
  strategies: () => ({ main: storageClassStrategy() }),
  quiet: true,
  printer: storageClassPrinter,
  openapi: 'V1StorageClass',
  protobuf: 'k8s.io.api.storage.v1.StorageClass',
};

export const volumeAttachments: BuiltinKind<VolumeAttachment, 'volumeattachments'> = {
  ...storage,
  kind: 'VolumeAttachment',
  resource: 'volumeattachments',
  singularName: 'volumeattachment',
  subresources: { status: STATUS },
  strategies: () => volumeAttachmentStrategies(),
  printer: volumeAttachmentPrinter,
  openapi: 'V1VolumeAttachment',
  protobuf: 'k8s.io.api.storage.v1.VolumeAttachment',
};

/** The storage.k8s.io group's kinds, in the order discovery lists them. */
export const STORAGE_KINDS = [csiDrivers, csiNodes, storageClasses, volumeAttachments] as const;

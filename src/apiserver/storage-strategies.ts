import type { FieldError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import { jsonEqual, toTime, type KubeObject } from '../apimachinery/object';
import type { Strategy } from './strategy';
import type {
  CSIDriver,
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../apimachinery/types';
import { parseQuantity } from './cel/library/quantity';
import type { Release } from '../foundation/release';

/**
 * The storage kinds (rules P1–P6 of docs/rules/storage.md): core/v1 PersistentVolumes and
 * PersistentVolumeClaims, storage.k8s.io/v1 StorageClasses, CSIDrivers, CSINodes and
 * VolumeAttachments, each a Strategy of the generic Store with the defaulting of
 * pkg/apis/{core,storage}/v1/defaults.go and the checks of pkg/apis/{core,storage}/validation that
 * a deletion scenario meets. What is not checked here (the per-plugin volume source fields, node
 * affinity terms, topology keys, token request audiences) is accepted as written.
 */

type WithStatus = KubeObject & { spec?: unknown; status?: unknown };

/** The access modes ValidatePersistentVolumeSpec and ValidatePersistentVolumeClaimSpec accept (ReadWriteOncePod GA in v1.29). */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** The volume sources of a PersistentVolumeSpec: exactly one must be given. */
const PV_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'iscsi',
  'cinder',
  'cephfs',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

function statusStrategies<T extends WithStatus>(
  base: Strategy<T>,
  onCreate: (obj: T, now: number) => void,
  defaults: (obj: T) => void,
  validate: (obj: T) => FieldError[],
  validateUpdate: (next: T, old: T) => FieldError[],
): { main: Strategy<T>; status: Strategy<T> } {
  const main: Strategy<T> = {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaults(obj);
      onCreate(obj, now);
    },
    validate: (obj) => [...base.validate(obj), ...validate(obj)],
    prepareForUpdate(next, old) {
      defaults(next);
      next.status = old.status;
      base.prepareForUpdate(next, old);
    },
    validateUpdate: (next, old) => [...base.validateUpdate(next, old), ...validate(next), ...validateUpdate(next, old)],
  };
  const status: Strategy<T> = {
    ...main,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
      next.metadata.generation = old.metadata.generation;
    },
    validateUpdate: (next, old) => base.validateUpdate(next, old),
  };
  return { main, status };
}

function validateAccessModes(modes: readonly string[] | undefined, path: string, requiredDetail: string): FieldError[] {
  if (!modes || modes.length === 0) return [{ field: path, type: 'Required value', detail: requiredDetail }];
  const errs: FieldError[] = [];
  for (const m of modes)
    if (!ACCESS_MODES.includes(m))
      errs.push({
        field: path,
        type: 'Unsupported value',
        value: m,
        detail: `supported values: ${ACCESS_MODES.map((a) => `"${a}"`).join(', ')}`,
      });
  // ReadWriteOncePod may not be combined with another mode.
  if (modes.includes('ReadWriteOncePod') && modes.length > 1)
    errs.push({ field: path, type: 'Forbidden', detail: 'may not use ReadWriteOncePod with other access modes' });
  return errs;
}

function validateStorageQuantity(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'string' && typeof value !== 'number')
    return [{ field: path, type: 'Required value', detail: '' }];
  let q;
  try {
    q = parseQuantity(String(value));
  } catch (e) {
    return [{ field: path, type: 'Invalid', value: String(value), detail: (e as Error).message }];
  }
  if (q.num <= 0n) return [{ field: path, type: 'Invalid', value: String(value), detail: 'must be greater than zero' }];
  return [];
}

/** SetDefaults_PersistentVolume: reclaim policy Retain, volume mode Filesystem, phase Pending. */
function defaultPersistentVolume(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ||= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
}

/**
 * P1 — pkg/registry/core/persistentvolume/strategy.go and ValidatePersistentVolume: a created
 * volume starts Pending (with lastPhaseTransitionTime from v1.29, PersistentVolumeLastPhaseTransitionTime
 * β; the status strategy stamps it again on each phase change); capacity holds storage only,
 * access modes are given, exactly one volume source.
 */
export function persistentVolumeStrategies(
  release: Release,
  now: () => number,
): { main: Strategy<PersistentVolume>; status: Strategy<PersistentVolume> } {
  const stampsTransition = release.atLeast(29);
  const validate = (pv: PersistentVolume): FieldError[] => {
    const spec = pv.spec ?? {};
    const errs = validateAccessModes(spec.accessModes, 'spec.accessModes', '');
    const capacity = spec.capacity ?? {};
    if (Object.keys(capacity).length === 0) errs.push({ field: 'spec.capacity', type: 'Required value', detail: '' });
    else if (!('storage' in capacity) || Object.keys(capacity).length > 1)
      errs.push({
        field: 'spec.capacity',
        type: 'Unsupported value',
        printedValue: JSON.stringify(capacity),
        detail: 'supported values: "storage"',
      });
    else errs.push(...validateStorageQuantity(capacity.storage, 'spec.capacity[storage]'));
    const sources = PV_SOURCES.filter((s) => (spec as Record<string, unknown>)[s] !== undefined);
    if (sources.length === 0)
      errs.push({ field: 'spec', type: 'Required value', detail: 'must specify a volume type' });
    else if (sources.length > 1)
      errs.push({ field: `spec.${sources[1]}`, type: 'Forbidden', detail: 'may not specify more than 1 volume type' });
    if (spec.csi && !spec.csi.driver) errs.push({ field: 'spec.csi.driver', type: 'Required value', detail: '' });
    if (spec.csi && !spec.csi.volumeHandle)
      errs.push({ field: 'spec.csi.volumeHandle', type: 'Required value', detail: '' });
    const policy = spec.persistentVolumeReclaimPolicy;
    if (policy && !['Delete', 'Recycle', 'Retain'].includes(policy))
      errs.push({
        field: 'spec.persistentVolumeReclaimPolicy',
        type: 'Unsupported value',
        value: policy,
        detail: 'supported values: "Delete", "Recycle", "Retain"',
      });
    return errs;
  };
  const validateUpdate = (next: PersistentVolume, old: PersistentVolume): FieldError[] => {
    // ValidatePersistentVolumeUpdate: the volume source is immutable once created.
    const errs: FieldError[] = [];
    for (const s of PV_SOURCES) {
      if (!jsonEqual(next.spec?.[s] ?? null, old.spec?.[s] ?? null))
        errs.push({
          field: 'spec.persistentvolumesource',
          type: 'Forbidden',
          detail: 'spec.persistentvolumesource is forbidden.',
        });
    }
    return errs.slice(0, 1);
  };
  const base = genericStrategy<PersistentVolume>({
    kind: 'PersistentVolume',
    apiVersion: 'v1',
    resource: 'persistentvolumes',
    namespaced: false,
    generation: false,
  });
  const strategies = statusStrategies(
    base,
    (pv, now) => {
      pv.status = { phase: 'Pending', ...(stampsTransition ? { lastPhaseTransitionTime: toTime(now) } : {}) };
    },
    defaultPersistentVolume,
    validate,
    validateUpdate,
  );
  const status = strategies.status;
  return {
    main: strategies.main,
    status: {
      ...status,
      prepareForUpdate(next, old) {
        status.prepareForUpdate(next, old);
        // persistentVolumeStatusStrategy.PrepareForUpdate: a changed phase is stamped.
        if (stampsTransition && next.status?.phase !== old.status?.phase && next.status)
          next.status.lastPhaseTransitionTime = toTime(now());
      },
    },
  };
}

/** SetDefaults_PersistentVolumeClaim: volume mode Filesystem, phase Pending. */
function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= 'Filesystem';
}

/**
 * P2 — pkg/registry/core/persistentvolumeclaim/strategy.go, ValidatePersistentVolumeClaim(Update):
 * a claim starts Pending; access modes and a storage request are required; the spec is
 * immutable except for its storage request (of a bound claim), its volumeAttributesClassName
 * (from v1.34, VolumeAttributesClass GA) and the volumeName the binder sets once. Upstream
 * appends a Go diff of the two specs to the message; that diff is not reproduced.
 */
export function persistentVolumeClaimStrategies(release: Release): {
  main: Strategy<PersistentVolumeClaim>;
  status: Strategy<PersistentVolumeClaim>;
} {
  const message = release.atLeast(34)
    ? 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'
    : 'spec is immutable after creation except resources.requests for bound claims';
  const validate = (pvc: PersistentVolumeClaim): FieldError[] => {
    const spec = pvc.spec ?? {};
    const errs = validateAccessModes(spec.accessModes, 'spec.accessModes', 'at least 1 access mode is required');
    const storage = spec.resources?.requests?.storage;
    if (storage === undefined) errs.push({ field: 'spec.resources[storage]', type: 'Required value', detail: '' });
    else errs.push(...validateStorageQuantity(storage, 'spec.resources[storage]'));
    return errs;
  };
  const validateUpdate = (next: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] => {
    const a = structuredClone(next.spec ?? {});
    const b = structuredClone(old.spec ?? {});
    // The binder fills volumeName once; a bound claim may change its storage request.
    if (!b.volumeName) a.volumeName = b.volumeName;
    if (old.status?.phase === 'Bound') {
      if (a.resources?.requests && b.resources)
        b.resources.requests = { ...b.resources.requests, storage: a.resources.requests.storage };
      if (release.atLeast(34)) a.volumeAttributesClassName = b.volumeAttributesClassName;
    }
    if (!jsonEqual(a, b)) return [{ field: 'spec', type: 'Forbidden', detail: message }];
    return [];
  };
  const base = genericStrategy<PersistentVolumeClaim>({
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    resource: 'persistentvolumeclaims',
    namespaced: true,
    generation: false,
  });
  return statusStrategies(
    base,
    (pvc) => (pvc.status = { phase: 'Pending' }),
    defaultPersistentVolumeClaim,
    validate,
    validateUpdate,
  );
}

const immutable = (field: string, detail = 'field is immutable'): FieldError => ({ field, type: 'Forbidden', detail });

/**
 * P3 — pkg/registry/storage/storageclass, SetDefaults_StorageClass and ValidateStorageClass(Update):
 * reclaim policy Delete and binding mode Immediate by default; a provisioner is required; the
 * provisioner, parameters, reclaim policy and binding mode never change.
 */
export function storageClassStrategy(): Strategy<StorageClass> {
  const base = genericStrategy<StorageClass>({
    kind: 'StorageClass',
    apiVersion: 'storage.k8s.io/v1',
    resource: 'storageclasses',
    namespaced: false,
    generation: false,
  });
  const defaults = (sc: StorageClass) => {
    sc.reclaimPolicy ??= 'Delete';
    sc.volumeBindingMode ??= 'Immediate';
  };
  const validate = (sc: StorageClass): FieldError[] => {
    const errs: FieldError[] = [];
    if (!sc.provisioner) errs.push({ field: 'provisioner', type: 'Required value', detail: '' });
    if (sc.reclaimPolicy && !['Delete', 'Retain'].includes(sc.reclaimPolicy))
      errs.push({
        field: 'reclaimPolicy',
        type: 'Unsupported value',
        value: sc.reclaimPolicy,
        detail: 'supported values: "Delete", "Retain"',
      });
    if (sc.volumeBindingMode && !['Immediate', 'WaitForFirstConsumer'].includes(sc.volumeBindingMode))
      errs.push({
        field: 'volumeBindingMode',
        type: 'Unsupported value',
        value: sc.volumeBindingMode,
        detail: 'supported values: "Immediate", "WaitForFirstConsumer"',
      });
    return errs;
  };
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaults(obj);
    },
    prepareForUpdate(next, old) {
      defaults(next);
      base.prepareForUpdate(next, old);
    },
    validate: (sc) => [...base.validate(sc), ...validate(sc)],
    validateUpdate: (next, old) => {
      const errs = [...base.validateUpdate(next, old), ...validate(next)];
      if (!jsonEqual(next.parameters ?? {}, old.parameters ?? {}))
        errs.push(immutable('parameters', 'updates to parameters are forbidden.'));
      if (next.provisioner !== old.provisioner)
        errs.push(immutable('provisioner', 'updates to provisioner are forbidden.'));
      if (next.reclaimPolicy !== old.reclaimPolicy)
        errs.push(immutable('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
      if (next.volumeBindingMode !== old.volumeBindingMode)
        errs.push({
          field: 'volumeBindingMode',
          type: 'Invalid',
          value: next.volumeBindingMode,
          detail: 'field is immutable',
        });
      return errs;
    },
  };
}

/**
 * P4 — pkg/registry/storage/csidriver, SetDefaults_CSIDriver and ValidateCSIDriver(Update):
 * attachRequired true, podInfoOnMount false, storageCapacity false, fsGroupPolicy
 * ReadWriteOnceWithFSType, requiresRepublish false, volumeLifecycleModes [Persistent];
 * attachRequired never changes.
 */
export function csiDriverStrategy(): Strategy<CSIDriver> {
  const base = genericStrategy<CSIDriver>({
    kind: 'CSIDriver',
    apiVersion: 'storage.k8s.io/v1',
    resource: 'csidrivers',
    namespaced: false,
  });
  const defaults = (d: CSIDriver) => {
    d.spec ??= {};
    d.spec.attachRequired ??= true;
    d.spec.podInfoOnMount ??= false;
    d.spec.storageCapacity ??= false;
    d.spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
    d.spec.requiresRepublish ??= false;
    if (!d.spec.volumeLifecycleModes || d.spec.volumeLifecycleModes.length === 0)
      d.spec.volumeLifecycleModes = ['Persistent'];
  };
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      defaults(obj);
    },
    prepareForUpdate(next, old) {
      defaults(next);
      base.prepareForUpdate(next, old);
    },
    validate: (d) => [
      ...base.validate(d),
      ...(d.spec ? [] : [{ field: 'spec', type: 'Required value' as const, detail: '' }]),
    ],
    validateUpdate: (next, old) => [
      ...base.validateUpdate(next, old),
      ...(next.spec?.attachRequired !== old.spec?.attachRequired
        ? [
            {
              field: 'spec.attachRequired',
              type: 'Invalid' as const,
              value: next.spec?.attachRequired,
              detail: 'field is immutable',
            },
          ]
        : []),
    ],
  };
}

/** P4 — pkg/registry/storage/csinode: the drivers a node's kubelet registered (each with a name and a nodeID). */
export function csiNodeStrategy(): Strategy<CSINode> {
  const base = genericStrategy<CSINode>({
    kind: 'CSINode',
    apiVersion: 'storage.k8s.io/v1',
    resource: 'csinodes',
    namespaced: false,
  });
  const validate = (n: CSINode): FieldError[] => {
    const errs: FieldError[] = [];
    (n.spec?.drivers ?? []).forEach((d, i) => {
      if (!d.name) errs.push({ field: `spec.drivers[${i}].name`, type: 'Required value', detail: '' });
      if (!d.nodeID) errs.push({ field: `spec.drivers[${i}].nodeID`, type: 'Required value', detail: '' });
    });
    return errs;
  };
  return {
    ...base,
    validate: (n) => [...base.validate(n), ...validate(n)],
    validateUpdate: (next, old) => [...base.validateUpdate(next, old), ...validate(next)],
  };
}

/**
 * P5 — pkg/registry/storage/volumeattachment and ValidateVolumeAttachment(Update): an attacher,
 * a node and exactly one source are required; the spec never changes; status (attached, the
 * errors) is written through volumeattachments/status by the attacher alone.
 */
export function volumeAttachmentStrategies(): { main: Strategy<VolumeAttachment>; status: Strategy<VolumeAttachment> } {
  const validate = (va: VolumeAttachment): FieldError[] => {
    const errs: FieldError[] = [];
    if (!va.spec?.attacher) errs.push({ field: 'spec.attacher', type: 'Required value', detail: '' });
    if (!va.spec?.nodeName) errs.push({ field: 'spec.nodeName', type: 'Required value', detail: '' });
    const source = va.spec?.source ?? {};
    const given = [source.persistentVolumeName, source.inlineVolumeSpec].filter((s) => s !== undefined).length;
    if (given !== 1)
      errs.push({
        field: 'spec.source',
        type: 'Required value',
        detail: 'must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      });
    return errs;
  };
  const validateUpdate = (next: VolumeAttachment, old: VolumeAttachment): FieldError[] =>
    jsonEqual(next.spec, old.spec)
      ? []
      : [{ field: 'spec', type: 'Invalid', printedValue: JSON.stringify(next.spec), detail: 'field is immutable' }];
  const base = genericStrategy<VolumeAttachment>({
    kind: 'VolumeAttachment',
    apiVersion: 'storage.k8s.io/v1',
    resource: 'volumeattachments',
    namespaced: false,
  });
  return statusStrategies(
    base,
    (va) => delete va.status,
    () => undefined,
    validate,
    validateUpdate,
  );
}

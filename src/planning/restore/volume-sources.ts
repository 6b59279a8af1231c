import type { Pod } from '../../apimachinery/types';
import type { DumpObject, Obj } from './dump';

/**
 * What a pod's volumes are, read from the dump (X15): the volume source of each (inline, or its
 * claim's PersistentVolume), and the CSI drivers the node has registered (its CSINode). The
 * simulation does not store PersistentVolumes, claims or CSI objects yet; explain reads them here
 * as evidence. Upstream: pkg/volume/util/operationexecutor (UnmountVolume, whose TearDown of a
 * network or CSI volume can fail or hang with no Event), pkg/apis/storage CSINode.
 */

/** Volume types whose unmount can fail or hang without an Event (the kubelet logs it; it records no Event while TearDown hangs). */
export const SILENT_UNMOUNT_TYPES = ['nfs', 'csi', 'iscsi', 'cephfs', 'rbd', 'glusterfs', 'fc'] as const;

export interface VolumeSource {
  /** The pod's volume name. */
  volume: string;
  /** The source type: `nfs`, `csi`, `iscsi`, `emptyDir`, … (the key of the volume source). */
  type: string;
  /** What identifies it: the NFS server and path, the CSI driver, the claim and its volume. */
  detail: string;
  /** The CSI driver, for a csi source. */
  csiDriver?: string;
  /** The claim and the PersistentVolume it came through. */
  claim?: string;
  persistentVolume?: string;
}

const SOURCE_KEYS = [
  'nfs',
  'csi',
  'iscsi',
  'cephfs',
  'rbd',
  'glusterfs',
  'fc',
  'hostPath',
  'local',
  'emptyDir',
  'configMap',
  'secret',
  'projected',
  'downwardAPI',
  'awsElasticBlockStore',
  'gcePersistentDisk',
  'azureDisk',
  'azureFile',
  'cinder',
  'ephemeral',
];

function sourceOf(spec: Obj): { type: string; source: Obj } | undefined {
  for (const k of SOURCE_KEYS)
    if (spec[k] !== undefined && spec[k] !== null) return { type: k, source: (spec[k] ?? {}) as Obj };
  return undefined;
}

function describe(type: string, source: Obj): string {
  if (type === 'nfs') return `nfs ${String(source.server ?? '?')}:${String(source.path ?? '?')}`;
  if (type === 'csi') return `CSI driver ${String(source.driver ?? '?')}`;
  if (type === 'iscsi') return `iSCSI ${String(source.targetPortal ?? '?')} ${String(source.iqn ?? '')}`.trim();
  return type;
}

/** Each volume of the pod with its source, through its claim to the PersistentVolume when the dump has them. */
export function podVolumeSources(pod: Pod, objects: readonly DumpObject[]): VolumeSource[] {
  const ns = pod.metadata.namespace ?? 'default';
  const find = (kind: string, name: string, namespace?: string) =>
    objects.find((o) => o.kind === kind && o.name === name && (namespace === undefined || o.namespace === namespace));
  const out: VolumeSource[] = [];
  for (const v of (pod.spec?.volumes ?? []) as unknown as Obj[]) {
    const name = String(v.name);
    const claimRef = v.persistentVolumeClaim as Obj | undefined;
    if (claimRef) {
      const claim = String(claimRef.claimName);
      const pvc = find('PersistentVolumeClaim', claim, ns);
      const pvName = (pvc?.obj.spec as Obj | undefined)?.volumeName as string | undefined;
      const pv = pvName ? find('PersistentVolume', pvName) : undefined;
      const found = pv ? sourceOf((pv.obj.spec ?? {}) as Obj) : undefined;
      if (!found) {
        out.push({
          volume: name,
          type: 'persistentVolumeClaim',
          detail: `claim ${claim}${pvName ? ` (volume ${pvName}, not in the objects)` : ' (not in the objects)'}`,
          claim,
          ...(pvName ? { persistentVolume: pvName } : {}),
        });
        continue;
      }
      out.push({
        volume: name,
        type: found.type,
        detail: `${describe(found.type, found.source)} through claim ${claim} (volume ${pvName})`,
        claim,
        persistentVolume: pvName,
        ...(found.type === 'csi' ? { csiDriver: String(found.source.driver) } : {}),
      });
      continue;
    }
    const found = sourceOf(v);
    if (!found) continue;
    out.push({
      volume: name,
      type: found.type,
      detail: describe(found.type, found.source),
      ...(found.type === 'csi' ? { csiDriver: String(found.source.driver) } : {}),
    });
  }
  return out;
}

/**
 * The node's CSINode in the objects lists the drivers whose node plugin registered there
 * (csi_plugin.go RegisterPlugin → nodeinfomanager). A driver missing from it has no node plugin on
 * the node: NodeUnpublishVolume cannot be called, so the unmount fails for ever. Undefined when the
 * objects have no CSINode of the node (nothing to tell).
 */
export function csiNodePluginGone(
  driver: string,
  nodeName: string,
  objects: readonly DumpObject[],
): boolean | undefined {
  const csiNode = objects.find((o) => o.kind === 'CSINode' && o.name === nodeName);
  if (!csiNode) return undefined;
  const drivers = (((csiNode.obj.spec as Obj | undefined)?.drivers ?? []) as Obj[]).map((d) => String(d.name));
  return !drivers.includes(driver);
}

/** What a PersistentVolume of the dump could do to a pod using it: its type, and whether its unmount can fail silently. */
export function persistentVolumeRisk(pv: DumpObject): string {
  const found = sourceOf((pv.obj.spec ?? {}) as Obj);
  if (!found) return 'its volume type is not one explain reads';
  const silent = (SILENT_UNMOUNT_TYPES as readonly string[]).includes(found.type);
  return `${describe(found.type, found.source)}${silent ? ': an unmount of it can fail or hang without an Event, keeping a deleted pod that uses it Terminating' : ''}`;
}

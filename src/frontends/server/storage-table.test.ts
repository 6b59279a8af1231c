import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTable } from './table';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const CREATED = '2025-01-01T00:00:00Z';
const table = (resource: string, obj: object) =>
  toTable(resource, [obj as never], { now: NOW }) as {
    columnDefinitions: { name: string; priority: number }[];
    rows: { cells: unknown[] }[];
  };

describe('P7 storage printers (printers.go)', () => {
  it('PersistentVolume and PersistentVolumeClaim: capacity, short access modes, claim, class, <unset> attributes class; Terminating while deleted', () => {
    const pv = table('persistentvolumes', {
      metadata: { name: 'disk', creationTimestamp: CREATED },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'default', name: 'data' },
        storageClassName: 'ssd',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    });
    expect(pv.columnDefinitions.map((c) => c.name)).to.deep.equal([
      'Name',
      'Capacity',
      'Access Modes',
      'Reclaim Policy',
      'Status',
      'Claim',
      'StorageClass',
      'VolumeAttributesClass',
      'Reason',
      'Age',
      'VolumeMode',
    ]);
    expect(pv.rows[0].cells).to.deep.equal([
      'disk',
      '1Gi',
      'RWO,ROX',
      'Retain',
      'Bound',
      'default/data',
      'ssd',
      '<unset>',
      '',
      '10m',
      'Filesystem',
    ]);
    const pvc = table('persistentvolumeclaims', {
      metadata: { name: 'data', creationTimestamp: CREATED, deletionTimestamp: CREATED },
      spec: { volumeName: 'disk', storageClassName: 'ssd' },
      status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
    });
    expect(pvc.rows[0].cells).to.deep.equal([
      'data',
      'Terminating',
      'disk',
      '1Gi',
      'RWO',
      'ssd',
      '<unset>',
      '10m',
      '<unset>',
    ]);
  });

  it('StorageClass (default) suffix, CSIDriver booleans and modes, CSINode drivers, VolumeAttachment attached', () => {
    const sc = table('storageclasses', {
      metadata: {
        name: 'ssd',
        creationTimestamp: CREATED,
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      },
      provisioner: 'ebs.csi.aws.com',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    expect(sc.rows[0].cells).to.deep.equal([
      'ssd (default)',
      'ebs.csi.aws.com',
      'Delete',
      'WaitForFirstConsumer',
      false,
      '10m',
    ]);
    const d = table('csidrivers', {
      metadata: { name: 'ebs.csi.aws.com', creationTimestamp: CREATED },
      spec: { attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] },
    });
    expect(d.rows[0].cells).to.deep.equal([
      'ebs.csi.aws.com',
      true,
      false,
      false,
      '<unset>',
      false,
      'Persistent',
      '10m',
    ]);
    const n = table('csinodes', {
      metadata: { name: 'node-1', creationTimestamp: CREATED },
      spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'node-1' }] },
    });
    expect(n.rows[0].cells).to.deep.equal(['node-1', 1, '10m']);
    const va = table('volumeattachments', {
      metadata: { name: 'csi-1', creationTimestamp: CREATED },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'disk' } },
      status: { attached: true },
    });
    expect(va.columnDefinitions.map((c) => c.name)).to.deep.equal([
      'Name',
      'Attacher',
      'PV',
      'Node',
      'Attached',
      'Age',
    ]);
    expect(va.rows[0].cells).to.deep.equal(['csi-1', 'ebs.csi.aws.com', 'disk', 'node-1', true, '10m']);
  });
});

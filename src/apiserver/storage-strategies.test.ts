import { describe, it } from 'node:test';
import { expect } from 'chai';
import { failure, newSim, NS, ok, USER } from './testing';
import { Release } from '../foundation/release';
import type {
  CSIDriver,
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../apimachinery/types';

const claim = (
  name: string,
  spec: PersistentVolumeClaim['spec'] = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
): PersistentVolumeClaim => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec });
const volume = (
  name: string,
  spec: PersistentVolume['spec'] = {
    accessModes: ['ReadWriteOnce'],
    capacity: { storage: '1Gi' },
    csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
  },
): PersistentVolume => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec });

describe('P1, P6 PersistentVolumes', () => {
  it('start Pending with Retain and Filesystem, carry pv-protection (P6), and need a source, access modes and a storage capacity', () => {
    const sim = newSim();
    const pv = ok(sim.api.create(USER, 'persistentvolumes', undefined, volume('pv-1')));
    expect(pv.status?.phase).to.equal('Pending');
    expect(pv.spec?.persistentVolumeReclaimPolicy).to.equal('Retain');
    expect(pv.spec?.volumeMode).to.equal('Filesystem');
    expect(pv.metadata.finalizers).to.deep.equal(['kubernetes.io/pv-protection']);
    const bad = failure(
      sim.api.create(USER, 'persistentvolumes', undefined, volume('pv-2', { capacity: { storage: '1Gi' } })),
      422,
      'Invalid',
    );
    expect(bad.message).to.equal(
      'PersistentVolume "pv-2" is invalid: [spec.accessModes: Required value, spec: Required value: must specify a volume type]',
    );
  });
});

describe('P2, P6 PersistentVolumeClaims', () => {
  it('start Pending with pvc-protection (P6) and the default class; the spec is immutable but for the binder volumeName', () => {
    const sim = newSim();
    const sc: StorageClass = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'ebs.csi.aws.com',
    };
    const stored = ok(sim.api.create(USER, 'storageclasses', undefined, sc));
    expect(stored.reclaimPolicy).to.equal('Delete');
    expect(stored.volumeBindingMode).to.equal('Immediate');
    const pvc = ok(sim.api.create(USER, 'persistentvolumeclaims', NS, claim('data')));
    expect(pvc.status?.phase).to.equal('Pending');
    expect(pvc.spec?.storageClassName).to.equal('standard');
    expect(pvc.metadata.finalizers).to.deep.equal(['kubernetes.io/pvc-protection']);
    const bound = ok(
      sim.api.update(USER, 'persistentvolumeclaims', NS, { ...pvc, spec: { ...pvc.spec, volumeName: 'pv-1' } }),
    );
    expect(bound.spec?.volumeName).to.equal('pv-1');
    const changed = failure(
      sim.api.update(USER, 'persistentvolumeclaims', NS, {
        ...bound,
        spec: { ...bound.spec, accessModes: ['ReadWriteMany'] },
      }),
      422,
      'Invalid',
    );
    expect(changed.message).to.equal(
      'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
    const missing = failure(sim.api.create(USER, 'persistentvolumeclaims', NS, claim('x', {})), 422, 'Invalid');
    expect(missing.message).to.equal(
      'PersistentVolumeClaim "x" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]',
    );
  });
});

describe('P2 the immutable-spec message by release', () => {
  it('before v1.34 (VolumeAttributesClass not GA) the message names resources.requests only', () => {
    const sim = newSim(Release.of(33));
    const pvc = ok(sim.api.create(USER, 'persistentvolumeclaims', NS, claim('data')));
    const changed = failure(
      sim.api.update(USER, 'persistentvolumeclaims', NS, {
        ...pvc,
        spec: { ...pvc.spec, accessModes: ['ReadWriteMany'] },
      }),
      422,
      'Invalid',
    );
    expect(changed.message).to.equal(
      'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims',
    );
  });
});

describe('P3 StorageClasses', () => {
  it('need a provisioner, which never changes', () => {
    const sim = newSim();
    const sc = ok(
      sim.api.create(USER, 'storageclasses', undefined, {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'fast' },
        provisioner: 'a.csi',
      } as StorageClass),
    );
    const changed = failure(
      sim.api.update(USER, 'storageclasses', undefined, { ...sc, provisioner: 'b.csi' }),
      422,
      'Invalid',
    );
    expect(changed.message).to.equal(
      'StorageClass.storage.k8s.io "fast" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.',
    );
  });
});

describe('P5 VolumeAttachments', () => {
  it('need an attacher, a node and one source; the spec never changes; status goes through /status', () => {
    const sim = newSim();
    const va: VolumeAttachment = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'csi-1' },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
    };
    const stored = ok(sim.api.create(USER, 'volumeattachments', undefined, { ...va, status: { attached: true } }));
    expect(stored.status).to.equal(undefined);
    const attached = ok(
      sim.api.update(
        USER,
        'volumeattachments',
        undefined,
        { ...stored, status: { attached: true } },
        { subresource: 'status' },
      ),
    );
    expect(attached.status?.attached).to.equal(true);
    const moved = failure(
      sim.api.update(USER, 'volumeattachments', undefined, {
        ...attached,
        spec: { ...attached.spec, nodeName: 'node-2' },
      }),
      422,
      'Invalid',
    );
    expect(moved.message).to.match(
      /^VolumeAttachment.storage.k8s.io "csi-1" is invalid: spec: Invalid value: .*: field is immutable$/,
    );
    const none = failure(
      sim.api.create(USER, 'volumeattachments', undefined, {
        ...va,
        metadata: { name: 'csi-2' },
        spec: { attacher: 'x', nodeName: 'n', source: {} },
      }),
      422,
      'Invalid',
    );
    expect(none.message).to.equal(
      'VolumeAttachment.storage.k8s.io "csi-2" is invalid: spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    );
  });
});

describe('P4 CSIDrivers and CSINodes', () => {
  it('a CSIDriver is defaulted (attachRequired true, Persistent mode); attachRequired never changes; a CSINode driver needs a name and a nodeID', () => {
    const sim = newSim();
    const d = ok(
      sim.api.create(USER, 'csidrivers', undefined, {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'ebs.csi.aws.com' },
        spec: {},
      } as CSIDriver),
    );
    expect(d.spec).to.deep.include({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      volumeLifecycleModes: ['Persistent'],
    });
    const changed = failure(
      sim.api.update(USER, 'csidrivers', undefined, { ...d, spec: { ...d.spec, attachRequired: false } }),
      422,
      'Invalid',
    );
    expect(changed.message).to.equal(
      'CSIDriver.storage.k8s.io "ebs.csi.aws.com" is invalid: spec.attachRequired: Invalid value: false: field is immutable',
    );
    const bad = failure(
      sim.api.create(USER, 'csinodes', undefined, {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: 'node-1' },
        spec: { drivers: [{ name: 'x' }] },
      } as CSINode),
      422,
      'Invalid',
    );
    expect(bad.message).to.equal('CSINode.storage.k8s.io "node-1" is invalid: spec.drivers[0].nodeID: Required value');
  });
});

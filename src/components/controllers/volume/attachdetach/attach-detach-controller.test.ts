/**
 * P22 — the kubelet's `volumes.kubernetes.io/controller-managed-attach-detach` annotation and the
 * attach/detach controller, which manages the volumes only of nodes that carry it
 * (pkg/kubelet/kubelet_node_status.go initialNode; pkg/controller/volume/attachdetach
 * attach_detach_controller.go addNodeToDswp, util.ProcessPodVolumes).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Node, PersistentVolumeClaim, Pod, StorageClass } from '../../../../apimachinery/types';
import { USER } from '../../../../cluster/cluster';
import { ClusterPlan } from '../../../../planning/cluster-plan';
import { ANN_CONTROLLER_MANAGED_ATTACH_DETACH } from '../../../../helpers/volume-util';
import { eventsOf } from '../../workload-testing';

const DRIVER = 'ebs.csi.aws.com';

/** node-1 (its kubelet registers it), an Immediate storage class of DRIVER, and a bound claim "data". */
function cluster(): ClusterPlan {
  const plan = new ClusterPlan();
  plan.node('node-1');
  plan.object('storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'ssd' },
    provisioner: DRIVER,
    volumeBindingMode: 'Immediate',
    reclaimPolicy: 'Delete',
  } as StorageClass);
  plan.csiDriver(DRIVER);
  plan.object('persistentvolumeclaims', {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'ssd', resources: { requests: { storage: '1Gi' } } },
  } as PersistentVolumeClaim);
  plan.start();
  return plan;
}

/** A pod bound to `node` that uses claim "data". */
function podOn(plan: ClusterPlan, node: string): void {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      nodeName: node,
      containers: [{ name: 'app', image: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    },
  };
  const r = plan.cluster.apiserver.create(USER, 'pods', 'default', pod);
  if (!r.ok) expect.fail(r.status.message);
}

const attachments = (plan: ClusterPlan) => {
  const r = plan.cluster.apiserver.list('volumeattachments', undefined);
  return r.ok ? r.object.items.map((va) => va.spec?.nodeName) : [];
};

describe('P22 controller-managed attach and detach', () => {
  it('the kubelet registers its Node with the annotation (enableControllerAttachDetach, the default)', () => {
    const plan = cluster();
    const node = plan.cluster.apiserver.get('nodes', undefined, 'node-1');
    expect(node.ok && node.object.metadata.annotations).to.deep.include({
      [ANN_CONTROLLER_MANAGED_ATTACH_DETACH]: 'true',
    });
  });

  it('a pod on an annotated node: the controller attaches its volume there', () => {
    const plan = cluster();
    podOn(plan, 'node-1');
    plan.cluster.advance(30_000);
    expect(attachments(plan)).to.deep.equal(['node-1']);
  });

  it('a pod on a Node without the annotation (a kubelet that attaches itself): the controller leaves its volume alone', () => {
    const plan = cluster();
    // A Node registered by a kubelet run with enableControllerAttachDetach false: no annotation.
    const bare: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-9', labels: { 'kubernetes.io/hostname': 'node-9' } },
      spec: {},
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const created = plan.cluster.apiserver.create(USER, 'nodes', undefined, bare);
    if (!created.ok) expect.fail(created.status.message);
    podOn(plan, 'node-9');
    plan.cluster.advance(30_000);
    expect(attachments(plan)).to.deep.equal([]);
    expect(eventsOf(plan.cluster, 'attachdetach').filter((t) => t.startsWith('attach '))).to.deep.equal([]);
  });
});

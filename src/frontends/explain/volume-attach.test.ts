/**
 * X20 — explain names the VolumeAttachment that keeps a pod from starting, and when the attach/detach
 * controller lets go (volume-attach.ts), on the gallery's dump rebuilt from
 * longhorn/longhorn-manager#1395 and variants of it.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { join } from 'node:path';
import type { Node, Pod } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { readDumpFiles, type DumpObject } from '../../planning/restore/dump';
import { attachWaits } from './volume-attach';

const DUMP = join(__dirname, '../../../examples/stuck/issue-longhorn-1395-multi-attach.yaml');
const T0 = Date.parse('2022-06-28T10:09:00Z');
const R = Release.parse('v1.36');

function objects(): DumpObject[] {
  return structuredClone(readDumpFiles([DUMP]).objects);
}
const find = <T>(objs: DumpObject[], kind: string, name: string) =>
  objs.find((o) => o.kind === kind && o.name === name)!.obj as unknown as T;

/** The old pod, still on the lost node: Terminating since the taint manager evicted it, its containers shown running. */
function oldPod(): DumpObject {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-6c9f8d7b5-abcde',
      namespace: 'default',
      uid: 'old-uid',
      deletionTimestamp: '2022-06-28T10:05:54Z',
      deletionGracePeriodSeconds: 30,
    },
    spec: {
      nodeName: 'worker-1',
      containers: [{ name: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-test-sts-0' } }],
    },
    status: { phase: 'Running', containerStatuses: [{ name: 'nginx', state: { running: {} } }] },
  };
  return { kind: 'Pod', apiVersion: 'v1', obj: pod as never, name: pod.metadata.name, namespace: 'default', where: '' };
}

describe('X20 a pod whose volume another node holds', () => {
  it('the old pod has left, on a node not Ready: detached by force 6 minutes after it left, at the latest 6 minutes after the StatefulSet created its successor', () => {
    const [w] = attachWaits(objects(), T0, R);
    expect([w.name, w.volume, w.claim, w.attachment, w.heldOn]).to.deep.equal([
      'test-sts-0',
      'pvc-51e196b9-4f93-42a2-b362-b744fa05b07f',
      'data-test-sts-0',
      'csi-24d91a51a3eaff9f4fe379d58cb0128d5ea56447427b3bd2093f8baec57a60a9',
      'worker-1',
    ]);
    expect(w.detach).to.match(/^by force at T\+3m32s at the latest/);
    expect(w.remedies.map((r) => r.command)).to.deep.equal([
      'kubectl taint node worker-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute',
    ]);
  });

  it('an old pod still Terminating on the lost node keeps it in the desired state: the 6 minutes have not started; force-deleting it or the taint would', () => {
    const objs = [...objects(), oldPod()];
    const [w] = attachWaits(objs, T0, R);
    expect(w.detach).to.include('never as things stand: pods/web-6c9f8d7b5-abcde is still in the attach/detach');
    expect(w.evidence).to.include(
      'pods/web-6c9f8d7b5-abcde on worker-1 uses it: Terminating since 2022-06-28T10:05:54Z, its containers shown running (still in the desired state)',
    );
    expect(w.remedies.map((r) => r.command)).to.deep.equal([
      'kubectl delete pod web-6c9f8d7b5-abcde -n default --grace-period=0 --force',
      'kubectl taint node worker-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute',
    ]);
  });

  it('a node tainted out-of-service has it detached at once; a Ready node only once its kubelet unmounts (never by force)', () => {
    const tainted = objects();
    find<Node>(tainted, 'Node', 'worker-1').spec!.taints!.push({
      key: 'node.kubernetes.io/out-of-service',
      value: 'nodeshutdown',
      effect: 'NoExecute',
    });
    expect(attachWaits(tainted, T0, R)[0].detach).to.match(/^at once: node worker-1 is tainted out-of-service/);
    const ready = objects();
    find<Node>(ready, 'Node', 'worker-1').status!.conditions = [{ type: 'Ready', status: 'True' }];
    expect(attachWaits(ready, T0, R)[0].detach).to.include('a Ready node is never detached by force');
    const unmounted = objects();
    find<Node>(unmounted, 'Node', 'worker-1').status!.volumesInUse = [];
    expect(attachWaits(unmounted, T0, R)[0].detach).to.match(/^now: the kubelet of worker-1 does not report it in use/);
  });

  it('nothing waits when the pod runs, or when the volume allows multi-attach (ReadWriteMany)', () => {
    const running = objects();
    find<Pod>(running, 'Pod', 'test-sts-0').status!.phase = 'Running';
    expect(attachWaits(running, T0, R)).to.deep.equal([]);
    const many = objects();
    find<{ spec: { accessModes: string[] } }>(
      many,
      'PersistentVolume',
      'pvc-51e196b9-4f93-42a2-b362-b744fa05b07f',
    ).spec.accessModes = ['ReadWriteMany'];
    expect(attachWaits(many, T0, R)).to.deep.equal([]);
  });
});

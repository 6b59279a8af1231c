import { describe, it } from 'node:test';
import { expect } from 'chai';
import { join } from 'node:path';
import type { Pod } from '../../apimachinery/types';
import { ClusterPlan } from '../cluster-plan';
import { readDumpFiles } from './dump';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');

/** A plan resumed from a gallery dump; `more` declares what the Given steps would after it. */
function resume(file: string, more: (plan: ClusterPlan) => void = () => undefined): ClusterPlan {
  const plan = new ClusterPlan();
  plan.objects(readDumpFiles([join(GALLERY, file)]));
  more(plan);
  plan.start();
  return plan;
}

function podOf(plan: ClusterPlan, namespace: string, name: string): Pod | undefined {
  const r = plan.cluster.apiserver.get('pods', namespace, name);
  return r.ok ? r.object : undefined;
}

const texts = (plan: ClusterPlan, component: string) =>
  plan.cluster.timeline
    .all()
    .filter((e) => e.component === component)
    .map((e) => `${Math.round((e.at - plan.cluster.timeline.all()[0].at) / 1000)} ${e.text}`);

describe('resumed objects (src/planning/restore/)', () => {
  it('X1 stores the objects as they are: uid, timestamps, deletionGracePeriodSeconds, finalizers, status; their namespace exists', () => {
    const plan = resume('finalizer.yaml');
    const pod = podOf(plan, 'batch', 'report-7d9f')!;
    expect(pod.metadata).to.include({
      uid: '5b0f5a0e-2c1d-4f7e-9d63-1f0c2e8a9b41',
      creationTimestamp: '2025-06-03T08:12:44Z',
      deletionTimestamp: '2025-06-03T09:20:31Z',
      deletionGracePeriodSeconds: 0,
    });
    expect(pod.metadata.finalizers).to.deep.equal(['reports.example.com/upload']);
    expect(pod.status?.phase).to.equal('Failed');
    expect(plan.cluster.apiserver.get('namespaces', undefined, 'batch').ok).to.equal(true);
    expect(plan.warmupMs).to.equal(0);
  });

  it('X2 starts virtual time at the newest time the objects show', () => {
    const plan = resume('containers-running.yaml');
    expect(new Date(plan.cluster.clock.now()).toISOString()).to.equal('2025-06-03T09:30:22.000Z');
  });

  it('X3 the node runs what the status shows: the container with its id and start time, its volumes mounted', () => {
    const plan = resume('containers-running.yaml');
    const node = plan.cluster.node('worker-1');
    const c = node.runtime.sandbox('0c6e1f7a-93b2-4d55-8a1e-6f2b7c9d0e31')!.containers.get('checkout')!;
    expect(c.id).to.equal('containerd://4b8e2f0c6a1d3e5f7b9c0d2e4f6a8b0c1d3e5f7a9b0c2d4e6f8a0b1c3d5e7f9a');
    expect(new Date(c.startedAt).toISOString()).to.equal('2025-06-03T07:58:12.000Z');
    expect(node.volumes.podVolumesExist('0c6e1f7a-93b2-4d55-8a1e-6f2b7c9d0e31')).to.equal(true);
  });

  it('X4 a pod mid-kill is killed at its deletionTimestamp (the remaining grace), unless a step changes the container', () => {
    const plan = resume('containers-running.yaml');
    plan.cluster.advance(20_000);
    expect(texts(plan, 'runtime')).to.include('18 SIGKILL checkout pods/checkout-5c7d8b9f6-x2kq9');
    expect(podOf(plan, 'shop', 'checkout-5c7d8b9f6-x2kq9')).to.equal(undefined);
    const changed = resume('containers-running.yaml', (p) =>
      p.containerBehaviour('checkout', 'checkout-5c7d8b9f6-x2kq9', { sigterm: { kind: 'exits', afterMs: 5000 } }),
    );
    changed.cluster.advance(20_000);
    expect(texts(changed, 'runtime')).to.include('5 exited checkout code=0 pods/checkout-5c7d8b9f6-x2kq9');
  });

  it('X5 a node with Ready=Unknown and a stale lease is cut off: its kubelet writes nothing, its pod stays Terminating', () => {
    const plan = resume('node-unreachable.yaml');
    plan.cluster.advance(10 * 60_000);
    expect(plan.cluster.node('worker-3').reachable).to.equal(false);
    expect(plan.cluster.node('worker-1').reachable).to.equal(true);
    const node = plan.cluster.apiserver.get('nodes', undefined, 'worker-3');
    expect(node.ok && node.object.status?.conditions?.find((c) => c.type === 'Ready')?.status).to.equal('Unknown');
    expect(podOf(plan, 'prod', 'db-0')?.metadata.deletionTimestamp).to.equal('2025-06-03T10:08:31Z');
  });

  it('X6 a FailedUnMount Event: the volume it names never unmounts', () => {
    const plan = resume('volume-unmount.yaml');
    plan.cluster.advance(5 * 60_000);
    expect(
      plan.cluster
        .node('worker-2')
        .volumes.stuckVolumes()
        .map((v) => v.volume),
    ).to.deep.equal(['spool']);
    expect(podOf(plan, 'data', 'ingest-6f4c9d7b8-q7w2m')).to.not.equal(undefined);
  });

  it('X7 an owner ReplicaSet and a node the objects name but lack exist; kinds not modelled are left out and listed', () => {
    const plan = resume('webhook.yaml');
    const rs = plan.cluster.apiserver.get('replicasets', 'apps', 'mailer-84c6d9f7b5');
    expect(rs.ok && rs.object.metadata.uid).to.equal('3c5e7a9c-1e3b-4d5f-8a9c-0e2b4d6f8a17');
    expect([...plan.cluster.nodes.keys()]).to.deep.equal(['worker-1']);
    expect(plan.restoredObjects!.unmodelled.map((o) => o.kind)).to.deep.equal(['ValidatingWebhookConfiguration']);
  });

  it('X8 a container that survives SIGKILL: StopContainer fails after the grace plus the runtime request timeout, FailedKillPod, retried after the back-off', () => {
    const plan = resume('failed-kill-pod.yaml');
    plan.cluster.advance(5 * 60_000);
    const events = texts(plan, 'events').filter((t) => t.includes('FailedKillPod'));
    expect(events[0]).to.equal(
      '122 FailedKillPod pods/indexer-0: error killing pod: failed to "KillContainer" for "indexer" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
    );
    expect(events[1]).to.match(/^254 FailedKillPod/);
    expect(podOf(plan, 'search', 'indexer-0')).to.not.equal(undefined);
  });
});

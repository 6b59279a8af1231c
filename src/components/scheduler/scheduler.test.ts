import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { SchedulingQueue } from './scheduling-queue';

function cluster(nodes: string[], release?: Release): Cluster {
  const c = new Cluster(release ? { release } : {});
  for (const n of nodes) c.addNode(n);
  c.flush();
  return c;
}

function pending(c: Cluster, name: string, spec: Partial<NonNullable<Pod['spec']>> = {}): void {
  const r = c.apiserver.create(USER, 'pods', 'default', {
    metadata: { name },
    spec: { containers: [{ name: 'app' }], ...spec },
  });
  if (!r.ok) expect.fail(r.status.message);
}

const pod = (c: Cluster, name: string): Pod | undefined => {
  const r = c.apiserver.get('pods', 'default', name);
  return r.ok ? r.object : undefined;
};
const scheduled = (c: Cluster, name: string) =>
  pod(c, name)?.status?.conditions?.find((x) => x.type === 'PodScheduled');
const events = (c: Cluster, reason: string) => {
  const r = c.apiserver.list('events', 'default');
  return r.ok
    ? r.object.items.filter((e) => e.reason === reason).map((e) => `${e.involvedObject.name}: ${e.message}`)
    : [];
};
const texts = (c: Cluster, component: string) =>
  c.timeline
    .all()
    .filter((e) => e.component === component)
    .map((e) => e.text);

function patchNode(c: Cluster, name: string, body: unknown): void {
  const r = c.apiserver.patch(USER, 'nodes', undefined, name, 'merge', body);
  if (!r.ok) expect.fail(r.status.message);
  c.flush();
}

describe('kube-scheduler (pkg/scheduler schedule_one.go)', () => {
  it('W1 binds an unassigned pod through pods/binding to the node with the fewest pods, ties by name; Scheduled event, PodScheduled=True', () => {
    const c = cluster(['node-b', 'node-a', 'node-c']);
    pending(c, 'one');
    c.flush();
    expect(pod(c, 'one')?.spec?.nodeName).to.equal('node-a');
    expect(scheduled(c, 'one')?.status).to.equal('True');
    pending(c, 'two');
    pending(c, 'three');
    c.flush();
    expect([pod(c, 'two')?.spec?.nodeName, pod(c, 'three')?.spec?.nodeName]).to.deep.equal(['node-b', 'node-c']);
    expect(texts(c, 'apiserver').filter((t) => t.includes('/binding'))).to.deep.equal([
      'CREATE pods/one/binding node=node-a',
      'CREATE pods/two/binding node=node-b',
      'CREATE pods/three/binding node=node-c',
    ]);
    expect(events(c, 'Scheduled')).to.include('one: Successfully assigned default/one to node-a');
    expect(texts(c, 'scheduler')).to.include('schedules pods/one to node-a');
  });

  it('W1 a pod bound by its creator (spec.nodeName) and a pod for another scheduler are left alone', () => {
    const c = cluster(['node-1']);
    pending(c, 'bound', { nodeName: 'node-1' });
    pending(c, 'other', { schedulerName: 'my-scheduler' });
    c.advance(60_000);
    expect(texts(c, 'scheduler')).to.deep.equal([]);
    expect(pod(c, 'other')?.spec?.nodeName).to.equal(undefined);
  });

  it("W2 a pod that fits nowhere stays Pending with FitError's message (counted reasons, then preemption's verdict) and is bound once a node change lets it", () => {
    const c = cluster(['node-1', 'node-2', 'node-3']);
    patchNode(c, 'node-1', { spec: { unschedulable: true } });
    patchNode(c, 'node-2', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } });
    // A node that stopped reporting: the node lifecycle controller taints it unreachable.
    c.node('node-3').setReachable(false);
    c.advance(60_000);
    pending(c, 'web');
    c.flush();
    const message =
      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    expect(scheduled(c, 'web')).to.include({ status: 'False', reason: 'Unschedulable', message });
    expect(events(c, 'FailedScheduling')).to.deep.equal([`web: ${message}`]);
    expect(pod(c, 'web')?.status?.phase).to.equal('Pending');
    // Nothing changes: no retry until the 5-minute flush.
    c.advance(60_000);
    expect(events(c, 'FailedScheduling')).to.have.length(1);
    // Uncordoned: NodeUnschedulable registered for that event, so the pod is tried again.
    patchNode(c, 'node-1', { spec: { unschedulable: null } });
    c.advance(1000);
    expect(pod(c, 'web')?.spec?.nodeName).to.equal('node-1');
  });

  it('W2 a toleration lets the pod onto the tainted node; nodeSelector and required node affinity filter by label', () => {
    const c = cluster(['node-1', 'node-2']);
    patchNode(c, 'node-1', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } });
    patchNode(c, 'node-2', { metadata: { labels: { zone: 'b' } } });
    pending(c, 'tolerant', {
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      nodeSelector: { 'kubernetes.io/hostname': 'node-1' },
    });
    pending(c, 'zoned', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }],
          },
        },
      },
    });
    pending(c, 'nowhere', { nodeSelector: { zone: 'c' } });
    c.flush();
    expect([pod(c, 'tolerant')?.spec?.nodeName, pod(c, 'zoned')?.spec?.nodeName]).to.deep.equal(['node-1', 'node-2']);
    expect(scheduled(c, 'nowhere')?.message).to.equal(
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
  });

  it("W3 NodeResourcesFit counts pods against status.allocatable.pods; a bound pod's deletion moves the waiting pod back", () => {
    const c = cluster(['node-1']);
    const r = c.apiserver.patch(
      USER,
      'nodes',
      undefined,
      'node-1',
      'merge',
      { status: { allocatable: { pods: '1' } } },
      { subresource: 'status' },
    );
    if (!r.ok) expect.fail(r.status.message);
    pending(c, 'first');
    pending(c, 'second');
    c.flush();
    expect(pod(c, 'first')?.spec?.nodeName).to.equal('node-1');
    expect(scheduled(c, 'second')?.message).to.equal(
      '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
    c.apiserver.delete(USER, 'pods', 'default', 'first', { gracePeriodSeconds: 0 });
    c.advance(1000);
    expect(pod(c, 'second')?.spec?.nodeName).to.equal('node-1');
  });

  it('W3 V62 without queueing hints (v1.27, v1.31) a node event moves a waiting pod only if preCheckForNode passes on that node; with them (v1.32) the hint decides', () => {
    for (const minor of [27, 31, 32]) {
      const c = cluster(['node-1'], Release.of(minor));
      pending(c, 'web', { nodeSelector: { disk: 'ssd' } });
      c.flush();
      const attempts = () => texts(c, 'scheduler').filter((t) => t.includes('pods/web')).length;
      const first = attempts();
      expect(first, `v1.${minor}: tried once`).to.be.greaterThan(0);
      // NodeAffinity registered for label changes, but the node still does not match: neither
      // preCheckForNode nor the hint lets the pod move (before, v1.26–v1.31 moved it on any label change).
      patchNode(c, 'node-1', { metadata: { labels: { zone: 'a' } } });
      c.advance(15_000);
      expect(attempts(), `v1.${minor}: not tried again`).to.equal(first);
      patchNode(c, 'node-1', { metadata: { labels: { disk: 'ssd' } } });
      c.advance(15_000);
      expect(pod(c, 'web')?.spec?.nodeName, `v1.${minor}`).to.equal('node-1');
    }
  });

  it('W3 a node that now matches the selector but has an untolerated NoSchedule taint: no retry without hints (preCheckForNode), a retry with them (NodeAffinity says Queue)', () => {
    const retried = (minor: number) => {
      const c = cluster(['node-1', 'node-2'], Release.of(minor));
      patchNode(c, 'node-1', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } });
      // node-1 rejects it for its taint, node-2 for its labels: TaintToleration and NodeAffinity rejected it.
      pending(c, 'web', { nodeSelector: { disk: 'ssd' } });
      c.flush();
      const attempts = () => texts(c, 'scheduler').filter((t) => t.includes('pods/web')).length;
      const first = attempts();
      patchNode(c, 'node-1', { metadata: { labels: { disk: 'ssd' } } });
      c.advance(15_000);
      expect(pod(c, 'web')?.spec?.nodeName).to.equal(undefined);
      return attempts() > first;
    };
    expect(retried(31)).to.equal(false);
    expect(retried(32)).to.equal(true);
  });

  it('W2 with no nodes at all: "no nodes available to schedule pods"; the first node to join takes the pod', () => {
    const c = cluster([]);
    pending(c, 'web');
    c.flush();
    expect(scheduled(c, 'web')).to.include({
      status: 'False',
      reason: 'Unschedulable',
      message: 'no nodes available to schedule pods',
    });
    c.addNode('node-1');
    c.advance(1000);
    expect(pod(c, 'web')?.spec?.nodeName).to.equal('node-1');
  });

  it('W4 an unschedulable pod is tried again after 5 minutes in the queue (flushUnschedulablePodsLeftover, every 30 s)', () => {
    const c = cluster(['node-1']);
    patchNode(c, 'node-1', { spec: { unschedulable: true } });
    const t0 = c.clock.now();
    pending(c, 'web');
    c.flush();
    const failures = () =>
      c.timeline.since(t0).filter((e) => e.component === 'scheduler' && e.text.startsWith('pods/web is unschedulable'));
    expect(failures()).to.have.length(1);
    c.advance(5 * 60_000);
    expect(failures()).to.have.length(1);
    c.advance(30_000);
    expect(failures()).to.have.length(2);
    expect(c.settle().settled).to.equal(true);
  });

  it('W4 back-off: 1 s doubling per attempt, at most 10 s (calculateBackoffDuration)', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => SchedulingQueue.backoffDuration(n))).to.deep.equal([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('W4 before SchedulerPopFromBackoffQ (v1.32) a pod moved during its back-off waits it out at the 1 s flush', () => {
    const c = cluster(['node-1'], Release.of(32));
    patchNode(c, 'node-1', { spec: { unschedulable: true } });
    pending(c, 'web');
    c.flush();
    c.advance(300);
    patchNode(c, 'node-1', { spec: { unschedulable: null } });
    expect(pod(c, 'web')?.spec?.nodeName).to.equal(undefined);
    c.advance(700);
    expect(pod(c, 'web')?.spec?.nodeName).to.equal('node-1');
  });

  it('W5 scheduling gates: SchedulingGated at creation, bound once the last gate is removed; before v1.27 (gate off) the field is dropped', () => {
    const c = cluster(['node-1']);
    pending(c, 'gated', { schedulingGates: [{ name: 'example.com/wait' }] });
    c.advance(60_000);
    expect(scheduled(c, 'gated')).to.include({
      status: 'False',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    });
    expect(pod(c, 'gated')?.spec?.nodeName).to.equal(undefined);
    const added = c.apiserver.patch(USER, 'pods', 'default', 'gated', 'merge', {
      spec: { schedulingGates: [{ name: 'example.com/wait' }, { name: 'example.com/more' }] },
    });
    expect(added.ok ? '' : added.status.message).to.contain(
      "spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/more'",
    );
    const removed = c.apiserver.patch(USER, 'pods', 'default', 'gated', 'merge', { spec: { schedulingGates: null } });
    if (!removed.ok) expect.fail(removed.status.message);
    c.flush();
    expect(pod(c, 'gated')?.spec?.nodeName).to.equal('node-1');

    const old = cluster(['node-1'], Release.of(26));
    pending(old, 'gated', { schedulingGates: [{ name: 'example.com/wait' }] });
    old.flush();
    expect(pod(old, 'gated')?.spec?.schedulingGates).to.equal(undefined);
    expect(pod(old, 'gated')?.spec?.nodeName).to.equal('node-1');
  });

  it('W1 pods/binding refuses a gated pod (409 Conflict) and sets PodScheduled=True with spec.nodeName', () => {
    const c = new Cluster({ scheduler: false });
    c.addNode('node-1');
    pending(c, 'gated', { schedulingGates: [{ name: 'x' }] });
    const r = c.apiserver.bind(USER, 'default', 'gated', 'node-1');
    expect(r.ok ? '' : `${r.code} ${r.status.message}`).to.equal(
      '409 Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates',
    );
    pending(c, 'free');
    const ok = c.apiserver.bind(USER, 'default', 'free', 'node-1');
    expect(ok.ok && ok.object.status?.conditions?.find((x) => x.type === 'PodScheduled')?.status).to.equal('True');
  });

  it('W65 over 100 nodes the search stops at numFeasibleNodesToFind and the next pod goes on from where it stopped, in the order nodes joined', () => {
    // 200 nodes: 100 feasible nodes are enough. Names sort differently from the order they joined
    // (node-10 before node-2): the search follows the join order, the tie among equal scores the name.
    const c = cluster(Array.from({ length: 200 }, (_, i) => `node-${i}`));
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      pending(c, name);
      c.flush();
    }
    const placed = ['p1', 'p2', 'p3', 'p4', 'p5'].map((n) => pod(c, n)?.spec?.nodeName);
    // p1 scores node-0…node-99, p2 node-100…node-199, p3 the first 100 again (node-0 holds p1), …
    expect(placed).to.deep.equal(['node-0', 'node-100', 'node-1', 'node-101', 'node-10']);
  });

  it('W65 up to 100 nodes every node is scored: the fewest pods, ties by name, whatever the order nodes joined', () => {
    const c = cluster(Array.from({ length: 100 }, (_, i) => `node-${99 - i}`));
    for (const name of ['p1', 'p2', 'p3']) {
      pending(c, name);
      c.flush();
    }
    expect(['p1', 'p2', 'p3'].map((n) => pod(c, n)?.spec?.nodeName)).to.deep.equal(['node-0', 'node-1', 'node-10']);
  });

  /** A pod with a WaitForFirstConsumer claim; every value its status.nominatedNodeName took, and the write order. */
  function nominatedOnTheWay(release: Release): { values: (string | undefined)[]; writes: string[]; final?: string } {
    const c = cluster(['node-1'], release);
    c.installCsiDriver('local.csi.example.com');
    const sc = c.apiserver.create(USER, 'storageclasses', undefined, {
      metadata: { name: 'local' },
      provisioner: 'local.csi.example.com',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    if (!sc.ok) expect.fail(sc.status.message);
    const pvc = c.apiserver.create(USER, 'persistentvolumeclaims', 'default', {
      metadata: { name: 'scratch' },
      spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    if (!pvc.ok) expect.fail(pvc.status.message);
    c.flush();
    const values: (string | undefined)[] = [];
    c.apiserver.etcd.subscribe((e) => {
      if (e.key !== '/registry/pods/default/job' || e.type === 'DELETE') return;
      const v = (e.value as Pod).status?.nominatedNodeName;
      if (values[values.length - 1] !== v || values.length === 0) values.push(v);
    });
    pending(c, 'job', { volumes: [{ name: 'scratch', persistentVolumeClaim: { claimName: 'scratch' } }] });
    c.advance(30_000);
    const writes = texts(c, 'apiserver').filter((t) =>
      /pods\/job\/(status|binding)|persistentvolumeclaims\/scratch/.test(t),
    );
    return { values, writes, final: pod(c, 'job')?.status?.nominatedNodeName };
  }

  it('W66 V78 v1.35+: status.nominatedNodeName names the chosen node while VolumeBinding binds the claim, and the binding clears it', () => {
    const r = nominatedOnTheWay(Release.of(36));
    expect(r.values).to.deep.equal([undefined, 'node-1', undefined]);
    expect(r.final).to.equal(undefined);
    const patch = r.writes.findIndex((t) => t.startsWith('PATCH pods/job/status'));
    const selected = r.writes.findIndex((t) => t.startsWith('PATCH persistentvolumeclaims/scratch'));
    const binding = r.writes.findIndex((t) => t.startsWith('CREATE pods/job/binding'));
    expect(patch, r.writes.join('\n')).to.be.greaterThan(-1);
    expect(patch).to.be.lessThan(selected);
    expect(selected).to.be.lessThan(binding);
  });

  it('W66 V78 v1.34 (gates alpha, off): no nominatedNodeName is written', () => {
    const r = nominatedOnTheWay(Release.of(34));
    expect(r.values).to.deep.equal([undefined]);
    const binding = r.writes.findIndex((t) => t.startsWith('CREATE pods/job/binding'));
    expect(r.writes.slice(0, binding).filter((t) => t.startsWith('PATCH pods/job/status'))).to.deep.equal([]);
  });
});

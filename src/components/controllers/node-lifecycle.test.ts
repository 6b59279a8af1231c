/**
 * The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go) through
 * a whole cluster. The kubelet renews its Lease every 10 s from the cluster's start and the monitor
 * runs every 5 s, so at T+0 (one minute in) the lease was just renewed and seen: probeTimestamp is T+0.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { TAINT_UNREACHABLE } from '../../apiserver/admission';
import { toTime } from '../../apimachinery/object';
import type { Node, Pod } from '../../apimachinery/types';
import { Cluster } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { at, count, createPod, expectNo, expectTimeline, NODE, stored, WARMUP_MS } from '../kubelet/testing';
import type { SimNode } from '../../cluster/node';

const NLC = 'node-lifecycle-controller';

function requestsBy(c: Cluster, t0: number, actor: string): string[] {
  return c.timeline
    .since(t0)
    .filter((e) => e.component === 'apiserver' && e.actor === actor)
    .map((e) => e.text);
}

// The offsets below are v1.33's unless a test names its release (V5: from v1.34 the NoExecute taint comes 5 s earlier).
function running(release: Release = Release.of(33)): { c: Cluster; node: SimNode; t0: number } {
  const c = new Cluster({ release });
  const node = c.addNode(NODE);
  createPod(c, 'web');
  c.advance(WARMUP_MS);
  return { c, node, t0: c.clock.now() };
}

function nodeObject(c: Cluster): Node {
  const r = c.apiserver.get('nodes', undefined, NODE);
  if (!r.ok) expect.fail(r.status.message);
  return r.object;
}

const ready = (o: Node | Pod | undefined) =>
  (
    o?.status?.conditions as
      | {
          type: string;
          status: string;
          reason?: string;
          message?: string;
          lastHeartbeatTime?: string;
          lastTransitionTime?: string;
        }[]
      | undefined
  )?.find((c) => c.type === 'Ready');
const taints = (n: Node) => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);

describe('NodeLifecycleController monitorNodeHealth', () => {
  it('V3 up to v1.31 the node monitor grace period is 40 s (kubernetes#126287 made it 50 s in v1.32)', () => {
    const { c, node } = running(Release.of(31));
    node.setReachable(false);
    c.advance(44_000);
    expect(ready(nodeObject(c))?.status, 'the pass at T+40 is not past the grace').to.equal('True');
    c.advance(1000);
    expect(ready(nodeObject(c))?.status).to.equal('Unknown');
  });

  it('K46 tryUpdateNodeHealth: a node that keeps renewing its Lease stays Ready, and the loop stays quiet', () => {
    const { c, t0 } = running();
    c.advance(10 * 60_000);
    expect(requestsBy(c, t0, NLC)).to.deep.equal([]);
    expect(ready(nodeObject(c))?.status).to.equal('True');
  });

  it('K46 tryUpdateNodeHealth: Ready=Unknown at the first 5 s monitor pass more than 50 s after the controller last saw the Lease renewed (one UpdateStatus)', () => {
    const { c, node, t0 } = running();
    const before = ready(nodeObject(c));
    node.setReachable(false);
    c.advance(54_000);
    expect(
      ready(nodeObject(c))?.status,
      'T+54: 54 s since the last renewal it saw, but the pass at T+50 is not past the grace',
    ).to.equal('True');
    c.advance(1000);
    expect(ready(nodeObject(c))).to.deep.equal({
      ...before,
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: toTime(t0 + 55_000),
    });
    expect(at(c, t0, 'nodelifecycle', `node ${NODE} Ready=Unknown: no heartbeat seen for 55s`)).to.equal(55);
    expect(requestsBy(c, t0, NLC).slice(0, 1)).to.deep.equal([`UPDATE nodes/${NODE}/status`]);
  });

  it('K46 tryUpdateNodeHealth: the grace counts from the last renewal the controller saw, not from the partition', () => {
    const { c, node, t0 } = running();
    c.advance(7000); // the lease was renewed at T+0 (seen at T+0); the next renewal would be at T+10
    node.setReachable(false);
    c.advance(60_000);
    expect(at(c, t0, 'nodelifecycle', `node ${NODE} Ready=Unknown`)).to.equal(55);
  });

  it('K46 MarkPodsNotReady: with the node going Ready→Unknown, each pod on it gets Ready=False (that condition only; one UpdateStatus per pod)', () => {
    const { c, node, t0 } = running();
    const before = stored(c, 'web')!;
    node.setReachable(false);
    c.advance(60_000);
    const after = stored(c, 'web')!;
    expect(ready(after)).to.deep.equal({ ...ready(before), status: 'False', lastTransitionTime: toTime(t0 + 55_000) });
    expect(after.status?.conditions?.filter((c) => c.type !== 'Ready')).to.deep.equal(
      before.status?.conditions?.filter((c) => c.type !== 'Ready'),
    );
    expect(after.status?.phase).to.equal('Running');
    expectTimeline(c, t0, [
      [55, 'apiserver', `UPDATE nodes/${NODE}/status`],
      [55, 'nodelifecycle', 'pods/web Ready=False'],
      [55, 'apiserver', 'UPDATE pods/web/status'],
    ]);
    c.advance(5 * 60_000);
    expect(count(c, t0, 'apiserver', 'UPDATE pods/web/status'), 'only on the transition').to.equal(1);
  });

  it('K46 MarkPodsNotReady records a Warning NodeNotReady event "Node is not ready" on each pod, from node-controller, after its UpdateStatus', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    c.advance(60_000);
    const events = c.apiserver.list(
      'events',
      'default',
      (e) => e.involvedObject?.name === 'web' && e.reason === 'NodeNotReady',
    );
    expect(
      events.ok &&
        events.object.items.map((e) => [
          e.type,
          e.message,
          e.source?.component,
          e.involvedObject.uid,
          e.firstTimestamp,
        ]),
    ).to.deep.equal([
      ['Warning', 'Node is not ready', 'node-controller', stored(c, 'web')!.metadata.uid, toTime(t0 + 55_000)],
    ]);
    expectTimeline(c, t0, [
      [55, 'apiserver', 'UPDATE pods/web/status'],
      [55, 'events', 'NodeNotReady pods/web: Node is not ready'],
    ]);
  });

  it("K46 MarkPodsNotReady reads the node's pods from the shared pod informer's spec.nodeName index: a zone outage of N nodes LISTs no pod (it LISTed every pod of the cluster per node before)", () => {
    const c = new Cluster();
    const nodes = ['zone-a-1', 'zone-a-2', 'zone-a-3', 'zone-a-4'].map((name) => c.addNode(name));
    for (const [i, node] of nodes.entries())
      for (let p = 0; p < 3; p++) createPod(c, `web-${i}-${p}`, { nodeName: node.name });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    // Operation count: every pod LIST the apiserver serves, and the pods it hands out.
    let podLists = 0;
    let podsListed = 0;
    const list = c.apiserver.list.bind(c.apiserver);
    c.apiserver.list = ((resource, namespace, matches) => {
      const r = list(resource, namespace, matches);
      if (resource === 'pods') {
        podLists += 1;
        podsListed += r.ok ? r.object.items.length : 0;
      }
      return r;
    }) as typeof c.apiserver.list;
    for (const node of nodes) node.setReachable(false);
    c.advance(60_000);
    expect(count(c, t0, 'apiserver', 'UPDATE pods/web-'), 'every pod of every node is marked Ready=False').to.equal(12);
    expect(
      { podLists, podsListed },
      "pod GC's 20 s passes are its own LISTs; MarkPodsNotReady adds none",
    ).to.deep.equal({ podLists: 3, podsListed: 36 });
  });

  it('K46 doNoScheduleTaintingPass + processTaintBaseEviction: the unreachable NoSchedule taint follows the status update; the NoExecute one comes with the next pass, which sees the Unknown it wrote', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    c.advance(55_000);
    expect(taints(nodeObject(c))).to.deep.equal([`${TAINT_UNREACHABLE}:NoSchedule`]);
    c.advance(5000);
    const n = nodeObject(c);
    expect(taints(n)).to.deep.equal([`${TAINT_UNREACHABLE}:NoSchedule`, `${TAINT_UNREACHABLE}:NoExecute`]);
    expect(n.spec?.taints?.map((t) => t.timeAdded)).to.deep.equal([toTime(t0 + 55_000), toTime(t0 + 60_000)]);
    expect(requestsBy(c, t0, NLC)).to.deep.equal([
      `UPDATE nodes/${NODE}/status`,
      'UPDATE pods/web/status',
      `PATCH nodes/${NODE}`,
      `PATCH nodes/${NODE}`,
    ]);
    expectTimeline(c, t0, [
      [55, 'nodelifecycle', `node ${NODE} taints +${TAINT_UNREACHABLE}:NoSchedule`],
      [60, 'nodelifecycle', `node ${NODE} tainted ${TAINT_UNREACHABLE}:NoExecute (Ready=Unknown)`],
    ]);
  });

  it('V5 from v1.34 processTaintBaseEviction uses the current Ready condition: the NoExecute taint comes in the same pass as Unknown (kubernetes#120816)', () => {
    const { c, node, t0 } = running(Release.of(34));
    node.setReachable(false);
    c.advance(55_000);
    const n = nodeObject(c);
    // Both taints are written in the same pass; their order in the list is not part of the rule.
    expect(taints(n).sort()).to.deep.equal([`${TAINT_UNREACHABLE}:NoExecute`, `${TAINT_UNREACHABLE}:NoSchedule`]);
    expect(n.spec?.taints?.map((t) => t.timeAdded)).to.deep.equal([toTime(t0 + 55_000), toTime(t0 + 55_000)]);
    expectTimeline(c, t0, [
      [55, 'nodelifecycle', `node ${NODE} tainted ${TAINT_UNREACHABLE}:NoExecute (Ready=Unknown)`],
    ]);
  });

  it('K46 markNodeAsReachable: a node that reports Ready again loses the NoSchedule taint with its status, and the NoExecute taint at the next pass', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    c.advance(120_000);
    node.setReachable(true);
    c.flush();
    expect(ready(nodeObject(c))?.status, 'the kubelet reports Ready on return').to.equal('True');
    expect(taints(nodeObject(c))).to.deep.equal([`${TAINT_UNREACHABLE}:NoExecute`]);
    c.advance(5000);
    expect(taints(nodeObject(c))).to.deep.equal([]);
    expectTimeline(c, t0, [
      [120, 'apiserver', `PATCH nodes/${NODE}/status`],
      [120, 'nodelifecycle', `node ${NODE} taints -${TAINT_UNREACHABLE}:NoSchedule`],
      [125, 'nodelifecycle', `node ${NODE} is Ready again: NoExecute taints removed`],
    ]);
    c.advance(10 * 60_000);
    expectNo(c, t0 + 126_000, 'nodelifecycle', 'node');
  });
});

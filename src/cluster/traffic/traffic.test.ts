/**
 * The simulated clients (src/cluster/traffic/traffic.ts): requests routed at their instant, failures by
 * kind (no endpoints, connection refused, connection reset), counted per second on the traffic lane.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../cluster';
import { createPod, NODE, WARMUP_MS } from '../../components/kubelet/testing';
import type { ContainerBehaviour } from '../../components/kubelet/runtime';

function served(
  behaviour: Partial<ContainerBehaviour>,
  client: { takesMs: number; external: boolean },
  lbLagMs = 0,
): { c: Cluster; t0: number } {
  const c = new Cluster();
  c.addNode(NODE);
  const network = c.network();
  network.setLoadBalancerLag('default/web', lbLagMs);
  c.apiserver.create(USER, 'services', 'default', {
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  });
  createPod(c, 'web-1', { metadata: { labels: { app: 'web' } } });
  createPod(c, 'web-2', { metadata: { labels: { app: 'web' } }, containers: { app: behaviour } });
  c.advance(WARMUP_MS);
  const t0 = c.clock.now();
  network.clients.add({ service: 'web', namespace: 'default', everyMs: 100, ...client }, t0);
  return { c, t0 };
}

const failures = (c: Cluster, t0: number) =>
  c
    .network()
    .clients.failuresOf('web')
    .map((f) => [Math.floor((f.at - t0) / 1000), f.reason, f.pod]);

describe('N16 clients', () => {
  it('through a lagging load balancer: requests to a pod that died of SIGTERM are refused until the load balancer notices; one traffic event per second', () => {
    const { c, t0 } = served({}, { takesMs: 0, external: true }, 1500);
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.advance(5000);
    const f = failures(c, t0);
    expect(f.every(([, reason, pod]) => reason === 'connection refused' && pod === 'web-2')).to.equal(true);
    expect(f.length).to.equal(7); // every other request before T+1.5 (the round robin's half); at T+1.5 the load balancer has noticed
    expect(
      c.timeline
        .since(t0)
        .filter((e) => e.component === 'traffic')
        .map((e) => [Math.floor((e.at - t0) / 1000), e.text]),
    ).to.deep.equal([
      [0, '5 failed requests to web (5 connection refused: web-2)'],
      [1, '2 failed requests to web (2 connection refused: web-2)'],
    ]);
  });

  it('a request in flight when the process exits is reset; one that finishes before is not', () => {
    const { c, t0 } = served(
      { sigterm: { kind: 'exits', afterMs: 2000 }, servesAfterSigtermMs: 2000 },
      { takesMs: 1000, external: true },
      10_000,
    );
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.advance(4000);
    const f = failures(c, t0);
    expect(f.filter(([, r]) => r === 'connection reset').length).to.equal(5); // accepted in T+1..T+2, cut at T+2
    expect(f.find(([, r]) => r === 'connection refused')![0]).to.equal(2);
  });

  it('from inside the cluster, with every endpoint gone: no endpoints', () => {
    const { c, t0 } = served({}, { takesMs: 0, external: false });
    c.apiserver.delete(USER, 'services', 'default', 'web');
    c.advance(3000);
    expect(failures(c, t0).some(([, r]) => r === 'no endpoints')).to.equal(true);
    expect(c.network().clients.sentTo('web')).to.equal(31);
  });
});

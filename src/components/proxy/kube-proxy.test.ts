/**
 * kube-proxy (pkg/proxy/topology.go CategorizeEndpoints, iptables/proxier.go syncProxyRules with
 * async.BoundedFrequencyRunner) and a load balancer in front of a service, through a whole cluster.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import { createPod, NODE, WARMUP_MS } from '../kubelet/testing';
import { Release } from '../../foundation/release';
import { categorizeEndpoints, type ProxyEndpoint } from './topology';

const ep = (pod: string, nodeName: string, ready: boolean, serving: boolean, terminating: boolean): ProxyEndpoint => ({
  ip: `10.0.0.${pod.length}`,
  port: 8080,
  pod,
  uid: pod,
  nodeName,
  ready,
  serving,
  terminating,
});

function cluster(o: { release?: Release; delays?: Map<string, number>; lbLagMs?: number } = {}): {
  c: Cluster;
  t0: number;
} {
  const c = new Cluster(o.release ? { release: o.release } : {});
  c.addNode(NODE);
  c.addNode('node-2');
  const network = c.network(o.delays);
  if (o.lbLagMs !== undefined) network.setLoadBalancerLag('default/web', o.lbLagMs);
  c.apiserver.create(USER, 'services', 'default', {
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  });
  createPod(c, 'web-1', { metadata: { labels: { app: 'web' } } });
  createPod(c, 'web-2', {
    metadata: { labels: { app: 'web' } },
    nodeName: 'node-2',
    containers: { app: { sigterm: { kind: 'exits', afterMs: 10_000 }, servesAfterSigtermMs: 10_000 } },
  });
  c.advance(WARMUP_MS);
  return { c, t0: c.clock.now() };
}

const applied = (c: Cluster, t0: number) =>
  c.timeline
    .since(t0)
    .filter((e) => e.component === 'proxy')
    .map((e) => [(e.at - t0) / 1000, e.text]);

describe('kube-proxy (pkg/proxy)', () => {
  it("N13 CategorizeEndpoints: ready endpoints; none ready → the serving terminating ones (ProxyTerminatingEndpoints), or none without it; Local keeps this node's", () => {
    const all = [
      ep('a', 'n1', false, true, true),
      ep('bb', 'n2', true, true, false),
      ep('ccc', 'n1', false, false, true),
    ];
    expect(categorizeEndpoints(all, 'Cluster', 'n1', true).map((e) => e.pod)).to.deep.equal(['bb']);
    expect(categorizeEndpoints(all, 'Local', 'n1', true).map((e) => e.pod)).to.deep.equal(['a']);
    expect(categorizeEndpoints(all, 'Local', 'n1', false)).to.deep.equal([]);
    expect(categorizeEndpoints(all, 'Local', 'n2', true).map((e) => e.pod)).to.deep.equal(['bb']);
  });

  it('ProxyTerminatingEndpoints by release: beta on 1.26–1.27 (can be turned off), GA 1.28–1.29, no gate from 1.30', () => {
    expect(Release.of(26).enabled('ProxyTerminatingEndpoints')).to.equal(true);
    expect(Release.of(27, { ProxyTerminatingEndpoints: false }).enabled('ProxyTerminatingEndpoints')).to.equal(false);
    expect(() => Release.of(28, { ProxyTerminatingEndpoints: false })).to.throw('locked to true');
    expect(() => Release.of(30, { ProxyTerminatingEndpoints: false })).to.throw('unrecognized feature gate');
  });

  it('N14 each node applies a change at once, but never sooner than --iptables-min-sync-period (1 s) after its last sync, plus its own delay', () => {
    const { c, t0 } = cluster({ delays: new Map([['node-2', 3000]]) });
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.advance(15_000);
    const rows = applied(c, t0);
    // The DELETE's slice update at T+0: node-1 applies it at once, node-2 3 s later; later syncs of a node are 1 s apart at least.
    expect(rows[0]).to.deep.equal([0, 'node node-1 applied web: web-1']);
    expect(rows.find((r) => String(r[1]).startsWith('node node-2'))![0]).to.equal(3);
    for (let i = 1; i < rows.length; i++)
      if (rows[i][1] === rows[i - 1][1]) expect(Number(rows[i][0]) - Number(rows[i - 1][0])).to.be.at.least(1);
  });

  it('N14 routing: round robin over the applied endpoints; a terminating endpoint only when no ready one is left', () => {
    const { c } = cluster();
    const proxy = c.network().proxy(NODE);
    expect([0, 1, 2, 3].map(() => proxy.route('default/web', false)!.pod)).to.deep.equal([
      'web-1',
      'web-2',
      'web-1',
      'web-2',
    ]);
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.advance(1000);
    expect([0, 1].map(() => proxy.route('default/web', false)!.pod)).to.deep.equal(['web-1', 'web-1']);
    c.apiserver.delete(USER, 'pods', 'default', 'web-1');
    c.advance(2000);
    expect(proxy.route('default/web', false)!.pod).to.equal('web-2');
  });

  it('N14 each slice is filed under its own service: two services of a namespace; two of one name in two namespaces', () => {
    // One cluster per pair, so that the slices of the two services alternate and nothing else intervenes.
    const routes = (services: [string, string][]) => {
      const { c } = cluster();
      for (const [namespace, name] of services) {
        if (namespace !== 'default')
          expect(c.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: namespace } }).ok).to.equal(
            true,
          );
        const app = `${namespace}-${name}`;
        const svc = c.apiserver.create(USER, 'services', namespace, {
          metadata: { name },
          spec: { selector: { app }, ports: [{ port: 80 }] },
        });
        expect(svc.ok, `service ${namespace}/${name}`).to.equal(true);
        const pod = c.apiserver.create(USER, 'pods', namespace, {
          metadata: { name: app, labels: { app } },
          spec: { nodeName: NODE, containers: [{ name: 'app' }] },
        });
        expect(pod.ok, `pod ${app}`).to.equal(true);
      }
      c.advance(WARMUP_MS);
      const proxy = c.network().proxy('node-2');
      return ['default/web', ...services.map(([ns, name]) => `${ns}/${name}`)].map((svc) =>
        [0, 1, 2].map(() => proxy.route(svc, false)?.pod),
      );
    };
    expect(routes([['default', 'api']])).to.deep.equal([
      ['web-1', 'web-2', 'web-1'],
      ['default-api', 'default-api', 'default-api'],
    ]);
    expect(routes([['other', 'web']])).to.deep.equal([
      ['web-1', 'web-2', 'web-1'],
      ['other-web', 'other-web', 'other-web'],
    ]);
  });

  it('N15 the load balancer notices changes after its lag: until then it sends to the pod it still believes ready', () => {
    const { c } = cluster({ lbLagMs: 2000 });
    const lb = c.network().loadBalancer('default/web');
    const pods = () =>
      [0, 1].map(() => {
        const t = lb.route();
        return t?.kind === 'pod' ? t.endpoint.pod : t?.kind;
      });
    expect(pods()).to.deep.equal(['web-1', 'web-2']);
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.advance(1500);
    expect(pods()).to.deep.equal(['web-1', 'web-2']);
    c.advance(1000);
    expect(pods()).to.deep.equal(['web-1', 'web-1']);
  });
});

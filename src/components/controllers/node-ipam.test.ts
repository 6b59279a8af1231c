import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Node } from '../../apimachinery/types';
import { Cluster } from '../../cluster/cluster';
import { Release } from '../../foundation/release';

function node(c: Cluster, name: string): Node {
  const r = c.apiserver.get('nodes', undefined, name);
  if (!r.ok) throw new Error(`no node ${name}`);
  return r.object;
}

describe('the node IPAM controller and the Node a kubelet registers (K59, K60)', () => {
  it('K59 gives each node the lowest free /24 of 10.244.0.0/16 in one strategic merge PATCH, and frees it when the node goes', () => {
    const c = new Cluster();
    c.addNode('node-1');
    c.addNode('node-2');
    c.flush();
    expect([node(c, 'node-1').spec, node(c, 'node-2').spec]).to.deep.equal([
      { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] },
      { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
    ]);
    const patches = c.timeline.all().filter((e) => e.component === 'apiserver' && e.text.startsWith('PATCH nodes/'));
    expect(patches.map((e) => [e.text, e.actor])).to.deep.equal([
      ['PATCH nodes/node-1', 'node-ipam-controller'],
      ['PATCH nodes/node-2', 'node-ipam-controller'],
    ]);
    c.apiserver.delete({ name: 'user', component: 'user' }, 'nodes', undefined, 'node-1', {});
    c.addNode('node-3');
    c.flush();
    expect(node(c, 'node-3').spec?.podCIDR).to.equal('10.244.0.0/24');
  });

  it("K59 a pod gets an IP of its node's range, and keeps it in the API while it terminates", () => {
    const c = new Cluster();
    c.addNode('node-1');
    c.addNode('node-2');
    c.flush();
    const pod = {
      metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: 'node-2', containers: [{ name: 'app', image: 'app' }] },
    };
    c.apiserver.create({ name: 'user', component: 'user' }, 'pods', 'default', pod);
    c.advance(5000);
    const status = () =>
      (c.apiserver.get('pods', 'default', 'web') as { ok: true; object: { status: Record<string, unknown> } }).object
        .status;
    expect(status()).to.include({ podIP: '10.244.1.2', hostIP: '10.0.0.2' });
    expect(status().podIPs).to.deep.equal([{ ip: '10.244.1.2' }]);
    expect(status().hostIPs).to.deep.equal([{ ip: '10.0.0.2' }]);
    c.apiserver.delete({ name: 'user', component: 'user' }, 'pods', 'default', 'web', {});
    c.advance(500);
    expect(status().phase, 'the kill is over').to.equal('Failed');
    expect(status().podIP, 'the IP stays after the sandbox stopped').to.equal('10.244.1.2');
  });

  it('K59 K60 before v1.29 the status has no hostIPs; kubeProxyVersion is written up to v1.32 and empty from v1.33', () => {
    const old = new Cluster({ release: Release.parse('1.28') });
    old.addNode('node-1');
    old.flush();
    expect(node(old, 'node-1').status?.nodeInfo).to.include({ kubeletVersion: 'v1.28.0', kubeProxyVersion: 'v1.28.0' });
    old.apiserver.create({ name: 'user', component: 'user' }, 'pods', 'default', {
      metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'app' }] },
    });
    old.advance(5000);
    const got = old.apiserver.get('pods', 'default', 'web');
    expect(got.ok && got.object.status?.hostIPs).to.equal(undefined);
    expect(got.ok && got.object.status?.hostIP).to.equal('10.0.0.1');
    const now = new Cluster({ release: Release.of(33) });
    now.addNode('node-1');
    now.flush();
    expect(node(now, 'node-1').status?.nodeInfo).to.include({ kubeletVersion: 'v1.33.0', kubeProxyVersion: '' });
    expect(node(now, 'node-1').status?.addresses).to.deep.equal([
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'node-1' },
    ]);
  });
});

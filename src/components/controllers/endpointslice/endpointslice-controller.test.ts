/**
 * The EndpointSlice controller (pkg/controller/endpointslice/endpointslice_controller.go
 * syncService, staging/src/k8s.io/endpointslice reconciler.go and utils.go) and the Endpoints
 * controller (pkg/controller/endpoint/endpoints_controller.go) through a whole cluster: a
 * terminating pod stays in its slice as ready=false serving=<Ready> terminating=true and leaves
 * the Endpoints object at once; the reconciler's slices as pure functions.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { EndpointSlice, Endpoints, Pod, Service } from '../../../apimachinery/types';
import { Cluster, USER } from '../../../cluster/cluster';
import { createPod, NODE, newCluster, WARMUP_MS } from '../../kubelet/testing';
import { Release } from '../../../foundation/release';
import { endpointSubsets, repackSubsets } from '../endpoint/endpoints-controller';
import { reconcile } from './reconciler';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../helpers/well-known';
import { findPort, getEndpointPorts, podToEndpoint, portsNeedNoPod, shouldPodBeInEndpoints } from './utils';

const SERVICE: Service = {
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
};

function pod(name: string, o: { ready?: boolean; deleting?: boolean; ip?: string; phase?: string } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app: 'web' },
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { nodeName: NODE, containers: [{ name: 'app' }] },
    status: {
      phase: o.phase ?? 'Running',
      podIP: o.ip ?? `10.244.0.${name.length + 1}`,
      podIPs: [{ ip: o.ip ?? `10.244.0.${name.length + 1}` }],
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

function served(): { c: Cluster; t0: number } {
  const c = new Cluster();
  c.addNode(NODE);
  c.apiserver.create(USER, 'services', 'default', {
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  });
  createPod(c, 'web-1', { metadata: { labels: { app: 'web' } } });
  createPod(c, 'web-2', {
    metadata: { labels: { app: 'web' } },
    containers: { app: { sigterm: { kind: 'exits', afterMs: 5000 } } },
  });
  c.advance(WARMUP_MS);
  return { c, t0: c.clock.now() };
}

function slices(c: Cluster): EndpointSlice[] {
  const r = c.apiserver.list('endpointslices', 'default');
  return r.ok ? r.object.items : [];
}

function endpoints(c: Cluster): Endpoints | undefined {
  const r = c.apiserver.get('endpoints', 'default', 'web');
  return r.ok ? r.object : undefined;
}

describe('EndpointSlice controller (endpointslice_controller.go syncService, reconciler.go)', () => {
  it('N5 podToEndpoint: serving is Ready, terminating is deletionTimestamp, ready is serving and not terminating (or publishNotReadyAddresses)', () => {
    expect(podToEndpoint(pod('a'), SERVICE).conditions).to.deep.equal({
      ready: true,
      serving: true,
      terminating: false,
    });
    expect(podToEndpoint(pod('a', { deleting: true }), SERVICE).conditions).to.deep.equal({
      ready: false,
      serving: true,
      terminating: true,
    });
    expect(podToEndpoint(pod('a', { deleting: true, ready: false }), SERVICE).conditions).to.deep.equal({
      ready: false,
      serving: false,
      terminating: true,
    });
    const publish = { ...SERVICE, spec: { ...SERVICE.spec, publishNotReadyAddresses: true } };
    expect(podToEndpoint(pod('a', { deleting: true, ready: false }), publish).conditions).to.deep.equal({
      ready: true,
      serving: false,
      terminating: true,
    });
  });

  it('N4 ShouldPodBeInEndpoints: terminal pods and pods without an IP are out; terminating ones only when included', () => {
    expect(shouldPodBeInEndpoints(pod('a', { phase: 'Succeeded' }), true)).to.equal(false);
    expect(shouldPodBeInEndpoints({ ...pod('a'), status: { phase: 'Running' } }, true)).to.equal(false);
    expect(shouldPodBeInEndpoints(pod('a', { deleting: true }), true)).to.equal(true);
    expect(shouldPodBeInEndpoints(pod('a', { deleting: true }), false)).to.equal(false);
  });

  it("N6 FindPort: a numeric targetPort as it is; a named one from the containers' ports with the same protocol, sidecars included; none found: the pod has no such port", () => {
    const p = {
      ...pod('a'),
      spec: {
        containers: [{ name: 'app', ports: [{ name: 'http', containerPort: 8080 }] }],
        initContainers: [{ name: 'proxy', restartPolicy: 'Always', ports: [{ name: 'admin', containerPort: 9901 }] }],
      },
    };
    expect(findPort(p, { port: 80, targetPort: 9000 }, true)).to.equal(9000);
    expect(findPort(p, { port: 80, targetPort: 'http', protocol: 'TCP' }, true)).to.equal(8080);
    expect(findPort(p, { port: 80, targetPort: 'admin' }, true)).to.equal(9901);
    expect(findPort(p, { port: 80, targetPort: 'admin' }, false)).to.equal(undefined);
    expect(findPort(p, { port: 80, targetPort: 'http', protocol: 'UDP' }, true)).to.equal(undefined);
  });

  it('N6 ports without a named targetPort are the same for every pod (reconcile builds them once)', () => {
    const svc = (targetPort: number | string | undefined): Service => ({
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        ports: [
          { name: 'a', port: 80, targetPort: 8080 },
          { name: 'b', port: 81, targetPort },
        ],
      },
    });
    expect(portsNeedNoPod(svc(9000))).to.equal(true);
    expect(portsNeedNoPod(svc('9000'))).to.equal(true);
    expect(portsNeedNoPod(svc(undefined))).to.equal(true);
    expect(portsNeedNoPod(svc('http'))).to.equal(false);
    expect(getEndpointPorts(svc('9000'), undefined, true)).to.deep.equal([
      { name: 'a', port: 8080, protocol: 'TCP' },
      { name: 'b', port: 9000, protocol: 'TCP' },
    ]);
    expect(() => getEndpointPorts(svc('http'), undefined, true)).to.throw('named port http needs a pod');
  });

  it('N6 V60 a named targetPort on a native sidecar: the Endpoints controller finds it from v1.32 (kubernetes#127976), the EndpointSlice controller from v1.33 (kubernetes#128850)', () => {
    const found = (minor: number) => {
      const { c } = newCluster(Release.of(minor));
      c.apiserver.create(USER, 'services', 'default', {
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ port: 443, targetPort: 'https' }] },
      });
      createPod(c, 'web-1', {
        metadata: { labels: { app: 'web' } },
        spec: {
          initContainers: [
            { name: 'tls', image: 'envoy', restartPolicy: 'Always', ports: [{ name: 'https', containerPort: 9443 }] },
          ],
        },
      });
      c.advance(WARMUP_MS);
      return {
        endpoints: endpoints(c)?.subsets?.[0]?.ports?.[0]?.port,
        slice: slices(c)[0]?.ports?.[0]?.port,
      };
    };
    expect(found(31)).to.deep.equal({ endpoints: undefined, slice: undefined });
    expect(found(32)).to.deep.equal({ endpoints: 9443, slice: undefined });
    expect(found(33)).to.deep.equal({ endpoints: 9443, slice: 9443 });
  });

  it('N7 reconcile: new slices hold at most 100 endpoints, named SERVICE- with the two reserved labels and an owner reference; no pod → one placeholder', () => {
    const pods = Array.from({ length: 250 }, (_, i) => pod(`p${i}`, { ip: `10.244.${i >> 8}.${i & 255}` }));
    const r = reconcile(SERVICE, pods, []);
    expect(r.create.map((w) => w.slice.endpoints!.length)).to.deep.equal([100, 100, 50]);
    const s = r.create[0].slice;
    expect(s.metadata.generateName).to.equal('web-');
    expect(s.metadata.labels).to.deep.equal({
      [LABEL_SERVICE_NAME]: 'web',
      [LABEL_MANAGED_BY]: 'endpointslice-controller.k8s.io',
    });
    expect(s.metadata.ownerReferences).to.deep.equal([
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
    ]);
    expect(s.ports).to.deep.equal([{ name: '', port: 8080, protocol: 'TCP' }]);
    const empty = reconcile(SERVICE, [], []);
    expect(empty.create.map((w) => [w.slice.endpoints, w.slice.ports])).to.deep.equal([[[], []]]);
    // An existing placeholder stays as it is.
    const again = reconcile(
      SERVICE,
      [],
      [{ ...empty.create[0].slice, metadata: { ...empty.create[0].slice.metadata, name: 'web-x' } }],
    );
    expect(again).to.deep.equal({ create: [], update: [], delete: [] });
  });

  it('N7 reconcile: an existing slice keeps its endpoints in place with their new conditions; one left empty is deleted and a placeholder takes its place', () => {
    const first = reconcile(SERVICE, [pod('a'), pod('bb')], []).create[0].slice;
    const existing = { ...first, metadata: { ...first.metadata, name: 'web-abcde' } };
    const r = reconcile(SERVICE, [pod('a', { deleting: true }), pod('bb')], [existing]);
    expect(r.update).to.have.length(1);
    expect(r.update[0].changes.map((c) => [c.pod, c.endpoint?.conditions])).to.deep.equal([
      ['a', { ready: false, serving: true, terminating: true }],
    ]);
    expect(r.update[0].slice.endpoints!.map((e) => e.targetRef!.name)).to.deep.equal(['a', 'bb']);
    const gone = reconcile(SERVICE, [], [existing]);
    expect(gone.delete.map((s) => s.metadata.name)).to.deep.equal(['web-abcde']);
    expect(gone.create.map((w) => w.slice.endpoints)).to.deep.equal([[]]);
  });

  it('N7 reconcile: an endpoint is the same one only with the same pod, addresses and node (hashEndpoint); otherwise it is replaced', () => {
    const first = reconcile(SERVICE, [pod('a'), pod('bb')], []).create[0].slice;
    const existing = { ...first, metadata: { ...first.metadata, name: 'web-abcde' } };
    // The same pod (uid) with another address, then on another node: the old endpoint leaves, the new one joins.
    const onOther: Pod = { ...pod('a'), spec: { ...pod('a').spec!, nodeName: 'other' } };
    for (const moved of [pod('a', { ip: '10.244.9.9' }), onOther]) {
      const r = reconcile(SERVICE, [moved, pod('bb')], [existing]);
      expect(r.update[0].changes.map((c) => [c.pod, c.endpoint?.addresses, c.endpoint?.nodeName])).to.deep.equal([
        ['a', undefined, undefined],
        ['a', moved.status!.podIPs!.map((p) => p.ip), moved.spec!.nodeName],
      ]);
      expect(r.update[0].slice.endpoints!.map((e) => e.targetRef!.name)).to.deep.equal(['bb', 'a']);
    }
    // An endpoint without a target pod is never a desired one.
    const foreign = { ...existing, endpoints: [{ ...first.endpoints![0], targetRef: undefined }, first.endpoints![1]] };
    expect(reconcile(SERVICE, [pod('a'), pod('bb')], [foreign]).update[0].changes.map((c) => c.pod)).to.deep.equal([
      first.endpoints![0].addresses[0],
      'a',
    ]);
  });

  it('a graceful deletion: the slice shows the pod terminating (ready=false serving=true) at the DELETE, the Endpoints object drops it at once; both lose it when it is gone', () => {
    const { c, t0 } = served();
    const [slice] = slices(c);
    expect(slice.metadata.name).to.match(/^web-[a-z0-9]{5}$/);
    expect(slice.endpoints!.map((e) => [e.targetRef!.name, e.conditions])).to.deep.equal([
      ['web-1', { ready: true, serving: true, terminating: false }],
      ['web-2', { ready: true, serving: true, terminating: false }],
    ]);
    expect(endpoints(c)!.subsets![0].addresses!.map((a) => a.targetRef!.name)).to.deep.equal(['web-1', 'web-2']);
    c.apiserver.delete(USER, 'pods', 'default', 'web-2');
    c.flush();
    const during = slices(c)[0].endpoints!.find((e) => e.targetRef!.name === 'web-2')!;
    expect(during.conditions).to.deep.equal({ ready: false, serving: true, terminating: true });
    expect(endpoints(c)!.subsets![0].addresses!.map((a) => a.targetRef!.name)).to.deep.equal(['web-1']);
    const events = c.timeline
      .since(t0)
      .filter((e) => e.component === 'endpointslice')
      .map((e) => [e.at - t0, e.text]);
    expect(events[0]).to.deep.equal([
      0,
      `updated ${slice.metadata.name}: web-2 ready=false serving=true terminating=true`,
    ]);
    c.advance(10_000);
    expect(slices(c)[0].endpoints!.map((e) => e.targetRef!.name)).to.deep.equal(['web-1']);
  });

  it('N8 N9 the Endpoints object: ready pods in addresses, unready ones in notReadyAddresses, sorted by IP; a terminating pod only with publishNotReadyAddresses', () => {
    const subsets = endpointSubsets(SERVICE, [pod('bb'), pod('a', { ready: false }), pod('ccc', { deleting: true })]);
    expect(subsets).to.have.length(1);
    expect(subsets[0].addresses!.map((a) => a.ip)).to.deep.equal(['10.244.0.3']);
    expect(subsets[0].notReadyAddresses!.map((a) => a.ip)).to.deep.equal(['10.244.0.2']);
    expect(subsets[0].ports).to.deep.equal([{ name: '', port: 8080, protocol: 'TCP' }]);
    const publish = { ...SERVICE, spec: { ...SERVICE.spec, publishNotReadyAddresses: true } };
    expect(
      endpointSubsets(publish, [pod('ccc', { deleting: true, ready: false })])[0].addresses!.map(
        (a) => a.targetRef!.name,
      ),
    ).to.deep.equal(['ccc']);
    // LessEndpointAddress compares the IP's text byte by byte.
    expect(
      repackSubsets([
        { addresses: [{ ip: '10.0.0.9' }], ports: [{ port: 1 }] },
        { addresses: [{ ip: '10.0.0.10' }], ports: [{ port: 1 }] },
      ])[0].addresses!.map((a) => a.ip),
    ).to.deep.equal(['10.0.0.10', '10.0.0.9']);
  });

  it('N9 RepackSubsets: for one port not ready trumps ready in either order (mapAddressByPort); ports with the same addresses share a subset; a portless subset is kept', () => {
    const a = { ip: '10.0.0.1', targetRef: { uid: 'a' } };
    const b = { ip: '10.0.0.2', targetRef: { uid: 'b' } };
    const p80 = { name: 'http', port: 80, protocol: 'TCP' };
    const p443 = { name: 'https', port: 443, protocol: 'TCP' };
    for (const order of [
      [
        { addresses: [a], ports: [p80] },
        { notReadyAddresses: [a], ports: [p80] },
      ],
      [
        { notReadyAddresses: [a], ports: [p80] },
        { addresses: [a], ports: [p80] },
      ],
    ])
      expect(repackSubsets(order)).to.deep.equal([{ notReadyAddresses: [a], ports: [p80] }]);
    expect(
      repackSubsets([
        { addresses: [a], ports: [p443] },
        { addresses: [a], ports: [p80] },
        { notReadyAddresses: [b], ports: [p80] },
        { notReadyAddresses: [b], ports: [p443] },
      ]),
    ).to.deep.equal([{ addresses: [a], notReadyAddresses: [b], ports: [p80, p443] }]);
    // a ready on 80 only: the two ports no longer share their addresses.
    expect(
      repackSubsets([
        { addresses: [a], ports: [p80] },
        { notReadyAddresses: [a], ports: [p443] },
      ]),
    ).to.deep.equal([
      { addresses: [a], ports: [p80] },
      { notReadyAddresses: [a], ports: [p443] },
    ]);
    expect(repackSubsets([{ addresses: [b] }, { notReadyAddresses: [a] }])).to.deep.equal([
      { addresses: [b], notReadyAddresses: [a] },
    ]);
  });

  it('N9 a sync writes the Endpoints object only when it differs from the sorted subsets: one reordered or with an address changed is rewritten, an equal one is not', () => {
    const { c } = served();
    const want = endpoints(c)!;
    expect(want.subsets![0].addresses!.map((a) => a.targetRef!.name)).to.deep.equal(['web-1', 'web-2']);
    /**
     * The user writes the Endpoints object changed by `change`, then changes the service's
     * annotations (its informer handler queues it: one sync).
     */
    let syncs = 0;
    const syncAfter = (change: (e: Endpoints) => void): void => {
      const e = structuredClone(endpoints(c)!);
      change(e);
      if (!c.apiserver.update(USER, 'endpoints', 'default', e).ok) throw new Error('the Endpoints update failed');
      const svc = c.apiserver.get('services', 'default', 'web');
      if (!svc.ok) throw new Error('no service');
      const changed = structuredClone(svc.object);
      changed.metadata.annotations = { sync: String(++syncs) };
      if (!c.apiserver.update(USER, 'services', 'default', changed).ok) throw new Error('the service update failed');
      c.advance(1000);
    };
    const t = c.clock.now();
    syncAfter(() => {});
    const writes = c.timeline.since(t).filter((e) => e.component === 'endpoints');
    expect(writes, 'an equal object is not written').to.deep.equal([]);
    syncAfter((e) => e.subsets![0].addresses!.reverse());
    expect(endpoints(c)!.subsets, 'reordered').to.deep.equal(want.subsets);
    syncAfter((e) => {
      e.subsets![0].addresses![1].nodeName = 'elsewhere';
    });
    expect(endpoints(c)!.subsets, 'an address changed').to.deep.equal(want.subsets);
    syncAfter((e) => {
      e.subsets![0].addresses![1] = { ...e.subsets![0].addresses![0] };
    });
    expect(endpoints(c)!.subsets, 'an address twice').to.deep.equal(want.subsets);
  });

  it('a deleted service takes its Endpoints object with it (syncService) and its slices through the garbage collector (ownerReferences)', () => {
    const { c } = served();
    c.apiserver.delete(USER, 'services', 'default', 'web');
    c.advance(5000);
    expect(endpoints(c)).to.equal(undefined);
    expect(slices(c)).to.deep.equal([]);
  });
});

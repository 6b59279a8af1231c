/**
 * Services in the apiserver (pkg/apis/core/v1/defaults.go SetDefaults_Service,
 * pkg/registry/core/service/ipallocator and portallocator, validation ValidateService).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { ApiServer } from './apiserver';
import { allocateServiceAddresses, setServiceDefaults, validateService } from './service-strategy';
import type { Service } from '../apimachinery/types';

const USER = { name: 'user', component: 'user' as const };
const svc = (name: string, spec: Service['spec'] = {}): Service => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

describe('services (SetDefaults_Service, the IP and port allocators, ValidateService)', () => {
  it('N1 defaults: ClusterIP, None affinity, TCP ports to the same targetPort, Cluster internal policy; externalTrafficPolicy only for NodePort and LoadBalancer', () => {
    const s = svc('web');
    setServiceDefaults(s);
    expect(s.spec).to.deep.include({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(s.spec!.ports).to.deep.equal([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(s.spec!.externalTrafficPolicy).to.equal(undefined);
    const lb = svc('lb', { type: 'LoadBalancer' });
    setServiceDefaults(lb);
    expect(lb.spec).to.deep.include({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
  });

  it('N2 allocation: the lowest free address of the upper band (10.96.1.1 on), node ports from 30086; a taken address the user asks for is refused', () => {
    const a = svc('a');
    setServiceDefaults(a);
    expect(allocateServiceAddresses(a, [])).to.deep.equal([]);
    expect(a.spec).to.deep.include({ clusterIP: '10.96.1.1', clusterIPs: ['10.96.1.1'] });
    const b = svc('b', { type: 'NodePort' });
    setServiceDefaults(b);
    allocateServiceAddresses(b, [a]);
    expect(b.spec!.clusterIP).to.equal('10.96.1.2');
    expect(b.spec!.ports![0].nodePort).to.equal(30086);
    const c = svc('c', { clusterIP: '10.96.1.1' });
    expect(allocateServiceAddresses(c, [a, b])[0].detail).to.equal(
      'failed to allocate IP 10.96.1.1: provided IP is already allocated',
    );
    const headless = svc('h', { clusterIP: 'None', ports: [] });
    expect(allocateServiceAddresses(headless, [a])).to.deep.equal([]);
    expect(headless.spec!.clusterIPs).to.deep.equal(['None']);
  });

  it('N3 validation: ports required unless headless, policies Cluster or Local, externalTrafficPolicy only on NodePort/LoadBalancer', () => {
    expect(validateService(svc('x', { ports: [] })).map((e) => e.field)).to.deep.equal(['spec.ports']);
    expect(
      validateService(svc('x', { internalTrafficPolicy: 'Nearby' })).map((e) => `${e.field} ${e.type}`),
    ).to.deep.equal(['spec.internalTrafficPolicy Unsupported value']);
    expect(validateService(svc('x', { externalTrafficPolicy: 'Local' })).map((e) => e.field)).to.deep.equal([
      'spec.externalTrafficPolicy',
    ]);
  });

  it('a Service through the apiserver: stored under /registry/services/specs with its IP; a bad one is a 422 naming the field', () => {
    const api = new ApiServer(new Clock(), new Timeline(new Clock()));
    const r = api.create(USER, 'services', 'default', svc('web', { selector: { app: 'web' } }));
    expect(r.ok && r.object.spec!.clusterIP).to.equal('10.96.1.1');
    expect(api.keyFor('services', 'default', 'web')).to.equal('/registry/services/specs/default/web');
    expect(api.keyFor('endpoints', 'default', 'web')).to.equal('/registry/services/endpoints/default/web');
    const bad = api.create(USER, 'services', 'default', svc('bad', { ports: [{ port: 70000 }] }));
    expect(bad.ok ? 0 : bad.code).to.equal(422);
    expect(bad.ok ? '' : bad.status.message).to.include(
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
  });
});

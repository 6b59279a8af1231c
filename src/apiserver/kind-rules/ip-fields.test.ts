/**
 * R319, V71, V72 — the IP and CIDR fields of Endpoints, EndpointSlices, Nodes and Services, through
 * ApiServer.create as any client reaches it, on each side of the releases where they changed:
 * IsValidCIDR per entry from 1.30 (IPValidationCleanup), EndpointSlice addresses checked once
 * from 1.33 (EndpointSliceAddressCheckedOnce), StrictIPCIDRValidation α 1.33 / β on 1.36.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { Release } from '../../foundation/release';
import { ApiServer, DEFAULT_APISERVER_OPTIONS, type Resource } from '../apiserver';

const USER = { name: 'user', component: 'user' as const };

function create(resource: Resource, obj: Record<string, unknown>, release: Release): string {
  const api = new ApiServer(new Clock(), new Timeline(new Clock()), { ...DEFAULT_APISERVER_OPTIONS, release });
  const ns = resource === 'nodes' ? (undefined as unknown as string) : 'default';
  const r = api.create(USER, resource, ns, { metadata: { name: 'web' }, ...obj } as never);
  return r.ok ? '' : r.status.message;
}

const endpoints = (ip: string) => ({ subsets: [{ addresses: [{ ip }], ports: [{ port: 80 }] }] });
const slice = (addressType: string, address: string) => ({
  addressType,
  endpoints: [{ addresses: [address] }],
  ports: [{ port: 80 }],
});
const node = (podCIDRs: string[]) => ({ spec: { podCIDR: podCIDRs[0], podCIDRs } });
const service = (spec: Record<string, unknown>) => ({ spec: { ports: [{ port: 80 }], ...spec } });

const V1_29 = Release.of(29);
const V1_30 = Release.of(30);
const V1_32 = Release.of(32);
const V1_33 = Release.of(33);
const V1_35 = Release.of(35);
const V1_36 = Release.of(36);

describe('R319 IP and CIDR fields, release by release', () => {
  it('Endpoints: an address ip is a valid IP (twice reported when unparsable) and not a special one', () => {
    for (const r of [V1_29, V1_36]) {
      expect(create('endpoints', endpoints('10.244.0.5'), r)).to.equal('');
      expect(create('endpoints', endpoints('10.244.0'), r)).to.equal(
        'Endpoints "web" is invalid: [subsets[0].addresses[0].ip: Invalid value: "10.244.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), subsets[0].addresses[0].ip: Invalid value: "10.244.0": must be a valid IP address]',
      );
      expect(create('endpoints', endpoints('127.0.0.1'), r)).to.equal(
        'Endpoints "web" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      );
    }
    const notReady = { subsets: [{ notReadyAddresses: [{ ip: '0.0.0.0' }] }] };
    expect(create('endpoints', notReady, V1_36)).to.equal(
      'Endpoints "web" is invalid: subsets[0].notReadyAddresses[0].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
    );
  });

  it('StrictIPCIDRValidation: leading zeros accepted up to 1.35 (gate off), refused on 1.36 and where turned on', () => {
    expect(create('endpoints', endpoints('010.244.0.5'), V1_35)).to.equal('');
    expect(create('endpoints', endpoints('010.244.0.5'), V1_36)).to.equal(
      'Endpoints "web" is invalid: subsets[0].addresses[0].ip: Invalid value: "010.244.0.5": must not have leading 0s',
    );
    expect(create('endpoints', endpoints('010.244.0.5'), V1_33.withGate('StrictIPCIDRValidation', true))).to.not.equal(
      '',
    );
    expect(create('endpoints', endpoints('010.244.0.5'), V1_36.withGate('StrictIPCIDRValidation', false))).to.equal('');
    expect(() => V1_32.withGate('StrictIPCIDRValidation', true)).to.throw('unrecognized feature gate');
  });

  it('EndpointSlice: up to 1.32 both the family and the range checks report a bad address; from 1.33 once', () => {
    expect(create('endpointslices', slice('IPv4', '10.244.0.5'), V1_32)).to.equal('');
    expect(create('endpointslices', slice('IPv4', 'nope'), V1_32)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: [endpoints[0].addresses[0]: Invalid value: "nope": must be a valid IPv4 address, endpoints[0].addresses[0]: Invalid value: "nope": must be a valid IP address]',
    );
    expect(create('endpointslices', slice('IPv6', '10.244.0.5'), V1_32)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses[0]: Invalid value: "10.244.0.5": must be a valid IPv6 address',
    );
    expect(create('endpointslices', slice('IPv4', 'nope'), V1_33)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect(create('endpointslices', slice('IPv6', '10.244.0.5'), V1_36)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses: Invalid value: "10.244.0.5": must be an IPv6 address',
    );
    expect(create('endpointslices', slice('IPv6', 'fe80::1'), V1_36)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    );
    expect(create('endpointslices', slice('FQDN', 'web.example.com'), V1_36)).to.equal('');
    expect(create('endpointslices', slice('FQDN', 'web.example.com.'), V1_29)).to.equal('');
    expect(create('endpointslices', slice('FQDN', 'localhost'), V1_36)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    );
  });

  it('EndpointSlice: an address found valid is valid again only for the same family and release', () => {
    const two = {
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.244.0.8'] }, { addresses: ['127.0.0.1', '10.244.0.9'] }],
      ports: [{ port: 80 }],
    };
    expect(create('endpointslices', two, V1_36)).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[1].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
    for (let round = 0; round < 2; round++) {
      expect(create('endpointslices', slice('IPv4', '10.244.0.7'), V1_36)).to.equal('');
      expect(create('endpointslices', slice('IPv6', '10.244.0.7'), V1_36)).to.equal(
        'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses: Invalid value: "10.244.0.7": must be an IPv6 address',
      );
      expect(create('endpointslices', slice('IPv4', '010.244.0.7'), V1_35)).to.equal('');
      expect(create('endpointslices', slice('IPv4', '010.244.0.7'), V1_36)).to.equal(
        'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].addresses[0]: Invalid value: "010.244.0.7": must not have leading 0s',
      );
    }
  });

  it('Node podCIDRs: `must be valid CIDR` with the whole list up to 1.29, IsValidCIDR per entry from 1.30', () => {
    expect(create('nodes', node(['10.244.1.0/24']), V1_29)).to.equal('');
    expect(create('nodes', node(['10.244.1.0']), V1_29)).to.equal(
      'Node "web" is invalid: spec.podCIDRs[0]: Invalid value: []string{"10.244.1.0"}: must be valid CIDR',
    );
    for (const r of [V1_30, V1_36])
      expect(create('nodes', node(['10.244.1.0']), r)).to.equal(
        'Node "web" is invalid: spec.podCIDRs[0]: Invalid value: "10.244.1.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      );
    // Host bits are accepted until the strict gate is on.
    expect(create('nodes', node(['10.244.1.7/24']), V1_35)).to.equal('');
    expect(create('nodes', node(['10.244.1.7/24']), V1_36)).to.equal(
      'Node "web" is invalid: spec.podCIDRs[0]: Invalid value: "10.244.1.7/24": must not have bits set beyond the prefix length',
    );
  });

  it('Service: clusterIPs, externalIPs and loadBalancerSourceRanges', () => {
    expect(create('services', service({ clusterIP: '10.96.0.500' }), V1_36)).to.equal(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.500": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect(create('services', service({ externalIPs: ['192.0.2.10'] }), V1_36)).to.equal('');
    expect(create('services', service({ externalIPs: ['192.0.2'] }), V1_36)).to.equal(
      'Service "web" is invalid: spec.externalIPs[0]: Invalid value: "192.0.2": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect(create('services', service({ externalIPs: ['127.0.0.1'] }), V1_36)).to.equal(
      'Service "web" is invalid: spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
    const lb = (ranges: string[]) => service({ type: 'LoadBalancer', loadBalancerSourceRanges: ranges });
    expect(create('services', lb([' 10.0.0.0/8 ', '192.168.0.0/16']), V1_29)).to.equal('');
    expect(create('services', lb(['10.0.0.0/8', '10.0.0.0']), V1_29)).to.equal(
      'Service "web" is invalid: spec.LoadBalancerSourceRanges: Invalid value: "[10.0.0.0/8 10.0.0.0]": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
    );
    expect(create('services', lb(['10.0.0.0/8', '10.0.0.0']), V1_30)).to.equal(
      'Service "web" is invalid: spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    );
    expect(create('services', service({ loadBalancerSourceRanges: ['10.0.0.0/8'] }), V1_36)).to.equal(
      'Service "web" is invalid: spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is \'LoadBalancer\'',
    );
  });

  it('a pod: hostAliases ip and hostnames, dnsConfig nameservers; up to 1.29 without the index and the example', () => {
    const pod = (spec: Record<string, unknown>) => ({
      spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
    });
    const aliases = {
      hostAliases: [
        { ip: '10.1.2.3', hostnames: ['db.local'] },
        { ip: '10.1.2', hostnames: ['Db'] },
      ],
    };
    expect(create('pods', pod(aliases), V1_29)).to.equal(
      "Pod \"web\" is invalid: [spec.hostAliases.ip: Invalid value: \"10.1.2\": must be valid IP address, spec.hostAliases.hostnames: Invalid value: \"Db\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]",
    );
    expect(create('pods', pod(aliases), V1_30)).to.equal(
      "Pod \"web\" is invalid: [spec.hostAliases[1].ip: Invalid value: \"10.1.2\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), spec.hostAliases[1].hostnames[0]: Invalid value: \"Db\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]",
    );
    const dns = { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '8.8.8'] } };
    expect(create('pods', pod(dns), V1_29)).to.equal(
      'Pod "web" is invalid: spec.dnsConfig.nameservers[1]: Invalid value: "8.8.8": must be valid IP address',
    );
    expect(create('pods', pod(dns), V1_36)).to.equal(
      'Pod "web" is invalid: spec.dnsConfig.nameservers[1]: Invalid value: "8.8.8": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    const deployment = {
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: pod({ hostAliases: [{ ip: '010.1.2.3' }] }).spec },
      },
    };
    expect(create('deployments', deployment, V1_35)).to.equal('');
    expect(create('deployments', deployment, V1_36)).to.equal(
      'Deployment.apps "web" is invalid: spec.template.spec.hostAliases[0].ip: Invalid value: "010.1.2.3": must not have leading 0s',
    );
  });

  it('1.33 on, an update keeps a value the stored object had (a restored dump put it in etcd unvalidated)', () => {
    const api = new ApiServer(new Clock(), new Timeline(new Clock()), { ...DEFAULT_APISERVER_OPTIONS, release: V1_36 });
    const put = (resource: Resource, namespace: string | undefined, obj: Record<string, any>) => {
      api.etcd.create(api.keyFor(resource, namespace, obj.metadata.name), obj);
      return structuredClone((api.get(resource, namespace, obj.metadata.name) as { object: unknown }).object) as any;
    };
    const svc = put('services', 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'old', namespace: 'default', uid: 'u1' },
      spec: {
        type: 'ClusterIP',
        ports: [{ port: 80, protocol: 'TCP' }],
        externalIPs: ['010.1.2.3'],
        sessionAffinity: 'None',
      },
    });
    svc.metadata.labels = { touched: 'yes' };
    const kept = api.update(USER, 'services', 'default', svc);
    expect(kept.ok, kept.ok ? '' : kept.status.message).to.equal(true);
    const next = structuredClone((kept as { object: unknown }).object) as any;
    next.spec.externalIPs = ['010.1.2.3', '010.1.2.4'];
    const refused = api.update(USER, 'services', 'default', next);
    expect(refused.ok ? '' : refused.status.message).to.equal(
      'Service "old" is invalid: spec.externalIPs[1]: Invalid value: "010.1.2.4": must not have leading 0s',
    );
    const ep = put('endpoints', 'default', {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'old', namespace: 'default', uid: 'u2' },
      subsets: [{ addresses: [{ ip: '010.244.0.5' }], ports: [{ port: 80, protocol: 'TCP' }] }],
    });
    ep.metadata.labels = { touched: 'yes' };
    expect(api.update(USER, 'endpoints', 'default', ep).ok).to.equal(true);
  });
});

/**
 * R242, R248 — each kind's validation and defaulting (kind-rules/), through ApiServer.create as any
 * client (an HTTP body, a scenario's doc string, a controller) reaches it: upstream's field paths
 * and messages (pkg/apis/{core,apps,batch,discovery}/validation, SetDefaults_ContainerPort).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { Release } from '../../foundation/release';
import { ApiServer, DEFAULT_APISERVER_OPTIONS } from '../apiserver';
import type { KubeObject } from '../../apimachinery/object';
import type { Resource } from '../apiserver';
import { canonicalCIDRFamily } from './node-pod-cidrs';

const USER = { name: 'user', component: 'user' as const };
const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
const SELECTOR = { matchLabels: { app: 'web' } };

/** Go's %#v of a field error's value (up to 1.33); JSON from 1.34 (release.has('FieldErrorValuesAsJson')). */
const V1_33 = Release.of(33);
const V1_34 = Release.of(34);

function create(
  resource: Resource,
  obj: Record<string, unknown>,
  release?: Release,
): { ok: boolean; message: string; object?: KubeObject } {
  const api = new ApiServer(
    new Clock(),
    new Timeline(new Clock()),
    release ? { ...DEFAULT_APISERVER_OPTIONS, release } : undefined,
  );
  const r = api.create(USER, resource, 'default', { metadata: { name: 'web' }, ...obj } as never);
  return r.ok ? { ok: true, message: '', object: r.object as KubeObject } : { ok: false, message: r.status.message };
}

/** Creates `obj`, then updates it to `change(copy)`: the update's message ('' when it is accepted). */
function update(
  resource: Resource,
  obj: Record<string, unknown>,
  change: (o: Record<string, any>) => void,
  release?: Release,
): string {
  const api = new ApiServer(
    new Clock(),
    new Timeline(new Clock()),
    release ? { ...DEFAULT_APISERVER_OPTIONS, release } : undefined,
  );
  const ns = resource === 'nodes' ? undefined : 'default';
  const created = api.create(USER, resource, ns as string, { metadata: { name: 'web' }, ...obj } as never);
  if (!created.ok) throw new Error(created.status.message);
  const next = structuredClone(created.object) as Record<string, any>;
  change(next);
  const r = api.update(USER, resource, ns as string, next as never);
  return r.ok ? '' : r.status.message;
}

/** A value of `bytes` bytes in base64 (a Secret's data, a ConfigMap's binaryData). */
const base64Of = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

describe('R242 validation of every kind (kind-rules)', () => {
  it('ValidatePodSpec validateHandler: a preStop hook without a handler is `must specify a handler type`; two handlers are Forbidden', () => {
    const none = create('pods', { spec: { containers: [{ name: 'app', lifecycle: { preStop: {} } }] } });
    expect(none.message).to.equal(
      'Pod "web" is invalid: spec.containers[0].lifecycle.preStop: Required value: must specify a handler type',
    );
    const two = create('pods', {
      spec: {
        containers: [
          { name: 'app', lifecycle: { preStop: { exec: { command: ['sleep', '1'] }, tcpSocket: { port: 80 } } } },
        ],
      },
    });
    expect(two.message).to.equal(
      'Pod "web" is invalid: spec.containers[0].lifecycle.preStop.tcpSocket: Forbidden: may not specify more than 1 handler type',
    );
  });

  it('validateContainerPorts: a port number out of range and an unknown protocol; SetDefaults_ContainerPort makes a port TCP', () => {
    const bad = create('pods', {
      spec: { containers: [{ name: 'app', ports: [{ containerPort: 70000, protocol: 'HTTP' }] }] },
    });
    expect(bad.message).to.equal(
      'Pod "web" is invalid: [spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"]',
    );
    const ok = create('pods', { spec: { containers: [{ name: 'app', ports: [{ containerPort: 8080 }] }] } });
    expect(
      (ok.object as unknown as { spec: { containers: { ports: unknown[] }[] } }).spec.containers[0].ports,
    ).to.deep.equal([{ containerPort: 8080, protocol: 'TCP' }]);
  });

  it('ValidateDeploymentSpec: replicas -1, an unsupported strategy type (the strategy struct printed), a selector not matching the template', () => {
    const negative = create('deployments', { spec: { replicas: -1, selector: SELECTOR, template: TEMPLATE } });
    expect(negative.message).to.equal(
      'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    const rolling = (release?: Release) =>
      create(
        'deployments',
        { spec: { selector: SELECTOR, template: TEMPLATE, strategy: { type: 'Rolling' } } },
        release,
      ).message;
    expect(rolling(V1_33)).to.equal(
      'Deployment.apps "web" is invalid: spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
    );
    const json =
      'Deployment.apps "web" is invalid: spec.strategy: Unsupported value: {"Type":"Rolling","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"';
    expect(rolling(V1_34)).to.equal(json);
    expect(rolling()).to.equal(json);
    // A rollingUpdate that is set: an address up to 1.33, its internal struct (Go field names) from 1.34.
    const withRolling = (release: Release) =>
      create(
        'deployments',
        {
          spec: {
            selector: SELECTOR,
            template: TEMPLATE,
            strategy: { type: 'Rolling', rollingUpdate: { maxSurge: '50%' } },
          },
        },
        release,
      ).message;
    expect(withRolling(V1_33)).to.include('RollingUpdate:(*apps.RollingUpdateDeployment)(0xc000000000)}');
    expect(withRolling(V1_34)).to.include(
      'Unsupported value: {"Type":"Rolling","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":"50%"}}',
    );
    const mismatch = (release?: Release) =>
      create('deployments', { spec: { selector: { matchLabels: { app: 'other' } }, template: TEMPLATE } }, release)
        .message;
    expect(mismatch(V1_33)).to.equal(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
    expect(mismatch()).to.equal(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('ValidateDaemonSetSpec: a selector not matching the template is refused (the daemon controller never sees it)', () => {
    const ds = (release?: Release) =>
      create('daemonsets', { spec: { selector: { matchLabels: { app: 'other' } }, template: TEMPLATE } }, release)
        .message;
    expect(ds(V1_33)).to.equal(
      'DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
    expect(ds()).to.equal(
      'DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
    const strategy = (release?: Release) =>
      create(
        'daemonsets',
        { spec: { selector: SELECTOR, template: TEMPLATE, updateStrategy: { type: 'Rolling' } } },
        release,
      ).message;
    expect(strategy(V1_33)).to.include(
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
    );
    expect(strategy()).to.include(
      'spec.updateStrategy: Unsupported value: {"Type":"Rolling","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"',
    );
  });

  it("ValidateStatefulSetSpec: podManagementPolicy is `must be 'OrderedReady' or 'Parallel'`, a retention policy Retain or Delete; ValidateReplicaSetSpec: an empty selector; a template restarting Never", () => {
    const sts = create('statefulsets', {
      spec: { serviceName: 'web', selector: SELECTOR, template: TEMPLATE, podManagementPolicy: 'Paralel' },
    });
    expect(sts.message).to.equal(
      'StatefulSet.apps "web" is invalid: spec.podManagementPolicy: Invalid value: "Paralel": must be \'OrderedReady\' or \'Parallel\'',
    );
    // P21 ValidatePersistentVolumeClaimRetentionPolicy: Retain or Delete, in that order.
    const retention = create('statefulsets', {
      spec: {
        serviceName: 'web',
        selector: SELECTOR,
        template: TEMPLATE,
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Remove' },
      },
    });
    expect(retention.message).to.equal(
      'StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Remove": supported values: "Retain", "Delete"',
    );
    const rs = (release?: Release) =>
      create(
        'replicasets',
        { spec: { selector: {}, template: { ...TEMPLATE, spec: { ...TEMPLATE.spec, restartPolicy: 'Never' } } } },
        release,
      ).message;
    expect(rs(V1_33)).to.equal(
      'ReplicaSet.apps "web" is invalid: [spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]',
    );
    expect(rs()).to.equal(
      'ReplicaSet.apps "web" is invalid: [spec.selector: Invalid value: {}: empty selector is invalid for deployment, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]',
    );
    // StatefulSet updateStrategy: Invalid with the whole struct, %#v then JSON.
    const sts2 = (release?: Release) =>
      create(
        'statefulsets',
        { spec: { serviceName: 'web', selector: SELECTOR, template: TEMPLATE, updateStrategy: { type: 'Rolling' } } },
        release,
      ).message;
    expect(sts2(V1_33)).to.equal(
      'StatefulSet.apps "web" is invalid: spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be \'RollingUpdate\' or \'OnDelete\'',
    );
    expect(sts2()).to.equal(
      'StatefulSet.apps "web" is invalid: spec.updateStrategy: Invalid value: {"Type":"Rolling","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\'',
    );
  });

  it('ValidateJobSpec: a negative backoffLimit; ValidateEndpointSlice: an unsupported addressType', () => {
    const job = create('jobs', {
      spec: {
        backoffLimit: -1,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx' }] } },
      },
    });
    expect(job.message).to.equal(
      'Job.batch "web" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    );
    const slice = create('endpointslices', { addressType: 'IPv5', endpoints: [] });
    expect(slice.message).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
    );
  });

  it('ValidateService: an unsupported port protocol; the types listed sorted', () => {
    const svc = create('services', { spec: { type: 'Internal', ports: [{ port: 80, protocol: 'HTTP' }] } });
    expect(svc.message).to.equal(
      'Service "web" is invalid: [spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort", spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"]',
    );
  });

  it('ValidateConfigMap / ValidateSecret: values together at most 1 MiB; field.TooLong reworded in 1.32 (V65)', () => {
    // 1 MiB exactly is accepted; one byte more is not (data and binaryData count together).
    const half = 'x'.repeat(512 * 1024);
    expect(create('configmaps', { data: { a: half }, binaryData: { b: base64Of(512 * 1024) } }).ok).to.equal(true);
    const big = (release: Release) => create('configmaps', { data: { a: half, b: `${half}x` } }, release).message;
    expect(big(Release.of(31))).to.equal('ConfigMap "web" is invalid: []: Too long: must have at most 1048576 bytes');
    expect(big(Release.of(32))).to.equal(
      'ConfigMap "web" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
    const secret = (release?: Release) =>
      create('secrets', { data: { a: base64Of(1024 * 1024 + 1) } }, release).message;
    expect(secret(Release.of(31))).to.equal('Secret "web" is invalid: data: Too long: must have at most 1048576 bytes');
    expect(secret()).to.equal('Secret "web" is invalid: data: Too long: may not be more than 1048576 bytes');
    // The immutable check is the strategy's; its size check still runs on an update.
    expect(update('configmaps', { data: { a: 'x' } }, (cm) => (cm.data.a = `${half}${half}x`))).to.equal(
      'ConfigMap "web" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
  });

  it('ValidateNode: taint key, value and effect; a duplicate key and effect pair, printed %#v then JSON (V64)', () => {
    const bad = create('nodes', {
      spec: {
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoLoad' },
          { key: 'bad key!', effect: '' },
        ],
      },
    });
    expect(bad.message).to.equal(
      "Node \"web\" is invalid: [spec.taints[0].effect: Unsupported value: \"NoLoad\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\", spec.taints[1].key: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.taints[1].effect: Required value]",
    );
    const twice = {
      spec: {
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          { key: 'dedicated', value: 'cpu', effect: 'NoSchedule' },
        ],
      },
    };
    expect(create('nodes', twice, V1_33).message).to.equal(
      'Node "web" is invalid: spec.taints[1]: Duplicate value: core.Taint{Key:"dedicated", Value:"cpu", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    );
    expect(create('nodes', twice).message).to.equal(
      'Node "web" is invalid: spec.taints[1]: Duplicate value: {"Key":"dedicated","Value":"cpu","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair',
    );
    // The same key with another effect is another taint.
    const other = {
      spec: {
        taints: [
          { key: 'dedicated', effect: 'NoSchedule' },
          { key: 'dedicated', effect: 'NoExecute' },
        ],
      },
    };
    expect(create('nodes', other).ok).to.equal(true);
  });

  it('ValidateNode: pod CIDRs dual-stack, at most one per family, no duplicates; the list %#v then JSON (V64)', () => {
    const cidrs = (podCIDRs: string[], release?: Release) =>
      create('nodes', { spec: { podCIDR: podCIDRs[0], podCIDRs } }, release);
    expect(cidrs(['10.244.1.0/24', 'fd00:10:244:1::/64']).ok).to.equal(true);
    expect(cidrs(['fd00:10:244:1::/64', '10.244.1.0/24']).ok).to.equal(true);
    expect(cidrs(['10.244.1.0/24', '10.244.2.0/24']).message).to.equal(
      'Node "web" is invalid: spec.podCIDRs: Invalid value: ["10.244.1.0/24","10.244.2.0/24"]: may specify no more than one CIDR for each IP family',
    );
    expect(cidrs(['10.244.1.0/24', '10.244.2.0/24'], V1_33).message).to.equal(
      'Node "web" is invalid: spec.podCIDRs: Invalid value: []string{"10.244.1.0/24", "10.244.2.0/24"}: may specify no more than one CIDR for each IP family',
    );
    expect(cidrs(['10.244.1.0/24', 'fd00::/64', '10.244.1.0/24']).message).to.equal(
      'Node "web" is invalid: [spec.podCIDRs: Invalid value: ["10.244.1.0/24","fd00::/64","10.244.1.0/24"]: may specify no more than one CIDR for each IP family, spec.podCIDRs[2]: Duplicate value: "10.244.1.0/24"]',
    );
  });

  it('canonicalCIDRFamily: only canonical subnets (other values are not modelled)', () => {
    expect(canonicalCIDRFamily('10.244.0.0/16')).to.equal('IPv4');
    expect(canonicalCIDRFamily('0.0.0.0/0')).to.equal('IPv4');
    expect(canonicalCIDRFamily('fd00:10:244::/48')).to.equal('IPv6');
    expect(canonicalCIDRFamily('::/0')).to.equal('IPv6');
    for (const other of [
      '10.244.0.1/16',
      '010.0.0.0/8',
      '10.0.0.0/33',
      '10.0.0.0',
      'FD00::/64',
      'fd00:0::/64',
      'fd00::1/64',
      'x',
    ])
      expect(canonicalCIDRFamily(other), other).to.equal(undefined);
  });

  it('ValidateNodeUpdate: podCIDR set once (from "" only), providerID likewise', () => {
    expect(update('nodes', {}, (n) => (n.spec = { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] }))).to.equal(
      '',
    );
    const cidr = { spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] } };
    expect(update('nodes', cidr, (n) => (n.spec = { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] }))).to.equal(
      'Node "web" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    );
    expect(update('nodes', { spec: { providerID: 'kind://a' } }, (n) => (n.spec.providerID = 'kind://b'))).to.equal(
      'Node "web" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    );
    expect(update('nodes', {}, (n) => (n.spec = { providerID: 'kind://a' }))).to.equal('');
  });

  it('ServiceAccount cleanSecretReferences: a secret reference keeps only its name', () => {
    const sa = create('serviceaccounts', {
      secrets: [{ name: 'token', namespace: 'other', kind: 'Secret', uid: 'x' }],
    });
    expect((sa.object as unknown as { secrets: unknown[] }).secrets).to.deep.equal([{ name: 'token' }]);
  });

  it('ValidateEndpointSlice: addresses, hostname, ports (name, duplicate, protocol); SetDefaults_EndpointPort; addressType immutable', () => {
    const bad = create('endpointslices', {
      addressType: 'IPv4',
      endpoints: [{ addresses: [] }, { addresses: ['10.0.0.1'], hostname: 'Web_1', nodeName: 'node_1' }],
      ports: [
        { name: 'http', port: 80 },
        { name: 'http', port: 81, protocol: 'HTTP' },
      ],
    });
    expect(bad.message).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: [endpoints[0].addresses: Required value: must contain at least 1 address, ' +
        "endpoints[1].nodeName: Invalid value: \"node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), " +
        "endpoints[1].hostname: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), " +
        'ports[1].name: Duplicate value: "http", ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"]',
    );
    const many = create('endpointslices', {
      addressType: 'IPv4',
      endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] })),
    });
    expect(many.message).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints: Too many: 1001: must have at most 1000 items',
    );
    const ok = create('endpointslices', { addressType: 'IPv4', endpoints: [], ports: [{ port: 80 }] });
    expect((ok.object as unknown as { ports: unknown[] }).ports).to.deep.equal([
      { port: 80, name: '', protocol: 'TCP' },
    ]);
    expect(update('endpointslices', { addressType: 'IPv4', endpoints: [] }, (e) => (e.addressType = 'IPv6'))).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: addressType: Invalid value: "IPv6": field is immutable',
    );
  });

  it('ValidateEndpoints: a subset without addresses, an unnamed port among two, a port number 0; SetDefaults_Endpoints', () => {
    const bad = create('endpoints', {
      subsets: [
        { ports: [{ port: 80 }] },
        { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 0 }, { name: 'b', port: 81 }] },
      ],
    });
    expect(bad.message).to.equal(
      'Endpoints "web" is invalid: [subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`, ' +
        'subsets[1].ports[0].name: Required value, subsets[1].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive]',
    );
    const ok = create('endpoints', { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] });
    expect((ok.object as unknown as { subsets: { ports: unknown[] }[] }).subsets[0].ports).to.deep.equal([
      { port: 80, protocol: 'TCP' },
    ]);
  });

  it('V66 IsDNS1123Label: a name with dots says `must not contain dots` from 1.27 (namespaces, endpoint hostnames, Service names on 1.36)', () => {
    const LABEL =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const ns = (release: Release, name: string) =>
      new ApiServer(new Clock(), new Timeline(new Clock()), { ...DEFAULT_APISERVER_OPTIONS, release }).create(
        USER,
        'namespaces',
        undefined as unknown as string,
        { metadata: { name } } as never,
      );
    const message = (r: ReturnType<typeof ns>) => (r.ok ? '' : r.status.message);
    expect(message(ns(Release.of(26), 'shop.eu'))).to.equal(
      `Namespace "shop.eu" is invalid: metadata.name: Invalid value: "shop.eu": ${LABEL}`,
    );
    expect(message(ns(Release.of(27), 'shop.eu'))).to.equal(
      'Namespace "shop.eu" is invalid: metadata.name: Invalid value: "shop.eu": must not contain dots',
    );
    // Not a subdomain either: the regex message on every release; too long and invalid: both.
    expect(message(ns(Release.of(36), 'Shop'))).to.equal(
      `Namespace "Shop" is invalid: metadata.name: Invalid value: "Shop": ${LABEL}`,
    );
    const long = `${'a'.repeat(64)}_`;
    expect(message(ns(Release.of(36), long))).to.equal(
      `Namespace "${long}" is invalid: [metadata.name: Invalid value: "${long}": must be no more than 63 characters, metadata.name: Invalid value: "${long}": ${LABEL}]`,
    );
    const host = (release: Release) =>
      create(
        'endpointslices',
        { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], hostname: 'web.0' }] },
        release,
      ).message;
    expect(host(Release.of(26))).to.include(`endpoints[0].hostname: Invalid value: "web.0": ${LABEL}`);
    expect(host(Release.of(36))).to.equal(
      'EndpointSlice.discovery.k8s.io "web" is invalid: endpoints[0].hostname: Invalid value: "web.0": must not contain dots',
    );
    const svc = create('services', { metadata: { name: 'web.v1' }, spec: { ports: [{ port: 80 }] } });
    expect(svc.message).to.equal(
      'Service "web.v1" is invalid: metadata.name: Invalid value: "web.v1": must not contain dots',
    );
  });
});

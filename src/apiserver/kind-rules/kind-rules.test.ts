/**
 * R242 — each kind's validation and defaulting (kind-rules/), through ApiServer.create as any
 * client (an HTTP body, a scenario's doc string, a controller) reaches it: upstream's field paths
 * and messages (pkg/apis/{core,apps,batch,discovery}/validation, SetDefaults_ContainerPort).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { ApiServer } from '../apiserver';
import type { KubeObject } from '../../apimachinery/object';
import type { Resource } from '../apiserver';

const USER = { name: 'user', component: 'user' as const };
const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
const SELECTOR = { matchLabels: { app: 'web' } };

function create(
  resource: Resource,
  obj: Record<string, unknown>,
): { ok: boolean; message: string; object?: KubeObject } {
  const api = new ApiServer(new Clock(), new Timeline(new Clock()));
  const r = api.create(USER, resource, 'default', { metadata: { name: 'web' }, ...obj } as never);
  return r.ok ? { ok: true, message: '', object: r.object as KubeObject } : { ok: false, message: r.status.message };
}

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
    const rolling = create('deployments', {
      spec: { selector: SELECTOR, template: TEMPLATE, strategy: { type: 'Rolling' } },
    });
    expect(rolling.message).to.equal(
      'Deployment.apps "web" is invalid: spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
    );
    const mismatch = create('deployments', {
      spec: { selector: { matchLabels: { app: 'other' } }, template: TEMPLATE },
    });
    expect(mismatch.message).to.equal(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('ValidateDaemonSetSpec: a selector not matching the template is refused (the daemon controller never sees it)', () => {
    const ds = create('daemonsets', { spec: { selector: { matchLabels: { app: 'other' } }, template: TEMPLATE } });
    expect(ds.message).to.equal(
      'DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
    const strategy = create('daemonsets', {
      spec: { selector: SELECTOR, template: TEMPLATE, updateStrategy: { type: 'Rolling' } },
    });
    expect(strategy.message).to.include(
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
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
    const rs = create('replicasets', {
      spec: { selector: {}, template: { ...TEMPLATE, spec: { ...TEMPLATE.spec, restartPolicy: 'Never' } } },
    });
    expect(rs.message).to.equal(
      'ReplicaSet.apps "web" is invalid: [spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]',
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
});

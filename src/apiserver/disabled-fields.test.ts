/**
 * R320 — fields dropped on write while their feature gate is off (dropDisabledFields), through
 * ApiServer.create/update as any client reaches it, on both sides of each gate's default.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { Release, SUPPORTED_MINORS } from '../foundation/release';
import type { KubeObject } from '../apimachinery/object';
import { ApiServer, DEFAULT_APISERVER_OPTIONS, type Resource } from './apiserver';
import { dropDisabledFields, GATED_FIELDS } from './disabled-fields';

const USER = { name: 'user', component: 'user' as const };
const CONTAINERS = [{ name: 'app', image: 'nginx' }];
const TEMPLATE = (spec: Record<string, unknown>) => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: CONTAINERS, ...spec },
});

function apiserver(release: Release): ApiServer {
  return new ApiServer(new Clock(), new Timeline(new Clock()), { ...DEFAULT_APISERVER_OPTIONS, release });
}

/** The stored object of a create on `release` (throws on a refusal). */
function stored(resource: Resource, obj: Record<string, unknown>, release: Release): any {
  const r = apiserver(release).create(USER, resource, 'default', { metadata: { name: 'web' }, ...obj } as never);
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
}

const pod = (spec: Record<string, unknown>) => ({ spec: { containers: CONTAINERS, ...spec } });

describe('R320 dropDisabledFields: a field whose gate is off is dropped on write', () => {
  it('every row of the table has a gate that is off by default in some modelled release', () => {
    for (const row of GATED_FIELDS) {
      const off = SUPPORTED_MINORS.filter((m) => !Release.of(m).enabled(row.gate));
      expect(off, `${row.gate} ${row.paths.join(',')}`).to.not.deep.equal([]);
    }
  });

  it('spec.schedulingGroup (GenericWorkload, alpha on 1.36) is dropped, kept where the gate is turned on', () => {
    const group = { schedulingGroup: { podGroupName: 'training' } };
    expect(stored('pods', pod(group), Release.of(36)).spec.schedulingGroup).to.equal(undefined);
    const on = Release.of(36, { GenericWorkload: true });
    expect(stored('pods', pod(group), on).spec.schedulingGroup).to.deep.equal({ podGroupName: 'training' });
  });

  it('spec.workloadRef (GenericWorkload, alpha on 1.35) is dropped on 1.35', () => {
    const ref = { workloadRef: { name: 'training', podGroup: 'workers' } };
    expect(stored('pods', pod(ref), Release.of(35)).spec.workloadRef).to.equal(undefined);
    expect(stored('pods', pod(ref), Release.of(35, { GenericWorkload: true })).spec.workloadRef).to.deep.equal(
      ref.workloadRef,
    );
  });

  it('pod-level resources: dropped on 1.33 (alpha), kept on 1.34 (beta on); in a Deployment template too', () => {
    const resources = { resources: { limits: { cpu: '1' } } };
    expect(stored('pods', pod(resources), Release.of(33)).spec.resources).to.equal(undefined);
    expect(stored('pods', pod(resources), Release.of(34)).spec.resources).to.deep.equal(resources.resources);
    const deployment = { spec: { selector: { matchLabels: { app: 'web' } }, template: TEMPLATE(resources) } };
    expect(stored('deployments', deployment, Release.of(33)).spec.template.spec.resources).to.equal(undefined);
    expect(stored('deployments', deployment, Release.of(34)).spec.template.spec.resources).to.deep.equal(
      resources.resources,
    );
  });

  it("a container's resizePolicy: dropped on 1.32 (InPlacePodVerticalScaling alpha), kept on 1.33", () => {
    const resize = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }];
    const spec = { containers: [{ ...CONTAINERS[0], resizePolicy: resize }] };
    expect(stored('pods', pod(spec), Release.of(32)).spec.containers[0].resizePolicy).to.equal(undefined);
    expect(stored('pods', pod(spec), Release.of(33)).spec.containers[0].resizePolicy).to.deep.equal(resize);
  });

  it('a Job: successPolicy dropped on 1.30, kept on 1.31; backoffLimitPerIndex on 1.28, kept on 1.29', () => {
    const job = (spec: Record<string, unknown>) => ({
      spec: { completionMode: 'Indexed', completions: 2, template: TEMPLATE({ restartPolicy: 'Never' }), ...spec },
    });
    const success = { successPolicy: { rules: [{ succeededCount: 1 }] } };
    expect(stored('jobs', job(success), Release.of(30)).spec.successPolicy).to.equal(undefined);
    expect(stored('jobs', job(success), Release.of(31)).spec.successPolicy).to.deep.equal(success.successPolicy);
    const perIndex = { backoffLimitPerIndex: 1, maxFailedIndexes: 1 };
    const on28 = stored('jobs', job(perIndex), Release.of(28)).spec;
    expect([on28.backoffLimitPerIndex, on28.maxFailedIndexes]).to.deep.equal([undefined, undefined]);
    const on29 = stored('jobs', job(perIndex), Release.of(29)).spec;
    expect([on29.backoffLimitPerIndex, on29.maxFailedIndexes]).to.deep.equal([1, 1]);
  });

  it('a StatefulSet: rollingUpdate.maxUnavailable kept on 1.35 (beta on), dropped on 1.36 (beta off again)', () => {
    const set = {
      spec: {
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: TEMPLATE({}),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      },
    };
    expect(stored('statefulsets', set, Release.of(35)).spec.updateStrategy.rollingUpdate.maxUnavailable).to.equal(2);
    expect(stored('statefulsets', set, Release.of(36)).spec.updateStrategy.rollingUpdate.maxUnavailable).to.equal(
      undefined,
    );
  });

  it("a Service's trafficDistribution (1.30 alpha) and a claim's volumeAttributesClassName (1.33 beta off)", () => {
    const svc = { spec: { ports: [{ port: 80 }], trafficDistribution: 'PreferClose' } };
    expect(stored('services', svc, Release.of(30)).spec.trafficDistribution).to.equal(undefined);
    expect(stored('services', svc, Release.of(31)).spec.trafficDistribution).to.equal('PreferClose');
    const claim = {
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        volumeAttributesClassName: 'gold',
      },
    };
    expect(stored('persistentvolumeclaims', claim, Release.of(33)).spec.volumeAttributesClassName).to.equal(undefined);
    expect(stored('persistentvolumeclaims', claim, Release.of(34)).spec.volumeAttributesClassName).to.equal('gold');
  });

  it("a pod template loses what a pod would: a sidecar's restartPolicy on 1.28 (SidecarContainers alpha)", () => {
    const sidecar = { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] };
    const deployment = { spec: { selector: { matchLabels: { app: 'web' } }, template: TEMPLATE(sidecar) } };
    const on28 = stored('deployments', deployment, Release.of(28)).spec.template.spec;
    expect(on28.initContainers[0].restartPolicy).to.equal(undefined);
    const on29 = stored('deployments', deployment, Release.of(29)).spec.template.spec;
    expect(on29.initContainers[0].restartPolicy).to.equal('Always');
  });

  it('on an update, a field the stored object already uses is kept (…InUse(old)), a new one dropped', () => {
    const release = Release.of(33);
    const next = () =>
      ({ spec: { containers: CONTAINERS, resources: { limits: { cpu: '2' } } } }) as unknown as KubeObject;
    const old = { spec: { containers: CONTAINERS, resources: { limits: { cpu: '1' } } } } as unknown as KubeObject;
    const kept = next();
    expect(dropDisabledFields('pods', kept, old, release)).to.deep.equal([]);
    expect((kept as any).spec.resources).to.deep.equal({ limits: { cpu: '2' } });
    const dropped = next();
    expect(dropDisabledFields('pods', dropped, pod({}) as unknown as KubeObject, release)).to.deep.equal(['resources']);
    expect((dropped as any).spec.resources).to.equal(undefined);
  });
});

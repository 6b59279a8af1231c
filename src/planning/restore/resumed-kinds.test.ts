import { describe, it } from 'node:test';
import { expect } from 'chai';
import { SERVED_RESOURCES } from '../../apiserver/resources';
import { ClusterPlan } from '../cluster-plan';
import { readDump } from './dump';
import { RESUMED_KINDS } from './resumed-kinds';

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'u-web',
    creationTimestamp: '2025-06-03T09:00:00Z',
    labels: { app: 'web' },
  },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
  status: { phase: 'Pending' },
};
const OBJECTS = [
  POD,
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'shop', uid: 'u-cm' },
    data: { a: '1' },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'shop', uid: 'u-svc' },
    spec: {
      selector: { app: 'web' },
      ports: [{ port: 80 }],
      clusterIP: '10.96.0.20',
      clusterIPs: ['10.96.0.20'],
      type: 'ClusterIP',
    },
  },
  {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'report', namespace: 'shop', uid: 'u-job' },
    spec: {
      suspend: true,
      template: {
        metadata: { labels: { job: 'report' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'r', image: 'busybox' }] },
      },
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'injector', uid: 'u-mwc' },
    webhooks: [
      {
        name: 'inject.example.com',
        failurePolicy: 'Ignore',
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }],
      },
    ],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'ingress-only', uid: 'u-vwc' },
    webhooks: [
      {
        name: 'ingress.example.com',
        rules: [
          { apiGroups: ['networking.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['ingresses'] },
        ],
      },
    ],
  },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'nfs-1', uid: 'u-pv' },
    spec: { nfs: { server: 'nas.example.com', path: '/export' } },
  },
  {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'fast', uid: 'u-sc' },
    provisioner: 'ebs.csi.aws.com',
  },
];

describe('X1 X15 every object of a dump is resumed, or named as not modelled with what it could do to a pod', () => {
  it('each resumed kind is one the server serves, at the apiVersion kubectl prints', () => {
    for (const [kind, { apiVersion, resource }] of Object.entries(RESUMED_KINDS)) {
      const served = SERVED_RESOURCES.find(
        (r) => r.kind === kind && (r.group === '' ? r.version : `${r.group}/${r.version}`) === apiVersion,
      );
      expect(served, kind).to.not.equal(undefined);
      expect(served!.storage, kind).to.equal(resource);
    }
  });

  it('ConfigMaps, Services, Jobs … are stored as they are; webhook configurations and volumes are listed with what they could do', () => {
    const plan = new ClusterPlan();
    plan.objects(
      readDump([{ file: 'dump.yaml', text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: OBJECTS }) }]),
    );
    plan.start();
    const api = plan.cluster.apiserver;
    expect(api.get('configmaps', 'shop', 'settings').ok).to.equal(true);
    expect(api.get('services', 'shop', 'web').ok).to.equal(true);
    const job = api.get('jobs', 'shop', 'report');
    expect(job.ok && job.object.metadata.uid).to.equal('u-job');
    expect(api.get('mutatingwebhookconfigurations', undefined, 'injector').ok).to.equal(false);
    const notes = plan.restoredObjects!.assumptions.map((a) => a.text).filter((t) => t.includes('is not modelled'));
    expect(notes).to.deep.equal([
      'MutatingWebhookConfiguration injector is not modelled: left out (dump.yaml: document 1, items[4] (MutatingWebhookConfiguration "injector")); its server is the real cluster\'s, which this run cannot call: webhook inject.example.com (failurePolicy Ignore) intercepts UPDATE of pods (a controller removing its finalizer) — it may change (a change to an immutable field of a pod fails the whole request) or refuse the request that releases a deleted pod',
      'ValidatingWebhookConfiguration ingress-only is not modelled: left out (dump.yaml: document 1, items[5] (ValidatingWebhookConfiguration "ingress-only")); its webhooks intercept none of the requests that release a pod',
      'PersistentVolume nfs-1 is not modelled: left out (dump.yaml: document 1, items[6] (PersistentVolume "nfs-1")); read as evidence of a pod\'s volumes: nfs nas.example.com:/export: an unmount of it can fail or hang without an Event, keeping a deleted pod that uses it Terminating',
      'StorageClass fast is not modelled: left out (dump.yaml: document 1, items[7] (StorageClass "fast")); read as evidence of how volumes are provisioned and attached; no pod is held by it directly',
    ]);
  });

  it('X18 a step resumes a webhook configuration of the objects; one the objects lack is one error naming those they have', () => {
    const plan = new ClusterPlan();
    plan.objects(
      readDump([{ file: 'dump.yaml', text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: OBJECTS }) }]),
    );
    expect(() => plan.resumeWebhook('nope.example.com')).to.throw(
      'no webhook configuration of the objects has a webhook "nope.example.com" (they have "inject.example.com", "ingress.example.com")',
    );
    plan.resumeWebhook('inject.example.com');
    plan.start();
    expect(plan.cluster.apiserver.get('mutatingwebhookconfigurations', undefined, 'injector').ok).to.equal(true);
    expect(plan.restoredObjects!.unmodelled.map((o) => o.name)).to.not.include('injector');
  });
});

// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { Resource } from '../../apiserver/apiserver';
import type { ServedCluster } from './serve';
import { type KubectlResult, type ServedKubectl, serveWithRealKubectl } from './kubectl-testing';
import { Release } from '../../foundation/release';

/**
 * R110/R111/R240/R242/R248 with the real kubectl v1.33 (the served release's) against `terminating serve`: `kubectl apply` of a manifest
 * with a misspelt field is refused for every served kind with the server's strict decoding error
 * (kubectl sends fieldValidation=Strict), nothing is stored, and `kubectl explain` finds every
 * served kind in the OpenAPI v3 documents, with its fields' descriptions and only the fields of
 * the served release.
 */
let served: ServedCluster;
let run: ServedKubectl['run'];
let dir: string;

before(async () => {
  // A v1.33 server, older than the bundled kubectl: its OpenAPI documents carry only v1.33's fields,
  // and the kubectl of the served release (issue 30's "Done when": the real kubectl v1.33).
  ({ served, run, dir } = await serveWithRealKubectl({
    prefix: 'strict',
    release: Release.parse('v1.33'),
    kubectlMinor: 33,
  }));
});
after(() => served.close());

const TEMPLATE = { metadata: { labels: { app: 'typo' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
const SELECTOR = { matchLabels: { app: 'typo' } };

/** One manifest per served kind, each with one misspelt field, and the path the server names. */
const TYPOS: readonly {
  kind: string;
  apiVersion: string;
  body: Record<string, unknown>;
  field: string;
  namespaced?: boolean;
}[] = [
  {
    kind: 'Pod',
    apiVersion: 'v1',
    body: { spec: { terminationGracePeriodSecond: 10, containers: [{ name: 'app', image: 'nginx' }] } },
    field: 'spec.terminationGracePeriodSecond',
  },
  {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    body: { spec: { replica: 2, selector: SELECTOR, template: TEMPLATE } },
    field: 'spec.replica',
  },
  {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    body: {
      spec: {
        replicas: 1,
        selector: SELECTOR,
        template: { ...TEMPLATE, spec: { containers: [{ name: 'app', image: 'nginx', imagePullPolicyy: 'Always' }] } },
      },
    },
    field: 'spec.template.spec.containers[0].imagePullPolicyy',
  },
  {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    body: { spec: { serviceName: 'typo', selector: SELECTOR, template: TEMPLATE, podManagmentPolicy: 'Parallel' } },
    field: 'spec.podManagmentPolicy',
  },
  {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    body: { spec: { selector: SELECTOR, template: TEMPLATE, updateStrategy: { typ: 'OnDelete' } } },
    field: 'spec.updateStrategy.typ',
  },
  {
    kind: 'Job',
    apiVersion: 'batch/v1',
    body: {
      spec: {
        backofLimit: 2,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx' }] } },
      },
    },
    field: 'spec.backofLimit',
  },
  {
    kind: 'Service',
    apiVersion: 'v1',
    body: { spec: { selectr: { app: 'typo' }, ports: [{ port: 80 }] } },
    field: 'spec.selectr',
  },
  {
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    body: { spec: { minAvailabel: 1, selector: SELECTOR } },
    field: 'spec.minAvailabel',
  },
  {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    body: { spec: { schedul: '*/5 * * * *', jobTemplate: { spec: { template: TEMPLATE } } } },
    field: 'spec.schedul',
  },
  {
    kind: 'ReplicationController',
    apiVersion: 'v1',
    body: { spec: { replica: 2, selector: { app: 'web' }, template: TEMPLATE } },
    field: 'spec.replica',
  },
  {
    kind: 'Ingress',
    apiVersion: 'networking.k8s.io/v1',
    body: { spec: { rulez: [] } },
    field: 'spec.rulez',
  },
  { kind: 'ConfigMap', apiVersion: 'v1', body: { dta: { a: 'b' } }, field: 'dta' },
  { kind: 'Secret', apiVersion: 'v1', body: { strngData: { a: 'b' } }, field: 'strngData' },
  {
    kind: 'ServiceAccount',
    apiVersion: 'v1',
    body: { automountServiceAccountTokn: false },
    field: 'automountServiceAccountTokn',
  },
  {
    kind: 'Namespace',
    apiVersion: 'v1',
    body: { spec: { finalizer: ['kubernetes'] } },
    field: 'spec.finalizer',
    namespaced: false,
  },
  {
    kind: 'Node',
    apiVersion: 'v1',
    body: { spec: { unschedulabel: true } },
    field: 'spec.unschedulabel',
    namespaced: false,
  },
  {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    body: { addressType: 'IPv4', endpoint: [] },
    field: 'endpoint',
  },
  { kind: 'Endpoints', apiVersion: 'v1', body: { subset: [] }, field: 'subset' },
  {
    kind: 'PersistentVolume',
    apiVersion: 'v1',
    body: { spec: { capacity: { storage: '1Gi' }, accesModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } },
    field: 'spec.accesModes',
  },
  {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    body: { spec: { accessModes: ['ReadWriteOnce'], resource: { requests: { storage: '1Gi' } } } },
    field: 'spec.resource',
  },
  {
    kind: 'StorageClass',
    apiVersion: 'storage.k8s.io/v1',
    body: { provisioner: 'example.com/disk', reclaimPolcy: 'Delete' },
    field: 'reclaimPolcy',
  },
  {
    kind: 'CSIDriver',
    apiVersion: 'storage.k8s.io/v1',
    body: { spec: { attachRequred: true } },
    field: 'spec.attachRequred',
  },
  {
    kind: 'VolumeAttachment',
    apiVersion: 'storage.k8s.io/v1',
    body: { spec: { attacher: 'example.com/disk', nodName: 'node-1', source: { persistentVolumeName: 'pv' } } },
    field: 'spec.nodName',
  },
  {
    kind: 'ValidatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    body: { webhook: [] },
    field: 'webhook',
  },
  {
    kind: 'MutatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    body: { webhook: [] },
    field: 'webhook',
  },
  {
    kind: 'ValidatingAdmissionPolicy',
    apiVersion: 'admissionregistration.k8s.io/v1',
    body: { spec: { validation: [{ expression: 'true' }] } },
    field: 'spec.validation',
  },
  {
    kind: 'ValidatingAdmissionPolicyBinding',
    apiVersion: 'admissionregistration.k8s.io/v1',
    body: { spec: { policyNam: 'policy', validationActions: ['Deny'] } },
    field: 'spec.policyNam',
    namespaced: false,
  },
  {
    kind: 'Event',
    apiVersion: 'v1',
    body: { involvedObject: { kind: 'Pod', name: 'web' }, resaon: 'Killing' },
    field: 'resaon',
  },
  {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    body: { eventTime: '2026-01-01T00:00:00.000000Z', reportingInstance: 'me', nte: 'hello' },
    field: 'nte',
  },
  {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    body: { spec: { group: 'example.com', scop: 'Namespaced' } },
    field: 'spec.scop',
  },
  {
    kind: 'ControllerRevision',
    apiVersion: 'apps/v1',
    body: { revison: 1 },
    field: 'revison',
  },
  {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    body: { spec: { holderIdentty: 'me' } },
    field: 'spec.holderIdentty',
  },
  {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    body: {
      spec: { accessModes: ['ReadWriteOnce'], storageClass: 'fast', resources: { requests: { storage: '1Gi' } } },
    },
    field: 'spec.storageClass',
  },
  {
    kind: 'PersistentVolume',
    apiVersion: 'v1',
    body: {
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        csi: { driver: 'csi.example.com', volumeHandle: 'vol-1', fsTyp: 'ext4' },
      },
    },
    field: 'spec.csi.fsTyp',
    namespaced: false,
  },
  {
    kind: 'StorageClass',
    apiVersion: 'storage.k8s.io/v1',
    body: { provisioner: 'csi.example.com', volumeBindingMod: 'WaitForFirstConsumer' },
    field: 'volumeBindingMod',
    namespaced: false,
  },
  {
    kind: 'CSIDriver',
    apiVersion: 'storage.k8s.io/v1',
    body: { spec: { attachRequird: true } },
    field: 'spec.attachRequird',
    namespaced: false,
  },
  {
    kind: 'CSINode',
    apiVersion: 'storage.k8s.io/v1',
    body: { spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1', topologyKey: [] }] } },
    field: 'spec.drivers[0].topologyKey',
    namespaced: false,
  },
  {
    kind: 'VolumeAttachment',
    apiVersion: 'storage.k8s.io/v1',
    body: { spec: { attacher: 'csi.example.com', nodeNme: 'n1', source: { persistentVolumeName: 'pv-1' } } },
    field: 'spec.nodeNme',
    namespaced: false,
  },
];

describe('R240 a typo in any served kind is refused by the real kubectl v1.33 against serve', () => {
  // One manifest file per typo in one directory, applied by ONE kubectl: apply goes on after a
  // refused object and prints each refusal on its own line, naming the file, so each kind's
  // exact message is still checked on its own line (a wrong or missing message for any one
  // kind fails that kind's test) for one kubectl start-up instead of 38. The same for the check
  // that nothing was stored: one `get` of every kind's "typo".
  const files = TYPOS.map((t, i) => `${String(i).padStart(2, '0')}-${t.kind}-${t.apiVersion.replace('/', '-')}.json`);
  let applied: KubectlResult;
  let got: KubectlResult;
  before(async () => {
    const typos = join(dir, 'typos');
    mkdirSync(typos);
    TYPOS.forEach((t, i) =>
      writeFileSync(
        join(typos, files[i]),
        JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name: 'typo' }, ...t.body }),
      ),
    );
    applied = await run('apply', '-f', typos);
    const names = [...new Set(TYPOS.map((t) => `${t.kind.toLowerCase()}/typo`))];
    got = await run('get', ...names, '--ignore-not-found', '-o', 'name');
  });

  TYPOS.forEach((t, i) => {
    it(`${t.kind}: unknown field "${t.field}"`, () => {
      expect(applied.code, applied.stdout).to.not.equal(0);
      const version = t.apiVersion.split('/').pop();
      expect(applied.stderr.split('\n')).to.include(
        `Error from server (BadRequest): error when creating "${join(dir, 'typos', files[i])}": ` +
          `${t.kind} in version "${version}" cannot be handled as a ${t.kind}: strict decoding error: unknown field "${t.field}"`,
      );
      expect(got.stdout, `${t.kind} "typo" must not be stored`).to.equal('');
      expect(got.stderr, 'every kind is found').to.equal('');
    });
  });

  it('an int64 field given 12.5 or 1e20, and a field of the wrong type, are refused as the decoder refuses them', async () => {
    const applied = await applyAll('decode', {
      'grace.json':
        '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"grace"},"spec":{"terminationGracePeriodSeconds":12.5,"containers":[{"name":"app","image":"nginx"}]}}',
      'replicas.json':
        '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"grace"},"spec":{"replicas":"two","selector":{"matchLabels":{"app":"g"}},"template":{"metadata":{"labels":{"app":"g"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}',
    });
    expect(applied.stderr).to.include(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 12.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
    expect(applied.stderr).to.include(
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });
});

/**
 * Writes each manifest into a directory of its own and runs ONE `kubectl apply -f DIR`:
 * kubectl goes on after a refused object and prints every refusal, each naming its file, so one
 * kubectl start-up checks what one per manifest checked (each message is still asserted). Only
 * for refusals kubectl prints the same way alone and among others: a 400 (decoding) is
 * `Error from server (BadRequest): error when creating "FILE": MESSAGE` either way, but a lone
 * 422 Invalid is printed from its details (`The Deployment "minus" is invalid: …`, kubectl's
 * checkErr) and several only by their messages — so the validation tests below keep one kubectl each.
 */
async function applyAll(name: string, manifests: Record<string, string>) {
  const into = join(dir, name);
  mkdirSync(into);
  for (const [file, body] of Object.entries(manifests)) writeFileSync(join(into, file), body);
  return run('apply', '-f', into);
}

/**
 * Which of these objects the served cluster stored, read from its apiserver directly: whether a
 * refused object was stored is the server's state, not something kubectl prints, and a kubectl
 * `get` of each would cost a kubectl start-up (and print nothing on an error as well).
 */
function stored(...objects: [Resource, string][]): string[] {
  return objects
    .filter(([resource, name]) => served.cluster.apiserver.get(resource, namespaced(resource), name).code !== 404)
    .map(([resource, name]) => `${resource}/${name}`);
}

const namespaced = (resource: Resource) => (resource === 'nodes' ? undefined : 'default');

describe('R242 what kube-apiserver validation refuses, the real kubectl shows refused', () => {
  it('a DaemonSet whose selector does not match its template, and a Deployment with replicas -1', async () => {
    const ds = join(dir, 'ds.json');
    writeFileSync(
      ds,
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'agent' },
        spec: { selector: { matchLabels: { app: 'other' } }, template: TEMPLATE },
      }),
    );
    const refused = await run('apply', '-f', ds);
    expect(refused.stderr).to.include(
      'The DaemonSet "agent" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"typo"}: `selector` does not match template `labels`',
    );
    const deploy = join(dir, 'deploy.json');
    writeFileSync(
      deploy,
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'minus' },
        spec: { replicas: -1, selector: SELECTOR, template: TEMPLATE },
      }),
    );
    expect((await run('apply', '-f', deploy)).stderr).to.include(
      'The Deployment "minus" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(stored(['daemonsets', 'agent'], ['deployments', 'minus'])).to.deep.equal([]);
  });

  it('R248 a Node taint with an unknown effect or twice the same key and effect, a ConfigMap over 1 MiB', async () => {
    const node = join(dir, 'node.json');
    const taints = (second: Record<string, string>) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'tainted' },
        spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, second] },
      });
    writeFileSync(node, taints({ key: 'zone', effect: 'NoLoad' }));
    expect((await run('create', '-f', node)).stderr).to.include(
      'The Node "tainted" is invalid: spec.taints[1].effect: Unsupported value: "NoLoad": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
    writeFileSync(node, taints({ key: 'dedicated', value: 'cpu', effect: 'NoSchedule' }));
    // v1.33 prints the internal core.Taint with %#v (JSON from v1.34, V64).
    expect((await run('create', '-f', node)).stderr).to.include(
      'The Node "tainted" is invalid: spec.taints[1]: Duplicate value: core.Taint{Key:"dedicated", Value:"cpu", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    );
    const big = join(dir, 'big.json');
    writeFileSync(
      big,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'big' },
        data: { a: 'x'.repeat(1024 * 1024), b: 'y' },
      }),
    );
    // kubectl create (apply would add a last-applied annotation over its own 256 KiB limit).
    expect((await run('create', '-f', big)).stderr).to.include(
      'The ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
    expect(stored(['nodes', 'tainted'], ['configmaps', 'big'])).to.deep.equal([]);
  });

  it('R319 a Service externalIP that is no IP, an EndpointSlice address of the wrong family, a node pod CIDR', async () => {
    const file = join(dir, 'ips.json');
    const create = async (body: Record<string, unknown>) => {
      writeFileSync(file, JSON.stringify(body));
      return (await run('create', '-f', file)).stderr;
    };
    expect(
      await create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'ext' },
        spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2'] },
      }),
    ).to.include(
      'The Service "ext" is invalid: spec.externalIPs[0]: Invalid value: "192.0.2": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    // v1.33: the address is checked as an IP first, then for its family (V71).
    expect(
      await create({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'ext-1' },
        addressType: 'IPv6',
        endpoints: [{ addresses: ['10.0.0.7'] }],
      }),
    ).to.include(
      'The EndpointSlice "ext-1" is invalid: endpoints[0].addresses: Invalid value: "10.0.0.7": must be an IPv6 address',
    );
    expect(
      await create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'cidr' }, spec: { podCIDR: '10.244.1.0' } }),
    ).to.include(
      'The Node "cidr" is invalid: spec.podCIDRs[0]: Invalid value: "10.244.1.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    );
    expect(stored(['services', 'ext'], ['endpointslices', 'ext-1'], ['nodes', 'cidr'])).to.deep.equal([]);
  });
});

describe('R110 kubectl explain finds every served kind, with descriptions, in the served release', () => {
  // The kinds served from v1.36 only (mutatingadmissionpolicies, …bindings): kubectl-strict-136.test.ts.
  const KINDS = [
    'pods',
    'deployments',
    'replicasets',
    'statefulsets',
    'daemonsets',
    'jobs',
    'services',
    'endpoints',
    'endpointslices',
    'poddisruptionbudgets',
    'configmaps',
    'secrets',
    'serviceaccounts',
    'namespaces',
    'nodes',
    'leases',
    'controllerrevisions',
    'events',
    'persistentvolumes',
    'persistentvolumeclaims',
    'storageclasses',
    'csidrivers',
    'csinodes',
    'volumeattachments',
    'validatingwebhookconfigurations',
    'mutatingwebhookconfigurations',
    'validatingadmissionpolicies',
    'validatingadmissionpolicybindings',
    'customresourcedefinitions',
    'cronjobs',
    'replicationcontrollers',
    'ingresses',
  ];
  for (const kind of KINDS) {
    it(`explain ${kind}`, async () => {
      const explained = await run('explain', kind);
      expect(explained, explained.stderr).to.include({ code: 0 });
      expect(explained.stdout).to.match(/^DESCRIPTION:\n\s+\S/m);
      expect(explained.stdout).to.match(/^ {2}metadata\t<ObjectMeta>( -required-)?\n\s+\S/m);
    });
  }

  it('explain deployment.spec.replicas describes the field; a v1.34 field is not on the v1.33 server', async () => {
    const replicas = await run('explain', 'deployment.spec.replicas');
    expect(replicas.stdout).to.include('FIELD: replicas <integer>');
    expect(replicas.stdout).to.match(/DESCRIPTION:\n\s+Number of desired pods/);
    // PodSpec.hostnameOverride is new in k8s.io/api v0.34: the v1.33 server does not serve it.
    const fields = await run('explain', 'pod.spec');
    expect(fields.stdout).to.include('terminationGracePeriodSeconds\t<integer>');
    expect(fields.stdout).to.not.include('hostnameOverride');
  });

  it('P20 explain pv.spec, pvc and volumeattachment.spec: the storage kinds by their short names, with their fields', async () => {
    const pv = await run('explain', 'pv.spec');
    expect(pv, pv.stderr).to.include({ code: 0 });
    expect(pv.stdout).to.include('FIELD: spec <PersistentVolumeSpec>');
    expect(pv.stdout).to.match(/^ {2}claimRef\t<ObjectReference>\n\s+\S/m);
    expect(pv.stdout).to.match(/^ {2}persistentVolumeReclaimPolicy\t<string>/m);
    const pvc = await run('explain', 'pvc');
    expect(pvc.stdout).to.include('KIND:       PersistentVolumeClaim');
    expect(pvc.stdout).to.match(/^ {2}spec\t<PersistentVolumeClaimSpec>\n\s+\S/m);
    const va = await run('explain', 'volumeattachment.spec');
    expect(va.stdout).to.include('GROUP:      storage.k8s.io');
    expect(va.stdout).to.match(/^ {2}attacher\t<string> -required-\n\s+\S/m);
    // VolumeError.errorCode is new in k8s.io/api v0.33: the v1.33 server serves it.
    const error = await run('explain', 'volumeattachment.status.attachError');
    expect(error.stdout).to.match(/^ {2}errorCode\t<integer>/m);
  });
});

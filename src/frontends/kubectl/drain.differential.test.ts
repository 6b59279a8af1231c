// The real kubectl is spawned for each line: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
// V74: the Eviction body drain sends, byte for byte, by release (no null creationTimestamp from v1.34).
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { createApiHandler } from '../server/api-handler';
import { podManifest } from '../server/testing';
import { splitCommandLine } from './delete-command';
import { DEFAULT_WAIT_LIMIT_MS, runKubectl, type KubectlRequest } from './kubectl';
import { DIFFERENTIAL_KUBECTL_MINOR, type PinnedKubectlMinor } from './real-kubectl';
import { RealKubectlSession } from './real-session';

/**
 * K80, K81, K82, V49 — `kubectl drain|cordon|uncordon`: the built-in kubectl (src/frontends/kubectl/drain.ts) against
 * the real kubectl v1.36 (and v1.33 for the filter messages), each on its own copy of one cluster (node-1 with pods api and web — no
 * controller —, frontend-1 of ReplicaSet frontend, held with a finalizer nobody removes; the
 * variants add a pod with an emptyDir or one whose controller is a DaemonSet), the real one over
 * HTTP. They must send the same requests, print the same lines, exit alike and leave node-1's pods
 * and its unschedulable flag alike.
 *
 * Normalised, because it cannot match: upstream evicts each pod in a goroutine of its own, so the
 * order of the per-pod requests and stdout lines is the Go scheduler's — the requests after the
 * first pod LIST are compared as a set, stdout as sorted lines; and the real drain polls each pod
 * every second of wall time while virtual time jumps (RealRunLimits.pollingQuietMs), so how often
 * it GETs a pod differs — repeats are dropped. The real kubectl's --timeout is wall time: only a
 * pod held by a finalizer (gone in neither time) times out alike.
 */
type Variant = 'base' | 'emptydir' | 'daemonset';

const LINES: [string, Variant][] = [
  ['kubectl drain node-1 --force --grace-period=5 --pod-selector=app!=held', 'base'],
  ['kubectl drain node-1', 'base'],
  ['kubectl drain node-1 --pod-selector=app=frontend', 'base'],
  ['kubectl drain node-1 --force --disable-eviction --pod-selector=app=web', 'base'],
  ['kubectl drain node-1 --force --dry-run=client', 'base'],
  ['kubectl drain node-1 --force --dry-run=server --pod-selector=app=web', 'base'],
  ['kubectl drain node-1 --force --pod-selector=app=held --timeout=2s', 'base'],
  ['kubectl drain node-1 --force --disable-eviction --pod-selector=app=held --timeout=2s', 'base'],
  ['kubectl drain node-1 --force --pod-selector=app=data', 'emptydir'],
  ['kubectl drain node-1 --force --delete-emptydir-data --pod-selector=app=data', 'emptydir'],
  ['kubectl drain node-1 --force --pod-selector=app=agent', 'daemonset'],
  ['kubectl drain node-1 --pod-selector=app=agent --ignore-daemonsets', 'daemonset'],
  ['kubectl drain node-1 --pod-selector=app=web,', 'base'],
  ['kubectl drain', 'base'],
  ['kubectl drain nope', 'base'],
  ['kubectl drain node-1 --grace-period=abc', 'base'],
  ['kubectl cordon node-1 --dry-run=server', 'base'],
  ['kubectl uncordon node-1', 'base'],
];

function fixture(variant: Variant): Cluster {
  const cluster = new Cluster();
  cluster.apiserver.ensureSystemNamespaces();
  cluster.addNode('node-1');
  const rs = cluster.apiserver.create(USER, 'replicasets', 'default', {
    metadata: { name: 'frontend' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'frontend' } },
      template: { metadata: { labels: { app: 'frontend' } }, spec: { containers: [{ name: 'app' }] } },
    },
  });
  const pods: Pod[] = [
    podManifest('api'),
    podManifest('web'),
    podManifest('held'),
    podManifest('frontend-1', { app: 'frontend' }),
  ];
  pods[2].metadata.finalizers = ['example.com/hold'];
  if (rs.ok)
    pods[3].metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'frontend',
        uid: rs.object.metadata.uid!,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  if (variant === 'emptydir')
    pods.push({
      ...podManifest('data'),
      spec: { ...podManifest('data').spec!, volumes: [{ name: 'scratch', emptyDir: {} }] },
    });
  if (variant === 'daemonset')
    pods.push({
      ...podManifest('agent'),
      metadata: {
        name: 'agent',
        labels: { app: 'agent' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-uid', controller: true }],
      },
    });
  for (const pod of pods) cluster.apiserver.create(USER, 'pods', 'default', pod);
  cluster.advance(60_000);
  return cluster;
}

const KLOG_HEADER = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.-]+:\d+\] /gm;

/** The requests up to the first pod LIST in order, the rest (per-pod goroutines) as a sorted set without repeats. */
function normalised(requests: KubectlRequest[]): { ordered: KubectlRequest[]; perPod: string[] } {
  const cut = requests.findIndex((r) => r.path === '/api/v1/pods');
  const ordered = cut < 0 ? requests : requests.slice(0, cut + 1);
  const rest = cut < 0 ? [] : requests.slice(cut + 1);
  return { ordered, perPod: [...new Set(rest.map((r) => JSON.stringify(r)))].sort() };
}

const sortedLines = (s: string) => s.replace(/\n$/, '').split('\n').sort();

function outcome(cluster: Cluster): { pods: string[]; unschedulable: boolean } {
  const list = cluster.apiserver.list('pods', 'default');
  const node = cluster.apiserver.get('nodes', undefined, 'node-1');
  return {
    pods: list.ok ? list.object.items.map((p) => p.metadata.name!) : [],
    unschedulable: node.ok && node.object.spec?.unschedulable === true,
  };
}

/**
 * The real kubectl of each release against the built-in one at that release: every line at v1.36
 * (DIFFERENTIAL_KUBECTL_MINOR), and at v1.33 the lines whose filters print an error or a warning,
 * where the no-controller error still had its doubled "cannot delete" (V49).
 */
const MATRIX: [PinnedKubectlMinor, (line: string, variant: Variant) => boolean][] = [
  [DIFFERENTIAL_KUBECTL_MINOR, () => true],
  [
    33,
    (line) => !line.includes('--timeout') && /drain node-1( --force)?( --pod-selector=app=(data|agent))?$/.test(line),
  ],
];

for (const [minor, selected] of MATRIX) {
  describe(`kubectl drain, cordon, uncordon: the built-in kubectl and the real kubectl v1.${minor} do the same (K80–K82)`, {
    concurrency: 3,
  }, () => {
    const sessions: RealKubectlSession[] = [];
    const idle: RealKubectlSession[] = [];
    after(async () => Promise.all(sessions.map((s) => s.close())));

    for (const [line, variant] of LINES.filter(([l, v]) => selected(l, v))) {
      it(`${line} (${variant})`, async () => {
        const builtInCluster = fixture(variant);
        const builtIn = runKubectl(builtInCluster, line, { release: Release.of(minor) });
        const realCluster = fixture(variant);
        const { listener } = createApiHandler(realCluster);
        let session = idle.pop();
        if (session) session.use(realCluster, listener);
        else sessions.push((session = await RealKubectlSession.start(realCluster, listener, minor)));
        const real = await session.run(splitCommandLine(line).slice(1), {
          virtualMs: DEFAULT_WAIT_LIMIT_MS,
          wallMs: 20_000,
          pollingQuietMs: 100,
        });
        idle.push(session);

        expect(real.stopped, 'the real kubectl ran to its end').to.equal(undefined);
        const b = normalised(builtIn.requests);
        const r = normalised(real.requests);
        expect(b.ordered, 'requests up to the pod LIST').to.deep.equal(r.ordered);
        expect(b.perPod, 'the per-pod requests').to.deep.equal(r.perPod);
        expect(sortedLines(builtIn.stdout), 'stdout').to.deep.equal(sortedLines(real.stdout));
        expect(builtIn.stderr, 'stderr').to.equal(real.stderr.replace(KLOG_HEADER, '').replace(/\n$/, ''));
        expect(builtIn.exitCode, 'exit code').to.equal(real.exitCode);
        expect(outcome(builtInCluster), 'pods left and node-1 unschedulable').to.deep.equal(outcome(realCluster));
      });
    }
  });
}

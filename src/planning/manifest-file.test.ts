import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../apimachinery/types';
import { type Cluster, USER } from '../cluster/cluster';
import { ClusterPlan, WARMUP_MS } from './cluster-plan';
import { loadManifestFile, planManifests } from './manifest-file';
import { formatTimeline } from '../foundation/timeline/text';

/** Builds a cluster from manifests (or from plan calls), warmed up like a scenario. */
function build(setup: (plan: ClusterPlan) => void): Cluster {
  const plan = new ClusterPlan();
  setup(plan);
  plan.start();
  plan.cluster.advance(WARMUP_MS);
  return plan.cluster;
}

function pod(cluster: Cluster, name: string): Pod | undefined {
  const r = cluster.apiserver.get('pods', 'default', name);
  return r.ok ? r.object : undefined;
}

/** Deletes a pod, runs the cluster until it settles, and returns the timeline from the delete on. */
function deletion(cluster: Cluster, name: string): string {
  const t0 = cluster.clock.now();
  cluster.apiserver.delete(USER, 'pods', 'default', name, {});
  cluster.settle();
  return formatTimeline(cluster.timeline.since(t0), t0);
}

const load = (text: string) => () => build((plan) => planManifests(text, 'cluster.yaml', plan));

const NODE = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n';

describe('manifest files (serve --manifests)', () => {
  it('the embedded default cluster loads: every pod runs, the replicaset owns its two pods', () => {
    const c = build((plan) => loadManifestFile(`${__dirname}/../frontends/serve/default-cluster.yaml`, plan));
    for (const name of ['web', 'api', 'held', 'data', 'frontend-1', 'frontend-2'])
      expect(pod(c, name)?.status?.phase, name).to.equal('Running');
    const rs = c.apiserver.get('replicasets', 'default', 'frontend');
    expect(rs.ok && pod(c, 'frontend-1')?.metadata.ownerReferences?.[0].uid).to.equal(rs.ok && rs.object.metadata.uid);
    expect(pod(c, 'held')?.metadata.finalizers).to.deep.equal(['example.com/hold']);
  });

  it('annotations give the same timeline as the Given steps (the same plan calls)', () => {
    const manifests = `${NODE}---
apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations:
    terminating.sim/prestop.app: 2s
    terminating.sim/sigterm.app: exit after 5s with code 3
    terminating.sim/unmount.data: 7s
spec:
  nodeName: node-1
  containers: [{ name: app }]
  volumes: [{ name: data, emptyDir: {} }]
`;
    const fromFile = deletion(load(manifests)(), 'web');
    const fromSteps = deletion(
      build((plan) => {
        plan.node('node-1');
        plan.pod('web', 'node-1', { spec: { volumes: [{ name: 'data', emptyDir: {} }] } });
        plan.preStop('app', 'web', 2000);
        plan.containerBehaviour('app', 'web', { sigterm: { kind: 'exits', afterMs: 5000, exitCode: 3 } });
        plan.volumeBehaviour('data', 'web', { unmountMs: 7000, neverUnmounts: false });
      }),
      'web',
    );
    expect(fromFile).to.contain('exited app code=3');
    expect(fromFile.replace(/\s+#\d+\s+/g, ' ')).to.equal(fromSteps.replace(/\s+#\d+\s+/g, ' '));
  });

  it('K71 terminating.sim/memory.CONTAINER sets the working set the eviction manager sees; a bad quantity names the annotation', () => {
    const c = load(`${NODE}---
kind: Pod
metadata:
  name: web
  annotations: { terminating.sim/memory.app: 300Mi }
spec: { nodeName: node-1, containers: [{ name: app }] }
`)();
    const p = pod(c, 'web')!;
    expect(c.node('node-1').podStats(p)).to.deep.equal({
      containers: [{ name: 'app', workingSetBytes: 300 * 2 ** 20 }],
    });
    expect(() =>
      load(`${NODE}---\nkind: Pod\nmetadata:\n  name: x\n  annotations: { terminating.sim/memory.app: lots }\n`)(),
    ).to.throw('annotation terminating.sim/memory.app is "lots"; expected a memory quantity');
  });

  it('ignore, never and an unreachable node', () => {
    const c = load(`apiVersion: v1
kind: Node
metadata:
  name: node-1
  annotations: { terminating.sim/unreachable: "true" }
---
apiVersion: v1
kind: Node
metadata: { name: node-2 }
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations: { terminating.sim/sigterm.app: ignore, terminating.sim/prestop.app: never, terminating.sim/unmount.data: never }
spec: { nodeName: node-2, containers: [{ name: app }], volumes: [{ name: data, emptyDir: {} }] }
`)();
    expect(c.node('node-1').reachable).to.equal(false);
    const uid = pod(c, 'web')!.metadata.uid!;
    expect(c.node('node-2').containerBehaviours.get(`${uid} app`))
      .to.include({ preStopMs: Number.POSITIVE_INFINITY })
      .and.deep.include({ sigterm: { kind: 'ignores' } });
    expect(c.node('node-2').volumeBehaviours.get(`${uid} data`)).to.deep.equal({ unmountMs: 0, neverUnmounts: true });
    expect(pod(c, 'web')?.spec?.containers[0].lifecycle?.preStop?.exec?.command).to.deep.equal(['sleep', 'infinity']);
  });

  it('what a real cluster printed (kubectl get -o yaml, a List) loads: status and server-set metadata dropped, own preStop kept, Deployment owner dropped', () => {
    const c = build((plan) => loadManifestFile(`${__dirname}/../frontends/serve/testdata/kind-cluster.yaml`, plan));
    const p = pod(c, 'nginx-5869d7778c-7xk2p')!;
    expect(p.status?.phase).to.equal('Running');
    expect(p.metadata.uid).to.not.equal('9a3d6f0e-1c2b-4d5e-8f7a-6b5c4d3e2f10');
    expect(p.metadata.managedFields).to.equal(undefined);
    expect(p.spec?.containers[0].lifecycle?.preStop?.exec?.command).to.deep.equal(['/usr/sbin/nginx', '-s', 'quit']);
    const rs = c.apiserver.get('replicasets', 'default', 'nginx-5869d7778c');
    expect(rs.ok && rs.object.metadata.ownerReferences).to.equal(undefined);
    expect(p.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid])).to.deep.equal([
      ['ReplicaSet', 'nginx-5869d7778c', rs.ok && rs.object.metadata.uid],
    ]);
    expect(deletion(c, p.metadata.name!)).to.match(/preStop nginx[\s\S]*SIGTERM nginx[\s\S]*exited nginx code=0/);
  });

  it('a node whose kubelet runs an older release (version skew)', () => {
    const c = load(`kind: Node\nmetadata:\n  name: node-1\n  annotations: { terminating.sim/kubernetes: "1.33" }\n`)();
    expect(c.node('node-1').config.kubelet.release.toString()).to.equal('v1.33');
    expect(c.release.toString()).to.equal('v1.36');
  });

  describe('bad input: one error naming file, document and line', () => {
    const cases: [string, string, string][] = [
      [
        'malformed YAML',
        `${NODE}---\nkind: Pod\nmetadata: [\n`,
        'cluster.yaml: document 2, line 8: malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
      [
        'an unknown kind',
        `${NODE}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: x }\n`,
        'cluster.yaml: document 2, line 7: unknown kind "Deployment": a manifest file holds Nodes, Pods, ReplicaSets and Services (or a List of them)',
      ],
      [
        'a kind in the wrong version',
        'apiVersion: apps/v1\nkind: Pod\nmetadata: { name: x }\n',
        'cluster.yaml: document 1, line 1: no matches for kind "Pod" in version "apps/v1" (expected v1)',
      ],
      [
        'a List item of an unknown kind',
        'kind: List\nitems:\n- kind: Node\n  metadata: { name: n }\n- kind: ConfigMap\n  metadata: { name: s }\n',
        'cluster.yaml: document 1, line 5: unknown kind "ConfigMap"',
      ],
      ['no name', 'kind: Node\nmetadata: {}\n', 'cluster.yaml: document 1, line 2: the Node has no metadata.name'],
      [
        'another namespace',
        'kind: Pod\nmetadata: { name: x, namespace: prod }\n',
        'cluster.yaml: document 1, line 2: Pod "x" is in namespace "prod": the simulated cluster has only namespace "default"',
      ],
      [
        'a node the file lacks',
        'kind: Pod\nmetadata: { name: x }\nspec:\n  nodeName: node-9\n',
        'cluster.yaml: document 1, line 4: Pod "x" runs on node "node-9", which the file does not define',
      ],
      [
        'a replicaset owner the file lacks',
        'kind: Pod\nmetadata:\n  name: x\n  ownerReferences:\n  - { kind: ReplicaSet, name: rs-1, uid: u }\n',
        'cluster.yaml: document 1, line 5: Pod "x" is owned by ReplicaSet "rs-1", which the file does not define',
      ],
      [
        'an unknown annotation',
        `${NODE}---\nkind: Pod\nmetadata:\n  name: x\n  annotations:\n    terminating.sim/sigkill.app: ignore\n`,
        'cluster.yaml: document 2, line 10: Pod "x": unknown annotation "terminating.sim/sigkill.app" (a Pod takes terminating.sim/sigterm.CONTAINER, terminating.sim/prestop.CONTAINER, terminating.sim/unmount.VOLUME, terminating.sim/memory.CONTAINER)',
      ],
      [
        'a bad sigterm value',
        'kind: Pod\nmetadata:\n  name: x\n  annotations:\n    terminating.sim/sigterm.app: exit later\n',
        'cluster.yaml: document 1, line 5: Pod "x": annotation terminating.sim/sigterm.app is "exit later"; expected `ignore`, `exit after DURATION` or `exit after DURATION with code N`',
      ],
      [
        'a bad duration',
        'kind: Pod\nmetadata:\n  name: x\n  annotations:\n    terminating.sim/prestop.app: 10\n',
        'cluster.yaml: document 1, line 5: Pod "x": annotation terminating.sim/prestop.app is 10; expected a DURATION (e.g. 10s) or `never`',
      ],
      [
        'a container the pod lacks',
        'kind: Pod\nmetadata:\n  name: x\n  annotations:\n    terminating.sim/sigterm.db: ignore\n',
        'cluster.yaml: document 1, line 5: Pod "x": pod "x" has no container "db" (its containers: "app")',
      ],
      [
        'a volume the pod lacks',
        'kind: Pod\nmetadata:\n  name: x\n  annotations:\n    terminating.sim/unmount.data: 5s\n',
        'cluster.yaml: document 1, line 5: Pod "x": pod "x" has no volume "data"',
      ],
      [
        'a bad unreachable value',
        'kind: Node\nmetadata:\n  name: n\n  annotations: { terminating.sim/unreachable: "yes" }\n',
        'cluster.yaml: document 1, line 4: Node "n": annotation terminating.sim/unreachable is "yes"; expected `true` or `false`',
      ],
      [
        'a kubelet release that is not one',
        'kind: Node\nmetadata:\n  name: n\n  annotations:\n    terminating.sim/kubernetes: "2.0"\n',
        'cluster.yaml: document 1, line 5: Node "n": annotation terminating.sim/kubernetes: "2.0" is not a Kubernetes release',
      ],
      [
        'a pod declared twice',
        'kind: Pod\nmetadata: { name: x }\n---\nkind: Pod\nmetadata:\n  name: x\n',
        'cluster.yaml: document 2, line 4: Pod "x": pod "x" is declared twice',
      ],
      [
        'a wrongly typed field',
        'kind: Pod\nmetadata: { name: x }\nspec:\n  terminationGracePeriodSeconds: soon\n',
        'cluster.yaml: document 1, line 4: Pod "x": field spec.terminationGracePeriodSeconds of pod "x" must be an integer, got "soon"',
      ],
      // R240: a --manifests file decodes strictly, as kubectl apply would have it decoded.
      [
        'a misspelt field',
        'kind: Pod\nmetadata: { name: x }\nspec:\n  terminationGracePeriodSecond: 10\n',
        'cluster.yaml: document 1, line 4: Pod "x": pod "x" is refused as kube-apiserver refuses it: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.terminationGracePeriodSecond"',
      ],
    ];
    for (const [what, text, message] of cases) {
      it(what, () => {
        expect(load(text)).to.throw(message);
      });
    }

    it('a file that cannot be read', () => {
      expect(() => build((plan) => loadManifestFile('/nonexistent/cluster.yaml', plan))).to.throw(
        /^cannot read \/nonexistent\/cluster.yaml: ENOENT/,
      );
    });
  });
});

// A controller test's cluster with terminating's harness and the official JavaScript client:
//   node --test examples/harness/pod-deletion.test.mjs
// The cluster's clock stands still until the test moves it, so each step sees exactly what
// Kubernetes would show at that virtual time, however loaded the machine is.
import { strict as assert } from 'node:assert';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startCluster } from 'terminating';

let cluster;
let core;

before(async () => {
  cluster = await startCluster({ nodes: ['node-1'] });
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  core = kc.makeApiClient(k8s.CoreV1Api);
});

after(async () => {
  cluster.report('reports/harness'); // the session's sequence diagram: reports/harness/index.html
  await cluster.stop();
});

test('a pod that ignores SIGTERM keeps its name for the whole grace period', async () => {
  await core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name: 'worker', annotations: { 'terminating.sim/sigterm.app': 'ignore' } },
      spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'app', image: 'busybox' }] },
    },
  });
  await cluster.advance('5s'); // scheduled, started, Running
  assert.equal((await core.readNamespacedPod({ name: 'worker', namespace: 'default' })).status.phase, 'Running');

  const deletedAt = cluster.now();
  await core.deleteNamespacedPod({ name: 'worker', namespace: 'default' });
  const stamped = await core.readNamespacedPod({ name: 'worker', namespace: 'default' });
  assert.equal(stamped.metadata.deletionGracePeriodSeconds, 30);

  await cluster.advance('29s'); // SIGTERM was ignored: still there
  await core.readNamespacedPod({ name: 'worker', namespace: 'default' });

  await cluster.advance('2s'); // SIGKILL at 30s, then the kubelet's final DELETE
  await assert.rejects(core.readNamespacedPod({ name: 'worker', namespace: 'default' }), (e) => e.code === 404);
  assert.equal(cluster.now() - deletedAt, 31_000);
});

test('settle() runs the cluster until nothing is left to do', async () => {
  const result = await cluster.settle();
  assert.deepEqual(result, { settled: true, blockers: [] });
});

/**
 * An operator against real termination (A4, A5, A7): examples/database-operator.mjs, written with
 * @kubernetes/client-node 1.4, installs its CustomResourceDefinition in a cluster served in jump
 * mode, runs the pods each Database asks for (owned by it), and holds the Database with its
 * finalizer until those pods have terminated gracefully once it is deleted.
 */
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { serve, type ServedCluster } from '../src/frontends/serve/serve';

/** Wall-clock bound on any one wait of this test. */
const WAIT_MS = 30_000;
/** Between two looks: longer than the jump clock's quiet period (50 ms), which every request restarts. */
const POLL_MS = 200;

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${WAIT_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

describe('A5 an operator written with @kubernetes/client-node 1.4: a CRD, a finalizer on its custom resource, pods it owns', () => {
  let dir: string;
  let served: ServedCluster;
  let stop: (() => void) | undefined;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'terminating-operator-'));
    writeFileSync(path.join(dir, 'cluster.yaml'), 'apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n');
    served = await serve({
      port: 0,
      manifests: path.join(dir, 'cluster.yaml'),
      clock: { kind: 'jump', quietMs: 50 },
      reportDir: dir,
    });
  });
  after(async () => {
    stop?.();
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the pods of a Database, and lets it go only after they terminated', async () => {
    const k8s = await import('@kubernetes/client-node');
    const kubeConfig = new k8s.KubeConfig();
    kubeConfig.loadFromFile(served.kubeconfig);
    const log: string[] = [];
    const operator = (await import(path.join(__dirname, 'database-operator.mjs'))) as {
      runOperator: (o: object) => Promise<{ stop: () => void }>;
      FINALIZER: string;
    };
    ({ stop } = await operator.runOperator({ kubeConfig, log: (line: string) => log.push(line) }));

    const custom = kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const core = kubeConfig.makeApiClient(k8s.CoreV1Api);
    const where = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'databases' };
    await custom.createNamespacedCustomObject({
      ...where,
      body: { apiVersion: 'example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { replicas: 2 } },
    });
    const running = async () =>
      (await core.listNamespacedPod({ namespace: 'default' })).items.filter((p) => p.status?.phase === 'Running')
        .length === 2;
    await until('both pods of databases/orders to run', running);
    const db = (await custom.getNamespacedCustomObject({ ...where, name: 'orders' })) as {
      metadata: { uid: string; finalizers?: string[] };
      status?: { phase?: string };
    };
    expect(db.metadata.finalizers).to.deep.equal([operator.FINALIZER]);
    await until(
      'the operator to write the status',
      async () =>
        ((await custom.getNamespacedCustomObject({ ...where, name: 'orders' })) as { status?: { phase?: string } })
          .status?.phase === 'Running',
    );
    const pod = await core.readNamespacedPod({ name: 'orders-0', namespace: 'default' });
    expect(pod.metadata?.ownerReferences).to.deep.equal([
      {
        apiVersion: 'example.com/v1',
        kind: 'Database',
        name: 'orders',
        uid: db.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);

    const deleted = (await custom.deleteNamespacedCustomObject({ ...where, name: 'orders' })) as {
      metadata?: { deletionTimestamp?: string };
    };
    expect(deleted.metadata?.deletionTimestamp, 'held by the finalizer, the DELETE answers the stamped object').to.be.a(
      'string',
    );
    const gone = async () => {
      try {
        await custom.getNamespacedCustomObject({ ...where, name: 'orders' });
        return false;
      } catch (e) {
        return (e as { code?: number }).code === 404;
      }
    };
    await until('databases/orders to go', gone);

    const texts = served.cluster.timeline.all().map((e) => `${e.component} ${e.text}`);
    const at = (prefix: string) => texts.findIndex((t) => t.startsWith(prefix));
    expect(
      at('status DELETE pods/orders-0'),
      'the kubelet ends pod orders-0 after its graceful termination',
    ).to.be.above(-1);
    expect(at('status DELETE pods/orders-1')).to.be.above(-1);
    const released = at('etcd DELETE /registry/example.com/databases/default/orders');
    expect(released, 'the Database leaves storage after both pods').to.be.above(
      Math.max(at('status DELETE pods/orders-0'), at('status DELETE pods/orders-1')),
    );
    expect(log).to.include.members([
      'created pods/orders-0 for databases/orders',
      'created pods/orders-1 for databases/orders',
      'removing finalizer example.com/database-pods from databases/orders: its pods are gone',
    ]);
  });
});

// A small operator written with @kubernetes/client-node: it installs a CustomResourceDefinition
// (Database, example.com/v1), and for every Database runs `spec.replicas` pods it owns (an
// ownerReference with controller and blockOwnerDeletion), keeping its finalizer on the Database
// until those pods have terminated — the shape of an operator that must shut its workload down
// before its custom resource may go. It prints what it does, one line each:
//   created pods/orders-0 for databases/orders
//
//   npx terminating serve --clock jump            # in one terminal
//   export KUBECONFIG=reports/serve/kubeconfig    # in another
//   node examples/database-operator.mjs           # Ctrl-C to stop
//   kubectl apply -f - <<< '{"apiVersion":"example.com/v1","kind":"Database","metadata":{"name":"orders"},"spec":{"replicas":2}}'
//   kubectl delete database orders                # waits for its pods' graceful termination
import * as k8s from '@kubernetes/client-node';

export const FINALIZER = 'example.com/database-pods';
const GROUP = 'example.com';
const VERSION = 'v1';
const PLURAL = 'databases';
const LABEL = 'example.com/database';

export const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'database', kind: 'Database', shortNames: ['db'] },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the CRD unless it exists, then waits until the apiserver says it is Established. */
async function installCRD(kubeConfig) {
  const api = kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  try {
    await api.createCustomResourceDefinition({ body: CRD });
  } catch (e) {
    if (e.code !== 409) throw e;
  }
  for (;;) {
    const crd = await api.readCustomResourceDefinition({ name: CRD.metadata.name });
    if ((crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True')) return;
    await sleep(50);
  }
}

function ignoreGone(e) {
  if (e.code !== 404 && e.code !== 409 && e.code !== 422) throw e;
}

/** The pods a Database should have: NAME-0 … NAME-(replicas−1), each owned by it. */
function podFor(db, i) {
  const m = db.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${m.name}-${i}`,
      namespace: m.namespace,
      labels: { [LABEL]: m.name },
      ownerReferences: [
        {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'Database',
          name: m.name,
          uid: m.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { containers: [{ name: 'db', image: 'postgres' }] },
  };
}

/**
 * One pass over a Database: its finalizer on, its pods created and its status written while it
 * lives; once it is deleting, its pods deleted, and the finalizer off once none is left.
 */
async function reconcile(clients, db, log) {
  const { core, custom } = clients;
  const m = db.metadata;
  const finalizers = m.finalizers ?? [];
  const where = { group: GROUP, version: VERSION, namespace: m.namespace, plural: PLURAL, name: m.name };
  const pods = (await core.listNamespacedPod({ namespace: m.namespace, labelSelector: `${LABEL}=${m.name}` })).items;
  if (m.deletionTimestamp) {
    if (!finalizers.includes(FINALIZER)) return;
    const left = pods.filter((p) => !p.metadata.deletionTimestamp);
    for (const p of left) {
      log(`deleting pods/${p.metadata.name} of databases/${m.name}`);
      await core.deleteNamespacedPod({ name: p.metadata.name, namespace: m.namespace }).catch(ignoreGone);
    }
    if (pods.length > 0) return; // the pods' DELETED events bring the Database back here
    log(`removing finalizer ${FINALIZER} from databases/${m.name}: its pods are gone`);
    const body = [
      { op: 'test', path: '/metadata/resourceVersion', value: m.resourceVersion },
      { op: 'replace', path: '/metadata/finalizers', value: finalizers.filter((f) => f !== FINALIZER) },
    ];
    await custom.patchNamespacedCustomObject({ ...where, body }).catch(ignoreGone);
    return;
  }
  if (!finalizers.includes(FINALIZER)) {
    const body = [
      { op: 'test', path: '/metadata/resourceVersion', value: m.resourceVersion },
      { op: 'add', path: '/metadata/finalizers', value: [...finalizers, FINALIZER] },
    ];
    await custom.patchNamespacedCustomObject({ ...where, body }).catch(ignoreGone);
    return; // the MODIFIED event of the patch brings it back
  }
  const names = new Set(pods.map((p) => p.metadata.name));
  for (let i = 0; i < (db.spec?.replicas ?? 1); i++) {
    const pod = podFor(db, i);
    if (names.has(pod.metadata.name)) continue;
    await core.createNamespacedPod({ namespace: m.namespace, body: pod }).catch(ignoreGone);
    log(`created pods/${pod.metadata.name} for databases/${m.name}`);
  }
  if (db.status?.phase !== 'Running') {
    await custom
      .patchNamespacedCustomObjectStatus({
        ...where,
        body: [{ op: 'add', path: '/status', value: { phase: 'Running' } }],
      })
      .catch(ignoreGone);
  }
}

/**
 * Installs the CRD, then watches Databases and their pods in `namespace`: every change of a
 * Database, and of a pod it owns, reconciles that Database (one at a time, as a work queue would).
 * Resolves once both watches are open, with a function that stops them.
 */
export async function runOperator({ kubeConfig, namespace = 'default', log = () => {} }) {
  await installCRD(kubeConfig);
  const clients = {
    core: kubeConfig.makeApiClient(k8s.CoreV1Api),
    custom: kubeConfig.makeApiClient(k8s.CustomObjectsApi),
  };
  let queue = Promise.resolve();
  const enqueue = (name) => {
    queue = queue.then(async () => {
      try {
        const db = await clients.custom.getNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          namespace,
          plural: PLURAL,
          name,
        });
        await reconcile(clients, db, log);
      } catch (e) {
        if (e.code !== 404) log(`reconcile databases/${name} failed: ${e.message ?? e}`);
      }
    });
  };
  const list = await clients.custom.listNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace,
    plural: PLURAL,
  });
  for (const db of list.items) enqueue(db.metadata.name);
  const watch = new k8s.Watch(kubeConfig);
  const done = (err) => {
    if (err && err.name !== 'AbortError') log(`watch ended: ${err.message ?? err}`);
  };
  const dbs = await watch.watch(
    `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}`,
    { resourceVersion: list.metadata.resourceVersion },
    (type, db) => {
      if (type !== 'DELETED') enqueue(db.metadata.name);
    },
    done,
  );
  const pods = await watch.watch(
    `/api/v1/namespaces/${namespace}/pods`,
    { labelSelector: LABEL },
    (type, pod) => {
      const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.kind === 'Database' && r.controller);
      if (owner) enqueue(owner.name);
    },
    done,
  );
  return {
    stop: () => {
      dbs.abort();
      pods.abort();
    },
  };
}

async function main() {
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromDefault();
  const { stop } = await runOperator({ kubeConfig, log: (line) => console.log(line) });
  console.log(`watching databases.${GROUP}; finalizer ${FINALIZER}`);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// Run as a program (not when a test imports it; no top-level await, so that it can be required).
if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

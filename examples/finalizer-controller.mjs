// A small controller written with @kubernetes/client-node: it puts its finalizer on every pod and
// takes it off again once the pod is terminating (deletionTimestamp set) — the shape of any
// controller that must clean something up before a pod may go. It prints each watch event it
// sees, one line each:  MODIFIED pods/web rv=21 terminating finalizers=example.com/cleanup
//
//   npx terminating serve --clock jump          # in one terminal
//   export KUBECONFIG=reports/serve/kubeconfig  # in another
//   node examples/finalizer-controller.mjs      # Ctrl-C to stop
import * as k8s from '@kubernetes/client-node';

export const FINALIZER = 'example.com/cleanup';

/** One watch event as this controller saw it. */
function describe(type, pod) {
  const m = pod.metadata;
  const state = m.deletionTimestamp ? 'terminating' : (pod.status?.phase ?? 'Pending');
  return `${type} pods/${m.name} rv=${m.resourceVersion} ${state} finalizers=${(m.finalizers ?? []).join(',')}`;
}

/** Adds or removes the finalizer with a JSON Patch (client-node's default patch type). */
async function reconcile(api, pod) {
  const m = pod.metadata;
  const finalizers = m.finalizers ?? [];
  const ours = finalizers.includes(FINALIZER);
  let wanted;
  if (!m.deletionTimestamp && !ours) wanted = [...finalizers, FINALIZER];
  else if (m.deletionTimestamp && ours) wanted = finalizers.filter((f) => f !== FINALIZER);
  else return;
  // `test` the resourceVersion: if the pod changed meanwhile the patch fails (422) and the
  // watch event of that change brings the pod back here.
  const body = [
    { op: 'test', path: '/metadata/resourceVersion', value: m.resourceVersion },
    { op: 'add', path: '/metadata/finalizers', value: wanted },
  ];
  try {
    await api.patchNamespacedPod({ name: m.name, namespace: m.namespace, body });
  } catch (e) {
    if (e.code !== 422 && e.code !== 409 && e.code !== 404) throw e;
  }
}

/**
 * Lists the pods of `namespace`, reconciles each, then watches from the list's resourceVersion and
 * reconciles every change; `seen` gets each watch event. Resolves once the watch is open, with
 * the list's resourceVersion and a function that stops the watch.
 */
export async function runController({ kubeConfig, namespace = 'default', seen = () => {} }) {
  const api = kubeConfig.makeApiClient(k8s.CoreV1Api);
  const list = await api.listNamespacedPod({ namespace });
  for (const pod of list.items) await reconcile(api, pod);
  // Events are handled one at a time, in order, as a work queue would.
  let queue = Promise.resolve();
  const request = await new k8s.Watch(kubeConfig).watch(
    `/api/v1/namespaces/${namespace}/pods`,
    { resourceVersion: list.metadata.resourceVersion },
    (type, pod) => {
      seen(type, pod);
      if (type !== 'DELETED') queue = queue.then(() => reconcile(api, pod));
    },
    (err) => {
      if (err && err.name !== 'AbortError') console.error(`watch ended: ${err.message ?? err}`);
    },
  );
  return { resourceVersion: list.metadata.resourceVersion, stop: () => request.abort() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromDefault();
  const { resourceVersion, stop } = await runController({
    kubeConfig,
    seen: (type, pod) => console.log(describe(type, pod)),
  });
  console.log(`watching pods from resourceVersion ${resourceVersion}; finalizer ${FINALIZER}`);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

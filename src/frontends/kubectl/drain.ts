import type { ApiResponse } from '../../apiserver/apiserver';
import type { DeleteOptions, Node, Pod } from '../../apimachinery/types';
import type { Cluster } from '../../cluster/cluster';
import type { Release } from '../../foundation/release';
import { KUBECTL } from '../../cluster/cluster';
import type { KubectlDrainCommand } from './drain-command';
import { goDuration } from '../../components/kubelet/backoff';
import { DEFAULT_WAIT_LIMIT_MS, encodeQuery, type KubectlRequest, type KubectlResult } from './kubectl';

const HELPER = 'staging/src/k8s.io/kubectl/pkg/drain/drain.go';

/** filters.go: the messages of the pod filters (K80). */
export const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
export const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
export const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
export const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
/**
 * V49 — unmanagedFatal by kubectl release; errors() prefixes each with "cannot delete", so v1.30–v1.35
 * print it twice ("cannot delete cannot delete Pods that declare no controller …").
 */
export function unmanagedFatal(release: Release): string {
  if (release.has('KubectlDrainUnmanagedSingleCannotDelete'))
    return 'Pods that declare no controller (use --force to override)';
  if (release.has('KubectlDrainUnmanagedReworded'))
    return 'cannot delete Pods that declare no controller (use --force to override)';
  return 'Pods declare no controller (use --force to override)';
}
export const UNMANAGED_WARNING = 'deleting Pods that declare no controller';
/** drain.go: how long a goroutine sleeps after a 429 (or a terminating namespace) before it evicts again. */
export const EVICTION_RETRY_MS = 5000;
/** waitForDelete polls each pod every second. */
export const POLL_INTERVAL_MS = 1000;

/** A pod filter's verdict (PodDeleteStatus). */
export interface PodDeleteStatus {
  delete: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

const okay: PodDeleteStatus = { delete: true, reason: 'Okay' };
const skip: PodDeleteStatus = { delete: false, reason: 'Skip' };
const warning = (del: boolean, message: string): PodDeleteStatus => ({ delete: del, reason: 'Warning', message });
const error = (message: string): PodDeleteStatus => ({ delete: false, reason: 'Error', message });

const terminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const controllerOf = (pod: Pod) => pod.metadata.ownerReferences?.find((r) => r.controller === true);

type PodFilter = (pod: Pod) => PodDeleteStatus;

/**
 * Helper.makeFilters (filters.go, K80), in order: skipDeleted (--skip-wait-for-delete-timeout: a
 * deletionTimestamp older than that), daemonSet (a pod whose controller is a DaemonSet that
 * exists: an error, or with --ignore-daemonsets a warning and no deletion; a missing DaemonSet is a
 * warning with --force), mirrorPod (skipped), localStorage (an emptyDir volume: an error unless
 * --delete-emptydir-data), unreplicated (no controller: an error unless --force). Terminal pods
 * pass the last three. Each filter runs while the ones before let the pod be deleted; the last
 * that ran gives the verdict (so a pod both with local storage and without a controller, with both
 * flags, shows only the second warning).
 */
export function filterPod(
  pod: Pod,
  cmd: KubectlDrainCommand,
  now: number,
  daemonSetError: (namespace: string, name: string) => { message: string; notFound: boolean } | undefined,
  release: Release,
): PodDeleteStatus {
  const controller = controllerOf(pod);
  const filters: PodFilter[] = [
    (p) => {
      const deletedAt = p.metadata.deletionTimestamp;
      // shouldSkipPod compares with kubectl's own clock (time.Now); here the cluster's virtual clock.
      return cmd.skipWaitForDeleteTimeoutSeconds > 0 &&
        deletedAt &&
        Math.floor((now - Date.parse(deletedAt)) / 1000) > cmd.skipWaitForDeleteTimeoutSeconds
        ? skip
        : okay;
    },
    (p) => {
      if (controller?.kind !== 'DaemonSet' || terminal(p)) return okay;
      const err = daemonSetError(p.metadata.namespace ?? 'default', controller.name);
      if (err !== undefined) return err.notFound && cmd.force ? warning(true, err.message) : error(err.message);
      return cmd.ignoreDaemonSets ? warning(false, DAEMONSET_WARNING) : error(DAEMONSET_FATAL);
    },
    (p) => (p.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined ? skip : okay),
    (p) => {
      if (!(p.spec?.volumes ?? []).some((v) => v.emptyDir) || terminal(p)) return okay;
      return cmd.deleteEmptyDirData ? warning(true, LOCAL_STORAGE_WARNING) : error(LOCAL_STORAGE_FATAL);
    },
    (p) => {
      if (terminal(p) || controller) return okay;
      return cmd.force ? warning(true, UNMANAGED_WARNING) : error(unmanagedFatal(release));
    },
  ];
  let status = okay;
  for (const filter of filters) {
    status = filter(pod);
    if (!status.delete) break;
  }
  return status;
}

/**
 * An error as kubectl's code passes it on: a plain one, or a utilerrors aggregate (whose Error()
 * is its one error, or several in brackets). cmdutil.CheckErr prints a plain error with "error: ",
 * an aggregate as its errors, one per line, without.
 */
interface DrainError {
  text: string;
  aggregated?: string[];
}

function aggregate(errors: readonly string[]): DrainError {
  return { text: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`, aggregated: [...errors] };
}

/** What cmdutil.CheckErr prints for the error RunDrain returns (an aggregate of the nodes' errors). */
function checkErr(fatal: readonly DrainError[]): string[] {
  if (fatal.length > 1) return fatal.map((e) => e.text);
  const [only] = fatal as [DrainError];
  return only.aggregated ?? [only.text.startsWith('error: ') ? only.text : `error: ${only.text}`];
}

/** DeleteOptions as client-go's typed client sends them in protobuf (runtime.Unknown around the message), as the text a server sees. */
export function deleteOptionsProtobuf(options: { gracePeriodSeconds?: number; dryRun?: string[] }): string {
  const varint = (n: number): number[] => {
    const out: number[] = [];
    let v = BigInt.asUintN(64, BigInt(n));
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    return out;
  };
  const bytes = (field: number, data: number[]): number[] => [(field << 3) | 2, ...varint(data.length), ...data];
  const text = (field: number, value: string): number[] => bytes(field, [...Buffer.from(value, 'utf8')]);
  const raw: number[] = [];
  if (options.gracePeriodSeconds !== undefined) raw.push(1 << 3, ...varint(options.gracePeriodSeconds));
  for (const d of options.dryRun ?? []) raw.push(...text(5, d));
  const typeMeta = [...text(1, 'v1'), ...text(2, 'DeleteOptions')];
  const unknown = [...bytes(1, typeMeta), ...bytes(2, raw), ...bytes(3, []), ...bytes(4, [])];
  return Buffer.from([0x6b, 0x38, 0x73, 0x00, ...unknown]).toString('utf8');
}

/**
 * kubectl's clientset against the simulated apiserver: each call is recorded as the HTTP request
 * client-go sends (the typed clients: an Eviction in JSON, a pod DELETE in protobuf, the node
 * PATCH as a strategic merge patch), then served; the instant's zero-delay reactions run before
 * kubectl's next request, as over HTTP.
 */
class DrainClient {
  readonly requests: KubectlRequest[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly release: Release,
  ) {}

  private send<T>(request: KubectlRequest, serve: () => T): T {
    this.requests.push(request);
    const response = serve();
    this.cluster.flush();
    return response;
  }

  getNode(name: string): ApiResponse<Node> {
    return this.send({ method: 'GET', path: `/api/v1/nodes/${name}`, query: '' }, () =>
      this.cluster.apiserver.get('nodes', undefined, name),
    );
  }

  listNodes(selector: string, limit: number) {
    const query = { labelSelector: selector, limit: String(limit) };
    return this.send({ method: 'GET', path: '/api/v1/nodes', query: encodeQuery(query) }, () =>
      this.cluster.apiserver.listPage('nodes', undefined, query),
    );
  }

  /** CordonHelper.PatchOrReplace: the two-way merge patch of spec.unschedulable (false is omitted, so it is nulled). */
  patchNode(name: string, unschedulable: boolean, dryRun: boolean): ApiResponse<Node> {
    const patch = { spec: { unschedulable: unschedulable ? true : null } };
    const request: KubectlRequest = {
      method: 'PATCH',
      path: `/api/v1/nodes/${name}`,
      query: dryRun ? 'dryRun=All' : '',
      body: JSON.stringify(patch),
    };
    return this.send(request, () =>
      this.cluster.apiserver.patch(KUBECTL, 'nodes', undefined, name, 'strategic', patch, { dryRun }),
    );
  }

  listPods(query: Record<string, string>) {
    return this.send({ method: 'GET', path: '/api/v1/pods', query: encodeQuery(query) }, () =>
      this.cluster.apiserver.listPage('pods', undefined, query),
    );
  }

  /** AppsV1().DaemonSets(ns).Get: the pod's controller, or why it cannot be read. */
  getDaemonSet(namespace: string, name: string): { message: string; notFound: boolean } | undefined {
    const path = `/apis/apps/v1/namespaces/${namespace}/daemonsets/${name}`;
    return this.send({ method: 'GET', path, query: '' }, () => {
      const r = this.cluster.apiserver.get('daemonsets', namespace, name);
      return r.ok ? undefined : { message: r.status.message, notFound: r.code === 404 };
    });
  }

  getPod(namespace: string, name: string): ApiResponse<Pod> {
    return this.send({ method: 'GET', path: `/api/v1/namespaces/${namespace}/pods/${name}`, query: '' }, () =>
      this.cluster.apiserver.get('pods', namespace, name),
    );
  }

  /** PolicyV1().Evictions(ns).Evict: POST pods/NAME/eviction with a policy/v1 Eviction in JSON. */
  evict(pod: Pod, deleteOptions: DeleteOptions) {
    const { name, namespace = 'default' } = pod.metadata;
    // ObjectMeta's zero creationTimestamp: encoding/json wrote it as null up to v1.33; from v1.34
    // the field is `omitzero` and left out (apimachinery meta/v1 types.go, kubernetes#130989).
    const metadata = this.release.has('OmitNullCreationTimestamp')
      ? { name, namespace }
      : { name, namespace, creationTimestamp: null };
    const eviction = { kind: 'Eviction', apiVersion: 'policy/v1', metadata, deleteOptions };
    const request: KubectlRequest = {
      method: 'POST',
      path: `/api/v1/namespaces/${namespace}/pods/${name}/eviction`,
      query: '',
      body: `${JSON.stringify(eviction)}\n`,
    };
    return this.send(request, () =>
      this.cluster.apiserver.evict(KUBECTL, namespace, name!, { ...eviction, metadata: { name, namespace } }),
    );
  }

  /** CoreV1().Pods(ns).Delete with DeleteOptions in protobuf. */
  deletePod(pod: Pod, deleteOptions: DeleteOptions) {
    const { name, namespace = 'default' } = pod.metadata;
    const body = deleteOptionsProtobuf({
      gracePeriodSeconds: deleteOptions.gracePeriodSeconds ?? undefined,
      dryRun: deleteOptions.dryRun ?? undefined,
    });
    return this.send({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}/pods/${name}`, query: '', body }, () =>
      this.cluster.apiserver.delete(KUBECTL, 'pods', namespace, name!, deleteOptions),
    );
  }
}

/** The NamespaceTerminating cause of a 403 (corev1.NamespaceTerminatingCause; a StatusCause's type is its JSON `reason`). */
function namespaceTerminating(r: ApiResponse<unknown>): boolean {
  return !r.ok && r.code === 403 && (r.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

/**
 * `kubectl drain|cordon|uncordon` as kubectl runs it (K80–K82; by release: V49, V74), on the virtual clock:
 * Complete GETs the nodes (or LISTs them with --selector); RunCordonOrUncordon PATCHes
 * spec.unschedulable; for drain, GetPodsForDeletion LISTs the node's pods in every namespace and
 * filters them (K80), then each pod is evicted — retried every 5 s after a 429 — or with
 * --disable-eviction deleted, and polled with a GET every second until it is gone (K81). The
 * goroutines upstream runs per pod run here one after the other at each instant, in list order.
 */
export function runDrain(
  cluster: Cluster,
  cmd: KubectlDrainCommand,
  release: Release = cluster.release,
): KubectlResult {
  const client = new DrainClient(cluster, release);
  const stdout: string[] = [];
  const stderr = [...cmd.warnings];
  const end = (exitCode: number, blockers?: string[]): KubectlResult => ({
    exitCode,
    stdout: stdout.join('\n'),
    stderr: stderr.join('\n'),
    requests: client.requests,
    ...(blockers && { blockers }),
  });
  const suffix = cmd.dryRun === 'client' ? ' (dry run)' : cmd.dryRun === 'server' ? ' (server dry run)' : '';

  // Complete: the builder's visit of the nodes.
  const nodes: Node[] = [];
  if (cmd.selector !== undefined) {
    const list = client.listNodes(cmd.selector, cmd.chunkSize);
    if (!list.ok) return (stderr.push(`Error from server (${list.status.reason}): ${list.status.message}`), end(1));
    nodes.push(...list.object.items);
  } else {
    for (const name of cmd.nodes) {
      const got = client.getNode(name);
      if (!got.ok) return (stderr.push(`Error from server (${got.status.reason}): ${got.status.message}`), end(1));
      nodes.push(got.object);
    }
  }

  // RunCordonOrUncordon: drain cordons first.
  const desired = cmd.verb !== 'uncordon';
  const done = desired ? 'cordoned' : 'uncordoned';
  for (const node of nodes) {
    const name = node.metadata.name!;
    if ((node.spec?.unschedulable ?? false) === desired) {
      stdout.push(`node/${name} already ${done}`);
      continue;
    }
    if (cmd.dryRun !== 'client') {
      const r = client.patchNode(name, desired, cmd.dryRun === 'server');
      if (!r.ok) {
        stderr.push(`error: unable to ${desired ? 'cordon' : 'uncordon'} node "${name}": ${r.status.message}`);
        continue;
      }
    }
    stdout.push(`node/${name} ${done}${suffix}`);
  }
  if (cmd.verb !== 'drain') return end(0);

  // RunDrain: each node in turn.
  const fatal: DrainError[] = [];
  const remaining: string[] = [];
  for (const node of nodes) {
    const name = node.metadata.name!;
    const outcome = deleteOrEvictPodsSimple(cluster, client, cmd, name, stdout, stderr, release);
    if (outcome.blockers) return end(1, outcome.blockers);
    if (outcome.error === undefined) {
      stdout.push(`node/${name} drained${suffix}`);
      continue;
    }
    stderr.push(`error: unable to drain node "${name}" due to error: ${outcome.error.text}, continuing command...`);
    fatal.push(outcome.error);
    remaining.push(name);
  }
  if (remaining.length > 0) stderr.push('There are pending nodes to be drained:', ...remaining.map((n) => ` ${n}`));
  // cmdutil.CheckErr of the aggregate: each error on a line of its own.
  if (fatal.length > 0) return (stderr.push(...checkErr(fatal)), end(1));
  return end(0);
}

/** Helper.GetPodsForDeletion: the node's pods (all pages), each with its filter verdict, and the errors. */
function getPodsForDeletion(
  cluster: Cluster,
  client: DrainClient,
  cmd: KubectlDrainCommand,
  node: string,
  release: Release,
): { pods: Pod[]; warnings: string; errors: string[] } {
  const items: Pod[] = [];
  let next: string | undefined;
  do {
    const query: Record<string, string> = { fieldSelector: `spec.nodeName=${node}` };
    if (cmd.podSelector !== '') query.labelSelector = cmd.podSelector;
    if (cmd.chunkSize > 0) query.limit = String(cmd.chunkSize);
    if (next) query.continue = next;
    const list = client.listPods(query);
    if (!list.ok) return { pods: [], warnings: '', errors: [list.status.message] };
    items.push(...list.object.items);
    next = list.object.continue || undefined;
  } while (next);
  const verdicts = items.map((pod) => ({
    pod,
    status: filterPod(pod, cmd, cluster.clock.now(), (ns, name) => client.getDaemonSet(ns, name), release),
  }));
  // Warnings and errors grouped by message (upstream walks a map: any order; here the first seen first).
  const group = (reason: PodDeleteStatus['reason']) => {
    const byMessage = new Map<string, string[]>();
    for (const { pod, status } of verdicts) {
      if (status.reason !== reason) continue;
      const key = status.message || 'unexpected error';
      byMessage.set(key, [...(byMessage.get(key) ?? []), `${pod.metadata.namespace}/${pod.metadata.name}`]);
    }
    return [...byMessage];
  };
  const warnings = group('Warning')
    .map(([m, pods]) => `${m}: ${pods.join(', ')}`)
    .join('; ');
  const errors = group('Error').map(([m, pods]) => `cannot delete ${m}: ${pods.join(', ')}`);
  return { pods: verdicts.filter((v) => v.status.delete).map((v) => v.pod), warnings, errors };
}

/** deleteOrEvictPodsSimple: filter, warn, then evict or delete and wait; on an error, what is left. */
function deleteOrEvictPodsSimple(
  cluster: Cluster,
  client: DrainClient,
  cmd: KubectlDrainCommand,
  node: string,
  stdout: string[],
  stderr: string[],
  release: Release,
): { error?: DrainError; blockers?: string[] } {
  const list = getPodsForDeletion(cluster, client, cmd, node, release);
  if (list.errors.length > 0) return { error: aggregate(list.errors) };
  if (list.warnings !== '') stderr.push(`Warning: ${list.warnings}`);
  if (cmd.dryRun === 'client') {
    for (const pod of list.pods) stdout.push(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name} (dry run)`);
    return {};
  }
  const outcome = deleteOrEvictPods(cluster, client, cmd, list.pods, stdout, stderr);
  if (outcome.blockers || outcome.error === undefined) return outcome;
  const pending = getPodsForDeletion(cluster, client, cmd, node, release);
  if (pending.pods.length > 0) {
    stderr.push(
      `There are pending pods in node "${node}" when an error occurred: ${outcome.error.text}`,
      ...pending.pods.map((p) => `pod/${p.metadata.name}`),
    );
  }
  if (pending.errors.length > 0)
    stderr.push(
      `Following errors occurred while getting the list of pods to delete:\n${aggregate(pending.errors).text}`,
    );
  return outcome;
}

/**
 * DeleteOrEvictPods: evictPods when the server has pods/eviction (it has) unless --disable-eviction,
 * else deletePods; then the wait. With no --timeout the simulation gives up after one virtual hour.
 */
function deleteOrEvictPods(
  cluster: Cluster,
  client: DrainClient,
  cmd: KubectlDrainCommand,
  pods: Pod[],
  stdout: string[],
  stderr: string[],
): { error?: DrainError; blockers?: string[] } {
  if (pods.length === 0) return {};
  const start = cluster.clock.now();
  const deadline = cmd.timeoutMs > 0 ? start + cmd.timeoutMs : undefined;
  const options: DeleteOptions = {};
  if (cmd.gracePeriodSeconds >= 0) options.gracePeriodSeconds = cmd.gracePeriodSeconds;
  if (cmd.dryRun === 'server') options.dryRun = ['All'];
  const timers: ReturnType<Cluster['clock']['after']>[] = [];
  const later = (ms: number, fn: () => void) => void timers.push(cluster.clock.after(ms, fn));
  const errors: string[] = [];
  let finished = 0;
  let total = 0;
  const gone = (pod: Pod, r: ApiResponse<Pod>) =>
    r.code === 404 || (r.ok && r.object.metadata.uid !== pod.metadata.uid);
  const seeGone = (pod: Pod) =>
    cluster.timeline.record('kubectl', `pods/${pod.metadata.name} is gone`, `${HELPER} waitForDelete`, {
      actor: 'kubectl',
    });

  if (!cmd.disableEviction) {
    total = pods.length;
    const finish = (err?: string) => {
      finished += 1;
      if (err !== undefined) errors.push(err);
    };
    // waitForDelete for one evicted pod: at once, then every second, until gone or the global timeout.
    const waitFor = (pod: Pod) => {
      const poll = () => {
        const r = client.getPod(pod.metadata.namespace!, pod.metadata.name!);
        if (gone(pod, r)) {
          seeGone(pod);
          stdout.push(`pod/${pod.metadata.name} evicted`);
          return finish();
        }
        if (!r.ok)
          return finish(
            `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: ${r.status.message}`,
          );
        const now = cluster.clock.now();
        if (deadline !== undefined && now + POLL_INTERVAL_MS >= deadline) {
          return later(deadline - now, () =>
            finish(
              `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: context deadline exceeded`,
            ),
          );
        }
        later(POLL_INTERVAL_MS, poll);
      };
      poll();
    };
    const evictLoop = (pod: Pod) => {
      const { name, namespace } = pod.metadata;
      stdout.push(`evicting pod ${namespace}/${name}${cmd.dryRun === 'server' ? ' (server dry run)' : ''}`);
      if (deadline !== undefined && cluster.clock.now() >= deadline)
        return finish(
          `error when evicting pods/"${name}" -n "${namespace}": global timeout reached: ${goDuration(cmd.timeoutMs)}`,
        );
      const r = client.evict(pod, options);
      if (r.ok || (namespaceTerminating(r) && pod.metadata.deletionTimestamp)) {
        if (cmd.dryRun === 'server') return finish();
        return waitFor(pod);
      }
      if (r.code === 404) return finish();
      if (r.code === 429) {
        stderr.push(`error when evicting pods/"${name}" -n "${namespace}" (will retry after 5s): ${r.status.message}`);
        return later(EVICTION_RETRY_MS, () => evictLoop(pod));
      }
      if (namespaceTerminating(r)) {
        stderr.push(
          `error when evicting pod "${name}" from terminating namespace "${namespace}" (will retry after 5s): ${r.status.message}`,
        );
        return later(EVICTION_RETRY_MS, () => evictLoop(pod));
      }
      finish(`error when evicting pods/"${name}" -n "${namespace}": ${r.status.message}`);
    };
    for (const pod of pods) evictLoop(pod);
  } else {
    // deletePods: every DELETE first (an error other than NotFound ends the drain), then one wait for all.
    for (const pod of pods) {
      const r = client.deletePod(pod, options);
      if (!r.ok && r.code !== 404) return { error: { text: r.status.message } };
    }
    total = 1;
    let pending = [...pods];
    const poll = () => {
      const left: Pod[] = [];
      for (const pod of pending) {
        const r = client.getPod(pod.metadata.namespace!, pod.metadata.name!);
        if (gone(pod, r)) {
          seeGone(pod);
          stdout.push(`pod/${pod.metadata.name} deleted`);
        } else if (!r.ok) {
          errors.push(r.status.message);
          finished = 1;
          return;
        } else left.push(pod);
      }
      pending = left;
      if (pending.length === 0) return void (finished = 1);
      const now = cluster.clock.now();
      if (deadline !== undefined && now + POLL_INTERVAL_MS >= deadline)
        return later(deadline - now, () => (errors.push('context deadline exceeded'), (finished = 1)));
      later(POLL_INTERVAL_MS, poll);
    };
    poll();
  }
  const limit = deadline ?? start + DEFAULT_WAIT_LIMIT_MS;
  const settled = cluster.runUntil(() => finished === total, limit);
  for (const t of timers) cluster.clock.cancel(t);
  if (!settled) {
    stderr.push(
      `kubectl was still waiting for the pods of the node to be ${cmd.disableEviction ? 'deleted' : 'evicted'} after one virtual hour (no --timeout given)`,
    );
    return { blockers: cluster.blockers() };
  }
  if (errors.length === 0) return {};
  // evictPods returns the aggregate of its goroutines' errors; deletePods waitForDelete's one error.
  return { error: cmd.disableEviction ? { text: errors[0]! } : aggregate(errors) };
}

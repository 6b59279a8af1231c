import type { ClientIdentity } from '../../../apiserver/apiserver';
import { fromTime, jsonEqual } from '../../../apimachinery/object';
import type { DaemonSet, Node, Pod } from '../../../apimachinery/types';
import { keyOf, type SharedInformer } from '../../../client/informer';
import { isPodAvailable } from '../../../helpers/pod-util';
import {
  ControllerExpectations,
  newControllerRef,
  PodControl,
  podsByControllerUID,
  podsOwnedBy,
  resolveControllerRef,
} from '../controller-utils';
import { isPodReady } from '../../../helpers/pod-util';
import { labelSelectorAsSelector, SelectorError } from '../../../apimachinery/selectors';
import { computeHash } from '../statefulset/stateful-set-utils';
import type { ControllerContext } from '../controller-manager';
import { StoppableController } from '../stoppable';
import { WorkQueue } from '../../../client/workqueue';
import { ConsistencyStore, skipSyncWhileCacheIsStale } from '../consistency-store';
import {
  addOrUpdateDaemonPodTolerations,
  getTargetNodeName,
  nodeNameAffinity,
  nodeShouldRunDaemonPod,
} from './daemonset-util';

const SOURCE = 'pkg/controller/daemon/daemon_controller.go';
const IDENTITY: ClientIdentity = { name: 'daemonset-controller', component: 'daemonset' };
/** failedPodsBackoff: flowcontrol.NewBackOff(1 s, 15 min) per DaemonSet and node. */
const FAILED_POD_BACKOFF_MS = 1000;
const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;
const REVISION_HASH_LABEL = 'controller-revision-hash';
const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

/** The selector selects the template's labels (an invalid selector selects nothing). */
function selectsOwnTemplate(ds: DaemonSet): boolean {
  try {
    return (
      ds.spec?.selector !== undefined &&
      labelSelectorAsSelector(ds.spec.selector).matches(ds.spec.template?.metadata?.labels ?? {})
    );
  } catch (e) {
    if (e instanceof SelectorError) return false;
    throw e;
  }
}

const isTerminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/**
 * The DaemonSet controller (pkg/controller/daemon; rules W60–W63 of docs/rules/statefulsets-jobs-daemonsets.md): one
 * pod per node that should run it (nodeShouldRunDaemonPod), created without a node but with a
 * required node affinity for its node's name, so the scheduler binds it there; daemon
 * tolerations that keep it through not-ready/unreachable taint eviction and on cordoned nodes;
 * excess, misplaced, failed and succeeded pods deleted (failed ones with a per-node back-off);
 * the status counts. Rolling updates of a changed template and its ControllerRevisions are not
 * modelled (the pods' controller-revision-hash is a hash of the template).
 */
export class DaemonSetsController extends StoppableController {
  readonly queue: WorkQueue;
  private readonly sets: SharedInformer<DaemonSet>;
  private readonly pods: SharedInformer<Pod>;
  private readonly nodes: SharedInformer<Node>;
  private readonly expectations: ControllerExpectations;
  private readonly podControl: PodControl;
  private readonly failedBackoff = new Map<string, { delayMs: number; at: number }>();

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.queue = new WorkQueue(clock, (key) => this.syncDaemonSet(key));
    this.sets = informers.informerFor('daemonsets');
    this.pods = podsByControllerUID(informers);
    this.nodes = informers.informerFor('nodes');
    this.expectations = new ControllerExpectations(() => clock.now());
    this.podControl = new PodControl(clock, this.client, 'daemonset-controller');
    this.consistency = new ConsistencyStore({ pods: this.pods, daemonsets: this.sets });
    if (this.release.enabled('StaleControllerConsistencyDaemonSet')) this.podControl.consistency = this.consistency;
  }

  /** The writes each DaemonSet's next sync waits to see (StaleControllerConsistencyDaemonSet, v1.36). */
  private readonly consistency: ConsistencyStore;

  start(): this {
    this.sets.addEventHandler(
      this.whileRunning((key, old, ds) => {
        if (!ds) this.consistency.clear(key, old?.metadata.uid);
        this.queue.add(key);
      }),
    );
    this.pods.addEventHandler(
      this.whileRunning((_key, old, pod) => {
        // No DaemonSet in the lister: no pod resolves to one.
        if (this.sets.size === 0) return;
        const ds = resolveControllerRef((pod ?? old)!, 'DaemonSet', this.sets);
        if (!ds) return;
        const key = keyOf(ds);
        if (pod && !old) this.expectations.creationObserved(key);
        if (!pod) this.expectations.deletionObserved(key);
        this.queue.add(key);
      }),
    );
    this.nodes.addEventHandler(
      this.whileRunning((_key, old, node) => {
        // shouldIgnoreNodeUpdate: only what decides where daemon pods run (labels, taints, cordon).
        if (old && node && jsonEqual(old.metadata.labels, node.metadata.labels) && jsonEqual(old.spec, node.spec))
          return;
        for (const ds of this.sets.list()) this.queue.add(keyOf(ds));
      }),
    );
    return this;
  }

  /** syncDaemonSet: manage the pods per node, then updateDaemonSetStatus. */
  private syncDaemonSet(key: string): void | Error {
    if (this.stopped) return;
    const stale = skipSyncWhileCacheIsStale({
      enabled: this.release.enabled('StaleControllerConsistencyDaemonSet'),
      store: this.consistency,
      key,
      owner: `ds/${key.slice(key.indexOf('/') + 1)}`,
      component: 'daemonset',
      actor: IDENTITY.name,
      source: 'pkg/controller/daemon/daemon_controller.go syncDaemonSet (kubernetes#134937)',
      timeline: this.timeline,
    });
    if (stale) return stale;
    const cached = this.sets.get(key);
    if (!cached) {
      this.expectations.delete(key);
      this.consistency.clear(key);
      return;
    }
    const ds: DaemonSet = structuredClone(cached);
    // R243 — a DaemonSet whose selector does not select its own template (ValidateDaemonSetSpec
    // refuses one, R242, so only a stored object written around the API has one) would create a
    // pod it never counts as its own, again and again at the same instant. The sync fails instead:
    // the key goes back through the queue's rate limiter (5 ms doubling up to 1000 s,
    // processNextWorkItem's AddRateLimited), so the cluster keeps answering.
    if (!selectsOwnTemplate(ds)) {
      // Not an upstream Event (upstream has no such check): a timeline note, once per back-off run.
      if (this.queue.rateLimiter.numRequeues(key) === 0) {
        this.timeline.record(
          'daemonset',
          `daemonsets/${ds.metadata.name} creates no pods: its selector does not select its template's labels (backs off)`,
          `${SOURCE} syncDaemonSet + client-go workqueue AddRateLimited`,
          { actor: IDENTITY.name },
        );
      }
      return new Error(`daemonsets/${ds.metadata.name}: \`selector\` does not match template \`labels\``);
    }
    const hash = computeHash(ds.spec?.template, ds.status?.collisionCount ?? 0);
    const nodes = this.nodes.list();
    const byNode = this.getNodesToDaemonPods(ds);
    if (!ds.metadata.deletionTimestamp && this.expectations.satisfied(key)) this.manage(ds, nodes, byNode, hash);
    return this.updateDaemonSetStatus(ds, nodes, this.getNodesToDaemonPods(ds), hash);
  }

  /** getNodesToDaemonPods: the set's pods by the node they are for; terminal pods being deleted are left out (v1.28, kubernetes#118716). */
  private getNodesToDaemonPods(ds: DaemonSet): Map<string, Pod[]> {
    const out = new Map<string, Pod[]>();
    for (const pod of podsOwnedBy(this.pods, ds, ds.spec?.selector)) {
      if (pod.metadata.deletionTimestamp && isTerminal(pod)) continue;
      const node = getTargetNodeName(pod);
      if (!node) continue;
      let list = out.get(node);
      if (!list) out.set(node, (list = []));
      list.push(pod);
    }
    return out;
  }

  /** manage: podsShouldBeOnNode for every node, plus the pods of nodes that are gone; then syncNodes. */
  private manage(ds: DaemonSet, nodes: readonly Node[], byNode: Map<string, Pod[]>, hash: string): void {
    const needing: string[] = [];
    const toDelete: Pod[] = [];
    for (const node of nodes) {
      const name = node.metadata.name!;
      const pods = byNode.get(name) ?? [];
      const { shouldRun, shouldContinueRunning, why } = nodeShouldRunDaemonPod(node, ds);
      if (shouldRun && pods.length === 0) {
        needing.push(name);
        continue;
      }
      if (shouldContinueRunning) {
        const running: Pod[] = [];
        for (const pod of pods) {
          if (pod.metadata.deletionTimestamp) continue;
          if (pod.status?.phase === 'Failed') {
            // Kubelets that reject a pod make the controller fight them: back off per node.
            const bkey = `${keyOf(ds)}/${name}`;
            const b = this.failedBackoff.get(bkey);
            const now = this.clock.now();
            if (b && now - b.at < b.delayMs) {
              this.queue.addAfter(keyOf(ds), b.delayMs - (now - b.at));
              continue;
            }
            this.failedBackoff.set(bkey, {
              delayMs: b ? Math.min(b.delayMs * 2, FAILED_POD_BACKOFF_MAX_MS) : FAILED_POD_BACKOFF_MS,
              at: now,
            });
            this.podControl.event(
              ds,
              'DaemonSet',
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to kill it`,
            );
            toDelete.push(pod);
          } else if (pod.status?.phase === 'Succeeded') toDelete.push(pod);
          else running.push(pod);
        }
        // More than one running: all but the oldest go.
        running.sort((a, b) => fromTime(a.metadata.creationTimestamp!) - fromTime(b.metadata.creationTimestamp!));
        toDelete.push(...running.slice(1));
      } else if (pods.length > 0) {
        const live = pods.filter((p) => !p.metadata.deletionTimestamp);
        if (live.length > 0)
          this.timeline.record(
            'daemonset',
            `daemonsets/${ds.metadata.name} removes its pod from node ${name}: ${why}`,
            `${SOURCE} podsShouldBeOnNode`,
            { actor: IDENTITY.name },
          );
        toDelete.push(...live);
      }
    }
    const known = new Set(nodes.map((n) => n.metadata.name!));
    for (const [node, pods] of byNode)
      if (!known.has(node)) toDelete.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
    this.syncNodes(ds, toDelete, needing, hash);
  }

  /** syncNodes: create the missing pods (node affinity for their node, the daemon tolerations) and delete the others. */
  private syncNodes(ds: DaemonSet, toDelete: readonly Pod[], needing: readonly string[], hash: string): void {
    const key = keyOf(ds);
    if (needing.length === 0 && toDelete.length === 0) return;
    this.expectations.expect(key, needing.length, toDelete.length);
    if (needing.length > 0)
      this.timeline.record(
        'daemonset',
        `daemonsets/${ds.metadata.name} creates a pod for node${needing.length > 1 ? 's' : ''} ${needing.join(', ')}`,
        `${SOURCE} syncNodes`,
        { actor: IDENTITY.name },
      );
    const template = structuredClone(ds.spec!.template);
    // util.CreatePodTemplate: the daemon tolerations and the generation and revision labels.
    template.spec ??= { containers: [] };
    addOrUpdateDaemonPodTolerations(template.spec);
    template.metadata = {
      ...template.metadata,
      labels: {
        ...template.metadata?.labels,
        [REVISION_HASH_LABEL]: hash,
        [TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation ?? 1),
      },
    };
    const ref = newControllerRef(ds, 'apps/v1', 'DaemonSet');
    for (const node of needing) {
      const r = this.podControl.createPod(ds, 'DaemonSet', template, ref, {}, (pod) => {
        pod.spec!.affinity = { ...pod.spec!.affinity, ...nodeNameAffinity(node) };
      });
      if (!r.ok) this.expectations.creationObserved(key);
    }
    for (const pod of toDelete) {
      const r = this.podControl.deletePod(ds, 'DaemonSet', pod.metadata.name!);
      if (!r.ok) this.expectations.deletionObserved(key);
    }
  }

  /** updateDaemonSetStatus (storeDaemonSetStatus): desired, current, misscheduled, ready, updated, available. */
  private updateDaemonSetStatus(
    ds: DaemonSet,
    nodes: readonly Node[],
    byNode: Map<string, Pod[]>,
    hash: string,
  ): void | Error {
    const now = this.clock.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let available = 0;
    let updated = 0;
    for (const node of nodes) {
      const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
      const pods = byNode.get(node.metadata.name!) ?? [];
      if (shouldRun) {
        desired += 1;
        if (pods.length === 0) continue;
        current += 1;
        const oldest = [...pods].sort(
          (a, b) => fromTime(a.metadata.creationTimestamp!) - fromTime(b.metadata.creationTimestamp!),
        )[0];
        if (isPodReady(oldest)) {
          ready += 1;
          if (isPodAvailable(oldest, minReady, now, this.release)) available += 1;
        }
        if (pods.some((p) => p.metadata.labels?.[REVISION_HASH_LABEL] === hash)) updated += 1;
      } else if (pods.length > 0) misscheduled += 1;
    }
    const status: NonNullable<DaemonSet['status']> = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      observedGeneration: ds.metadata.generation,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      ...(desired - available > 0 ? { numberUnavailable: desired - available } : {}),
    };
    const old = ds.status;
    // storeDaemonSetStatus writes nothing when the status is unchanged, and the look below is
    // planned either way.
    if (!old || !jsonEqual({ ...old, collisionCount: undefined }, { ...status, collisionCount: undefined })) {
      const r = this.client.update(
        'daemonsets',
        ds.metadata.namespace,
        { ...ds, status: { ...status, ...(old?.collisionCount ? { collisionCount: old.collisionCount } : {}) } },
        { subresource: 'status' },
      );
      if (!r.ok) return new Error(`updating the status of daemonsets/${ds.metadata.name}: ${r.status.message}`);
      this.podControl.consistency?.wroteAt(ds, 'daemonsets', r.object.metadata.resourceVersion);
    }
    // V76 — updateDaemonSetStatus plans one more look minReadySeconds after this sync while some
    // ready pod is not yet available (added against clock skew, kubernetes#77208), in every modelled
    // release: the daemon controller has no FindMinNextPodAvailabilityCheck (ReplicaSets have it from
    // v1.34, V75; StatefulSets from v1.36, V69).
    if (minReady > 0 && ready !== available) this.queue.addAfter(keyOf(ds), minReady * 1000);
  }
}

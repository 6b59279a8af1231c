import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import { EventRecorder } from '../../client/event-recorder';
import { jsonEqual } from '../../apimachinery/object';
import { updatePodCondition } from '../../helpers/pod-util';
import type { Node, Pod } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import { splitKey, type SharedInformer, type SharedInformerFactory } from '../../client/informer';
import { podInformer, POD_NODE_NAME_INDEX, type PodInformer } from '../../client/pod-informer';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import {
  FILTER_BY_PLUGIN,
  fitErrorMessage,
  NO_NODES_AVAILABLE,
  nodeAffinity,
  nodeName,
  nodeResourcesFit,
  runFilterPlugins,
  taintToleration,
} from './filters';
import { SchedulingQueue, type ClusterEvent, type QueuedPod } from './scheduling-queue';
import { VolumeBinding } from './volume-binding';
import { findNodesThatPassFilters } from './feasible-nodes';
import { NodeTree } from './node-tree';
import { podClaimNames } from '../../helpers/volume-util';

const SOURCE = 'pkg/scheduler/schedule_one.go';
const IDENTITY: ClientIdentity = { name: 'default-scheduler', component: 'scheduler' };
/** The profile's scheduler name (pkg/scheduler/apis/config: DefaultSchedulerName). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** A scheduler name no scheduler here serves: a pod naming it stays unscheduled (steps and tests use it for that). */
export const UNSERVED_SCHEDULER = 'no-scheduler';

/** The pods this scheduler's queue takes (eventhandlers.go: unassigned, responsibleForPod, not terminal). */
function wantsScheduling(pod: Pod): boolean {
  if (pod.spec?.nodeName) return false;
  if ((pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) !== DEFAULT_SCHEDULER_NAME) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** eventhandlers.go isPodUpdated: a change beyond status, resourceVersion, generation and managed fields. */
function isPodUpdated(old: Pod, pod: Pod): boolean {
  const strip = (p: Pod) => ({
    ...p,
    status: undefined,
    metadata: { ...p.metadata, resourceVersion: undefined, generation: undefined, managedFields: undefined },
  });
  return !jsonEqual(strip(old), strip(pod));
}

/** The events a node update stands for (eventhandlers.go nodeSchedulingPropertiesChange). */
function nodeEvents(old: Node, node: Node): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (!!old.spec?.unschedulable !== !!node.spec?.unschedulable) out.push('NodeSpecUnschedulable');
  if (!jsonEqual(old.spec?.taints ?? [], node.spec?.taints ?? [])) out.push('NodeTaint');
  if (!jsonEqual(old.metadata.labels ?? {}, node.metadata.labels ?? {})) out.push('NodeLabel');
  if (!jsonEqual(old.status?.allocatable ?? {}, node.status?.allocatable ?? {})) out.push('NodeAllocatable');
  return out;
}

/**
 * kube-scheduler with its default profile, for what the simulation models (pkg/scheduler:
 * scheduler.go, schedule_one.go, eventhandlers.go). It is its own component beside
 * kube-controller-manager; it reads the cluster's shared pod and node informers (upstream runs its
 * own informers of the same objects: a second in-process copy would be the same cache twice, and
 * would double the cost of every pod event).
 *
 * scheduleOne pops one pod at a time, filters the nodes (filters.ts) from where the last search
 * stopped until it found numFeasibleNodesToFind of them (feasible-nodes.ts: every node of a
 * cluster under 100 nodes, 10 % of 5 000), scores only those, and binds the pod through
 * `pods/binding` to the best-scoring one. The score is not upstream's plugins' sum: with no
 * resource requests modelled, it is the fewest pods on the node (what LeastAllocated with the
 * default non-zero requests amounts to), ties going to the first node name in string order instead
 * of upstream's random pick (selectHost) — deterministic, as every run here is. A pod that fits
 * nowhere gets PodScheduled=False (reason Unschedulable, FitError's message) and a FailedScheduling
 * Event, and waits in the queue for a cluster event (scheduling-queue.ts).
 */
export class KubeScheduler {
  private readonly queue: SchedulingQueue;
  private readonly pods: PodInformer;
  private readonly nodes: SharedInformer<Node>;
  /** The scheduler cache's assumed pods: bound, not yet seen bound by the informer (pod key → node). */
  private readonly assumed = new Map<string, string>();
  private readonly assumedPerNode = new Map<string, number>();
  /** The cache's nodeTree: the order the snapshot lists nodes in (node-tree.ts). */
  private readonly nodeTree = new NodeTree();
  /** sched.nextStartNodeIndex: where in that list the next search for feasible nodes starts. */
  private nextStartNodeIndex = 0;
  private running = false;
  private readonly recorder: EventRecorder;
  /** The VolumeBinding plugin (P17), asked only about pods that name a claim. */
  private readonly volumeBinding: VolumeBinding;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    informers: SharedInformerFactory,
    private readonly release: Release,
  ) {
    this.queue = new SchedulingQueue(clock, release, () => this.wake());
    this.pods = podInformer(informers);
    this.nodes = informers.informerFor('nodes');
    this.volumeBinding = new VolumeBinding(clock, timeline, api, IDENTITY, informers);
    this.recorder = new EventRecorder(
      { component: DEFAULT_SCHEDULER_NAME },
      'scheduler',
      () => clock.now(),
      (e) => this.api.create(IDENTITY, 'events', e.metadata.namespace, e),
    );
  }

  /** addAllEventHandlers: unassigned pods feed the queue; bound pods, the cache; node changes move waiting pods. */
  start(): void {
    this.pods.addEventHandler((key, old, pod) => this.onPod(key, old, pod));
    this.nodes.addEventHandler((key, old, node) => {
      if (!node) return this.nodeTree.remove(key);
      this.nodeTree.set(node);
      const hint = (key: string, plugin: string) => this.admitsNow(key, plugin, old, node);
      const preCheck = (key: string) => this.preCheckForNode(key, node);
      if (!old) this.queue.moveOnEvent('NodeAdd', hint, preCheck);
      else for (const e of nodeEvents(old, node)) this.queue.moveOnEvent(e, hint, preCheck);
    });
    this.volumeBinding.claims.addEventHandler((_key, _old, pvc) => pvc && this.queue.moveOnEvent('PvcChange'));
  }

  /** The pods that wait (backing off, unschedulable or gated), for "what still blocks". */
  waitingPods(): { key: string; where: 'backoff' | 'unschedulable' | 'gated' }[] {
    return this.queue.waiting();
  }

  private onPod(key: string, old: Pod | undefined, pod: Pod | undefined): void {
    if (pod?.spec?.nodeName) {
      // A bound pod: the cache now knows it; an assumed one is confirmed.
      if (this.assumed.size > 0) this.forget(key);
      if (this.queue.has(key)) this.queue.delete(key);
      return;
    }
    if (!pod) {
      if (this.assumed.size > 0) this.forget(key);
      if (old?.spec?.nodeName) this.queue.moveOnEvent('AssignedPodDelete');
      else this.queue.delete(key);
      return;
    }
    if (!wantsScheduling(pod)) return this.queue.delete(key);
    const gated = this.release.enabled('PodSchedulingReadiness') && (pod.spec?.schedulingGates ?? []).length > 0;
    if (!old || !this.queue.has(key)) {
      if (!old) this.queue.add(key, pod.spec?.priority ?? 0, gated);
      return;
    }
    if (isPodUpdated(old, pod)) this.queue.update(key, pod.spec?.priority ?? 0, gated);
  }

  /**
   * A node event's queueing hint (the plugins' isSchedulableAfterNodeChange): Queue when `plugin`
   * lets the pod onto the node now and did not before the change (or the node is new).
   */
  private admitsNow(key: string, plugin: string, old: Node | undefined, node: Node): boolean {
    const pod = this.pods.get(key);
    const filter = FILTER_BY_PLUGIN[plugin];
    if (!pod || !filter) return true;
    const podCount = this.podCount(node.metadata.name!);
    if (filter(pod, { node, podCount })) return false;
    return !old || filter(pod, { node: old, podCount }) !== undefined;
  }

  /**
   * eventhandlers.go preCheckForNode (used while SchedulerQueueingHints is off: up to v1.31 by
   * default): the pod passes the kubelet's AdmissionCheck on the node — resources (the pod count),
   * required node affinity and selector, node name; host ports are not modelled — and tolerates
   * its NoSchedule taints (NoExecute and spec.unschedulable are not checked here).
   */
  private preCheckForNode(key: string, node: Node): boolean {
    const pod = this.pods.get(key);
    if (!pod) return true;
    const info = { node, podCount: this.podCount(node.metadata.name!) };
    if (nodeResourcesFit(pod, info) || nodeAffinity(pod, info) || nodeName(pod, info)) return false;
    const noSchedule = {
      ...node,
      spec: { ...node.spec, taints: (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule') },
    };
    return taintToleration(pod, { node: noSchedule, podCount: info.podCount }) === undefined;
  }

  /** The pods the cache holds on a node: those the informer saw bound there, and the assumed ones. */
  private podCount(nodeName: string): number {
    return this.pods.countByIndex(POD_NODE_NAME_INDEX, nodeName) + (this.assumedPerNode.get(nodeName) ?? 0);
  }

  private forget(key: string): void {
    const node = this.assumed.get(key);
    if (node === undefined) return;
    this.assumed.delete(key);
    this.assumedPerNode.set(node, (this.assumedPerNode.get(node) ?? 1) - 1);
  }

  /** The scheduler's loop: scheduleOne for every pod the queue hands out, at the instant it is handed out. */
  private wake(): void {
    if (this.running) return;
    this.running = true;
    this.clock.after(0, () => {
      this.running = false;
      for (let next = this.queue.pop(); next; next = this.queue.pop()) this.scheduleOne(next);
    });
  }

  /** scheduleOne: schedulingCycle (filter, score) then bindingCycle (bind through pods/binding). */
  private scheduleOne(info: QueuedPod): void {
    const cycle = this.queue.schedulingCycle;
    const pod = this.pods.get(info.key);
    // skipPodSchedule: gone, bound meanwhile, or being deleted.
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp || !wantsScheduling(pod)) return;
    const nodes = this.nodeTree.list();
    if (nodes.length === 0) return this.fail(info, pod, cycle, NO_NODES_AVAILABLE, new Set(), 'no nodes');
    const claimed = pod.spec?.volumes !== undefined && podClaimNames(pod).length > 0;
    const unbound = claimed ? this.volumeBinding.preFilter(pod) : undefined;
    if (unbound) {
      // FitError.Error with a PreFilter message; every node is unresolvable for preemption.
      const n = nodes.length;
      return this.fail(
        info,
        pod,
        cycle,
        `0/${n} nodes are available: ${unbound}. preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`,
        new Set(['VolumeBinding']),
        unbound,
      );
    }
    // findNodesThatFitPod: the filters from nextStartNodeIndex on, until enough nodes fit.
    const { feasible, rejections, nextStart } = findNodesThatPassFilters(nodes, this.nextStartNodeIndex, (name) =>
      runFilterPlugins(pod, { node: this.nodes.get(name)!, podCount: this.podCount(name) }),
    );
    this.nextStartNodeIndex = nextStart;
    if (feasible.length === 0) {
      const msg = fitErrorMessage(nodes.length, rejections);
      return this.fail(info, pod, cycle, msg, new Set(rejections.map((r) => r.plugin)), msg);
    }
    // prioritizeNodes scores the feasible nodes only; selectHost takes the best.
    let best = { name: feasible[0], pods: this.podCount(feasible[0]) };
    for (const name of feasible) {
      const pods = this.podCount(name);
      if (pods < best.pods || (pods === best.pods && name < best.name)) best = { name, pods };
    }
    this.bind(info, pod, best.name, cycle);
  }

  /** bindingCycle → DefaultBinder.Bind: the pods/binding request, then the Scheduled event. */
  private bind(info: QueuedPod, pod: Pod, nodeName: string, cycle: number): void {
    const { name } = splitKey(info.key);
    this.assumed.set(info.key, nodeName);
    this.assumedPerNode.set(nodeName, (this.assumedPerNode.get(nodeName) ?? 0) + 1);
    this.timeline.record(
      'scheduler',
      `schedules pods/${name} to ${nodeName}`,
      `${SOURCE} schedulingCycle → bindingCycle`,
      { actor: IDENTITY.name },
    );
    if (pod.spec?.volumes !== undefined && podClaimNames(pod).length > 0) {
      // bindingCycle → RunPreBindPreFlights: with NominatedNodeNameForExpectation (β on 1.35) a
      // PreBind plugin with work to do first gets the chosen node written as the pod's
      // status.nominatedNodeName (updatePod, only when it differs), for other components to see
      // where the pod is going while its volumes are bound (KEP-5278, W66).
      if (
        this.release.enabled('NominatedNodeNameForExpectation') &&
        this.volumeBinding.hasPreBindWork(pod) &&
        pod.status?.nominatedNodeName !== nodeName
      )
        this.nominate(pod, nodeName);
      // bindingCycle → RunPreBindPlugins: VolumeBinding holds the binding until the claims are bound.
      this.volumeBinding.preBind(
        pod,
        nodeName,
        () => this.sendBinding(info, pod, nodeName, cycle),
        () => {
          this.forget(info.key);
          this.queue.addUnschedulable(info, new Set(['VolumeBinding']), cycle - 1);
        },
      );
      return;
    }
    this.sendBinding(info, pod, nodeName, cycle);
  }

  /** updatePod with a NominatingInfo of mode Override: one status PATCH of nominatedNodeName. */
  private nominate(pod: Pod, nodeName: string): void {
    this.api.patch(
      IDENTITY,
      'pods',
      pod.metadata.namespace,
      pod.metadata.name!,
      'merge',
      { status: { nominatedNodeName: nodeName } },
      { subresource: 'status' },
    );
  }

  /** DefaultBinder.Bind: the pods/binding request, then the Scheduled event. */
  private sendBinding(info: QueuedPod, pod: Pod, nodeName: string, cycle: number): void {
    const { namespace, name } = splitKey(info.key);
    const r = this.api.bind(IDENTITY, namespace ?? 'default', name, nodeName);
    if (!r.ok) {
      // handleBindingCycleError: forget the assumed pod and try it again after its back-off.
      this.forget(info.key);
      if (r.code !== 404) this.queue.addUnschedulable(info, new Set(), cycle - 1);
      return;
    }
    this.recorder.event(
      this.ref(pod),
      'Normal',
      'Scheduled',
      `Successfully assigned ${namespace}/${name} to ${nodeName}`,
    );
  }

  /**
   * handleSchedulingFailure: back to the queue, a FailedScheduling Event, and the PodScheduled
   * condition (updatePod: one status PATCH, only when the condition changes).
   */
  private fail(
    info: QueuedPod,
    pod: Pod,
    cycle: number,
    message: string,
    rejectedBy: ReadonlySet<string>,
    summary: string,
  ): void {
    const { namespace, name } = splitKey(info.key);
    this.timeline.record(
      'scheduler',
      `pods/${name} is unschedulable: ${summary}`,
      `${SOURCE} schedulingCycle → handleSchedulingFailure`,
      { actor: IDENTITY.name },
    );
    this.queue.addUnschedulable(info, rejectedBy, cycle);
    this.recorder.event(this.ref(pod), 'Warning', 'FailedScheduling', message);
    const status = { ...pod.status, conditions: [...(pod.status?.conditions ?? [])] };
    if (
      !updatePodCondition(
        status,
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message },
        this.clock.now(),
      )
    )
      return;
    this.api.patch(
      IDENTITY,
      'pods',
      namespace,
      name,
      'merge',
      { status: { conditions: status.conditions } },
      { subresource: 'status' },
    );
  }

  private ref(pod: Pod): {
    kind: string;
    apiVersion: string;
    namespace?: string;
    name?: string;
    uid?: string;
    resourceVersion?: string;
  } {
    return {
      kind: 'Pod',
      apiVersion: 'v1',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      resourceVersion: pod.metadata.resourceVersion,
    };
  }
}

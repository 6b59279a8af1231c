import type { Node, Pod, Taint } from '../../apimachinery/types';
import { requiredNodeAffinityMatches } from '../../helpers/node-affinity';
import { toleratesTaint } from '../../helpers/taints';

/**
 * The Filter plugins of kube-scheduler's default profile that decide what the simulation models
 * (pkg/scheduler/apis/config/v1/default_plugins.go getDefaultPlugins; pkg/scheduler/framework/plugins),
 * in the profile's order. A node is rejected by the first plugin that rejects it
 * (framework/runtime/framework.go RunFilterPlugins stops there), with that plugin's reason —
 * the text FitError.Error counts. Resources other than the pod count (cpu, memory, ports,
 * volumes, inter-pod affinity, topology spread) are not modelled: every pod requests nothing.
 */

/** framework.Code: Unschedulable may be helped by preemption, UnschedulableAndUnresolvable never is. */
export type RejectionCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface Rejection {
  readonly plugin: string;
  readonly code: RejectionCode;
  readonly reason: string;
}

/** What a filter knows of a node: the Node and how many pods the scheduler's cache holds on it. */
export interface NodeInfo {
  readonly node: Node;
  /** NodeInfo.Pods: every pod bound to the node that the cache holds (terminal ones too, until deleted). */
  readonly podCount: number;
}

type Filter = (pod: Pod, info: NodeInfo) => Rejection | undefined;

/** nodeunschedulable/node_unschedulable.go: the taint a cordoned node stands for (v1.TaintNodeUnschedulable). */
const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** NodeUnschedulable.Filter: a cordoned node (spec.unschedulable) takes only pods that tolerate its taint. */
export const nodeUnschedulable: Filter = (pod, { node }) => {
  if (!node.spec?.unschedulable) return undefined;
  if ((pod.spec?.tolerations ?? []).some((t) => toleratesTaint(t, UNSCHEDULABLE_TAINT))) return undefined;
  return { plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reason: 'node(s) were unschedulable' };
};

/**
 * NodeName.Filter (nodename/node_name.go Fits): a pod that names a node fits only that one. The
 * scheduler only sees pods without spec.nodeName, so this rejects nothing here; kept for the
 * profile's order and its message.
 */
export const nodeName: Filter = (pod, { node }) => {
  const wanted = pod.spec?.nodeName;
  if (!wanted || wanted === node.metadata.name) return undefined;
  return {
    plugin: 'NodeName',
    code: 'UnschedulableAndUnresolvable',
    reason: "node(s) didn't match the requested node name",
  };
};

/**
 * TaintToleration.Filter (tainttoleration/taint_toleration.go): the first NoSchedule or NoExecute
 * taint the pod does not tolerate (v1helper.FindMatchingUntoleratedTaint) rejects the node;
 * PreferNoSchedule only weighs in scoring. The not-ready and unreachable taints the node
 * lifecycle controller adds are how a node that is not Ready keeps new pods off.
 */
export const taintToleration: Filter = (pod, { node }) => {
  const tolerations = pod.spec?.tolerations ?? [];
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (tolerations.some((t) => toleratesTaint(t, taint))) continue;
    return {
      plugin: 'TaintToleration',
      code: 'UnschedulableAndUnresolvable',
      reason: `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
    };
  }
  return undefined;
};

/** NodeAffinity.Filter (nodeaffinity/node_affinity.go, ErrReasonPod). */
export const nodeAffinity: Filter = (pod, { node }) => {
  if (requiredNodeAffinityMatches(pod, node)) return undefined;
  return {
    plugin: 'NodeAffinity',
    code: 'UnschedulableAndUnresolvable',
    reason: "node(s) didn't match Pod's node affinity/selector",
  };
};

/**
 * NodeResourcesFit.Filter (noderesources/fit.go fitsRequest), the pod count only: one more pod
 * than status.allocatable.pods does not fit ("Too many pods"; a node that reports no allocatable
 * pods allows none). Unschedulable, not unresolvable: preemption could make room.
 */
export const nodeResourcesFit: Filter = (_pod, { node, podCount }) => {
  const allowed = Number.parseInt(node.status?.allocatable?.pods ?? '0', 10) || 0;
  if (podCount + 1 <= allowed) return undefined;
  return { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Too many pods' };
};

/** The default profile's Filter plugins that are modelled, in its order. */
export const FILTERS: readonly Filter[] = [
  nodeUnschedulable,
  nodeName,
  taintToleration,
  nodeAffinity,
  nodeResourcesFit,
];

/** The same plugins by name, for the queueing hints (would this plugin let the pod onto the changed node now?). */
export const FILTER_BY_PLUGIN: Readonly<Record<string, Filter>> = {
  NodeUnschedulable: nodeUnschedulable,
  NodeName: nodeName,
  TaintToleration: taintToleration,
  NodeAffinity: nodeAffinity,
  NodeResourcesFit: nodeResourcesFit,
};

/** RunFilterPlugins: the first rejection, or undefined when the node fits. */
export function runFilterPlugins(pod: Pod, info: NodeInfo): Rejection | undefined {
  for (const filter of FILTERS) {
    const r = filter(pod, info);
    if (r) return r;
  }
  return undefined;
}

/** "N reason" counts, sorted as strings (FitError.Error sortReasonsHistogram). */
function histogram(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts]
    .map(([r, n]) => `${n} ${r}`)
    .sort()
    .join(', ');
}

/**
 * The FailedScheduling message of a pod that fits no node (framework/types.go FitError.Error, with
 * DefaultPreemption's PostFilter message appended as schedule_one.go schedulingCycle does):
 * `0/N nodes are available: <counted reasons>. preemption: 0/N nodes are available: <counted
 * preemption reasons>.`. Preemption (defaultpreemption/default_preemption.go, preemption.go
 * Evaluator.Preempt) is not modelled beyond its verdict: a node rejected as unresolvable is one
 * where "Preemption is not helpful for scheduling"; on any other, no lower-priority pod is taken
 * to exist, so "No preemption victims found for incoming pod".
 */
export function fitErrorMessage(numAllNodes: number, rejections: readonly Rejection[]): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (rejections.length > 0) msg += ` ${histogram(rejections.map((r) => r.reason))}.`;
  const preemption = rejections.map((r) =>
    r.code === 'UnschedulableAndUnresolvable'
      ? 'Preemption is not helpful for scheduling'
      : 'No preemption victims found for incoming pod',
  );
  msg += ` preemption: 0/${numAllNodes} nodes are available: ${histogram(preemption)}.`;
  return msg;
}

/** schedule_one.go ErrNoNodesAvailable: the message when the cluster has no node at all. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

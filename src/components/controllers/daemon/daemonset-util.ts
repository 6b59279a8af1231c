import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../../apiserver/admission';
import type { DaemonSet, Node, Pod, PodSpec, Taint, Toleration } from '../../../apimachinery/types';
import { requiredNodeAffinityMatches } from '../../../helpers/node-affinity';
import { toleratesTaint } from '../../../helpers/taints';

export const SOURCE = 'pkg/controller/daemon/util/daemonset_util.go';

/** The node condition taints (pkg/apis/core/v1 well_known_taints.go). */
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

/**
 * AddOrUpdateDaemonPodTolerations: a daemon pod tolerates not-ready and unreachable (NoExecute,
 * without tolerationSeconds: for ever, so taint eviction leaves it on a failing node), the
 * disk/memory/pid-pressure and unschedulable (NoSchedule: it lands on cordoned nodes too) taints,
 * and network-unavailable when it uses the host network. A toleration of the same key and effect
 * already in the template is replaced.
 */
export function addOrUpdateDaemonPodTolerations(spec: PodSpec): void {
  const add: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
    ...(spec.hostNetwork ? [{ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' }] : []),
  ];
  const tolerations = [...(spec.tolerations ?? [])];
  for (const t of add) {
    // v1helper.AddOrUpdateTolerationInPodSpec: same key, effect and operator is replaced, else appended.
    const i = tolerations.findIndex(
      (x) => x.key === t.key && x.effect === t.effect && (x.operator ?? 'Equal') === t.operator,
    );
    if (i >= 0) tolerations[i] = t;
    else tolerations.push(t);
  }
  spec.tolerations = tolerations;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the pod's required node affinity becomes one term
 * selecting the node by `metadata.name` (matchFields), so the scheduler binds it there and
 * nowhere else (ScheduleDaemonSetPods, GA 1.17).
 */
export function nodeNameAffinity(nodeName: string): NonNullable<PodSpec['affinity']> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
}

/** GetTargetNodeName: the node a daemon pod is for — its spec.nodeName, or the matchFields term of its affinity. */
export function getTargetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}

/** v1helper.FindMatchingUntoleratedTaint among the taints `filter` keeps. */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  filter: (t: Taint) => boolean,
): Taint | undefined {
  return taints.filter(filter).find((taint) => !tolerations.some((t) => toleratesTaint(t, taint)));
}

/**
 * NodeShouldRunDaemonPod: shouldRun — a new daemon pod belongs on the node (its nodeName, node
 * affinity and the NoSchedule/NoExecute taints all fit, with the daemon tolerations);
 * shouldContinueRunning — an existing one may stay (only a NoExecute taint it does not tolerate
 * drives it off).
 */
export function nodeShouldRunDaemonPod(
  node: Node,
  ds: DaemonSet,
): { shouldRun: boolean; shouldContinueRunning: boolean; why?: string } {
  const spec: PodSpec = structuredClone(ds.spec?.template?.spec ?? { containers: [] });
  addOrUpdateDaemonPodTolerations(spec);
  const name = node.metadata.name!;
  if (spec.nodeName && spec.nodeName !== name)
    return { shouldRun: false, shouldContinueRunning: false, why: `the template names node ${spec.nodeName}` };
  // predicates: the scheduler's own node affinity check (nodeaffinity.GetRequiredNodeAffinity).
  if (!requiredNodeAffinityMatches({ metadata: {}, spec }, node))
    return { shouldRun: false, shouldContinueRunning: false, why: 'its nodeSelector or node affinity does not match' };
  const taints = node.spec?.taints ?? [];
  const untolerated = findUntoleratedTaint(
    taints,
    spec.tolerations ?? [],
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  if (untolerated) {
    const noExecute = findUntoleratedTaint(taints, spec.tolerations ?? [], (t) => t.effect === 'NoExecute');
    return {
      shouldRun: false,
      shouldContinueRunning: !noExecute,
      why: `taint ${untolerated.key}:${untolerated.effect} is not tolerated`,
    };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

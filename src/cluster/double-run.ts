import type { Sandbox } from '../components/kubelet/runtime';
import type { Timeline } from '../foundation/timeline/timeline';

/**
 * Watches the nodes' runtimes for one pod name running twice: a pod force-deleted (or removed by
 * pod GC for the out-of-service taint) while its node is cut off may still run there — the API
 * no longer has it, the kubelet was never told — when its controller's replacement, with the same
 * name (a StatefulSet's identity), starts elsewhere. Kubernetes has no component that notices;
 * the simulation says so on the timeline, on the lane of the runtime that starts the second copy.
 * The cost is one map entry per running pod sandbox. Pods are told apart by namespace and name:
 * two pods of one name in two namespaces are two pods, not one running twice.
 */
export class DoubleRunWatch {
  /** Running sandboxes by namespace and pod reference (runningKey): the first runner, and any others. */
  private readonly running = new Map<string, { node: string; uid: string } | { node: string; uid: string }[]>();

  constructor(private readonly timeline: Timeline) {}

  started(node: string, s: Sandbox): void {
    const entry = { node, uid: s.uid };
    const key = runningKey(s);
    const held = this.running.get(key);
    if (held === undefined) {
      this.running.set(key, entry);
      return;
    }
    const others = Array.isArray(held) ? held : [held];
    if (others.some((o) => o.uid === s.uid)) return;
    for (const o of others) {
      if (o.uid === s.uid) continue;
      this.timeline.record(
        'runtime',
        `double run ${s.podRef}: started while another ${s.podRef} (uid ${o.uid}) still runs on node ${o.node}, which no API object stands for any more`,
        'no upstream component: a force deletion only removes the object (pkg/registry/core/pod/strategy.go CheckGracefulDelete with grace 0)',
        { actor: node },
      );
    }
    this.running.set(key, [...others, entry]);
  }

  stopped(s: Sandbox): void {
    const key = runningKey(s);
    const held = this.running.get(key);
    if (held === undefined) return;
    if (!Array.isArray(held)) {
      if (held.uid === s.uid) this.running.delete(key);
      return;
    }
    const left = held.filter((o) => o.uid !== s.uid);
    if (left.length === 0) this.running.delete(key);
    else this.running.set(key, left.length === 1 ? left[0] : left);
  }
}

/** A sandbox's pod by namespace and name (the namespace is unknown only for a resumed node's pods, which this watch never sees start). */
function runningKey(s: Sandbox): string {
  return `${s.namespace ?? ''}/${s.podRef}`;
}

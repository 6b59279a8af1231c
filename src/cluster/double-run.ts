import type { Sandbox } from '../components/kubelet/runtime';
import type { Timeline } from '../foundation/timeline/timeline';

/**
 * Watches the nodes' runtimes for one pod name running twice: a pod force-deleted (or removed by
 * pod GC for the out-of-service taint) while its node is cut off may still run there — the API
 * no longer has it, the kubelet was never told — when its controller's replacement, with the same
 * name (a StatefulSet's identity), starts elsewhere. Kubernetes has no component that notices;
 * the simulation says so on the timeline, on the lane of the runtime that starts the second copy.
 * The cost is one map entry per running pod sandbox.
 */
export class DoubleRunWatch {
  /** Running sandboxes by pod reference: the first runner, and any others. */
  private readonly running = new Map<string, { node: string; uid: string } | { node: string; uid: string }[]>();

  constructor(private readonly timeline: Timeline) {}

  started(node: string, s: Sandbox): void {
    const entry = { node, uid: s.uid };
    const held = this.running.get(s.podRef);
    if (held === undefined) {
      this.running.set(s.podRef, entry);
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
    this.running.set(s.podRef, [...others, entry]);
  }

  stopped(s: Sandbox): void {
    const held = this.running.get(s.podRef);
    if (held === undefined) return;
    if (!Array.isArray(held)) {
      if (held.uid === s.uid) this.running.delete(s.podRef);
      return;
    }
    const left = held.filter((o) => o.uid !== s.uid);
    if (left.length === 0) this.running.delete(s.podRef);
    else this.running.set(s.podRef, left.length === 1 ? left[0] : left);
  }
}

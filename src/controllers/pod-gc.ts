import type { ApiServer, ClientIdentity } from '../apiserver/apiserver';
import { toTime } from '../apiserver/object';
import { isTerminal } from '../apiserver/pod-strategy';
import type { Pod } from '../apiserver/types';
import type { Clock } from '../clock';
import type { Timeline } from '../timeline/timeline';

/** The taint that says a node is shut down for good (NodeOutOfServiceVolumeDetach, GA in 1.28). */
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export interface PodGCConfig {
  /** gcCheckPeriod (20 s). */
  periodMs: number;
  /** quarantineTime before a vanished node's pods are collected (40 s). */
  quarantineMs: number;
  /** --terminated-pod-gc-threshold (12500). */
  terminatedPodThreshold: number;
}

export const DEFAULT_POD_GC_CONFIG: PodGCConfig = { periodMs: 20_000, quarantineMs: 40_000, terminatedPodThreshold: 12_500 };

const SOURCE = 'pkg/controller/podgc/gc_controller.go';
const IDENTITY: ClientIdentity = { name: 'pod-garbage-collector', component: 'podgc' };

/**
 * The pod garbage collector (pkg/controller/podgc/gc_controller.go `gc`, every 20 s; K48–K50):
 * terminated pods over the threshold, pods bound to a node that no longer exists (after a 40 s
 * quarantine and a live check), terminating pods on out-of-service nodes, and terminating pods that
 * were never scheduled are marked Failed and force-deleted.
 */
export class PodGarbageCollector {
  /** Vanished nodes waiting out the quarantine: name → when they may be confirmed gone. */
  private readonly quarantine = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    readonly config: PodGCConfig = DEFAULT_POD_GC_CONFIG,
  ) {}

  start(): void {
    this.schedule();
  }

  /** Idle ticks are background work; with nodes in quarantine the next tick is real work. */
  private schedule(): void {
    this.clock.after(
      this.config.periodMs,
      () => {
        this.gc();
        this.schedule();
      },
      { background: this.quarantine.size === 0 },
    );
  }

  private gc(): void {
    const pods = this.api.list('pods', undefined);
    const nodes = this.api.list('nodes', undefined);
    if (!pods.ok || !nodes.ok) return;
    const nodeNames = new Set(nodes.object.items.map((n) => n.metadata.name!));
    this.gcTerminated(pods.object.items);
    this.gcTerminating(pods.object.items, nodes.object.items);
    this.gcOrphaned(pods.object.items, nodeNames);
    this.gcUnscheduledTerminating(pods.object.items);
  }

  /** gcTerminated: delete the oldest terminated pods beyond the threshold. */
  private gcTerminated(pods: readonly Pod[]): void {
    const terminated = pods.filter((p) => isTerminal(p)).sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    const excess = terminated.length - this.config.terminatedPodThreshold;
    for (const pod of terminated.slice(0, Math.max(0, excess))) this.forceDelete(pod, `terminated pods exceed the threshold of ${this.config.terminatedPodThreshold}`, 'gcTerminated');
  }

  /** gcTerminating: terminating pods on a NotReady node tainted out-of-service. */
  private gcTerminating(pods: readonly Pod[], nodes: readonly { metadata: { name?: string }; spec?: { taints?: { key: string }[] }; status?: { conditions?: { type: string; status: string }[] } }[]): void {
    const outOfService = new Set(
      nodes
        .filter((n) => (n.spec?.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE))
        .filter((n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True')
        .map((n) => n.metadata.name!),
    );
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp && outOfService.has(pod.spec?.nodeName ?? '')) {
        this.markFailedAndDelete(pod, undefined, `node ${pod.spec?.nodeName} is out of service`, 'gcTerminating');
      }
    }
  }

  /** gcOrphaned: pods bound to a node missing from the informer; after the quarantine a live GET confirms it is gone. */
  private gcOrphaned(pods: readonly Pod[], nodeNames: ReadonlySet<string>): void {
    const now = this.clock.now();
    const missing = new Set(pods.map((p) => p.spec?.nodeName).filter((n): n is string => !!n && !nodeNames.has(n)));
    for (const n of missing) {
      if (!this.quarantine.has(n)) {
        this.quarantine.set(n, now + this.config.quarantineMs);
        this.timeline.record('podgc', `node ${n} not found: its pods are quarantined for ${this.config.quarantineMs / 1000}s`, `${SOURCE} gcOrphaned`);
      }
    }
    for (const [n, due] of [...this.quarantine]) {
      if (!missing.has(n)) {
        this.quarantine.delete(n);
        continue;
      }
      if (due > now) continue;
      this.quarantine.delete(n);
      if (this.api.get('nodes', undefined, n).ok) continue; // checkIfNodeExists: it came back
      for (const pod of pods.filter((p) => p.spec?.nodeName === n)) {
        const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists', lastTransitionTime: toTime(now) };
        this.markFailedAndDelete(pod, condition, `node ${n} no longer exists`, 'gcOrphaned');
      }
    }
  }

  /** gcUnscheduledTerminating: terminating pods that never got a node. */
  private gcUnscheduledTerminating(pods: readonly Pod[]): void {
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp && !pod.spec?.nodeName) this.markFailedAndDelete(pod, undefined, 'terminating and never scheduled', 'gcUnscheduledTerminating');
    }
  }

  /** markFailedAndDeletePodWithCondition: phase Failed (plus a condition) unless already terminal, then DELETE with grace 0. */
  private markFailedAndDelete(pod: Pod, condition: Record<string, string> | undefined, why: string, fn: string): void {
    const name = pod.metadata.name!;
    if (!isTerminal(pod)) {
      const conditions = condition ? [...(pod.status?.conditions ?? []).filter((c) => c.type !== condition.type), condition] : pod.status?.conditions;
      this.timeline.record('podgc', `mark Failed pods/${name}: ${why}`, `${SOURCE} markFailedAndDeletePodWithCondition`);
      this.api.patch(IDENTITY, 'pods', pod.metadata.namespace, name, 'merge', { status: { phase: 'Failed', ...(conditions ? { conditions } : {}) } }, { subresource: 'status' });
    }
    this.forceDelete(pod, why, fn);
  }

  private forceDelete(pod: Pod, why: string, fn: string): void {
    this.timeline.record('podgc', `force delete pods/${pod.metadata.name}: ${why}`, `${SOURCE} ${fn}`);
    this.api.delete(IDENTITY, 'pods', pod.metadata.namespace, pod.metadata.name!, { gracePeriodSeconds: 0 });
  }
}

import { toTime } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import type { TimerHandle } from '../../../foundation/clock';
import type { KubeletKillHost } from '../kill-host';
import { TERMINATION_BY_KUBELET } from '../nodeshutdown';
import { updatePodCondition } from '../status';
import {
  byEvictionPriority,
  EVICTED_REASON,
  evictionMessage,
  formatThreshold,
  MEMORY_PRESSURE,
  nodeConditionsObservedSince,
  parseThresholdConfig,
  rankMemoryPressure,
  RESOURCE_MEMORY,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  type EvictionAnnotations,
  type EvictionConfig,
  type StatsFunc,
  type Threshold,
} from './helpers';
import { formatQuantity } from './quantity';

export const MANAGER_SOURCE = 'pkg/kubelet/eviction/eviction_manager.go';

/** kubelet.go evictionMonitoringPeriod: synchronize runs every 10 s. */
export const EVICTION_MONITORING_PERIOD_MS = 10_000;
/** eviction_manager.go podCleanupTimeout and podCleanupPollFreq. */
export const POD_CLEANUP_TIMEOUT_MS = 30_000;
export const POD_CLEANUP_POLL_MS = 1000;

/** What the eviction manager needs of its kubelet and node (eviction.Manager's Start arguments and NewManager's). */
export interface EvictionHost extends KubeletKillHost {
  /** PodCleanedUpFunc: kubelet.PodIsFinished (the pod worker has finished SyncTerminatedPod). */
  podIsFinished(uid: string): boolean;
  /** The summary API: memory.available on the node (undefined: plenty, no threshold can be met) and each pod's working sets. */
  memoryAvailable(): number | undefined;
  stats: StatsFunc;
  recordPodEvent(
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source: string,
    annotations?: Record<string, string>,
  ): void;
  /** The node conditions changed: the next node status update reports them (setters.go MemoryPressureCondition). */
  nodeConditionsChanged(): void;
}

/**
 * The kubelet's eviction manager (pkg/kubelet/eviction, K71–K74), for memory.available. Every 10 s
 * `synchronize` observes what is available, finds the thresholds met (a soft one only once it has
 * been met for its grace period), keeps the MemoryPressure node condition for the pressure
 * transition period after the last observation, and — when a threshold is met — records
 * EvictionThresholdMet, ranks the active pods and evicts the first one through killPodNow: phase
 * Failed, reason Evicted, its message and DisruptionTarget. Then it waits (polling every second, at
 * most 30 s) for that pod to be cleaned up and synchronizes again at once. At most one pod per
 * synchronize; the pod is not deleted from the API.
 *
 * The loop runs only while there is something to observe: it is woken when the node's memory
 * changes and stops once nothing is met and no condition is left (an idle node has no timer).
 */
export class EvictionManager {
  private readonly thresholds: Threshold[];
  private thresholdsFirstObserved = new Map<Threshold, number>();
  private nodeConditionsLastObserved = new Map<string, number>();
  private nodeConditions: string[] = [];
  private timer?: TimerHandle;
  private cleaningUp = false;

  constructor(
    private readonly host: EvictionHost,
    readonly config: EvictionConfig,
    /** The grid of the monitoring loop starts with the kubelet. */
    private readonly startedAt: number,
  ) {
    this.thresholds = parseThresholdConfig(config);
  }

  /** IsUnderMemoryPressure, which the node status setter reads. */
  isUnderMemoryPressure(): boolean {
    return this.nodeConditions.includes(MEMORY_PRESSURE);
  }

  /** The node's memory changed: make sure synchronize runs at its next tick. */
  wake(): void {
    if (this.timer || this.cleaningUp || this.thresholds.length === 0) return;
    const { scheduler } = this.host;
    const now = scheduler.now();
    const next =
      this.startedAt +
      (Math.floor((now - this.startedAt) / EVICTION_MONITORING_PERIOD_MS) + 1) * EVICTION_MONITORING_PERIOD_MS;
    this.timer = scheduler.at(next, () => this.tick());
  }

  stop(): void {
    if (this.timer) this.host.scheduler.cancel(this.timer);
    this.timer = undefined;
  }

  /**
   * One pass of Start's loop: synchronize; after an eviction wait for the pod's cleanup and go
   * again, otherwise sleep the monitoring interval — while anything is left to watch. A steady
   * pressure with nobody left to evict is idle work (a background timer: the cluster can settle).
   */
  private tick(): void {
    this.timer = undefined;
    const result = this.synchronize();
    if (result.evicted) return this.waitForPodsCleanup(result.evicted);
    if (!result.watching) return;
    this.timer = this.host.scheduler.after(EVICTION_MONITORING_PERIOD_MS, () => this.tick(), {
      background: !result.pending,
    });
  }

  /** synchronize (K71): observe, track thresholds and conditions, evict at most one pod. */
  private synchronize(): { evicted?: Pod; watching: boolean; pending: boolean } {
    const { scheduler, timeline, nodeName } = this.host;
    const now = scheduler.now();
    const available = this.host.memoryAvailable();
    const met = thresholdsMet(this.thresholds, available);
    this.thresholdsFirstObserved = thresholdsFirstObservedAt(met, this.thresholdsFirstObserved, now);
    const observed = met.length > 0 ? [MEMORY_PRESSURE] : [];
    const lastObserved = new Map(this.nodeConditionsLastObserved);
    for (const c of observed) lastObserved.set(c, now);
    this.nodeConditionsLastObserved = lastObserved;
    const conditions = nodeConditionsObservedSince(lastObserved, this.config.evictionPressureTransitionPeriodMs, now);
    for (const [c, at] of lastObserved)
      if (now - at >= this.config.evictionPressureTransitionPeriodMs) this.nodeConditionsLastObserved.delete(c);
    const ready = thresholdsMetGracePeriod(this.thresholdsFirstObserved, now).sort(byEvictionPriority);
    const changed = conditions.join() !== this.nodeConditions.join();
    this.nodeConditions = conditions;
    const shown = available === undefined ? 'plenty' : formatQuantity(available);
    if (met.length > 0) {
      const waiting = met
        .filter((t) => !ready.includes(t))
        .map((t) => `${formatThreshold(t)} met for ${(now - this.thresholdsFirstObserved.get(t)!) / 1000}s`);
      const text = `eviction manager: memory.available=${shown}: thresholds met ${met.map(formatThreshold).join(', ')}${waiting.length ? `; eviction criteria not yet met: ${waiting.join(', ')}` : ''}`;
      timeline.record('kubelet', text, `${MANAGER_SOURCE} synchronize (thresholdsMet, thresholdsMetGracePeriod)`, {
        actor: nodeName,
      });
    }
    if (changed) {
      timeline.record(
        'kubelet',
        `eviction manager: node conditions ${conditions.length ? conditions.join(', ') : 'none'} (memory.available=${shown})`,
        `${MANAGER_SOURCE} synchronize (nodeConditionsObservedSince)`,
        { actor: nodeName },
      );
      this.host.nodeConditionsChanged();
    }
    // Still to watch: a threshold met, or a condition that has yet to expire. Pending (foreground):
    // a soft threshold waiting for its grace period, or a condition that will be lifted.
    const watching = met.length > 0 || conditions.length > 0;
    const pending = met.length > ready.length || (conditions.length > 0 && met.length === 0);
    if (ready.length === 0) return { watching, pending };
    const evicted = this.evictOne(ready, available);
    return { evicted, watching, pending };
  }

  /** The thresholds met (grace satisfied): record EvictionThresholdMet, rank, evict the first pod that can be. */
  private evictOne(thresholds: Threshold[], available: number | undefined): Pod | undefined {
    const { timeline, nodeName, release } = this.host;
    const thresholdToReclaim = thresholds[0];
    this.host.recordNodeEvent(
      'Warning',
      'EvictionThresholdMet',
      `Attempting to reclaim ${RESOURCE_MEMORY}`,
      `${MANAGER_SOURCE} synchronize`,
    );
    // Memory has no node-level reclaim functions (image and container GC are for disk): pods must go.
    const active = this.host.getActivePods();
    if (active.length === 0) {
      timeline.record(
        'kubelet',
        'eviction manager: eviction thresholds have been met, but no pods are active to evict',
        `${MANAGER_SOURCE} synchronize`,
        { actor: nodeName },
      );
      return undefined;
    }
    const ranked = rankMemoryPressure(active, this.host.stats);
    timeline.record(
      'kubelet',
      `eviction manager: pods ranked for eviction: ${ranked.map((p) => `pods/${p.metadata.name}`).join(', ')}`,
      `${MANAGER_SOURCE} synchronize → helpers.go rankMemoryPressure`,
      { actor: nodeName },
    );
    const pod = ranked[0];
    // Hard: immediateEvictionGracePeriodSeconds (1 from v1.31, #124063; 0 before, which the pod
    // worker of those releases took for "unset": the spec's grace, V22). Soft: evictionMaxPodGracePeriod,
    // from v1.32 no more than the pod's own grace unless AllowOverwriteTerminationGracePeriodSeconds (#122890).
    let gracePeriodOverride = release.atLeast(31) ? 1 : 0;
    if (thresholdToReclaim.gracePeriodMs > 0) {
      gracePeriodOverride = this.config.evictionMaxPodGracePeriodSeconds;
      const spec = pod.spec?.terminationGracePeriodSeconds;
      if (spec !== undefined && !release.enabled('AllowOverwriteTerminationGracePeriodSeconds'))
        gracePeriodOverride = Math.min(gracePeriodOverride, spec);
    }
    const { message, annotations } = evictionMessage(pod, this.host.stats, thresholds, available);
    this.evictPod(pod, gracePeriodOverride, message, annotations);
    return pod;
  }

  /** evictPod (K72): the Warning Evicted Event (annotated), then killPodNow with the eviction status. */
  private evictPod(
    pod: Pod,
    gracePeriodOverride: number,
    message: string,
    annotations: EvictionAnnotations | undefined,
  ): void {
    const { scheduler, timeline, nodeName, release } = this.host;
    this.host.recordPodEvent(pod, 'Warning', EVICTED_REASON, message, `${MANAGER_SOURCE} evictPod`, annotations);
    timeline.record(
      'kubelet',
      `eviction manager: evicting pods/${pod.metadata.name} gracePeriodOverride=${gracePeriodOverride}`,
      `${MANAGER_SOURCE} evictPod`,
      { actor: nodeName },
    );
    const disruptionConditions = release.enabled('PodDisruptionConditions');
    this.host.killPodNow(
      pod,
      true,
      gracePeriodOverride,
      (status) => {
        status.phase = 'Failed';
        status.reason = EVICTED_REASON;
        status.message = message;
        if (disruptionConditions)
          updatePodCondition(
            status,
            { type: 'DisruptionTarget', status: 'True', reason: TERMINATION_BY_KUBELET, message },
            toTime(scheduler.now()),
          );
      },
      (err) => {
        if (err)
          timeline.record(
            'kubelet',
            `eviction manager: pod pods/${pod.metadata.name} failed to evict: ${err}`,
            `${MANAGER_SOURCE} evictPod`,
            { actor: nodeName },
          );
      },
    );
  }

  /** waitForPodsCleanup: poll every second until the pod is finished, at most 30 s; then synchronize at once. */
  private waitForPodsCleanup(pod: Pod): void {
    const { scheduler, timeline, nodeName } = this.host;
    this.cleaningUp = true;
    const started = scheduler.now();
    const name = `pods/${pod.metadata.name}`;
    const poll = () => {
      if (this.host.podIsFinished(pod.metadata.uid!)) {
        timeline.record(
          'kubelet',
          `eviction manager: pods successfully cleaned up: ${name}`,
          `${MANAGER_SOURCE} waitForPodsCleanup`,
          { actor: nodeName },
        );
      } else if (scheduler.now() - started >= POD_CLEANUP_TIMEOUT_MS) {
        timeline.record(
          'kubelet',
          `eviction manager: timed out waiting for pods to be cleaned up: ${name}`,
          `${MANAGER_SOURCE} waitForPodsCleanup`,
          { actor: nodeName },
        );
      } else {
        this.timer = scheduler.after(POD_CLEANUP_POLL_MS, poll);
        return;
      }
      this.cleaningUp = false;
      this.tick();
    };
    this.timer = scheduler.after(POD_CLEANUP_POLL_MS, poll);
  }
}

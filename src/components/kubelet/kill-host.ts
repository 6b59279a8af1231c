import type { Pod, PodStatus } from '../../apimachinery/types';
import type { Scheduler } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';

/**
 * What a kubelet manager that kills pods on its own is given of its kubelet (the node shutdown
 * manager's Config, the eviction manager's NewManager/Start arguments): its clock and release, the
 * active pods, killPodNow (K52), and its recorder for Events about the node.
 */
export interface KubeletKillHost {
  readonly scheduler: Scheduler;
  /** The kubelet's release and feature gates. */
  readonly release: Release;
  readonly timeline: Timeline;
  readonly nodeName: string;
  /** GetPodsFunc / ActivePodsFunc: the kubelet's active pods. */
  getActivePods(): Pod[];
  /** KillPodFunc: killPodNow (K52). */
  killPodNow(
    pod: Pod,
    isEvicted: boolean,
    gracePeriodOverride: number | undefined,
    statusFunc: (status: PodStatus) => void,
    done: (err?: string) => void,
  ): void;
  recordNodeEvent(type: 'Normal' | 'Warning', reason: string, message: string, source: string): void;
}

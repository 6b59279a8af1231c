import type { Pod } from '../../apimachinery/types';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { ContainerBehaviour } from './runtime';
import type { VolumeBehaviour } from './volume-manager';

/**
 * What a node of a resumed cluster (src/planning/restore/) already has when its kubelet process starts:
 * the containers the runtime runs, the volumes mounted, and the kill the kubelet was in the middle
 * of. A real kubelet finds its containers through the runtime (the PLEG's first relist, and
 * kuberuntime's GetPods at start-up) and its mounts on disk; the simulation is handed them, read
 * from the pods' status.
 */

/** One container as the runtime has it: from the pod's `status.containerStatuses`. */
export interface ResumedContainer {
  name: string;
  /** The runtime's id (`containerd://…`), as the status shows it. */
  id?: string;
  state: 'running' | 'exited';
  startedAt: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  restartCount: number;
}

export interface ResumedPod {
  uid: string;
  podRef: string;
  containers: ResumedContainer[];
  /** The pod's volumes, all mounted. */
  volumes: string[];
  /**
   * The pod has a deletionTimestamp and containers still running: the kubelet has been killing it
   * since the DELETE and sends SIGKILL at this virtual time (the deletionTimestamp).
   */
  killDeadlineMs?: number;
  /** Its sandbox's network teardown fails with this error (X14): the sandbox is still there, every StopPodSandbox fails. */
  sandboxTeardownError?: string;
}

export interface MachineState {
  pods: ResumedPod[];
  /**
   * How the resumed containers and volumes behave, keyed `UID name` (what was assumed, as the
   * Given steps changed it): in place before the kubelet starts, which may act on them at once.
   */
  containerBehaviours?: ReadonlyMap<string, ContainerBehaviour>;
  volumeBehaviours?: ReadonlyMap<string, VolumeBehaviour>;
  /** The node has been cut off from the apiserver since this virtual time (its lease went stale). */
  unreachableSince?: number;
}

/**
 * X4 — a resumed pod that is mid-kill (deletionTimestamp set, containers running). A kubelet
 * that has run since the DELETE (pod_workers.go UpdatePod: terminatingAt at the DELETE, the
 * grace period from deletionGracePeriodSeconds) sends SIGKILL at the deletionTimestamp, so the
 * worker resumes with what is left of the grace (at least 1 s, calculateEffectiveGracePeriod's
 * floor). A restarted kubelet would instead start the whole grace period over (HandlePodAdditions
 * → UpdatePod with the pod's deletionGracePeriodSeconds, K45): `When the kubelet on node … restarts`.
 */
export function resumeKillGrace(
  timeline: Timeline,
  nodeName: string,
  now: number,
  pod: Pod,
  deadlineMs: number,
): number {
  const remaining = Math.max(1, Math.ceil((deadlineMs - now) / 1000));
  timeline.record(
    'kubelet',
    `assumed: pods/${pod.metadata.name} is mid-kill since its DELETE: SIGKILL at its deletionTimestamp ${pod.metadata.deletionTimestamp}, remaining grace ${remaining}s`,
    'pkg/kubelet/pod_workers.go UpdatePod (a worker terminating since the DELETE; resumed from the objects)',
    { actor: nodeName },
  );
  return remaining;
}

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

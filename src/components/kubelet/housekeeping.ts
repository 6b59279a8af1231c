/**
 * The kubelet's housekeeping (kubelet_pods.go HandlePodCleanups, K43) and container GC
 * (kuberuntime_gc.go GarbageCollect, K41), run by their own loops.
 */
import type { Pod } from '../../apimachinery/types';
import { isTerminal } from '../../apiserver/pod-strategy';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { PodWorkers } from './pod-workers';
import type { ContainerRuntime } from './runtime';
import type { StatusManager } from './status-manager';
import type { VolumeManager } from './volume-manager';

/** What housekeeping reads and drives: the kubelet's parts, and its two loops' wake-ups. */
export interface HousekeepingContext {
  readonly timeline: Timeline;
  readonly nodeName: string;
  /** Every config source has delivered its pods. */
  synced(): boolean;
  readonly podManager: ReadonlyMap<string, Pod>;
  readonly workers: PodWorkers;
  readonly statusManager: StatusManager;
  readonly volumes: VolumeManager;
  readonly runtime: ContainerRuntime;
  readonly orphanKillGracePeriodSeconds: number;
  wakeHousekeeping(): void;
  wakeContainerGC(): void;
}

/**
 * HandlePodCleanups: SyncKnownPods drives orphaned workers to completion and forgets finished
 * ones; statuses and directories of pods gone from config are dropped (a directory only once its
 * volumes are unmounted, K42); pods in config the workers do not know are restarted (same-uid
 * re-create, K22), or — terminal and deleted — sent a Kill so the final DELETE happens
 * (filterTerminalPodsToDelete); runtime pods nobody knows are killed with a 1 s grace (K30).
 * The loop keeps waking itself while orphans are still being driven.
 */
export function handlePodCleanups(k: HousekeepingContext): void {
  // syncLoopIteration skips housekeeping until every config source has delivered its pods: a
  // kubelet that has not heard from the apiserver would take every running pod for an orphan.
  if (!k.synced()) return k.wakeHousekeeping();
  const desired = new Set(k.podManager.keys());
  const working = k.workers.syncKnownPods(desired);
  k.statusManager.removeOrphanedStatuses(desired);
  let again = false;
  for (const uid of k.volumes.podUIDs()) {
    if (desired.has(uid) || k.runtime.isRunningPod(uid)) continue;
    if (!k.volumes.forget(uid)) again = true;
  }
  for (const pod of k.podManager.values()) {
    const uid = pod.metadata.uid!;
    if (working.has(uid) || k.workers.isPodKnownTerminated(uid) || isAdmittedPodTerminal(k.statusManager, pod))
      continue;
    k.timeline.record(
      'kubelet',
      `housekeeping restarts pods/${pod.metadata.name} (in config, unknown to the pod workers)`,
      'pkg/kubelet/kubelet_pods.go HandlePodCleanups',
      { actor: k.nodeName },
    );
    k.workers.updatePod({ updateType: 'create', pod });
    working.set(uid, { state: 'sync', orphan: false });
  }
  for (const pod of k.podManager.values()) {
    const uid = pod.metadata.uid!;
    if (
      pod.metadata.deletionTimestamp === undefined ||
      !isTerminal(pod) ||
      working.has(uid) ||
      k.runtime.isRunningPod(uid)
    )
      continue;
    k.timeline.record(
      'kubelet',
      `housekeeping kills pods/${pod.metadata.name} (terminal, deleted, unknown to the pod workers)`,
      'pkg/kubelet/kubelet_pods.go HandlePodCleanups → filterTerminalPodsToDelete',
      { actor: k.nodeName },
    );
    k.workers.updatePod({ updateType: 'kill', pod });
  }
  for (const sandbox of k.runtime.allSandboxes()) {
    if (working.has(sandbox.uid) || !k.runtime.isRunningPod(sandbox.uid)) continue;
    const orphan: Pod = {
      metadata: { uid: sandbox.uid, name: sandbox.podRef.replace('pods/', ''), namespace: 'default' },
      spec: { containers: [...sandbox.containers.keys()].map((name) => ({ name })) },
    };
    k.workers.updatePod({
      updateType: 'kill',
      pod: orphan,
      runningPod: true,
      killPodOptions: { gracePeriodOverride: k.orphanKillGracePeriodSeconds },
    });
    working.set(sandbox.uid, { state: 'terminating', orphan: true });
  }
  if (
    k.runtime
      .allSandboxes()
      .some((sb) => !k.runtime.isRunningPod(sb.uid) && k.workers.shouldPodContentBeRemoved(sb.uid))
  )
    k.wakeContainerGC();
  if (again || [...working.values()].some((w) => w.orphan)) k.wakeHousekeeping();
}

/** isAdmittedPodTerminal: the API or the status manager already holds a terminal phase. */
export function isAdmittedPodTerminal(statusManager: StatusManager, pod: Pod): boolean {
  const cached = statusManager.getPodStatus(pod.metadata.uid!)?.phase;
  return isTerminal(pod) || cached === 'Succeeded' || cached === 'Failed';
}

/**
 * containerGC (kuberuntime_gc.go GarbageCollect): for pods whose content may go
 * (ShouldPodContentBeRemoved), evictContainers removes the exited containers still there (e.g.
 * the kubelet was down when they died), then evictSandboxes the stopped sandbox.
 */
export function garbageCollectContainers(runtime: ContainerRuntime, workers: PodWorkers): void {
  for (const sandbox of runtime.allSandboxes()) {
    if (runtime.isRunningPod(sandbox.uid) || !workers.shouldPodContentBeRemoved(sandbox.uid)) continue;
    for (const c of [...sandbox.containers.values()])
      runtime.removeContainer(
        sandbox.uid,
        c.name,
        'pkg/kubelet/kuberuntime/kuberuntime_gc.go evictContainers → removeContainer',
      );
    runtime.removePodSandbox(sandbox.uid);
  }
}

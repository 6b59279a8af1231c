/** pod_workers.go killPodNow (K52): the kill the eviction and node shutdown managers ask for. */
import type { Pod, PodStatus } from '../../apimachinery/types';
import type { ProcessScheduler } from '../../foundation/clock';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { PodWorkers } from './pod-workers';

/** What killPodNow uses of its kubelet. */
export interface KillPodNowContext {
  readonly scheduler: ProcessScheduler;
  readonly timeline: Timeline;
  readonly nodeName: string;
  readonly workers: PodWorkers;
  /** A Warning Event about the pod. */
  recordEvent(pod: Pod, reason: string, message: string, source: string): void;
}

/**
 * pod_workers.go killPodNow (K52), the KillPodFunc handed to eviction and node shutdown: a kill
 * update with the override, evict flag and status function, then a wait for the worker to finish
 * terminating (CompletedCh) of at most max(10 s, grace + grace/2 in whole seconds); on timeout a
 * Warning ExceededGracePeriod and an error. The kill itself goes on after a timeout.
 */
export function killPodNow(
  k: KillPodNowContext,
  pod: Pod,
  isEvicted: boolean,
  gracePeriodOverride: number | undefined,
  statusFunc: ((status: PodStatus) => void) | undefined,
  done: (err?: string) => void,
): void {
  const gracePeriod = gracePeriodOverride ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
  const timeoutSeconds = Math.max(10, gracePeriod + Math.floor(gracePeriod / 2));
  const name = pod.metadata.name;
  let over = false;
  k.timeline.record(
    'kubelet',
    `killPodNow pods/${name} gracePeriod=${gracePeriod} (waits at most ${timeoutSeconds}s)`,
    'pkg/kubelet/pod_workers.go killPodNow',
    { actor: k.nodeName },
  );
  const timer = k.scheduler.after(timeoutSeconds * 1000, () => {
    if (over) return;
    over = true;
    k.recordEvent(
      pod,
      'ExceededGracePeriod',
      'Container runtime did not kill the pod within specified grace period.',
      'pkg/kubelet/pod_workers.go killPodNow',
    );
    k.timeline.record(
      'kubelet',
      `killPodNow pods/${name}: timeout waiting to kill pod after ${timeoutSeconds}s`,
      'pkg/kubelet/pod_workers.go killPodNow',
      { actor: k.nodeName },
    );
    done('timeout waiting to kill pod');
  });
  const completed = () => {
    if (over) return;
    over = true;
    k.scheduler.cancel(timer);
    done();
  };
  k.workers.updatePod({
    updateType: 'kill',
    pod,
    killPodOptions: { gracePeriodOverride, evict: isEvicted, statusFunc, completed: k.scheduler.guard(completed) },
  });
}

/** SyncPod's start of the containers computePodActions picked, with the crash-loop back-off (K55). */
import type { Pod } from '../../apimachinery/types';
import { type Backoff, goDuration } from './backoff';
import type { ContainerRuntime } from './runtime';
import { isRegularInitContainer, type WaitingReason } from './status';

/** What the start uses of its kubelet. */
export interface ContainerStartContext {
  readonly runtime: ContainerRuntime;
  /** kubelet.go backOff (crash loops): per container of a pod, 10 s doubling to 5 min. */
  readonly crashLoopBackOff: Backoff;
  now(): number;
  /** A Warning Event about one container of the pod. */
  recordEvent(pod: Pod, container: string, reason: string, message: string, source: string): void;
  /** PLEG will see the container start. */
  plegEvent(uid: string): void;
}

/**
 * SyncPod's start (kuberuntime_manager.go SyncPod → start, doBackOff) for the containers
 * computePodActions picked, in order. One that ran before is held back while its crash-loop
 * back-off lasts, counted from the end of its last run: it waits with CrashLoopBackOff (not a sync
 * error); otherwise the back-off grows (Next, from that end) and it starts again (K55). One that
 * never ran starts now, or after its image is pulled (returned in `toPull`). A regular init container
 * that is held back ends the starts of this sync.
 */
export function startContainers(
  k: ContainerStartContext,
  pod: Pod,
  names: readonly string[],
  reasons: Map<string, WaitingReason>,
): { backedOff: boolean; toPull: string[] } {
  const uid = pod.metadata.uid!;
  const sandbox = k.runtime.sandbox(uid)!;
  const now = k.now();
  const podName = `${pod.metadata.name}_${pod.metadata.namespace}(${uid})`;
  const toPull: string[] = [];
  let backedOff = false;
  for (const name of names) {
    const c = sandbox.containers.get(name);
    const runsToCompletion = isRegularInitContainer(pod, name);
    if (!c) {
      if (k.runtime.needsPull(uid, name)) toPull.push(name);
      else {
        k.runtime.startContainer(uid, name, runsToCompletion);
        k.plegEvent(uid);
      }
      continue;
    }
    if (c.state !== 'exited') continue;
    // getStableKey: pod name, namespace, uid, container name (and its spec hash).
    const key = `${podName}_${name}`;
    const finishedAt = c.finishedAt ?? now;
    if (k.crashLoopBackOff.isInBackOffSince(key, finishedAt, now)) {
      reasons.set(name, {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(k.crashLoopBackOff.get(key))} restarting failed container=${name} pod=${podName}`,
      });
      k.recordEvent(
        pod,
        name,
        'BackOff',
        `Back-off restarting failed container ${name} in pod ${podName}`,
        'pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff',
      );
      backedOff = true;
      if (runsToCompletion) break;
      continue;
    }
    k.crashLoopBackOff.next(key, finishedAt);
    reasons.delete(name);
    k.runtime.startContainer(uid, name, runsToCompletion);
    k.plegEvent(uid);
  }
  return { backedOff, toPull };
}

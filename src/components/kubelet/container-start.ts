/** SyncPod's start of the containers computePodActions picked, with the crash-loop back-off (K55). */
import type { Pod } from '../../apimachinery/types';
import { type Backoff, goDuration } from './backoff';
import type { ContainerRuntime, Sandbox } from './runtime';
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
  /** The prober's last liveness or startup result of a container. */
  probeResult(uid: string, container: string, type: 'liveness' | 'startup'): string | undefined;
  /** A Normal Killing Event about one container of the pod. */
  killing(pod: Pod, container: string, message: string, source: string): void;
  /** CRI StopContainer with the grace period; PLEG sees the exit. */
  stopContainer(uid: string, container: string, gracePeriodSeconds: number): void;
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

/**
 * N12 — kuberuntime_manager.go computePodActions: a running container whose liveness (or
 * startup) probe failed is killed with the pod's grace period, and started again by the restart
 * rules once it has exited. Its Killing event says ", will be restarted" only when computePodActions
 * restarts it (shouldRestartOnFailure: the pod's restartPolicy is not Never); V70 — with
 * ContainerRestartRules a container's own restartPolicy decides instead (not Never), its rules
 * being for exit codes, which a running container does not have.
 */
export function killUnhealthyContainers(k: ContainerStartContext, pod: Pod, sandbox: Sandbox): void {
  const uid = pod.metadata.uid!;
  for (const spec of pod.spec?.containers ?? []) {
    const c = sandbox.containers.get(spec.name);
    if (!c || c.state !== 'running' || c.sigtermAt !== undefined) continue;
    const failed =
      k.probeResult(uid, spec.name, 'liveness') === 'Failure'
        ? 'liveness'
        : k.probeResult(uid, spec.name, 'startup') === 'Failure'
          ? 'startup'
          : undefined;
    if (!failed) continue;
    const restart =
      spec.restartPolicy !== undefined ? spec.restartPolicy !== 'Never' : pod.spec?.restartPolicy !== 'Never';
    k.killing(
      pod,
      spec.name,
      `Container ${spec.name} failed ${failed} probe${restart ? ', will be restarted' : ''}`,
      'pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions → killContainer',
    );
    k.stopContainer(uid, spec.name, pod.spec?.terminationGracePeriodSeconds ?? 30);
  }
}

import { toTime } from '../apiserver/object';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../apiserver/types';
import type { Sandbox } from './runtime';

/** Conditions the kubelet owns (pkg/kubelet/types/pod_status.go PodConditionsByKubelet). */
export const KUBELET_CONDITIONS: ReadonlySet<string> = new Set(['PodScheduled', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']);

function isSidecar(pod: Pod, name: string): boolean {
  return (pod.spec?.initContainers ?? []).some((c) => c.name === name && c.restartPolicy === 'Always');
}

/** kubelet_pods.go convertToAPIContainerStatuses for one container, from the runtime's view. */
function containerStatus(name: string, image: string, sandbox: Sandbox | undefined): ContainerStatus {
  const c = sandbox?.containers.get(name);
  const base = { name, image, imageID: '', restartCount: 0 };
  if (!c) return { ...base, ready: false, started: false, state: { waiting: { reason: 'ContainerCreating' } } };
  if (c.state === 'running') {
    return { ...base, containerID: c.id, ready: true, started: true, state: { running: { startedAt: toTime(c.startedAt) } } };
  }
  return {
    ...base,
    containerID: c.id,
    ready: false,
    started: false,
    state: { terminated: { exitCode: c.exitCode ?? 0, reason: c.reason, startedAt: toTime(c.startedAt), finishedAt: toTime(c.finishedAt ?? c.startedAt), containerID: c.id } },
  };
}

/**
 * kubelet_pods.go getPhase: with containers still running the pod is Running; once every regular
 * container has stopped, a terminal computation gives Succeeded (all exit 0) or Failed, whatever
 * the restartPolicy (K32); sidecars do not count. Not terminal and restartPolicy Always: Running.
 */
export function getPhase(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean): string {
  const regular = statuses.filter((s) => !isSidecar(pod, s.name));
  const running = regular.filter((s) => s.state?.running).length;
  const waiting = regular.filter((s) => s.state?.waiting).length;
  const stopped = regular.filter((s) => s.state?.terminated);
  if (waiting > 0 && running === 0 && stopped.length === 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped.length === 0) return 'Pending';
  if (podIsTerminal || pod.spec?.restartPolicy !== 'Always') {
    return stopped.every((s) => s.state?.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
  }
  return 'Running';
}

function condition(type: string, ok: boolean, now: number, reason?: string, message?: string): PodCondition {
  return { type, status: ok ? 'True' : 'False', lastTransitionTime: toTime(now), ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/**
 * kubelet_pods.go generateAPIPodStatus: the status the kubelet wants the API to hold, from the
 * runtime's state. Once the API phase is terminal it never moves back (K32).
 */
export function generateAPIPodStatus(pod: Pod, sandbox: Sandbox | undefined, podIsTerminal: boolean, now: number): PodStatus {
  const spec = pod.spec!;
  const initStatuses = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => containerStatus(c.name, c.image ?? '', sandbox));
  const statuses = spec.containers.map((c) => containerStatus(c.name, c.image ?? '', sandbox));
  const old = pod.status ?? {};
  let phase = getPhase(pod, [...initStatuses, ...statuses], podIsTerminal);
  if (old.phase === 'Succeeded' || old.phase === 'Failed') phase = old.phase;
  const notReady = [...initStatuses, ...statuses].filter((s) => !s.ready).map((s) => s.name);
  const ready = notReady.length === 0;
  const unready = ready ? undefined : 'ContainersNotReady';
  const message = ready ? undefined : `containers with unready status: [${notReady.join(' ')}]`;
  const conditions = [
    condition('PodReadyToStartContainers', sandbox?.state === 'ready', now),
    condition('Initialized', true, now),
    condition('Ready', ready, now, unready, message),
    condition('ContainersReady', ready, now, unready, message),
    condition('PodScheduled', true, now),
  ];
  return {
    ...old,
    phase,
    conditions,
    hostIP: old.hostIP ?? '10.0.0.1',
    podIP: old.podIP ?? '10.244.0.1',
    startTime: old.startTime ?? toTime(now),
    ...(initStatuses.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
  };
}

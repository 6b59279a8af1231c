/**
 * V70 — KEP-5532's RestartAllContainers action (gate RestartAllContainersOnContainerExits: α off
 * 1.35, kubernetes#134345; β on 1.36, kubernetes#136681): when a container (init, sidecar or
 * regular) exits with a code that matches a rule whose action is RestartAllContainers, the kubelet
 * restarts the whole pod in place. Two phases, driven by the AllContainersRestarting condition:
 * termination (condition True: every running container is killed without its grace period or
 * preStop hook, then every init and regular container is removed from the runtime; sandbox, IP and
 * volumes stay), then startup (condition False once nothing is left in the runtime: the ordinary
 * start, init containers first).
 */
import type { Pod, PodCondition, PodStatus } from '../../apimachinery/types';
import {
  allContainersCouldRestart,
  findMatchingContainerRestartRule,
  type RestartRuleGates,
} from '../../helpers/container-restart';
import type { Sandbox } from './runtime';

/** The reason of the condition while the restart is under way (status/generate.go RestartAllContainersStarted). */
export const RESTART_ALL_CONTAINERS_STARTED = 'RestartAllContainersStarted';
/** The reason convertToAPIContainerStatuses gives a container removed for the restart. */
export const RESTARTING_ALL_CONTAINERS = 'RestartingAllContainers';

const SOURCE = 'pkg/kubelet/kuberuntime/kuberuntime_manager.go SyncPod (restartAllContainers: ContainersToReset)';

const containersOf = (pod: Pod) => [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];

const triggers = (pod: Pod, name: string, exitCode: number): boolean => {
  const spec = containersOf(pod).find((c) => c.name === name);
  return !!spec && findMatchingContainerRestartRule(spec, exitCode)?.action === 'RestartAllContainers';
};

/**
 * pkg/kubelet/container/helpers.go ShouldAllContainersRestart: the previous status says the
 * restart is under way (AllContainersRestarting True), or a container that exited in the runtime,
 * or one the previous status shows terminated, matches a RestartAllContainers rule. Never for a
 * pod being deleted: its termination is the ordinary one.
 */
export function shouldAllContainersRestart(pod: Pod, sandbox: Sandbox | undefined, old: PodStatus): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  if ((old.conditions ?? []).some((c) => c.type === 'AllContainersRestarting' && c.status === 'True')) return true;
  for (const c of sandbox?.containers.values() ?? [])
    if (c.state === 'exited' && triggers(pod, c.name, c.exitCode ?? 0)) return true;
  for (const s of [...(old.initContainerStatuses ?? []), ...(old.containerStatuses ?? [])]) {
    const ended = s.state?.terminated;
    if (ended && ended.reason !== RESTARTING_ALL_CONTAINERS && triggers(pod, s.name, ended.exitCode)) return true;
  }
  return false;
}

/** pkg/kubelet/container/helpers.go AllContainersRestartCleanedUp: no init or regular container is left in the runtime. */
export function allContainersRestartCleanedUp(pod: Pod, sandbox: Sandbox | undefined): boolean {
  return containersOf(pod).every((c) => !sandbox?.containers.has(c.name));
}

/** The pod could restart in place: the gate on and a RestartAllContainers rule (AllContainersCouldRestart). */
export function couldRestartAllContainers(pod: Pod, gates: RestartRuleGates): boolean {
  return gates.restartAll && allContainersCouldRestart(pod.spec);
}

/**
 * status/generate.go GenerateAllContainersRestartingCondition, which generateAPIPodStatus adds for
 * a pod with a RestartAllContainers rule (AllContainersCouldRestart) while the gate is on: False
 * with PodCompleted or PodFailed in a terminal phase; True (RestartAllContainersStarted,
 * "container exited with restart policy rule") while the restart is due and containers are left
 * in the runtime; False otherwise. It carries no observedGeneration.
 */
export function allContainersRestartingCondition(
  pod: Pod,
  sandbox: Sandbox | undefined,
  old: PodStatus,
  phase: string,
  time: string,
): PodCondition {
  const c = (status: 'True' | 'False', reason?: string, message?: string): PodCondition => {
    const prev = (old.conditions ?? []).find((x) => x.type === 'AllContainersRestarting');
    const condition: PodCondition = {
      type: 'AllContainersRestarting',
      status,
      lastTransitionTime: prev?.status === status ? (prev.lastTransitionTime ?? time) : time,
    };
    if (reason) condition.reason = reason;
    if (message) condition.message = message;
    return condition;
  };
  if (phase === 'Succeeded') return c('False', 'PodCompleted');
  if (phase === 'Failed') return c('False', 'PodFailed');
  if (!shouldAllContainersRestart(pod, sandbox, old) || allContainersRestartCleanedUp(pod, sandbox)) return c('False');
  return c('True', RESTART_ALL_CONTAINERS_STARTED, 'container exited with restart policy rule');
}

/**
 * kubelet.go SyncPod: restartingAllContainers when the status it just generated has
 * AllContainersRestarting True (only generated with the gate on); SyncPod then resets instead of starting.
 */
export function restartingAll(status: PodStatus): boolean {
  return (status.conditions ?? []).some((c) => c.type === 'AllContainersRestarting' && c.status === 'True');
}

/** What the reset uses of its kubelet. */
export interface ResetContext {
  readonly sandbox: Sandbox;
  /**
   * The pods (uids) whose reset this kubelet process has under way — its kills take up to the
   * 2 s floor — so that a sync meanwhile does not start another; a restarted kubelet starts empty.
   */
  readonly resetting: Set<string>;
  /** killContainer with a grace period override of 0 (KubeRuntimeManager.killContainerForRestart). */
  kill(name: string, done: (err?: string) => void): void;
  /** CRI RemoveContainer of an exited container. */
  remove(name: string, source: string): void;
  /** The pod worker syncs the pod again (the kubelet requeues it once the containers are removed). */
  requeue(): void;
  /** A line of the kubelet's timeline. */
  note(text: string, source: string): void;
}

/**
 * SyncPod with restartAllContainers (computePodActions → ContainersToReset, getContainersToReset):
 * every container still running is killed, then every init and regular container is removed
 * from the runtime (the containers that were not the trigger first, the trigger last); then the
 * pod is synced again, and with nothing left in the runtime the condition turns False and the
 * ordinary start begins with the first init container.
 */
export function resetAllContainers(pod: Pod, k: ResetContext): void {
  const uid = k.sandbox.uid;
  if (k.resetting.has(uid)) return;
  k.resetting.add(uid);
  const trigger = [...k.sandbox.containers.values()].find(
    (c) => c.state === 'exited' && triggers(pod, c.name, c.exitCode ?? 0),
  );
  k.note(
    `pods/${pod.metadata.name}: ${trigger ? `container ${trigger.name} exited ${trigger.exitCode} (a RestartAllContainers rule)` : 'AllContainersRestarting'}: every container is killed and removed, the pod restarts in place`,
    SOURCE,
  );
  const running = [...k.sandbox.containers.values()].filter((c) => c.state === 'running').map((c) => c.name);
  let left = running.length;
  const removeAll = () => {
    const present = containersOf(pod).filter((c) => k.sandbox.containers.has(c.name));
    const isTrigger = (name: string) => {
      const c = k.sandbox.containers.get(name);
      return c?.state === 'exited' && triggers(pod, name, c.exitCode ?? 0);
    };
    const order = [...present.filter((c) => !isTrigger(c.name)), ...present.filter((c) => isTrigger(c.name))];
    for (const c of order) k.remove(c.name, SOURCE);
    k.resetting.delete(uid);
    k.requeue();
  };
  if (left === 0) return removeAll();
  for (const name of running)
    k.kill(name, () => {
      left -= 1;
      if (left === 0) removeAll();
    });
}

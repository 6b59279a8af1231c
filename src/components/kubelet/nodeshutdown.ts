import { toTime } from '../../apimachinery/object';
import type { Pod, PodStatus } from '../../apimachinery/types';
import type { TimerHandle } from '../../foundation/clock';
import type { KubeletKillHost } from './kill-host';
import { updatePodCondition } from './status';

const LINUX = 'pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go';
const MANAGER = 'pkg/kubelet/nodeshutdown/nodeshutdown_manager.go';

/** nodeshutdown_manager.go: the status a pod killed by a node shutdown is given (K51). */
export const NODE_SHUTDOWN_REASON = 'Terminated';
export const NODE_SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
/** ShutdownStatus's error, which the node's Ready condition carries while the node shuts down. */
export const NODE_SHUTTING_DOWN = 'node is shutting down';
/** v1.PodReasonTerminationByKubelet. */
export const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

/** scheduling.DefaultPriorityWhenNoDefaultClassExists and SystemCriticalPriority. */
export const DEFAULT_PRIORITY = 0;
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
/** The built-in priority classes (scheduling/types.go); the Priority admission plugin resolves them. */
const BUILTIN_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-cluster-critical': SYSTEM_CRITICAL_PRIORITY,
  'system-node-critical': SYSTEM_CRITICAL_PRIORITY + 1000,
};

/** The kubelet configuration of graceful node shutdown (KubeletConfiguration); 0 turns it off. */
export interface ShutdownConfig {
  shutdownGracePeriodSeconds: number;
  shutdownGracePeriodCriticalPodsSeconds: number;
}

/** kubeletconfig.ShutdownGracePeriodByPodPriority. */
export interface ShutdownPriorityPeriod {
  priority: number;
  shutdownGracePeriodSeconds: number;
}

/**
 * migrateConfig: shutdownGracePeriod and shutdownGracePeriodCriticalPods become two priority
 * groups — regular pods (priority ≥ 0) get the difference, critical pods (≥ 2000000000) the
 * critical period. An unset or inconsistent configuration gives none (the feature is off).
 */
export function migrateConfig(config: ShutdownConfig): ShutdownPriorityPeriod[] {
  const requested = config.shutdownGracePeriodSeconds;
  const critical = config.shutdownGracePeriodCriticalPodsSeconds;
  if (requested === 0) return [];
  const regular = requested - critical;
  if (regular < 0 || requested - regular < 0) return [];
  return [
    { priority: DEFAULT_PRIORITY, shutdownGracePeriodSeconds: regular },
    { priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: requested - regular },
  ];
}

/**
 * The pod's spec.priority. This simulation's apiserver has no Priority admission plugin, so a pod
 * without spec.priority gets the value of its built-in priorityClassName here (0 otherwise).
 */
export function podPriority(pod: Pod): number {
  if (pod.spec?.priority !== undefined) return pod.spec.priority;
  return BUILTIN_PRIORITY_CLASSES[pod.spec?.priorityClassName ?? ''] ?? DEFAULT_PRIORITY;
}

export interface ShutdownGroup extends ShutdownPriorityPeriod {
  pods: Pod[];
}

/**
 * groupByPriority: each pod goes to the group with the highest priority not above its own (pods
 * below the lowest group go to the lowest); groups stay in ascending priority order.
 */
export function groupByPriority(periods: readonly ShutdownPriorityPeriod[], pods: readonly Pod[]): ShutdownGroup[] {
  const groups: ShutdownGroup[] = [...periods].sort((a, b) => a.priority - b.priority).map((p) => ({ ...p, pods: [] }));
  if (groups.length === 0) return groups;
  for (const pod of pods) {
    const priority = podPriority(pod);
    let index = groups.findIndex((g) => g.priority >= priority);
    if (index < 0) index = groups.length - 1;
    else if (index > 0 && groups[index].priority > priority) index -= 1;
    groups[index].pods.push(pod);
  }
  return groups;
}

/**
 * The status function killPods hands to killPodNow: phase Failed unless already Succeeded, reason
 * Terminated, the shutdown message, and — with PodDisruptionConditions (beta on from v1.26, #112360;
 * GA v1.31) — DisruptionTarget=True (TerminationByKubelet) set the way podutil.UpdatePodCondition
 * does (a new transition time only when the status changes).
 */
export function nodeShutdownStatus(now: number, disruptionConditions = true): (status: PodStatus) => void {
  return (status) => {
    if (status.phase !== 'Succeeded') status.phase = 'Failed';
    status.message = NODE_SHUTDOWN_MESSAGE;
    status.reason = NODE_SHUTDOWN_REASON;
    if (!disruptionConditions) return;
    updatePodCondition(
      status,
      { type: 'DisruptionTarget', status: 'True', reason: TERMINATION_BY_KUBELET, message: NODE_SHUTDOWN_MESSAGE },
      toTime(now),
    );
  };
}

/** What the shutdown manager needs of its kubelet (nodeshutdown Config). */
export interface ShutdownHost extends KubeletKillHost {
  /** The volume manager: does the pod still have volumes mounted (WaitForAllPodsUnmount)? */
  podVolumesExist(uid: string): boolean;
  /** SyncNodeStatusFunc: report the node's status now (Ready=False with the shutdown error). */
  syncNodeStatus(): void;
}

/** volume_manager.go WaitForAllPodsUnmount polls like WaitForUnmount. */
const UNMOUNT_POLL_MS = 300;

/**
 * The node shutdown manager of one kubelet (pkg/kubelet/nodeshutdown, K51). On a shutdown event
 * (systemd-logind PrepareForShutdown while the kubelet holds a delay inhibitor lock) it reports the
 * node not ready, then kills the active pods group by group in ascending priority through
 * killPodNow: each pod with min(group period, spec grace) and a status function that makes it
 * Failed/Terminated with DisruptionTarget; each group is waited for — its kills, then its
 * volumes — at most its own period. Pods are not deleted from the API. Then the inhibitor lock
 * is released and the machine goes down (`onDone`).
 */
export class NodeShutdownManager {
  private shuttingDown = false;

  constructor(
    private readonly host: ShutdownHost,
    readonly config: ShutdownConfig,
  ) {}

  /** The shutdown groups of this configuration; none means the feature is off (managerStub). */
  get periods(): ShutdownPriorityPeriod[] {
    return migrateConfig(this.config);
  }

  /** ShutdownStatus: the error the node's Ready condition reports while the node shuts down. */
  shutdownStatus(): string | undefined {
    return this.shuttingDown ? NODE_SHUTTING_DOWN : undefined;
  }

  /**
   * The shutdown event arrives. With the feature off (no groups) there is no inhibitor lock: the
   * node goes down at once and the pods are not touched.
   */
  shutdown(onDone: () => void): void {
    const { timeline, nodeName } = this.host;
    const periods = this.periods;
    if (periods.length === 0) {
      timeline.record(
        'kubelet',
        `node shutdown: no graceful configuration (shutdownGracePeriod=${this.config.shutdownGracePeriodSeconds}s), node shutdown will be immediate`,
        `${LINUX} NewManager (managerStub)`,
        { actor: nodeName },
      );
      return onDone();
    }
    timeline.record(
      'kubelet',
      `node shutdown: shutdown event detected (shutdownGracePeriod=${this.config.shutdownGracePeriodSeconds}s, shutdownGracePeriodCriticalPods=${this.config.shutdownGracePeriodCriticalPodsSeconds}s)`,
      `${LINUX} start (MonitorShutdown)`,
      { actor: nodeName },
    );
    this.host.recordNodeEvent('Normal', 'NodeShutdown', 'Shutdown manager detected shutdown event', `${LINUX} start`);
    this.shuttingDown = true;
    this.host.syncNodeStatus();
    this.processShutdownEvent(periods, onDone);
  }

  /** processShutdownEvent → podManager.killPods, then the inhibitor lock is released. */
  private processShutdownEvent(periods: readonly ShutdownPriorityPeriod[], onDone: () => void): void {
    const { timeline, nodeName } = this.host;
    const groups = groupByPriority(periods, this.host.getActivePods());
    const next = (i: number): void => {
      // A group without pods is not waited for.
      while (i < groups.length && groups[i].pods.length === 0) i += 1;
      if (i === groups.length) {
        timeline.record(
          'kubelet',
          'node shutdown: completed processing shutdown event, node will shutdown shortly',
          `${LINUX} processShutdownEvent (ReleaseInhibitLock)`,
          { actor: nodeName },
        );
        return onDone();
      }
      this.killGroup(groups[i], () => next(i + 1));
    };
    next(0);
  }

  private killGroup(group: ShutdownGroup, done: () => void): void {
    const { scheduler, timeline, nodeName } = this.host;
    const period = group.shutdownGracePeriodSeconds;
    const names = group.pods.map((p) => `pods/${p.metadata.name}`).join(', ');
    timeline.record(
      'kubelet',
      `node shutdown: killing priority group ${group.priority} (${names}) within ${period}s`,
      `${MANAGER} killPods`,
      { actor: nodeName },
    );
    let over = false;
    let poll: TimerHandle | undefined;
    const finish = (text: string) => {
      if (over) return;
      over = true;
      scheduler.cancel(timer);
      if (poll) scheduler.cancel(poll);
      timeline.record('kubelet', `node shutdown: ${text}`, `${MANAGER} killPods`, { actor: nodeName });
      done();
    };
    const timer = scheduler.after(period * 1000, () =>
      finish(`pod killing time out for priority group ${group.priority} after ${period}s`),
    );
    // After every kill has returned: WaitForAllPodsUnmount, bounded by the same period.
    const waitForUnmount = () => {
      if (over) return;
      if (group.pods.every((p) => !this.host.podVolumesExist(p.metadata.uid!)))
        return finish(`done waiting for all pods in priority group ${group.priority} to terminate`);
      poll = scheduler.after(UNMOUNT_POLL_MS, waitForUnmount);
    };
    let left = group.pods.length;
    for (const pod of group.pods) {
      let grace = period;
      const spec = pod.spec?.terminationGracePeriodSeconds;
      if (spec !== undefined && spec <= grace) grace = spec;
      this.host.killPodNow(
        pod,
        false,
        grace,
        nodeShutdownStatus(scheduler.now(), this.host.release.enabled('PodDisruptionConditions')),
        (err) => {
          if (err)
            timeline.record(
              'kubelet',
              `node shutdown: failed killing pods/${pod.metadata.name}: ${err}`,
              `${MANAGER} killPods`,
              { actor: nodeName },
            );
          left -= 1;
          if (left === 0) waitForUnmount();
        },
      );
    }
  }
}

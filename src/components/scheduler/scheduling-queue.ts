import type { Scheduler as Timers, TimerHandle } from '../../foundation/clock';
import type { Release } from '../../foundation/release';

/**
 * kube-scheduler's PriorityQueue (pkg/scheduler/backend/queue/scheduling_queue.go, before 1.32
 * pkg/scheduler/internal/queue) on the virtual clock: an active queue popped one pod at a time
 * (PrioritySort: higher spec.priority first, then the earlier arrival), a backoff queue, and the
 * unschedulable pods that wait for a cluster event that may help them.
 *
 * - A pod that failed goes to the unschedulable pods, or straight to the backoff queue if an event
 *   that may help it arrived while it was being scheduled (moveRequestCycle).
 * - An event (a node added, a node's taints, labels or allocatable changed, a bound pod deleted)
 *   moves the unschedulable pods it may help to the backoff queue while their back-off runs, else
 *   to the active queue: without SchedulerQueueingHints every pod one of whose rejecting plugins
 *   registered for the event (EventsToRegister); with them, only where such a plugin's hint says
 *   Queue (for a node event: the plugin now lets the pod onto that node,
 *   isSchedulableAfterNodeChange). A pod no plugin rejected (there were no nodes) moves on any.
 * - Back-off: podInitialBackoffSeconds 1 doubling per attempt up to podMaxBackoffSeconds 10
 *   (calculateBackoffDuration), from the time of the failure; flushBackoffQCompleted runs every
 *   second; with SchedulerPopFromBackoffQ (β 1.33) an empty active queue pops the backoff queue at once.
 * - flushUnschedulablePodsLeftover, every 30 s, moves the pods unschedulable for more than
 *   podMaxInUnschedulablePodsDuration (5 min).
 * - A pod with scheduling gates waits among the unschedulable pods (the SchedulingGates
 *   PreEnqueue plugin) and enters the active queue once an update removed its last gate.
 * The periodic flushes run only while a pod waits in their queue, as background work: a pod that
 * fits nowhere does not keep "the cluster settles" from settling.
 */
export const INITIAL_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 10_000;
export const MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;
const BACKOFF_FLUSH_MS = 1000;
const UNSCHEDULABLE_FLUSH_MS = 30_000;

/** The cluster events the modelled plugins register for (framework.ClusterEvent, by resource and action). */
export type ClusterEvent =
  | 'NodeAdd'
  | 'NodeTaint'
  | 'NodeLabel'
  | 'NodeAllocatable'
  | 'NodeSpecUnschedulable'
  | 'AssignedPodDelete'
  | 'PvcChange'
  | 'PvChange';

/** Each plugin's EventsToRegister (the ones that can make a pod it rejected schedulable). */
const PLUGIN_EVENTS: Readonly<Record<string, readonly ClusterEvent[]>> = {
  NodeUnschedulable: ['NodeAdd', 'NodeSpecUnschedulable', 'NodeTaint'],
  NodeName: ['NodeAdd'],
  TaintToleration: ['NodeAdd', 'NodeTaint'],
  NodeAffinity: ['NodeAdd', 'NodeLabel'],
  NodeResourcesFit: ['NodeAdd', 'NodeAllocatable', 'AssignedPodDelete'],
  // volume_binding.go EventsToRegister: claims and volumes added or updated (and nodes).
  VolumeBinding: ['NodeAdd', 'PvcChange', 'PvChange'],
};

/** framework.QueuedPodInfo: what the queue keeps of a pod between attempts. */
export interface QueuedPod {
  readonly key: string;
  priority: number;
  /** When it entered the queue first (InitialAttemptTimestamp), PrioritySort's tie-break. */
  readonly arrivedAt: number;
  /** When it was last queued or failed (Timestamp): back-off and the 5-minute flush count from here. */
  timestamp: number;
  attempts: number;
  /** The plugins that rejected it in its last attempt (UnschedulablePlugins); empty: none, e.g. no nodes at all. */
  rejectedBy: ReadonlySet<string>;
  gated: boolean;
  readonly seq: number;
}

export class SchedulingQueue {
  private readonly active: QueuedPod[] = [];
  private readonly backoff = new Map<string, QueuedPod>();
  private readonly unschedulable = new Map<string, QueuedPod>();
  private readonly all = new Map<string, QueuedPod>();
  private seq = 0;
  /** schedulingCycle and moveRequestCycle: was there a move request since this pod was popped? */
  private cycle = 0;
  private moveRequestCycle = -1;
  private backoffTimer?: TimerHandle;
  private unschedulableTimer?: TimerHandle;
  private readonly startedAt: number;

  constructor(
    private readonly clock: Timers,
    private readonly release: Release,
    /** Called when a pod became poppable (the scheduler's loop runs scheduleOne). */
    private readonly onActive: () => void,
  ) {
    this.startedAt = clock.now();
  }

  has(key: string): boolean {
    return this.all.has(key);
  }

  get size(): number {
    return this.all.size;
  }

  /** Add: a new unassigned pod; a gated one waits among the unschedulable pods. */
  add(key: string, priority: number, gated: boolean): void {
    if (this.all.has(key)) return this.update(key, priority, gated);
    const info: QueuedPod = {
      key,
      priority,
      arrivedAt: this.clock.now(),
      timestamp: this.clock.now(),
      attempts: 0,
      rejectedBy: new Set(),
      gated,
      seq: ++this.seq,
    };
    this.all.set(key, info);
    if (gated) this.unschedulable.set(key, info);
    else this.toActive(info);
  }

  /**
   * Update: the pod's spec or metadata changed (not only its status). A pod waiting as
   * unschedulable is tried again (isPodUpdated: after its back-off); one still gated stays.
   */
  update(key: string, priority: number, gated: boolean): void {
    const info = this.all.get(key);
    if (!info) return this.add(key, priority, gated);
    info.priority = priority;
    const wasGated = info.gated;
    info.gated = gated;
    if (gated || !this.unschedulable.has(key)) return;
    this.unschedulable.delete(key);
    if (wasGated) this.toActive(info);
    else this.requeue(info);
  }

  delete(key: string): void {
    const info = this.all.get(key);
    if (!info) return;
    this.all.delete(key);
    this.unschedulable.delete(key);
    this.backoff.delete(key);
    const i = this.active.indexOf(info);
    if (i >= 0) this.active.splice(i, 1);
  }

  /** Pop: the next pod to schedule (the active queue's head; with SchedulerPopFromBackoffQ, else the backoff queue's first). */
  pop(): QueuedPod | undefined {
    let info = this.active.shift();
    if (!info && this.release.enabled('SchedulerPopFromBackoffQ')) {
      info = [...this.backoff.values()].sort(
        (a, b) => this.backoffExpiry(a) - this.backoffExpiry(b) || a.seq - b.seq,
      )[0];
      if (info) this.backoff.delete(info.key);
    }
    if (!info) return undefined;
    this.all.delete(info.key);
    info.attempts += 1;
    this.cycle += 1;
    return info;
  }

  /** The cycle number of the pod last popped, for AddUnschedulableIfNotPresent. */
  get schedulingCycle(): number {
    return this.cycle;
  }

  /**
   * AddUnschedulableIfNotPresent: a pod that fit nowhere, with the plugins that rejected it. If a
   * move request came after it was popped, it goes to the backoff queue, not to wait for another.
   */
  addUnschedulable(info: QueuedPod, rejectedBy: ReadonlySet<string>, podCycle: number): void {
    if (this.all.has(info.key)) return;
    info.timestamp = this.clock.now();
    info.rejectedBy = rejectedBy;
    this.all.set(info.key, info);
    if (this.moveRequestCycle >= podCycle) this.toBackoff(info);
    else {
      this.unschedulable.set(info.key, info);
      this.scheduleUnschedulableFlush();
    }
  }

  /**
   * MoveAllToActiveOrBackoffQueue for one cluster event; `hint` is the queueing hint of a plugin
   * for a pod (QueueingHintFn: does this event make the pod schedulable as far as that plugin goes?).
   * `preCheck` is a node event's preCheckForNode: without SchedulerQueueingHints a pod it fails
   * stays where it is whatever its plugins registered for; with the hints upstream passes none.
   */
  moveOnEvent(
    event: ClusterEvent,
    hint: (key: string, plugin: string) => boolean = () => true,
    preCheck?: (key: string) => boolean,
  ): void {
    this.moveRequestCycle = this.cycle;
    if (this.unschedulable.size === 0) return;
    const hints = this.release.enabled('SchedulerQueueingHints');
    for (const info of [...this.unschedulable.values()].sort((a, b) => a.seq - b.seq)) {
      if (info.gated) continue;
      if (!hints && preCheck && !preCheck(info.key)) continue;
      if (info.rejectedBy.size > 0) {
        const interested = [...info.rejectedBy].filter((p) => PLUGIN_EVENTS[p]?.includes(event));
        if (interested.length === 0 || (hints && !interested.some((p) => hint(info.key, p)))) continue;
      }
      this.unschedulable.delete(info.key);
      this.requeue(info);
    }
  }

  /** The back-off queue's pods and the unschedulable ones (for "what still blocks"). */
  waiting(): { key: string; where: 'backoff' | 'unschedulable' | 'gated' }[] {
    return [...this.all.values()]
      .filter((i) => !this.active.includes(i))
      .map((i) => ({
        key: i.key,
        where: this.backoff.has(i.key)
          ? ('backoff' as const)
          : i.gated
            ? ('gated' as const)
            : ('unschedulable' as const),
      }));
  }

  /** calculateBackoffDuration: 1 s, doubled for every attempt after the first, at most 10 s. */
  static backoffDuration(attempts: number): number {
    let d = INITIAL_BACKOFF_MS;
    for (let i = 1; i < attempts; i++) {
      d *= 2;
      if (d > MAX_BACKOFF_MS) return MAX_BACKOFF_MS;
    }
    return d;
  }

  private backoffExpiry(info: QueuedPod): number {
    return info.timestamp + SchedulingQueue.backoffDuration(info.attempts);
  }

  private requeue(info: QueuedPod): void {
    if (this.backoffExpiry(info) > this.clock.now()) this.toBackoff(info);
    else this.toActive(info);
  }

  private toActive(info: QueuedPod): void {
    // PrioritySort.Less: higher priority first, then the earlier arrival.
    let i = this.active.length;
    while (
      i > 0 &&
      (this.active[i - 1].priority < info.priority ||
        (this.active[i - 1].priority === info.priority && this.active[i - 1].arrivedAt > info.arrivedAt))
    )
      i--;
    this.active.splice(i, 0, info);
    this.onActive();
  }

  private toBackoff(info: QueuedPod): void {
    this.backoff.set(info.key, info);
    this.scheduleBackoffFlush();
    if (this.active.length === 0 && this.release.enabled('SchedulerPopFromBackoffQ')) this.onActive();
  }

  /** The next tick of a loop that runs every `period` since the scheduler started, at or after `t`. */
  private nextTick(period: number, t: number): number {
    const since = t - this.startedAt;
    return this.startedAt + Math.ceil(since / period) * period;
  }

  /** flushBackoffQCompleted (every second): pods whose back-off is over go to the active queue. */
  private scheduleBackoffFlush(): void {
    if (this.backoffTimer && !this.backoffTimer.cancelled) return;
    const due = Math.min(...[...this.backoff.values()].map((i) => this.backoffExpiry(i)));
    if (!Number.isFinite(due)) return;
    this.backoffTimer = this.clock.at(Math.max(this.nextTick(BACKOFF_FLUSH_MS, due), this.clock.now()), () => {
      this.backoffTimer = undefined;
      const now = this.clock.now();
      for (const info of [...this.backoff.values()].sort(
        (a, b) => this.backoffExpiry(a) - this.backoffExpiry(b) || a.seq - b.seq,
      )) {
        if (this.backoffExpiry(info) > now) continue;
        this.backoff.delete(info.key);
        this.toActive(info);
      }
      this.scheduleBackoffFlush();
    });
  }

  /** flushUnschedulablePodsLeftover (every 30 s): pods unschedulable for over 5 minutes are tried again. */
  private scheduleUnschedulableFlush(): void {
    if (this.unschedulableTimer && !this.unschedulableTimer.cancelled) return;
    const waiting = [...this.unschedulable.values()].filter((i) => !i.gated);
    if (waiting.length === 0) return;
    const due = Math.min(...waiting.map((i) => i.timestamp)) + MAX_IN_UNSCHEDULABLE_MS;
    // Strictly more than 5 minutes: the first tick after the deadline.
    const at = this.nextTick(UNSCHEDULABLE_FLUSH_MS, due + 1);
    this.unschedulableTimer = this.clock.at(
      at,
      () => {
        this.unschedulableTimer = undefined;
        const now = this.clock.now();
        for (const info of [...this.unschedulable.values()].sort((a, b) => a.seq - b.seq)) {
          if (info.gated || now - info.timestamp <= MAX_IN_UNSCHEDULABLE_MS) continue;
          this.unschedulable.delete(info.key);
          this.requeue(info);
        }
        this.scheduleUnschedulableFlush();
      },
      { background: true },
    );
  }
}

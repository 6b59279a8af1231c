import { fromTime } from '../../apimachinery/object';
import type { Pod, PodStatus } from '../../apimachinery/types';

/** active_deadline.go: the reason and message of a pod killed by its activeDeadlineSeconds (K70). */
export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded';
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline';

export const ACTIVE_DEADLINE_SOURCE = 'pkg/kubelet/active_deadline.go';

/** lifecycle.ShouldEvictResponse of a pod sync handler: the status override generateAPIPodStatus applies. */
export interface ShouldEvictResponse {
  reason: string;
  message: string;
}

/**
 * The moment a pod's active deadline passes: its status's startTime (the status manager's copy,
 * else the API's) plus spec.activeDeadlineSeconds; undefined without a deadline or a start time.
 * startTime has whole seconds (metav1.Time), as upstream's clock.Since(start) sees it.
 */
export function activeDeadline(pod: Pod, cached: PodStatus | undefined): number | undefined {
  const seconds = pod.spec?.activeDeadlineSeconds;
  if (seconds === undefined || seconds === null) return undefined;
  const start = (cached ?? pod.status)?.startTime;
  if (!start) return undefined;
  return fromTime(start) + seconds * 1000;
}

/**
 * activeDeadlineHandler (pkg/kubelet/active_deadline.go, K70), registered as both a PodSyncLoopHandler
 * (ShouldSync: getPodsToSync syncs a pod past its deadline at the next sync tick) and a PodSyncHandler
 * (ShouldEvict: generateAPIPodStatus then makes it Failed with reason DeadlineExceeded, so SyncPod
 * reports it terminal and the pod worker kills it with its own grace period). The pod is not deleted.
 */
export class ActiveDeadlineHandler {
  /**
   * Pods whose DeadlineExceeded Event went out. Upstream records it at every ShouldEvict that
   * holds (each status generated after the deadline); client-go's EventCorrelator folds those
   * identical Events into one object whose count grows. This recorder has no correlator, so it
   * sends the Event once per pod: the one object `kubectl get events` shows.
   */
  private readonly recorded = new Set<string>();

  constructor(
    /** status.PodStatusProvider: the status manager's cached status. */
    private readonly podStatus: (uid: string) => PodStatus | undefined,
    private readonly now: () => number,
    private readonly event: (pod: Pod, reason: string, message: string) => void,
  ) {}

  /** pastActiveDeadline: a deadline is set, the pod has started, and now − startTime ≥ the deadline. */
  pastActiveDeadline(pod: Pod): boolean {
    const deadline = activeDeadline(pod, this.podStatus(pod.metadata.uid!));
    return deadline !== undefined && this.now() >= deadline;
  }

  /** ShouldSync (PodSyncLoopHandler). */
  shouldSync(pod: Pod): boolean {
    return this.pastActiveDeadline(pod);
  }

  /** ShouldEvict (PodSyncHandler): past the deadline, the Normal DeadlineExceeded Event and the override. */
  shouldEvict(pod: Pod): ShouldEvictResponse | undefined {
    if (pod.spec?.activeDeadlineSeconds === undefined || !this.pastActiveDeadline(pod)) return undefined;
    const uid = pod.metadata.uid!;
    if (!this.recorded.has(uid)) {
      this.recorded.add(uid);
      this.event(pod, DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE);
    }
    return { reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE };
  }

  /** The pod's worker is gone: forget it. */
  forget(uid: string): void {
    this.recorded.delete(uid);
  }
}

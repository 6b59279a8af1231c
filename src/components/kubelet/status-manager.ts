import type { ApiClient } from '../../client/client';
import { Unreachable } from '../../client/client';
import { jsonEqual } from '../../apimachinery/object';
import { isTerminal } from '../../apiserver/pod-strategy';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../../apimachinery/types';
import type { Scheduler } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { Loop } from '../../foundation/loop';
import { conditionOfType, KUBELET_CONDITIONS } from './status';

const SOURCE = 'pkg/kubelet/status/status_manager.go';
const DELETE_SOURCE = `${SOURCE} syncPod → Delete`;

interface VersionedStatus {
  status: PodStatus;
  version: number;
  sentVersion: number;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  /** Set only by TerminatePod, at the very end of SyncTerminatedPod (podIsFinished). */
  podIsFinished: boolean;
  /** The entry's position in the cache (a Map keeps a key's position when its value is replaced). */
  readonly order: number;
}

/**
 * The kubelet's status manager (pkg/kubelet/status/status_manager.go): caches the status the
 * kubelet computed for each pod, pushes changes to pods/status, and — once a deleted pod is
 * finished on this node — sends the final DELETE with grace 0 and a UID precondition (K35, K36).
 */
export class StatusManager {
  private readonly statuses = new Map<string, VersionedStatus>();
  /** Pods whose cached version is newer than the one sent: what a syncBatch that is not a full sync visits. */
  private readonly unsent = new Set<string>();
  private entries = 0;
  private readonly syncLoop: Loop;
  /** A wake-up is queued on podStatusChannel (a second send finds the buffer full and is dropped). */
  private channelPending = false;

  constructor(
    private readonly clock: Scheduler,
    private readonly timeline: Timeline,
    private readonly client: ApiClient,
    private readonly nodeName: string,
    /** kubelet_pods.go PodCouldHaveRunningContainers: true until the pod worker reports it terminated. */
    private readonly couldHaveRunningContainers: (uid: string) => boolean,
    /** syncPeriod of the full syncBatch (10 s). */
    syncPeriodMs: number,
    /** The pod manager's copy of a pod (what the kubelet last heard from the API), by uid. */
    private readonly podManagerPod: (uid: string) => Pod | undefined,
    /**
     * The kubelet's release, and (before v1.27) its PodResourcesAreReclaimed: no container can run
     * or shows running, the volumes are gone, the pod cgroup is removed.
     */
    private readonly deletionSafety: {
      release: Release;
      podResourcesAreReclaimed: (uid: string, status: PodStatus) => boolean;
    },
  ) {
    this.syncLoop = new Loop(clock, syncPeriodMs, () => this.syncBatch(true));
  }

  /** Pod uids whose status still has to reach the API (for "what still blocks"). */
  pending(): string[] {
    return [...this.statuses.entries()]
      .filter(([, s]) => s.sentVersion < s.version || s.podIsFinished)
      .map(([uid]) => uid);
  }

  /** SetPodStatus: cache the new status; forced when the pod is being deleted (K35). */
  setPodStatus(pod: Pod, status: PodStatus): void {
    this.updateStatusInternal(pod, status, pod.metadata.deletionTimestamp !== undefined, false);
  }

  /** GetPodStatus: the status cached for a pod, if any. */
  getPodStatus(uid: string): PodStatus | undefined {
    return this.statuses.get(uid)?.status;
  }

  /**
   * TerminatePod (K34): once the pod has initialized, every container without a terminated state
   * becomes ContainerStatusUnknown (137) — init containers all but the trailing never-started
   * suffix; a Pending/Running phase becomes Failed; the status is marked finished and forced out.
   */
  terminatePod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    // Upstream changes a deep copy of the cached status. Here only what changes is copied — the
    // status itself, and a list with the items it turns to ContainerStatusUnknown — and the rest is
    // shared with the status it came from, which nothing changes in place (a status is replaced,
    // never edited, once the cache holds it).
    const status: PodStatus = { ...(this.statuses.get(uid)?.status ?? pod.status ?? {}) };
    if (hasPodInitialized(pod) && status.containerStatuses)
      status.containerStatuses = withUnknownStates(status.containerStatuses, status.containerStatuses.length);
    if (status.initContainerStatuses)
      status.initContainerStatuses = withUnknownStates(
        status.initContainerStatuses,
        initializedCount(status.initContainerStatuses),
      );
    // v1.27+ (#115331): every pod is moved to a terminal phase before its deletion; before, the
    // phase was left as it was (a deleted restartPolicy Always pod went away Running).
    if (this.deletionSafety.release.atLeast(27) && status.phase !== 'Succeeded' && status.phase !== 'Failed')
      status.phase = 'Failed';
    this.updateStatusInternal(pod, status, true, true);
  }

  /** RemoveOrphanedStatuses (housekeeping): forget the statuses of pods no longer in config. */
  removeOrphanedStatuses(desired: ReadonlySet<string>): void {
    for (const uid of [...this.statuses.keys()]) if (!desired.has(uid)) this.forget(uid);
  }

  /**
   * The pod manager got a new API copy of a pod whose status changed (a RECONCILE op). If someone
   * else changed what the kubelet owns — MarkPodsNotReady set Ready=False while the node was
   * unreachable — the next full sync (the 10 s ticker) reconciles it (needsReconcile, K35).
   */
  podStatusChangedInApi(pod: Pod): void {
    if (this.needsReconcile(pod.metadata.uid!)) this.syncLoop.wake();
  }

  /** Retry whatever could not be sent (e.g. after the node became reachable again). */
  resync(): void {
    if (this.statuses.size > 0) this.syncLoop.wake();
  }

  private updateStatusInternal(pod: Pod, input: PodStatus, forceUpdate: boolean, podIsFinished: boolean): void {
    const uid = pod.metadata.uid!;
    const cached = this.statuses.get(uid);
    const old = cached?.status ?? pod.status ?? {};
    // updateLastTransitionTime: a condition keeps its transition time while its status is unchanged.
    const conditions = (input.conditions ?? []).map((c) => {
      const prev = conditionOfType(old.conditions, c.type);
      if (!prev || prev.status !== c.status || prev.lastTransitionTime === c.lastTransitionTime) return c;
      return { ...c, lastTransitionTime: prev.lastTransitionTime };
    });
    // The input is the caller's fresh status (generateAPIPodStatus, or TerminatePod's copy), which
    // the cache keeps from here on: it is completed in place instead of copied (a copy per status
    // change of every pod). An assignment keeps an existing member where it is and puts a new one
    // last, as `{ ...input, conditions }` and a spread of startTime would.
    const status = input;
    status.conditions = conditions;
    if (old.startTime) status.startTime = old.startTime;
    const unchanged =
      cached !== undefined && jsonEqual(cached.status, status) && cached.podIsFinished === podIsFinished;
    if (unchanged && !forceUpdate) return;
    this.statuses.set(uid, {
      status,
      version: (cached?.version ?? 0) + 1,
      sentVersion: cached?.sentVersion ?? 0,
      name: pod.metadata.name!,
      namespace: pod.metadata.namespace!,
      uid,
      podIsFinished: podIsFinished || (cached?.podIsFinished ?? false),
      order: cached?.order ?? this.entries++,
    });
    this.unsent.add(uid);
    this.notifyStatusChannel();
  }

  /**
   * podStatusChannel (buffer 1): wakes the status manager's own goroutine, which runs syncBatch
   * after the caller has moved on. So the status SyncTerminatingPod hands over last (podIsTerminal)
   * is merged only after the pod worker's completeTerminating: the first PATCH after the kill
   * carries the terminated containers and the terminal phase together (K33).
   */
  private notifyStatusChannel(): void {
    if (this.channelPending) return;
    this.channelPending = true;
    this.clock.after(0, () => {
      this.channelPending = false;
      this.syncBatch(false);
    });
  }

  /**
   * syncBatch: every pod whose cached version is newer than what was sent; the full sync (`all`)
   * also re-checks deletable pods (needsUpdate) and re-sends a status the API copy has drifted
   * from (needsReconcile).
   */
  private syncBatch(all: boolean): void {
    let retry = false;
    // Only the unsent pods need a look unless this is the full sync: visit them, in the cache's
    // order, instead of every pod of the node on each status change.
    // One array of the entries (each knows its uid), taken before any is sent: an entry replaced
    // meanwhile is still the one looked at (syncPod checks which one the cache holds).
    const batch: VersionedStatus[] = [];
    if (all) for (const s of this.statuses.values()) batch.push(s);
    else {
      for (const uid of this.unsent) batch.push(this.statuses.get(uid)!);
      if (batch.length > 1) batch.sort((a, b) => a.order - b.order);
    }
    for (let i = 0; i < batch.length; i++) {
      const s = batch[i];
      const uid = s.uid;
      if (s.sentVersion >= s.version && !(all && (s.podIsFinished || this.needsReconcile(uid)))) continue;
      try {
        this.syncPod(uid, s);
      } catch (e) {
        if (!(e instanceof Unreachable)) throw e;
        retry = true;
      }
    }
    if (retry) this.syncLoop.wake();
  }

  /**
   * syncPod: GET the pod; gone or replaced → drop silently; merge (K33); PATCH pods/status only if
   * something changed; then, if canBeDeleted, the final DELETE (K36).
   */
  private syncPod(uid: string, s: VersionedStatus): void {
    const api = this.client.server;
    const got = api.get('pods', s.namespace, s.name);
    // NotFound: nothing is sent; the entry stays until housekeeping's RemoveOrphanedStatuses drops it.
    if (!got.ok) return;
    // "Pod was deleted and then recreated, skipping status update": forget the old uid's status.
    if (got.object.metadata.uid !== uid) {
      this.forget(uid);
      return;
    }
    let pod = got.object;
    const merged = mergePodStatus(pod.status ?? {}, s.status, this.couldHaveRunningContainers(uid));
    // statusutil.PatchPodStatus sends a two-way merge patch from the API status to the merged one:
    // only the fields that differ; a field the kubelet's status no longer has is removed (null).
    const current: Record<string, unknown> = pod.status ?? {};
    const wanted: Record<string, unknown> = merged;
    const body: Record<string, unknown> = {};
    let changed = false;
    // The API status's fields first, then the ones only the merged status has.
    for (const key in current) {
      const want = wanted[key];
      if (jsonEqual(current[key], want)) continue;
      body[key] = want === undefined ? null : want;
      changed = true;
    }
    for (const key in wanted) {
      if (Object.hasOwn(current, key) || wanted[key] === undefined) continue;
      body[key] = wanted[key];
      changed = true;
    }
    if (changed) {
      const patched = this.client.patch(
        'pods',
        s.namespace,
        s.name,
        'merge',
        { metadata: { uid }, status: body },
        { subresource: 'status' },
      );
      if (!patched.ok) return;
      pod = patched.object;
    }
    s.sentVersion = s.version;
    if (this.statuses.get(uid) === s) this.unsent.delete(uid);
    if (!this.canBeDeleted(pod, s)) return;
    const why = this.deletionSafety.release.atLeast(27)
      ? `deletionTimestamp set, phase ${pod.status?.phase}, podIsFinished`
      : `deletionTimestamp set, PodResourcesAreReclaimed, phase ${pod.status?.phase}`;
    this.timeline.record('status', `resources reclaimed pods/${s.name}`, `${SOURCE} canBeDeleted (${why})`, {
      actor: this.nodeName,
    });
    this.timeline.record(
      'status',
      `DELETE pods/${s.name} gracePeriodSeconds=0 preconditions.uid=${uid}`,
      DELETE_SOURCE,
      { actor: this.nodeName },
    );
    const deleted = this.client.delete('pods', s.namespace, s.name, {
      gracePeriodSeconds: 0,
      preconditions: { uid },
    });
    // On success the cached status is dropped; on failure the next full sync retries.
    if (deleted.ok) this.forget(uid);
    else this.syncLoop.wake();
  }

  private forget(uid: string): void {
    this.statuses.delete(uid);
    this.unsent.delete(uid);
  }

  /**
   * needsReconcile: the pod manager's API copy differs from the cached status in what the kubelet
   * owns (isPodStatusByKubeletEqual: kubelet-owned and shared conditions by status, reason and
   * message; every other field but the conditions exactly).
   */
  private needsReconcile(uid: string): boolean {
    const cached = this.statuses.get(uid)?.status;
    const api = this.podManagerPod(uid)?.status;
    if (!cached || !api) return false;
    const conditions = cached.conditions ?? [];
    for (let i = 0; i < conditions.length; i++) {
      const c = conditions[i];
      if (!KUBELET_CONDITIONS.has(c.type) && c.type !== 'DisruptionTarget') continue;
      const o = conditionOfType(api.conditions, c.type);
      if (!o || o.status !== c.status || o.reason !== c.reason || o.message !== c.message) return true;
    }
    return !equalButConditions(api, cached);
  }

  /**
   * canBeDeleted (K36): being deleted, not a mirror pod, and — v1.27+ (#115331) — terminal in the
   * API and finished here (podIsFinished, set by TerminatePod); before v1.27 the kubelet's
   * PodResourcesAreReclaimed instead, with no phase asked for.
   */
  private canBeDeleted(pod: Pod, s: VersionedStatus): boolean {
    if (pod.metadata.deletionTimestamp === undefined) return false;
    if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return false;
    if (!this.deletionSafety.release.atLeast(27))
      return this.deletionSafety.podResourcesAreReclaimed(pod.metadata.uid!, s.status);
    return isTerminal(pod) && s.podIsFinished;
  }
}

/**
 * status_manager.go mergePodStatus (K33, K38): conditions the kubelet does not own stay as the API
 * has them, kubelet-owned ones come from the kubelet; a DisruptionTarget the kubelet set itself is
 * only sent with the terminal phase; a terminal phase is held back while containers could still
 * run; a terminal phase forces Ready and ContainersReady to False.
 */
export function mergePodStatus(
  oldStatus: PodStatus,
  newStatus: PodStatus,
  couldHaveRunningContainers: boolean,
): PodStatus {
  const merged: PodStatus = { ...newStatus };
  // Index loops: the API's status is frozen, and V8 walks frozen arrays slowly with filter and for-of.
  const conditions: PodCondition[] = [];
  const oldConditions = oldStatus.conditions ?? [];
  for (let i = 0; i < oldConditions.length; i++)
    if (!KUBELET_CONDITIONS.has(oldConditions[i].type)) conditions.push(oldConditions[i]);
  const transitioningToTerminal = !isTerminal({ status: oldStatus } as Pod) && isTerminal({ status: newStatus } as Pod);
  const newConditions = newStatus.conditions ?? [];
  for (let n = 0; n < newConditions.length; n++) {
    const c = newConditions[n];
    if (KUBELET_CONDITIONS.has(c.type)) conditions.push(c);
    else if (c.type === 'DisruptionTarget' && transitioningToTerminal && !couldHaveRunningContainers) {
      // PodConditionSharedByKubelet: replace or append, only once the pod is really terminal.
      const i = conditions.findIndex((o) => o.type === c.type);
      if (i >= 0) conditions[i] = c;
      else conditions.push(c);
    }
  }
  merged.conditions = conditions;
  if (transitioningToTerminal && couldHaveRunningContainers) {
    merged.phase = oldStatus.phase;
    merged.reason = oldStatus.reason;
    merged.message = oldStatus.message;
    if (merged.reason === undefined) delete merged.reason;
    if (merged.message === undefined) delete merged.message;
  }
  if (isTerminal({ status: merged } as Pod)) {
    const reason = merged.phase === 'Succeeded' ? 'PodCompleted' : 'PodFailed';
    merged.conditions = conditions.map((c) => {
      if ((c.type !== 'Ready' && c.type !== 'ContainersReady') || c.status !== 'True') return c;
      const { message: _dropped, ...rest } = c;
      return { ...rest, status: 'False', reason };
    });
  }
  return merged;
}

/**
 * status_manager.go hasPodInitialized: no init containers, or a regular container has left Waiting,
 * or the last init container completed (a sidecar: is running and started).
 */
function hasPodInitialized(pod: Pod): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  if ((pod.status?.containerStatuses ?? []).some((s) => s.lastState?.terminated || !s.state?.waiting)) return true;
  const statuses = pod.status?.initContainerStatuses ?? [];
  const last = statuses[statuses.length - 1];
  if (!last) return false;
  const spec = inits.find((c) => c.name === last.name);
  if (!spec) return false;
  if (spec.restartPolicy === 'Always') return !!last.state?.running && !!last.started;
  return last.lastState?.terminated?.exitCode === 0 || last.state?.terminated?.exitCode === 0;
}

/** status_manager.go initializedContainers: how many lead the list — all but the trailing run of never-started (Waiting) containers; at least the first. */
function initializedCount(statuses: readonly ContainerStatus[]): number {
  for (let i = statuses.length - 1; i >= 0; i--) {
    if (!statuses[i].state?.waiting || statuses[i].lastState?.terminated) return i + 1;
  }
  return Math.min(1, statuses.length);
}

/**
 * TerminatePod's change to the first `count` container statuses: each one not terminated becomes
 * ContainerStatusUnknown (137) and not ready. The list itself when none changes, else a copy with
 * the changed items copied (their members in the order an assignment to them would give).
 */
function withUnknownStates(statuses: ContainerStatus[], count: number): ContainerStatus[] {
  let out: ContainerStatus[] | undefined;
  for (let i = 0; i < count; i++) {
    if (statuses[i].state?.terminated) continue;
    out ??= statuses.slice();
    out[i] = {
      ...statuses[i],
      state: {
        terminated: {
          exitCode: 137,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was terminated',
        },
      },
      ready: false,
    };
  }
  return out ?? statuses;
}

/** jsonEqual of two statuses leaving their conditions out (without building copies that lack them). */
function equalButConditions(a: PodStatus, b: PodStatus): boolean {
  const x: Record<string, unknown> = a;
  const y: Record<string, unknown> = b;
  let defined = 0;
  for (const k in x) {
    if (k === 'conditions' || x[k] === undefined) continue;
    defined += 1;
    if (!jsonEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (k !== 'conditions' && y[k] !== undefined) defined -= 1;
  return defined === 0;
}

import type { Release } from '../../../foundation/release';
import type { ClientIdentity } from '../../../apiserver/apiserver';
import { jsonEqual, toTime } from '../../../apimachinery/object';
import type { LabelSelector as ParsedSelector } from '../../../apimachinery/selectors';
import type { OwnerReference, Pod, ReplicaSet } from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { keyOf, type SharedInformer } from '../../../client/informer';
import {
  getControllerOf,
  isPodActive,
  isPodTerminating,
  labelSelectorAsSelector,
  newControllerRef,
  ORPHAN_POD_INDEX_KEY,
  PodControl,
  podsByControllerUID,
  POD_CONTROLLER_UID_INDEX,
} from '../controller-utils';
import { isPodReady } from '../../../helpers/pod-util';
import { WorkQueue } from '../../../client/workqueue';
import { ConsistencyStore, skipSyncWhileCacheIsStale } from '../consistency-store';
import { isPodAvailable } from '../../../helpers/pod-util';
import {
  findMinNextPodAvailabilityCheck,
  rankReason,
  SLOW_START_INITIAL_BATCH_SIZE,
  UIDTrackingExpectations,
} from '../controller-utils';
import { BURST_REPLICAS, getPodsToDelete, slowStartBatch } from './replica-set-utils';

const SOURCE = 'pkg/controller/replicaset/replica_set.go';
const IDENTITY: ClientIdentity = { name: 'replicaset-controller', component: 'replicaset' };
/** The ownerReference kind and group of a ReplicaSet (apps/v1). */
const KIND = 'ReplicaSet';
const API_VERSION = 'apps/v1';
/** replica_set.go statusUpdateRetries. */
const STATUS_UPDATE_RETRIES = 1;
/** What an unlabelled pod compares as, shared: updatePod runs at every pod event, most pods have no labels. */
const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

type Status = NonNullable<ReplicaSet['status']>;

/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go; rules W6 and W7 of
 * docs/rules/workloads.md). Its handlers only queue ReplicaSet keys; syncReplicaSet reads the
 * listers: the pods the set controls or could adopt (the pod indexer by controller uid, and the
 * orphans), claims them (adopting orphans its selector matches, releasing owned pods it no longer
 * matches), creates or deletes pods to match spec.replicas — at most 500 per sync, creations in
 * slow-start batches of 1, 2, 4, …, deletions ranked by ActivePodsWithRanks — and writes the
 * counts to status. Expectations keep it from acting twice on writes its informer has not seen yet.
 */
export class ReplicaSetController extends ControllerBase {
  readonly queue: WorkQueue;
  private readonly sets: SharedInformer<ReplicaSet>;
  private readonly pods: SharedInformer<Pod>;
  private readonly podControl: PodControl;
  readonly expectations: UIDTrackingExpectations;
  /** The writes each ReplicaSet's next sync waits to see (StaleControllerConsistencyReplicaSet, v1.36). */
  private readonly consistency: ConsistencyStore;

  /** Built by kube-controller-manager with what every controller gets (ControllerContext). */
  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.queue = new WorkQueue(clock, (key) => this.syncReplicaSet(key));
    this.sets = informers.informerFor('replicasets');
    this.pods = podsByControllerUID(informers);
    this.podControl = new PodControl(clock, this.client, 'replicaset-controller');
    this.expectations = new UIDTrackingExpectations(() => clock.now());
    this.consistency = new ConsistencyStore({ pods: this.pods, replicasets: this.sets });
    if (this.release.enabled('StaleControllerConsistencyReplicaSet')) this.podControl.consistency = this.consistency;
  }

  start(): this {
    this.sets.addEventHandler((key, old, rs) => {
      // deleteRS: its writes are forgotten with its expectations (consistencyStore.Clear by uid).
      if (!rs) {
        this.expectations.delete(key);
        this.consistency.clear(key, old?.metadata.uid);
      }
      if (!old || !rs || old.metadata.resourceVersion !== rs.metadata.resourceVersion) this.queue.add(key);
    });
    this.pods.addEventHandler((_key, old, pod) => {
      // Every path below ends at a ReplicaSet of the lister (the pod's controller, or one to adopt
      // it): without any, a pod event has nothing to look up.
      if (this.sets.size === 0) return;
      if (!old && pod) this.addPod(pod);
      else if (old && pod) this.updatePod(old, pod);
      else if (old) this.deletePod(old);
    });
    return this;
  }

  // ---- event handlers (addPod, updatePod, deletePod): they only queue keys and note what was observed ----

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
      if (!rs) return;
      this.expectations.creationObserved(keyOf(rs));
      this.queue.add(keyOf(rs));
      return;
    }
    for (const rs of this.getPodReplicaSets(pod)) this.queue.add(keyOf(rs));
  }

  private updatePod(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelChanged = !jsonEqual(old.metadata.labels ?? NO_LABELS, pod.metadata.labels ?? NO_LABELS);
    if (pod.metadata.deletionTimestamp) {
      // A pod being deleted is as good as gone: its deletion is what expectations wait for. Every update of it
      // queues the set again (replica_set.go updatePod; the UID expectations make the repeat harmless), so a
      // pod turning Failed or Succeeded updates status.terminatingReplicas.
      this.deletePod(pod);
      if (labelChanged) this.deletePod(old);
      return;
    }
    const oldRef = getControllerOf(old);
    const ref = getControllerOf(pod);
    const refChanged = oldRef?.uid !== ref?.uid;
    if (refChanged && oldRef) {
      const rs = this.resolveControllerRef(old.metadata.namespace, oldRef);
      if (rs) this.queue.add(keyOf(rs));
    }
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
      if (!rs) return;
      this.queue.add(keyOf(rs));
      // A pod that just became ready is available minReadySeconds later: look again then.
      const minReady = rs.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.queue.addAfter(keyOf(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelChanged || refChanged) for (const rs of this.getPodReplicaSets(pod)) this.queue.add(keyOf(rs));
  }

  private deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
    if (!rs) return;
    this.expectations.deletionObserved(keyOf(rs), keyOf(pod));
    this.queue.add(keyOf(rs));
  }

  /** resolveControllerRef: the ReplicaSet the reference names, if it is that very object (same uid). */
  private resolveControllerRef(namespace: string | undefined, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== KIND) return undefined;
    const rs = this.sets.get(`${namespace}/${ref.name}`);
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets: the sets in the pod's namespace whose selector matches it (candidates to adopt it). */
  private getPodReplicaSets(pod: Pod): ReplicaSet[] {
    if (!pod.metadata.labels) return [];
    return this.sets.list(pod.metadata.namespace).filter((rs) => {
      const selector = labelSelectorAsSelector(rs.spec?.selector);
      return !!selector && !selectsNothing(rs) && selector.matches(pod.metadata.labels);
    });
  }

  // ---- the sync ----

  /** syncReplicaSet: claim the pods, manage the replicas when expectations allow, write the status. */
  syncReplicaSet(key: string): void | Error {
    const stale = skipSyncWhileCacheIsStale({
      enabled: this.release.enabled('StaleControllerConsistencyReplicaSet'),
      store: this.consistency,
      key,
      owner: `rs/${key.slice(key.indexOf('/') + 1)}`,
      component: 'replicaset',
      actor: IDENTITY.name,
      source: `${SOURCE} syncReplicaSet (kubernetes#137212)`,
      timeline: this.timeline,
    });
    if (stale) return stale;
    const rs = this.sets.get(key);
    if (!rs) {
      this.expectations.delete(key);
      this.consistency.clear(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    const selector = labelSelectorAsSelector(rs.spec?.selector);
    if (!selector) return;
    // FilterPodsByOwner (the pod indexer by controller uid, orphans included).
    const candidates = [
      ...this.pods.byIndex(POD_CONTROLLER_UID_INDEX, rs.metadata.uid!),
      ...this.orphansIn(rs.metadata.namespace),
    ];
    const active = candidates.filter(isPodActive);
    const filtered = this.claimPods(rs, selector, active);
    const terminating = this.release.enabled('DeploymentReplicaSetTerminatingReplicas')
      ? this.claimPods(rs, selector, candidates.filter(isPodTerminating), false).length
      : undefined;
    let manageErr: Error | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) manageErr = this.manageReplicas(filtered, rs);
    const status = calculateStatus(rs, filtered, terminating, manageErr, this.clock.now(), this.release);
    const updated = this.updateReplicaSetStatus(rs, status);
    if (updated instanceof Error) return updated;
    // WroteAt after the status write (a status left as it was writes nothing, and its version is one already read).
    if (this.podControl.consistency) this.consistency.wroteAt(rs, 'replicasets', updated.metadata.resourceVersion);
    if (!manageErr) this.planAvailabilityCheck(key, rs, status, filtered);
    return manageErr;
  }

  /**
   * V75 — minReadySeconds: look again once a ready pod may have become available (replica_set.go
   * syncReplicaSet, after the status write). Up to v1.33 only once every replica is ready and not
   * all are available, minReadySeconds after the sync — which the queue drops when an earlier look
   * is already due, so a pod that turned ready later is counted up to minReadySeconds late
   * (kubernetes#108266). From v1.34 (kubernetes#132121) whenever ready and available differ, at the
   * instant the earliest ready pod becomes available (controller.FindMinNextPodAvailabilityCheck),
   * minReadySeconds only as the fallback.
   */
  private planAvailabilityCheck(key: string, rs: ReplicaSet, status: Status, pods: readonly Pod[]): void {
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (minReady <= 0) return;
    if (!this.release.has('ReplicaSetAvailabilityCheckOnTime')) {
      if (status.readyReplicas === rs.spec?.replicas && status.availableReplicas !== rs.spec?.replicas)
        this.queue.addAfter(key, minReady * 1000);
      return;
    }
    if (status.readyReplicas === status.availableReplicas) return;
    this.queue.addAfter(key, findMinNextPodAvailabilityCheck(pods, minReady, this.clock.now()) ?? minReady * 1000);
  }

  private orphansIn(namespace: string | undefined): Pod[] {
    return this.pods
      .byIndex(POD_CONTROLLER_UID_INDEX, ORPHAN_POD_INDEX_KEY)
      .filter((p) => p.metadata.namespace === namespace);
  }

  /**
   * PodControllerRefManager.ClaimPods: a pod it controls stays if the selector still matches, and
   * is released (its reference removed) otherwise; an orphan the selector matches is adopted
   * (its reference added), unless the set or the pod is being deleted. Adoption first re-reads the
   * set from the apiserver (RecheckDeletionTimestamp: same uid, not being deleted).
   */
  private claimPods(rs: ReplicaSet, selector: ParsedSelector, pods: readonly Pod[], write = true): Pod[] {
    const claimed: Pod[] = [];
    let canAdopt: boolean | undefined;
    const matches = (p: Pod) => !selectsNothing(rs) && selector.matches(p.metadata.labels);
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (ref) {
        if (ref.uid !== rs.metadata.uid) continue;
        if (matches(pod)) claimed.push(pod);
        else if (write && !rs.metadata.deletionTimestamp) this.releasePod(rs, pod);
        continue;
      }
      if (!matches(pod) || rs.metadata.deletionTimestamp || pod.metadata.deletionTimestamp) continue;
      if (!write) continue;
      canAdopt ??= this.recheckDeletionTimestamp(rs);
      if (canAdopt && this.adoptPod(rs, pod)) claimed.push(pod);
    }
    return claimed;
  }

  private recheckDeletionTimestamp(rs: ReplicaSet): boolean {
    const fresh = this.api.get('replicasets', rs.metadata.namespace, rs.metadata.name!);
    return fresh.ok && fresh.object.metadata.uid === rs.metadata.uid && !fresh.object.metadata.deletionTimestamp;
  }

  /** AdoptPod: a strategic merge patch adding the controller reference, with the pod's uid as precondition. */
  private adoptPod(rs: ReplicaSet, pod: Pod): boolean {
    const ref = newControllerRef(rs, API_VERSION, KIND);
    this.timeline.record(
      'replicaset',
      `adopts pod ${pod.metadata.name}`,
      'pkg/controller/controller_ref_manager.go ClaimPods → AdoptPod',
      { actor: IDENTITY.name },
    );
    const r = this.client.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', {
      metadata: { ownerReferences: [ref], uid: pod.metadata.uid },
    });
    return r.ok;
  }

  /** ReleasePod: a strategic merge patch deleting the reference (by uid). */
  private releasePod(rs: ReplicaSet, pod: Pod): void {
    this.timeline.record(
      'replicaset',
      `releases pod ${pod.metadata.name}: its labels no longer match`,
      'pkg/controller/controller_ref_manager.go ClaimPods → ReleasePod',
      { actor: IDENTITY.name },
    );
    this.client.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', {
      metadata: { ownerReferences: [{ $patch: 'delete', uid: rs.metadata.uid }], uid: pod.metadata.uid },
    });
  }

  /**
   * manageReplicas: too few pods → create (at most burstReplicas, in slow-start batches), too many
   * → delete the first ones by rank (at most burstReplicas). Expectations are raised first.
   */
  private manageReplicas(filtered: Pod[], rs: ReplicaSet): Error | undefined {
    const key = keyOf(rs);
    const wanted = rs.spec?.replicas ?? 1;
    let diff = filtered.length - wanted;
    if (diff < 0) {
      diff = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, diff);
      const ref = newControllerRef(rs, API_VERSION, KIND);
      const { successes, error } = slowStartBatch(diff, SLOW_START_INITIAL_BATCH_SIZE, () => {
        const r = this.podControl.createPod(rs, KIND, rs.spec?.template ?? {}, ref, {});
        if (r.ok) {
          this.timeline.record(
            'replicaset',
            `creates pod ${r.object.metadata.name}`,
            `${SOURCE} manageReplicas → slowStartBatch`,
            { actor: IDENTITY.name },
          );
          return undefined;
        }
        return new Error(r.status.message);
      });
      // The pods not created will never be observed.
      for (let i = successes; i < diff; i++) this.expectations.creationObserved(key);
      return error;
    }
    if (diff > 0) {
      diff = Math.min(diff, BURST_REPLICAS);
      const now = this.clock.now();
      const { victims, firstKept } = getPodsToDelete(filtered, this.getIndirectlyRelatedPods(rs), diff, now);
      this.expectations.expectDeletions(
        key,
        victims.map((v) => keyOf(v.pod)),
      );
      let firstError: Error | undefined;
      for (const v of victims) {
        const name = v.pod.metadata.name!;
        this.timeline.record(
          'replicaset',
          `deletes pod ${name} (rank: ${rankReason(v, firstKept, now)})`,
          `${SOURCE} manageReplicas → getPodsToDelete`,
          { actor: IDENTITY.name },
        );
        const r = this.podControl.deletePod(rs, KIND, name);
        if (!r.ok) {
          // The informer will not observe this deletion.
          this.expectations.deletionObserved(key, keyOf(v.pod));
          if (r.code !== 404) firstError ??= new Error(r.status.message);
        }
      }
      return firstError;
    }
    return undefined;
  }

  /**
   * getIndirectlyRelatedPods: the pods of every ReplicaSet with the same controller as this one
   * (a Deployment's old and new sets), for the colocation rank; only this set's when it has none.
   */
  private getIndirectlyRelatedPods(rs: ReplicaSet): Pod[] {
    const owner = getControllerOf(rs);
    const related = owner
      ? this.sets.list(rs.metadata.namespace).filter((o) => getControllerOf(o)?.uid === owner.uid)
      : [rs];
    return related.flatMap((o) => this.pods.byIndex(POD_CONTROLLER_UID_INDEX, o.metadata.uid!));
  }

  /** updateReplicaSetStatus: nothing when nothing changed; else PUT /status with observedGeneration, one GET-and-retry on failure. */
  private updateReplicaSetStatus(rs: ReplicaSet, status: Status): ReplicaSet | Error {
    const old: Partial<Status> = rs.status ?? {};
    if (
      (old.replicas ?? 0) === status.replicas &&
      (old.fullyLabeledReplicas ?? 0) === (status.fullyLabeledReplicas ?? 0) &&
      (old.readyReplicas ?? 0) === (status.readyReplicas ?? 0) &&
      (old.availableReplicas ?? 0) === (status.availableReplicas ?? 0) &&
      terminatingOf(old) === terminatingOf(status) &&
      rs.metadata.generation === old.observedGeneration &&
      jsonEqual(old.conditions ?? [], status.conditions ?? [])
    ) {
      return rs;
    }
    let current = rs;
    for (let i = 0; ; i++) {
      const next = { ...current, status: { ...status, observedGeneration: current.metadata.generation } };
      const r = this.client.update('replicasets', current.metadata.namespace, next, { subresource: 'status' });
      if (r.ok) return r.object;
      if (i >= STATUS_UPDATE_RETRIES) return new Error(r.status.message);
      const got = this.api.get('replicasets', current.metadata.namespace, current.metadata.name!);
      if (!got.ok) return new Error(got.status.message);
      current = got.object;
    }
  }
}

function terminatingOf(s: Partial<Status>): number | undefined {
  return (s as Status & { terminatingReplicas?: number }).terminatingReplicas;
}

/** An empty selector selects nothing for a ReplicaSet (labels.Nothing when the selector is empty, validation refuses it anyway). */
function selectsNothing(rs: ReplicaSet): boolean {
  const s = rs.spec?.selector;
  return !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);
}

/**
 * calculateStatus: replicas (the active pods it controls), fullyLabeledReplicas (those carrying
 * every template label), readyReplicas, availableReplicas (ready for minReadySeconds),
 * terminatingReplicas with DeploymentReplicaSetTerminatingReplicas (α 1.33, β on 1.35; KEP-3973),
 * and the ReplicaFailure condition while creating or deleting fails.
 */
export function calculateStatus(
  rs: ReplicaSet,
  filtered: readonly Pod[],
  terminating: number | undefined,
  manageErr: Error | undefined,
  now: number,
  release: Release,
): Status {
  const template = rs.spec?.template?.metadata?.labels ?? {};
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of filtered) {
    const labels = pod.metadata.labels ?? {};
    if (Object.entries(template).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, rs.spec?.minReadySeconds ?? 0, now, release)) available++;
    }
  }
  const status: Status = {
    ...rs.status,
    replicas: filtered.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
  };
  if (terminating !== undefined)
    (status as Status & { terminatingReplicas?: number }).terminatingReplicas = terminating;
  else delete (status as Status & { terminatingReplicas?: number }).terminatingReplicas;
  const failure = (rs.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure');
  if (manageErr && !failure) {
    const diff = filtered.length - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    status.conditions = [
      ...(rs.status?.conditions ?? []),
      { type: 'ReplicaFailure', status: 'True', reason, message: manageErr.message, lastTransitionTime: toTime(now) },
    ];
  } else if (!manageErr && failure) {
    status.conditions = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
    if (status.conditions.length === 0) delete status.conditions;
  }
  return status;
}

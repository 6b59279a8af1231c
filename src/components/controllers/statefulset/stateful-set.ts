import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { ControllerRevision, Pod, StatefulSet } from '../../../apimachinery/types';
import { keyOf, type SharedInformer } from '../../../client/informer';
import type { PersistentVolumeClaim } from '../../../apimachinery/types';
import {
  findMinNextPodAvailabilityCheck,
  getControllerOf,
  PodControl,
  podsByControllerUID,
  podsOwnedBy,
  resolveControllerRef,
} from '../controller-utils';
import type { ControllerContext } from '../controller-manager';
import { StoppableController } from '../stoppable';
import { WorkQueue } from '../../../client/workqueue';
import { ConsistencyStore, skipSyncWhileCacheIsStale } from '../consistency-store';
import {
  allowsBurst,
  CONTROLLER_REVISION_HASH_LABEL,
  computeHash,
  getOrdinal,
  getStartOrdinal,
  isCreated,
  isFailed,
  isHealthy,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newRevision,
  newStatefulSetPod,
  getPersistentVolumeClaimName,
} from './stateful-set-utils';
import {
  claimOwnerRefsForSetAndPod,
  getPersistentVolumeClaimRetentionPolicy,
  hasStalePodRef,
  hasUnexpectedController,
  isClaimOwnerUpToDate,
} from './claim-retention';

const CONTROL = 'pkg/controller/statefulset/stateful_set_control.go';
const IDENTITY: ClientIdentity = { name: 'statefulset-controller', component: 'statefulset' };
/** stateful_set.go statefulSetResyncPeriod: the set informer hands every set to the queue again this often. */
const STATEFUL_SET_RESYNC_PERIOD_MS = 30_000;

type Status = NonNullable<StatefulSet['status']>;

/**
 * The StatefulSet controller (pkg/controller/statefulset; rules W50–W55 of docs/rules/statefulsets-jobs-daemonsets.md):
 * pods NAME-0 … NAME-(N−1) with stable names, created in order and each only once its
 * predecessors are Running and Ready (and available for minReadySeconds) under OrderedReady, all
 * at once under Parallel; a scale-down deletes from the highest ordinal, one at a time, waiting
 * for each to be gone; a pod being deleted blocks an OrderedReady set until it has left the API —
 * on a lost node that is until someone force-deletes it or the out-of-service taint lets pod GC do
 * it. Failed (and Succeeded) pods are deleted and recreated. The template is kept as a
 * ControllerRevision. Each pod's volumeClaimTemplates claims are created before it (P18), and
 * their owner references follow the persistentVolumeClaimRetentionPolicy (P21). Rolling updates
 * of a changed template and adoption of orphans are not modelled.
 */
export class StatefulSetController extends StoppableController {
  readonly queue: WorkQueue;
  private readonly sets: SharedInformer<StatefulSet>;
  private readonly pods: SharedInformer<Pod>;
  private readonly revisions: SharedInformer<ControllerRevision>;
  private readonly podControl: PodControl;
  /** The last "waits for" decision per set, so the timeline says it once, not at every sync. */
  private readonly lastWait = new Map<string, string>();
  /** The writes each set's next sync waits to see (StaleControllerConsistencyStatefulSet, v1.36). */
  private readonly consistency: ConsistencyStore;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.queue = new WorkQueue(clock, (key) => this.sync(key));
    this.sets = informers.informerFor('statefulsets');
    this.pods = podsByControllerUID(informers);
    this.revisions = informers.informerFor('controllerrevisions');
    // StatefulPodControl.recordPodEvent's wording.
    this.podControl = new PodControl(clock, this.client, 'statefulset-controller', {
      created: (pod, set) => `create Pod ${pod} in StatefulSet ${set.metadata.name} successful`,
      deleted: (pod, set) => `delete Pod ${pod} in StatefulSet ${set.metadata.name} successful`,
    });
    this.consistency = new ConsistencyStore({ pods: this.pods, statefulsets: this.sets });
    if (this.release.enabled('StaleControllerConsistencyStatefulSet')) this.podControl.consistency = this.consistency;
  }

  start(): this {
    this.sets.addEventHandler(
      this.whileRunning((key, old, set) => {
        if (!set) this.consistency.clear(key, old?.metadata.uid);
        this.queue.add(key);
      }),
    );
    this.pods.addEventHandler(
      this.whileRunning((_key, old, pod) => {
        // No StatefulSet in the lister: no pod resolves to one.
        if (this.sets.size === 0) return;
        const set = resolveControllerRef((pod ?? old)!, 'StatefulSet', this.sets);
        if (set) this.queue.add(keyOf(set));
      }),
    );
    return this;
  }

  /** sync (stateful_set.go): the set's pods and revisions, then UpdateStatefulSet and its status. */
  private sync(key: string): void | Error {
    if (this.stopped) return;
    const stale = skipSyncWhileCacheIsStale({
      enabled: this.release.enabled('StaleControllerConsistencyStatefulSet'),
      store: this.consistency,
      key,
      owner: `sts/${key.slice(key.indexOf('/') + 1)}`,
      component: 'statefulset',
      actor: IDENTITY.name,
      source: 'pkg/controller/statefulset/stateful_set.go sync (kubernetes#137254)',
      timeline: this.timeline,
    });
    if (stale) return stale;
    const cached = this.sets.get(key);
    if (!cached) {
      this.lastWait.delete(key);
      this.consistency.clear(key);
      return;
    }
    const set: StatefulSet = structuredClone(cached);
    const pods = podsOwnedBy(this.pods, set, set.spec?.selector);
    const revision = this.updateRevision(set);
    if (revision instanceof Error) return revision;
    const status = this.updateStatefulSet(set, pods, revision);
    const err = this.updateStatefulSetStatus(set, status);
    if (err) return err;
    this.planAvailabilityCheck(key, set, status, pods);
  }

  /**
   * minReadySeconds: look again once the ready pods may have become available (stateful_set.go
   * syncStatefulSet). From v1.36 (kubernetes#135428) at the instant the earliest ready pod becomes
   * available (controller.FindMinNextPodAvailabilityCheck, computed at the same `now` as the
   * status), minReadySeconds only as the fallback; before, always minReadySeconds after the sync,
   * which the queue drops when an earlier look is already due, so a pod that turned ready after
   * that earlier look is counted up to minReadySeconds late (kubernetes#119352).
   */
  private planAvailabilityCheck(key: string, set: StatefulSet, status: Status, pods: readonly Pod[]): void {
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (minReady <= 0 || status.readyReplicas === status.availableReplicas) return;
    let after = minReady * 1000;
    if (this.release.has('StatefulSetAvailabilityCheckOnTime'))
      after = findMinNextPodAvailabilityCheck(pods, minReady, this.clock.now()) ?? after;
    this.queue.addAfter(key, after);
  }

  /** getStatefulSetRevisions: the revision holding the current template, created (revision max+1) when none does. */
  private updateRevision(set: StatefulSet): string | Error {
    const owned = this.revisions
      .list(set.metadata.namespace)
      .filter((r) => getControllerOf(r)?.uid === set.metadata.uid);
    const name = `${set.metadata.name}-${computeHash(set.spec?.template, set.status?.collisionCount ?? 0)}`;
    if (owned.some((r) => r.metadata.name === name)) return name;
    const next = Math.max(0, ...owned.map((r) => r.revision)) + 1;
    const r = this.client.create('controllerrevisions', set.metadata.namespace, newRevision(set, next));
    if (!r.ok && r.code !== 409)
      return new Error(`creating the revision of statefulsets/${set.metadata.name}: ${r.status.message}`);
    return name;
  }

  /** The timeline says what the set waits for when that changes. */
  private wait(set: StatefulSet, text: string, fn: string): void {
    const key = keyOf(set);
    if (this.lastWait.get(key) === text) return;
    this.lastWait.set(key, text);
    this.timeline.record('statefulset', `statefulsets/${set.metadata.name} ${text}`, `${CONTROL} ${fn}`, {
      actor: IDENTITY.name,
    });
  }

  /**
   * updateStatefulSet: pods in [start, start+replicas) are replicas, the rest with an ordinal are
   * condemned (highest first). processReplica for each replica, then processCondemned for each
   * condemned pod; in OrderedReady ("monotonic") mode the first one that must wait stops the pass.
   */
  private updateStatefulSet(set: StatefulSet, pods: readonly Pod[], revision: string): Status {
    const replicaCount = set.spec?.replicas ?? 1;
    const start = getStartOrdinal(set);
    const replicas: (Pod | undefined)[] = new Array(replicaCount).fill(undefined);
    const condemned: Pod[] = [];
    for (const pod of pods) {
      const ord = getOrdinal(set, pod);
      if (ord >= start && ord < start + replicaCount) replicas[ord - start] = pod;
      else if (ord >= 0) condemned.push(pod);
    }
    const wanted: Pod[] = replicas.map((p, i) => p ?? newStatefulSetPod(set, start + i, revision, this.release));
    condemned.sort((a, b) => getOrdinal(set, b) - getOrdinal(set, a));
    let firstUnhealthy: Pod | undefined = wanted.find((p) => !isHealthy(p));
    if (!firstUnhealthy)
      for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i])) firstUnhealthy ??= condemned[i];
    const status = (): Status => this.computeStatus(set, revision, [...wanted, ...condemned]);
    // A set being deleted only has its status updated.
    if (set.metadata.deletionTimestamp) return status();
    const monotonic = !allowsBurst(set);
    for (let i = 0; i < wanted.length; i++) {
      const r = this.processReplica(set, monotonic, wanted, i, revision);
      if (r.error || (monotonic && r.exit)) return status();
    }
    // Fix pod claims for condemned pods: under whenScaled Delete each claim becomes its pod's, so it goes with the pod.
    if (this.release.enabled('StatefulSetAutoDeletePVC'))
      for (const pod of condemned) {
        if (this.claimsMatchRetentionPolicy(set, pod)) continue;
        if (this.updatePodClaimForRetentionPolicy(set, pod)) return status();
      }
    for (const pod of condemned) {
      const exit = this.processCondemned(set, firstUnhealthy, monotonic, pod);
      if (monotonic && exit) return status();
    }
    if (monotonic) this.lastWait.delete(keyOf(set));
    return status();
  }

  /** processReplica: recreate a finished pod, create a missing one, and in OrderedReady mode wait for it to be Running, Ready and available. */
  private processReplica(
    set: StatefulSet,
    monotonic: boolean,
    replicas: Pod[],
    i: number,
    revision: string,
  ): { exit: boolean; error?: Error } {
    let pod = replicas[i];
    const name = pod.metadata.name!;
    if (isCreated(pod) && (isFailed(pod) || isSucceeded(pod)) && this.release.atLeast(30)) {
      // From v1.30 (kubernetes#123809, issue #122709): no RecreatingFailedPod/RecreatingTerminatedPod
      // event; the finished pod is deleted (unless it is already going) and this sync ends — the
      // next one, once the pod has left etcd, creates its successor.
      if (!isTerminating(pod)) {
        this.timeline.record(
          'statefulset',
          `statefulsets/${set.metadata.name} deletes ${pod.status?.phase} pods/${name}; its successor comes once it is gone`,
          `${CONTROL} processReplica (kubernetes#123809)`,
          { actor: IDENTITY.name },
        );
        const r = this.podControl.deletePod(set, 'StatefulSet', name);
        if (!r.ok && r.code !== 404) return { exit: true, error: new Error(r.status.message) };
      }
      return { exit: true };
    }
    if (isCreated(pod) && (isFailed(pod) || isSucceeded(pod)) && !isTerminating(pod)) {
      // Up to v1.29: an event, the DELETE, and a successor created in the same pass.
      // A Succeeded pod is recreated too: its phase comes from exit codes, not from an intent to stop.
      this.podControl.event(
        set,
        'StatefulSet',
        isFailed(pod) ? 'Warning' : 'Normal',
        isFailed(pod) ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod',
        `StatefulSet ${set.metadata.namespace}/${set.metadata.name} is recreating ${isFailed(pod) ? 'failed' : 'terminated'} Pod ${name}`,
      );
      this.timeline.record(
        'statefulset',
        `statefulsets/${set.metadata.name} recreates ${pod.status?.phase} pods/${name}`,
        `${CONTROL} processReplica`,
        { actor: IDENTITY.name },
      );
      const r = this.podControl.deletePod(set, 'StatefulSet', name);
      if (!r.ok && r.code !== 404) return { exit: true, error: new Error(r.status.message) };
      pod = replicas[i] = newStatefulSetPod(set, getOrdinal(set, pod), revision, this.release);
    }
    const retention = this.release.enabled('StatefulSetAutoDeletePVC');
    if (!isCreated(pod)) {
      // PodClaimIsStale: a claim still owned by an earlier pod of this name (scaled down under
      // whenScaled Delete, not yet collected) blocks the new pod until the garbage collector removes it.
      const stale = retention ? this.staleClaim(set, pod) : undefined;
      if (stale) {
        this.wait(
          set,
          `waits for persistentvolumeclaims/${stale} of an earlier pods/${name} to be deleted before creating it`,
          'processReplica (PodClaimIsStale)',
        );
        // Nothing watches claims here ("TODO: Watch volumes", stateful_set.go): the set informer's
        // resync (statefulSetResyncPeriod, 30 s) brings the set back; modelled as its latest tick.
        this.queue.addAfter(keyOf(set), STATEFUL_SET_RESYNC_PERIOD_MS);
        return { exit: true };
      }
      const claims = this.createMissingPersistentVolumeClaims(set, getOrdinal(set, pod), name);
      if (claims) return { exit: true, error: claims };
      const r = this.podControl.createPod(
        set,
        'StatefulSet',
        { metadata: pod.metadata, spec: pod.spec },
        pod.metadata.ownerReferences![0],
        { name },
      );
      if (!r.ok) return { exit: true, error: new Error(r.status.message) };
      replicas[i] = r.object;
      // CreateStatefulPod: the claims' owners as the policy asks, as far as possible now.
      if (retention) {
        const err = this.updatePodClaimForRetentionPolicy(set, r.object);
        if (err) return { exit: true, error: err };
      }
      return { exit: monotonic };
    }
    if (!monotonic) return { exit: false };
    if (isTerminating(pod)) {
      this.wait(set, `waits for pods/${name} to terminate before going on (OrderedReady)`, 'processReplica');
      return { exit: true };
    }
    if (!isRunningAndReady(pod)) {
      this.wait(set, `waits for pods/${name} to be Running and Ready`, 'processReplica');
      return { exit: true };
    }
    if (!isRunningAndAvailable(pod, set.spec?.minReadySeconds ?? 0, this.clock.now(), this.release)) {
      this.wait(
        set,
        `waits for pods/${name} to be available (minReadySeconds ${set.spec?.minReadySeconds})`,
        'processReplica',
      );
      return { exit: true };
    }
    // Enforce the invariants (UpdateStatefulPod): a claim of a pod back in range after a scale
    // down and up, or under a changed policy, gets the references the policy asks for.
    if (retention && !this.claimsMatchRetentionPolicy(set, pod)) {
      const err = this.updatePodClaimForRetentionPolicy(set, pod);
      if (err) return { exit: true, error: err };
    }
    return { exit: false };
  }

  /** The existing claims of the pod's ordinal, one per volumeClaimTemplate (a missing one is picked up later). */
  private claimsOf(set: StatefulSet, pod: Pod): PersistentVolumeClaim[] {
    const ordinal = getOrdinal(set, pod);
    const out: PersistentVolumeClaim[] = [];
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const got = this.api.get(
        'persistentvolumeclaims',
        set.metadata.namespace,
        getPersistentVolumeClaimName(set, t.metadata!.name!, ordinal),
      );
      if (got.ok) out.push(got.object);
    }
    return out;
  }

  /** PodClaimIsStale (stateful_pod_control.go): under whenScaled Delete, the name of a claim owned by another pod of this name. */
  private staleClaim(set: StatefulSet, pod: Pod): string | undefined {
    if (getPersistentVolumeClaimRetentionPolicy(set).whenScaled === 'Retain') return undefined;
    return this.claimsOf(set, pod).find((c) => hasStalePodRef(c, pod))?.metadata.name;
  }

  /** ClaimsMatchRetentionPolicy: each claim of the pod has the owners the policy asks for. */
  private claimsMatchRetentionPolicy(set: StatefulSet, pod: Pod): boolean {
    return this.claimsOf(set, pod).every((c) => isClaimOwnerUpToDate(c, set, pod));
  }

  /**
   * UpdatePodClaimForRetentionPolicy (stateful_pod_control.go): each claim of the pod whose owner
   * references differ from what the policy asks is updated (updateClaimOwnerRefForSetAndPod); a
   * claim another controller holds gets a Warning ConflictingController and is left to it.
   */
  private updatePodClaimForRetentionPolicy(set: StatefulSet, pod: Pod): Error | undefined {
    const policy = getPersistentVolumeClaimRetentionPolicy(set);
    for (const claim of this.claimsOf(set, pod)) {
      const name = claim.metadata.name!;
      if (hasUnexpectedController(claim, set, pod))
        this.podControl.event(
          set,
          'StatefulSet',
          'Warning',
          'ConflictingController',
          `PersistentVolumeClaim ${name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
        );
      if (isClaimOwnerUpToDate(claim, set, pod)) continue;
      const ownerReferences = claimOwnerRefsForSetAndPod(claim, set, pod);
      const owners = ownerReferences
        .filter((r) => r.controller)
        .map((r) => `${r.kind === 'Pod' ? 'pods' : 'statefulsets'}/${r.name}`);
      this.timeline.record(
        'statefulset',
        `statefulsets/${set.metadata.name} sets the owner of persistentvolumeclaims/${name} to ${owners.join(', ') || 'none'} (whenScaled ${policy.whenScaled}, whenDeleted ${policy.whenDeleted})`,
        'pkg/controller/statefulset/stateful_pod_control.go UpdatePodClaimForRetentionPolicy; stateful_set_utils.go updateClaimOwnerRefForSetAndPod',
        { actor: IDENTITY.name },
      );
      const body: PersistentVolumeClaim = { ...claim, metadata: { ...claim.metadata, ownerReferences } };
      const r = this.client.update('persistentvolumeclaims', set.metadata.namespace, body);
      if (!r.ok) return new Error(`could not update claim ${name} for delete policy ownerRefs: ${r.status.message}`);
    }
    return undefined;
  }

  /**
   * P18 — stateful_pod_control.go createMissingPersistentVolumeClaims: before a pod, each of its
   * volumeClaimTemplates' claims `<template>-<set>-<ordinal>` that does not exist yet, labelled with
   * the set's selector; one being deleted stops the pod's creation ("pvc … is being deleted", retried).
   * They are created without owners: the retention policy's references come once the pod is
   * created (updatePodClaimForRetentionPolicy, P21).
   */
  private createMissingPersistentVolumeClaims(set: StatefulSet, ordinal: number, podName: string): Error | undefined {
    const templates = set.spec?.volumeClaimTemplates ?? [];
    if (templates.length === 0) return undefined;
    const namespace = set.metadata.namespace;
    for (const t of templates) {
      const claimName = getPersistentVolumeClaimName(set, t.metadata!.name!, ordinal);
      const got = this.api.get('persistentvolumeclaims', namespace, claimName);
      if (got.ok) {
        if (got.object.metadata.deletionTimestamp) return new Error(`pvc ${claimName} is being deleted`);
        continue;
      }
      const labels = { ...t.metadata?.labels, ...set.spec?.selector?.matchLabels };
      const claim: PersistentVolumeClaim = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: claimName,
          namespace,
          labels,
          ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        },
        spec: structuredClone(t.spec),
      };
      const r = this.client.create('persistentvolumeclaims', namespace, claim);
      if (!r.ok && r.code !== 409) {
        this.podControl.event(
          set,
          'StatefulSet',
          'Warning',
          'FailedCreate',
          `create Claim ${claimName} for Pod ${podName} in StatefulSet ${set.metadata.name} failed error: ${r.status.message}`,
        );
        return new Error(r.status.message);
      }
      if (r.ok)
        this.podControl.event(
          set,
          'StatefulSet',
          'Normal',
          'SuccessfulCreate',
          `create Claim ${claimName} Pod ${podName} in StatefulSet ${set.metadata.name} success`,
        );
    }
    return undefined;
  }

  /**
   * processCondemned: a pod beyond the replicas is deleted — in OrderedReady mode only once the
   * one before it is gone, and only if it is healthy or the first unhealthy pod.
   */
  private processCondemned(set: StatefulSet, firstUnhealthy: Pod | undefined, monotonic: boolean, pod: Pod): boolean {
    const name = pod.metadata.name!;
    if (isTerminating(pod)) {
      if (monotonic) this.wait(set, `waits for pods/${name} to terminate prior to scale down`, 'processCondemned');
      return monotonic;
    }
    if (monotonic && pod !== firstUnhealthy && !isRunningAndReady(pod)) {
      this.wait(set, `waits for pods/${name} to be Running and Ready prior to scale down`, 'processCondemned');
      return true;
    }
    if (
      monotonic &&
      pod !== firstUnhealthy &&
      !isRunningAndAvailable(pod, set.spec?.minReadySeconds ?? 0, this.clock.now(), this.release)
    ) {
      this.wait(set, `waits for pods/${name} to be available prior to scale down`, 'processCondemned');
      return true;
    }
    this.timeline.record(
      'statefulset',
      `statefulsets/${set.metadata.name} scales down: delete pods/${name} (the highest ordinal)`,
      `${CONTROL} processCondemned`,
      { actor: IDENTITY.name },
    );
    this.podControl.deletePod(set, 'StatefulSet', name);
    return true;
  }

  /** computeReplicaStatus: created, ready, available, current and updated pods. */
  private computeStatus(set: StatefulSet, revision: string, pods: readonly Pod[]): Status {
    const now = this.clock.now();
    const minReady = set.spec?.minReadySeconds ?? 0;
    let replicas = 0;
    let ready = 0;
    let available = 0;
    let updated = 0;
    for (const pod of pods) {
      if (isCreated(pod)) replicas += 1;
      if (isRunningAndReady(pod)) {
        ready += 1;
        if (isRunningAndAvailable(pod, minReady, now, this.release)) available += 1;
      }
      if (isCreated(pod) && !isTerminating(pod) && pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === revision)
        updated += 1;
    }
    // With template updates not modelled, the update revision is the current one.
    return {
      observedGeneration: set.metadata.generation,
      replicas,
      readyReplicas: ready,
      availableReplicas: available,
      currentReplicas: updated,
      updatedReplicas: updated,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: set.status?.collisionCount ?? 0,
    };
  }

  /** updateStatefulSetStatus: UpdateStatus only when something changed. */
  private updateStatefulSetStatus(set: StatefulSet, status: Status): Error | undefined {
    const old: Status = set.status ?? { replicas: 0 };
    const keys = Object.keys(status) as (keyof Status)[];
    if (keys.every((k) => (old[k] ?? 0) === (status[k] ?? 0))) return undefined;
    const body: StatefulSet = { ...set, status };
    const r = this.client.update('statefulsets', set.metadata.namespace, body, { subresource: 'status' });
    if (!r.ok) return new Error(`updating the status of statefulsets/${set.metadata.name}: ${r.status.message}`);
    // realStatefulSetStatusUpdater: the status write is one the next sync waits to see.
    this.podControl.consistency?.wroteAt(set, 'statefulsets', r.object.metadata.resourceVersion);
    return undefined;
  }
}

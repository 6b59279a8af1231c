import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { EventRecorder } from '../../../client/event-recorder';
import { jsonEqual, toTime } from '../../../apimachinery/object';
import type { Deployment, DeploymentCondition, DeploymentStatus, Pod, ReplicaSet } from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { keyOf, type SharedInformer } from '../../../client/informer';
import {
  getControllerOf,
  labelSelectorAsSelector,
  newControllerRef,
  podsByControllerUID,
  POD_CONTROLLER_UID_INDEX,
} from '../controller-utils';
import { WorkQueue } from '../../../client/workqueue';
import {
  availableCount,
  byCreation,
  computeHash,
  DESIRED_REPLICAS_ANNOTATION,
  findNewReplicaSet,
  MAX_REPLICAS_ANNOTATION,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  POD_TEMPLATE_HASH_LABEL,
  replicaCount,
  REVISION_ANNOTATION,
  revisionOf,
} from './deployment-util';
import {
  FOUND_NEW_RS,
  getProgressing,
  hasProgressDeadline,
  NEW_RS_CREATED,
  newCondition,
  setCondition,
  stuckRequeueAfter,
  updateProgressing,
} from './progress';

const SOURCE = 'pkg/controller/deployment';
const IDENTITY: ClientIdentity = { name: 'deployment-controller', component: 'deployment' };

/**
 * The Deployment controller (pkg/controller/deployment: deployment_controller.go syncDeployment,
 * sync.go, rolling.go, recreate.go, progress.go; rule W8 of docs/rules/workloads.md). It
 * never touches pods: it creates a ReplicaSet per template (NAME-<pod-template-hash>, revision
 * annotations) and changes the sets' spec.replicas; the ReplicaSet controller does the rest. A
 * rolling update scales the new set up within maxSurge and the old ones down within
 * maxUnavailable, both counted in the sets' spec.replicas and available pods — a pod being
 * deleted is in neither, so it runs beside the surge until it is gone. Recreate scales the old
 * sets to 0 and creates the new one only once no old pod runs. The Progressing condition and its
 * deadline follow progress.ts. Proportional scaling during a rollout (a scale goes to the newest
 * set) and ReplicaFailure conditions are not modelled.
 */
export class DeploymentController extends ControllerBase {
  readonly queue: WorkQueue;
  private readonly deployments: SharedInformer<Deployment>;
  private readonly sets: SharedInformer<ReplicaSet>;
  private readonly pods: SharedInformer<Pod>;
  private readonly recorder: EventRecorder;
  /** When each Deployment's next progress check is queued (requeueStuckDeployment), to say so once. */
  private readonly progressCheckAt = new Map<string, number>();
  /** How many old pods each Recreate rollout was last said to wait for. */
  private readonly waitingFor = new Map<string, number>();

  /** Built by kube-controller-manager with what every controller gets (ControllerContext). */
  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.queue = new WorkQueue(clock, (key) => this.syncDeployment(key));
    this.deployments = informers.informerFor('deployments');
    this.sets = informers.informerFor('replicasets');
    this.pods = podsByControllerUID(informers);
    this.recorder = this.eventRecorder({ component: 'deployment-controller' }, 'deployment');
  }

  start(): this {
    this.deployments.addEventHandler((key) => this.queue.add(key));
    this.sets.addEventHandler((_key, old, rs) => this.enqueueOwner((rs ?? old)!));
    // deletePod: only a Recreate Deployment listens, and only to its last pod leaving (upstream
    // registers no add or update handler for pods: a pod turning Failed or Succeeded wakes nothing).
    this.pods.addEventHandler((_key, old, pod) => {
      if (pod || !old) return;
      const ref = getControllerOf(old);
      if (ref?.kind !== 'ReplicaSet') return;
      const rs = this.sets.get(`${old.metadata.namespace}/${ref.name}`);
      if (!rs || rs.metadata.uid !== ref.uid) return;
      const d = this.ownerOf(rs);
      if (d?.spec?.strategy?.type !== 'Recreate') return;
      const left = this.getReplicaSetsForDeployment(d).some(
        (s) => this.pods.byIndex(POD_CONTROLLER_UID_INDEX, s.metadata.uid!).length > 0,
      );
      if (!left) this.queue.add(keyOf(d));
    });
    return this;
  }

  private ownerOf(rs: ReplicaSet): Deployment | undefined {
    const ref = getControllerOf(rs);
    if (ref?.kind !== 'Deployment') return undefined;
    const d = this.deployments.get(`${rs.metadata.namespace}/${ref.name}`);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  private enqueueOwner(rs: ReplicaSet): void {
    const d = this.ownerOf(rs);
    if (d) this.queue.add(keyOf(d));
  }

  /** syncDeployment: the sets it owns, then a scale, a Recreate or a RollingUpdate step, then the status. */
  syncDeployment(key: string): void | Error {
    const cached = this.deployments.get(key);
    if (!cached) {
      this.progressCheckAt.delete(key);
      this.waitingFor.delete(key);
      return;
    }
    const sets = this.getReplicaSetsForDeployment(cached);
    // syncStatusOnly → syncDeploymentStatus: the counts and Available only.
    if (cached.metadata.deletionTimestamp) return this.syncStatus(cached, sets, false);
    const checked = this.checkPausedConditions(cached);
    if (checked instanceof Error) return checked;
    // The cache's copy is shared and frozen: getNewReplicaSet writes Progressing and the resourceVersion on a copy (upstream: DeepCopy).
    const d: Deployment = { ...checked, metadata: { ...checked.metadata }, status: { ...checked.status } };
    // A paused Deployment is only scaled (dc.sync): no new ReplicaSet, no rollout step, Progressing left as it is.
    if (d.spec?.paused) return this.scaleOnly(d, sets);
    if (this.isScalingEvent(d, sets)) return this.scaleOnly(d, sets);
    if (d.spec?.strategy?.type === 'Recreate') return this.rolloutRecreate(d, sets);
    return this.rolloutRolling(d, sets);
  }

  /** getReplicaSetsForDeployment: the sets it controls whose labels its selector matches (adoption not modelled). */
  private getReplicaSetsForDeployment(d: Deployment): ReplicaSet[] {
    const selector = labelSelectorAsSelector(d.spec?.selector);
    return this.sets
      .list(d.metadata.namespace)
      .filter(
        (rs) =>
          getControllerOf(rs)?.uid === d.metadata.uid &&
          !!selector?.matches(rs.spec?.template?.metadata?.labels ?? rs.metadata.labels),
      );
  }

  /** isScalingEvent: an active set's desired-replicas annotation is not the Deployment's replicas any more. */
  private isScalingEvent(d: Deployment, sets: readonly ReplicaSet[]): boolean {
    const replicas = d.spec?.replicas ?? 1;
    return sets.some(
      (rs) =>
        (rs.spec?.replicas ?? 0) > 0 &&
        rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] !== undefined &&
        Number(rs.metadata.annotations[DESIRED_REPLICAS_ANNOTATION]) !== replicas,
    );
  }

  /**
   * sync → scale: with one active set (or none) that set — the new one first — gets all the
   * replicas; with several (a rollout under way) the difference goes to the newest (upstream shares
   * it out in proportion to their sizes; not modelled). Then syncDeploymentStatus: Progressing
   * is not touched.
   */
  private scaleOnly(d: Deployment, sets: ReplicaSet[]): void | Error {
    const replicas = d.spec?.replicas ?? 1;
    const active = byCreation(sets.filter((rs) => (rs.spec?.replicas ?? 0) > 0));
    const newRS = findNewReplicaSet(d, sets);
    if (active.length <= 1) {
      const target = newRS ?? active[0];
      if (target) this.scaleReplicaSet(target, replicas, d, 'sync.go scale');
    } else {
      const newest = active[active.length - 1];
      const rest = replicaCount(active) - (newest.spec?.replicas ?? 0);
      for (const rs of active.slice(0, -1)) this.scaleReplicaSet(rs, rs.spec?.replicas ?? 0, d, 'sync.go scale');
      this.scaleReplicaSet(newest, Math.max(0, replicas - rest), d, 'sync.go scale');
    }
    return this.syncStatus(d, this.getReplicaSetsForDeployment(d), false);
  }

  /**
   * checkPausedConditions (sync.go): with a progress deadline (progressDeadlineSeconds, 600 by
   * default), pausing sets Progressing to Unknown with reason DeploymentPaused and resuming to
   * Unknown with DeploymentResumed, in a status update of their own — unless the rollout has
   * already timed out (ProgressDeadlineExceeded). Answers the Deployment as it is now.
   */
  private checkPausedConditions(d: Deployment): Deployment | Error {
    if (d.spec?.progressDeadlineSeconds === undefined || d.spec.progressDeadlineSeconds === null) return d;
    const progressing = (d.status?.conditions ?? []).find((c) => c.type === 'Progressing');
    if (progressing?.reason === 'ProgressDeadlineExceeded') return d;
    const pausedCondition = progressing?.reason === 'DeploymentPaused';
    let reason: string;
    let message: string;
    if (d.spec.paused && !pausedCondition) [reason, message] = ['DeploymentPaused', 'Deployment is paused'];
    else if (!d.spec.paused && pausedCondition) [reason, message] = ['DeploymentResumed', 'Deployment is resumed'];
    else return d;
    const now = toTime(this.clock.now());
    const next: DeploymentCondition = {
      type: 'Progressing',
      status: 'Unknown',
      reason,
      message,
      lastUpdateTime: now,
      lastTransitionTime: progressing?.status === 'Unknown' ? progressing.lastTransitionTime : now,
    };
    const conditions = [...(d.status?.conditions ?? []).filter((c) => c.type !== 'Progressing'), next];
    this.timeline.record(
      'deployment',
      `deployments/${d.metadata.name} ${d.spec.paused ? 'is paused: it is only scaled, no rollout goes on' : 'is resumed'}`,
      `${SOURCE}/sync.go checkPausedConditions`,
      { actor: IDENTITY.name },
    );
    const r = this.client.update(
      'deployments',
      d.metadata.namespace,
      { ...d, status: { ...d.status, conditions } },
      { subresource: 'status' },
    );
    return r.ok ? r.object : new Error(r.status.message);
  }

  /** rolloutRolling (rolling.go): reconcileNewReplicaSet, else reconcileOldReplicaSets, then the status. */
  private rolloutRolling(d: Deployment, sets: ReplicaSet[]): void | Error {
    const old = sets.filter((rs) => rs !== findNewReplicaSet(d, sets));
    const newRS = this.getNewReplicaSet(d, sets, old);
    if (newRS instanceof Error) return newRS;
    const all = [...old, newRS];
    if (this.reconcileNewReplicaSet(all, newRS, d)) return this.syncStatus(d, this.getReplicaSetsForDeployment(d));
    this.reconcileOldReplicaSets(
      all,
      old.filter((rs) => (rs.spec?.replicas ?? 0) > 0),
      newRS,
      d,
    );
    return this.syncStatus(d, this.getReplicaSetsForDeployment(d));
  }

  /** reconcileNewReplicaSet: the new set up to what NewRSNewReplicas allows (or down to spec.replicas). */
  private reconcileNewReplicaSet(all: ReplicaSet[], newRS: ReplicaSet, d: Deployment): boolean {
    const replicas = d.spec?.replicas ?? 1;
    const have = newRS.spec?.replicas ?? 0;
    if (have === replicas) return false;
    if (have > replicas) return this.scaleReplicaSet(newRS, replicas, d, 'rolling.go reconcileNewReplicaSet');
    return this.scaleReplicaSet(
      newRS,
      newRSNewReplicas(d, all, newRS),
      d,
      'rolling.go reconcileNewReplicaSet → NewRSNewReplicas',
    );
  }

  /**
   * reconcileOldReplicaSets: how far the old sets may shrink — all pods asked for, less the
   * minimum available (replicas − maxUnavailable), less the new set's pods not yet available —
   * first taking unhealthy old pods (cleanupUnhealthyReplicas), then available ones
   * (scaleDownOldReplicaSetsForRollingUpdate), oldest set first.
   */
  private reconcileOldReplicaSets(
    all: ReplicaSet[],
    oldActive: ReplicaSet[],
    newRS: ReplicaSet,
    d: Deployment,
  ): boolean {
    if (replicaCount(oldActive) === 0) return false;
    const minAvailable = (d.spec?.replicas ?? 1) - maxUnavailable(d);
    const newUnavailable = (newRS.spec?.replicas ?? 0) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = replicaCount(all) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let scaled = 0;
    // cleanupUnhealthyReplicas
    for (const rs of byCreation(oldActive)) {
      if (scaled >= maxScaledDown) break;
      const have = rs.spec?.replicas ?? 0;
      const unhealthy = have - (rs.status?.availableReplicas ?? 0);
      if (have === 0 || unhealthy <= 0) continue;
      const n = Math.min(maxScaledDown - scaled, unhealthy);
      this.scaleReplicaSet(rs, have - n, d, 'rolling.go cleanupUnhealthyReplicas');
      scaled += n;
    }
    // scaleDownOldReplicaSetsForRollingUpdate, with the sets as they are now
    const current = (rs: ReplicaSet) => this.sets.get(keyOf(rs)) ?? rs;
    const available = availableCount([...oldActive.map(current), newRS]);
    const total = available - minAvailable;
    let down = 0;
    if (total > 0) {
      for (const rs of byCreation(oldActive.map(current))) {
        if (down >= total) break;
        const have = rs.spec?.replicas ?? 0;
        if (have === 0) continue;
        const n = Math.min(have, total - down);
        this.scaleReplicaSet(rs, have - n, d, 'rolling.go scaleDownOldReplicaSetsForRollingUpdate');
        down += n;
      }
    }
    return scaled + down > 0;
  }

  /** rolloutRecreate: old sets to 0; once no old pod runs, the new set at full size. */
  private rolloutRecreate(d: Deployment, sets: ReplicaSet[]): void | Error {
    const existingNew = findNewReplicaSet(d, sets);
    const old = sets.filter((rs) => rs !== existingNew);
    let scaledDown = false;
    for (const rs of old)
      if ((rs.spec?.replicas ?? 0) > 0)
        scaledDown = this.scaleReplicaSet(rs, 0, d, 'recreate.go scaleDownOldReplicaSetsForRecreate') || scaledDown;
    if (scaledDown) return this.syncStatus(d, this.getReplicaSetsForDeployment(d));
    const running = old
      .flatMap((rs) => this.pods.byIndex(POD_CONTROLLER_UID_INDEX, rs.metadata.uid!))
      .filter((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
    if (running.length > 0) {
      // Said once per count: a Deployment past its deadline is synced ten times a second (requeueStuckDeployment).
      if (this.waitingFor.get(keyOf(d)) === running.length) return this.syncStatus(d, sets);
      this.waitingFor.set(keyOf(d), running.length);
      this.timeline.record(
        'deployment',
        `waits for ${running.length} old pod${running.length > 1 ? 's' : ''} to be gone (Recreate)`,
        `${SOURCE}/recreate.go oldPodsRunning`,
        { actor: IDENTITY.name },
      );
      return this.syncStatus(d, sets);
    }
    this.waitingFor.delete(keyOf(d));
    const newRS = this.getNewReplicaSet(d, sets, old);
    if (newRS instanceof Error) return newRS;
    if ((newRS.spec?.replicas ?? 0) !== (d.spec?.replicas ?? 1))
      this.scaleReplicaSet(newRS, d.spec?.replicas ?? 1, d, 'recreate.go scaleUpNewReplicaSetForRecreate');
    return this.syncStatus(d, this.getReplicaSetsForDeployment(d));
  }

  /**
   * getNewReplicaSet: the set of the current template (its revision annotation brought up to
   * date), or a new one named NAME-<ComputeHash(template, collisionCount)> with the hash as a
   * label on its template and selector, the next revision, and as many replicas as the strategy
   * allows now.
   */
  private getNewReplicaSet(d: Deployment, sets: ReplicaSet[], old: ReplicaSet[]): ReplicaSet | Error {
    const maxOldRevision = Math.max(0, ...old.map(revisionOf));
    const existing = findNewReplicaSet(d, sets);
    if (existing) {
      const revision = revisionOf(existing) > maxOldRevision ? revisionOf(existing) : maxOldRevision + 1;
      const written = this.setDeploymentRevision(d, revision);
      // A deadline and no Progressing yet: progress is counted from the first time the set is seen.
      if (hasProgressDeadline(d) && !getProgressing(d.status))
        this.writeProgressing(d, written, FOUND_NEW_RS, `Found new replica set "${existing.metadata.name}"`);
      if (String(revision) === existing.metadata.annotations?.[REVISION_ANNOTATION]) return existing;
      const r = this.client.update('replicasets', existing.metadata.namespace, {
        ...existing,
        metadata: {
          ...existing.metadata,
          annotations: { ...existing.metadata.annotations, [REVISION_ANNOTATION]: String(revision) },
        },
      });
      return r.ok ? r.object : new Error(r.status.message);
    }
    const template = structuredClone(d.spec!.template);
    const hash = computeHash(template, d.status?.collisionCount);
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash },
    };
    const replicas =
      d.spec?.strategy?.type === 'Recreate' ? (d.spec?.replicas ?? 1) : newRSNewReplicas(d, old, undefined);
    const name = `${d.metadata.name}-${hash}`;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: d.metadata.namespace,
        labels: { ...template.metadata.labels },
        annotations: {
          ...d.metadata.annotations,
          [REVISION_ANNOTATION]: String(maxOldRevision + 1),
          [DESIRED_REPLICAS_ANNOTATION]: String(d.spec?.replicas ?? 1),
          [MAX_REPLICAS_ANNOTATION]: String((d.spec?.replicas ?? 1) + maxSurge(d)),
        },
        ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
      },
      spec: {
        replicas,
        minReadySeconds: d.spec?.minReadySeconds,
        selector: {
          ...d.spec!.selector,
          matchLabels: { ...d.spec!.selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash },
        },
        template,
      },
    };
    delete rs.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration'];
    this.timeline.record(
      'deployment',
      `creates replicaset ${name} with ${replicas} replicas (revision ${maxOldRevision + 1})`,
      `${SOURCE}/sync.go getNewReplicaSet`,
      { actor: IDENTITY.name },
    );
    const r = this.client.create('replicasets', d.metadata.namespace, rs);
    if (!r.ok) return new Error(r.status.message);
    const written = this.setDeploymentRevision(d, maxOldRevision + 1);
    if (hasProgressDeadline(d)) this.writeProgressing(d, written, NEW_RS_CREATED, `Created new replica set "${name}"`);
    if (replicas > 0)
      this.recorder.event(
        this.ref(d),
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${name} from 0 to ${replicas}`,
      );
    return r.object;
  }

  /**
   * getNewReplicaSet's status update: Progressing True with the reason given (the rollout's
   * progress is counted from now), also set on `d`, which the sync goes on with.
   */
  private writeProgressing(d: Deployment, written: Deployment | undefined, reason: string, message: string): void {
    const condition = newCondition('Progressing', 'True', reason, message, this.clock.now());
    d.status = { ...d.status, conditions: [...(d.status?.conditions ?? [])] };
    setCondition(d.status, condition);
    // Upstream writes the revision annotation and the condition in one status update; here they are two writes,
    // the second on the first's answer (the cache may not have it yet).
    const fresh = written ?? this.deployments.get(keyOf(d)) ?? d;
    const status = { ...fresh.status, conditions: [...(fresh.status?.conditions ?? [])] };
    setCondition(status, condition);
    this.timeline.record(
      'deployment',
      `deployments/${d.metadata.name} Progressing: ${reason} (${message})`,
      `${SOURCE}/sync.go getNewReplicaSet`,
      { actor: IDENTITY.name },
    );
    const r = this.client.update('deployments', d.metadata.namespace, { ...fresh, status }, { subresource: 'status' });
    if (r.ok) d.metadata = { ...d.metadata, resourceVersion: r.object.metadata.resourceVersion };
  }

  /** SetDeploymentRevision: the Deployment carries its new set's revision annotation (kubectl rollout undo reads it). */
  private setDeploymentRevision(d: Deployment, revision: number): Deployment | undefined {
    const fresh = this.deployments.get(keyOf(d)) ?? d;
    if (fresh.metadata.annotations?.[REVISION_ANNOTATION] === String(revision)) return undefined;
    const r = this.client.update('deployments', fresh.metadata.namespace, {
      ...fresh,
      metadata: {
        ...fresh.metadata,
        annotations: { ...fresh.metadata.annotations, [REVISION_ANNOTATION]: String(revision) },
      },
    });
    if (!r.ok) return undefined;
    d.metadata = { ...d.metadata, resourceVersion: r.object.metadata.resourceVersion };
    return r.object;
  }

  /** scaleReplicaSet: spec.replicas and the desired/max-replicas annotations in one update, with a ScalingReplicaSet event. */
  private scaleReplicaSet(rs: ReplicaSet, replicas: number, d: Deployment, why: string): boolean {
    const fresh = this.sets.get(keyOf(rs)) ?? rs;
    const from = fresh.spec?.replicas ?? 0;
    const annotations = {
      ...fresh.metadata.annotations,
      [DESIRED_REPLICAS_ANNOTATION]: String(d.spec?.replicas ?? 1),
      [MAX_REPLICAS_ANNOTATION]: String((d.spec?.replicas ?? 1) + maxSurge(d)),
    };
    if (from === replicas && jsonEqual(annotations, fresh.metadata.annotations ?? {})) return false;
    this.timeline.record(
      'deployment',
      `scales replicaset ${rs.metadata.name} from ${from} to ${replicas}`,
      `${SOURCE}/${why}`,
      { actor: IDENTITY.name },
    );
    const r = this.client.update('replicasets', rs.metadata.namespace, {
      ...fresh,
      metadata: { ...fresh.metadata, annotations },
      spec: { ...fresh.spec!, replicas },
    });
    if (r.ok && from !== replicas)
      this.recorder.event(
        this.ref(d),
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${replicas}`,
      );
    return r.ok && from !== replicas;
  }

  /**
   * calculateStatus, then syncRolloutStatus (progress: a rollout step's sync) or
   * syncDeploymentStatus (a scale, a paused or a deleted Deployment): the counts over all its
   * sets (updatedReplicas: the new set's; terminatingReplicas with
   * DeploymentReplicaSetTerminatingReplicas), Available, and in a rollout Progressing
   * (progress.ts); one status update when something changed, else the progress check requeued.
   */
  private syncStatus(d: Deployment, sets: ReplicaSet[], progress = true): void | Error {
    const newRS = findNewReplicaSet(d, sets);
    const replicas = d.spec?.replicas ?? 1;
    const sum = (f: (rs: ReplicaSet) => number | undefined) => sets.reduce((n, rs) => n + (f(rs) ?? 0), 0);
    const total = sum((rs) => rs.status?.replicas);
    const available = sum((rs) => rs.status?.availableReplicas);
    const status: DeploymentStatus = {
      observedGeneration: d.metadata.generation,
      replicas: total,
      updatedReplicas: newRS?.status?.replicas ?? 0,
      readyReplicas: sum((rs) => rs.status?.readyReplicas),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
      ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    };
    if (this.release.enabled('DeploymentReplicaSetTerminatingReplicas'))
      status.terminatingReplicas = sum(
        (rs) => (rs.status as { terminatingReplicas?: number } | undefined)?.terminatingReplicas,
      );
    const now = this.clock.now();
    status.conditions = [...(d.status?.conditions ?? [])];
    if (available >= replicas - maxUnavailable(d))
      setCondition(
        status,
        newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now),
      );
    else
      setCondition(
        status,
        newCondition(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
          now,
        ),
      );
    if (progress) {
      const { timedOut } = updateProgressing(d, status, newRS?.metadata.name, now);
      if (timedOut)
        this.timeline.record(
          'deployment',
          `deployments/${d.metadata.name} has timed out progressing: Progressing False, ProgressDeadlineExceeded (no progress for ${d.spec!.progressDeadlineSeconds}s)`,
          `${SOURCE}/progress.go syncRolloutStatus → util.DeploymentTimedOut`,
          { actor: IDENTITY.name },
        );
    }
    if (jsonEqual(status, d.status ?? {})) {
      if (progress) this.requeueStuckDeployment(d, status);
      return;
    }
    // A status written: the next unchanged sync says again when the progress check comes.
    this.progressCheckAt.delete(keyOf(d));
    const r = this.client.update('deployments', d.metadata.namespace, { ...d, status }, { subresource: 'status' });
    return r.ok || r.code === 409 || r.code === 404 ? undefined : new Error(r.status.message);
  }

  /**
   * requeueStuckDeployment: a rollout that neither completed nor timed out is synced again when its
   * deadline passes (lastUpdateTime of Progressing + progressDeadlineSeconds, plus a second), or
   * rate-limited at once when less than a second is left — nothing else may wake it (a pod turning
   * Failed or Succeeded does not).
   */
  private requeueStuckDeployment(d: Deployment, status: DeploymentStatus): void {
    const key = keyOf(d);
    const after = stuckRequeueAfter(d, status, this.clock.now());
    if (after === undefined) return;
    if (after === 'now') {
      // Upstream's quirk, kept: the sync succeeds, so the queue forgets the key's back-off and the next
      // check comes 5 ms later, only the queue's 10 qps bucket slowing it, until something changes.
      // A check that only repeats itself is background work: it does not keep the cluster from settling.
      if (this.progressCheckAt.get(key) !== -1) {
        this.progressCheckAt.set(key, -1);
        this.timeline.record(
          'deployment',
          `deployments/${d.metadata.name} is past its progress deadline and not complete: requeued rate-limited after every sync`,
          `${SOURCE}/progress.go requeueStuckDeployment → enqueueRateLimited`,
          { actor: IDENTITY.name },
        );
      }
      this.queue.addRateLimited(key, { background: true });
      return;
    }
    const at = this.clock.now() + after;
    if (this.progressCheckAt.get(key) === at) return;
    this.progressCheckAt.set(key, at);
    this.timeline.record(
      'deployment',
      `deployments/${d.metadata.name} queued for a progress check in ${Math.round(after / 1000)}s (progressDeadlineSeconds ${d.spec!.progressDeadlineSeconds})`,
      `${SOURCE}/progress.go requeueStuckDeployment`,
      { actor: IDENTITY.name },
    );
    this.queue.addAfter(key, after);
  }

  private ref(d: Deployment): { kind: string; apiVersion: string; namespace?: string; name?: string; uid?: string } {
    return {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      namespace: d.metadata.namespace,
      name: d.metadata.name,
      uid: d.metadata.uid,
    };
  }
}

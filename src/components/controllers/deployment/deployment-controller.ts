import type { ClientIdentity } from '../../../apiserver/apiserver';
import { EventRecorder } from '../../../client/event-recorder';
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
 * sets to 0 and creates the new one only once no old pod runs. Pausing, proportional scaling
 * during a rollout (a scale goes to the newest set) and progress deadlines are not modelled.
 */
export class DeploymentController extends ControllerBase {
  readonly queue: WorkQueue;
  private readonly deployments: SharedInformer<Deployment>;
  private readonly sets: SharedInformer<ReplicaSet>;
  private readonly pods: SharedInformer<Pod>;
  private readonly recorder: EventRecorder;

  /** Built by kube-controller-manager with what every controller gets (ControllerContext). */
  constructor(ctx: ControllerContext) {
    super(ctx);
    const { clock, informers } = ctx;
    this.queue = new WorkQueue(clock, (key) => this.syncDeployment(key));
    this.deployments = informers.informerFor('deployments');
    this.sets = informers.informerFor('replicasets');
    this.pods = podsByControllerUID(informers);
    this.recorder = new EventRecorder(
      { component: 'deployment-controller' },
      'deployment',
      () => clock.now(),
      (e) => this.api.create(IDENTITY, 'events', e.metadata.namespace, e),
    );
  }

  start(): this {
    this.deployments.addEventHandler((key) => this.queue.add(key));
    this.sets.addEventHandler((_key, old, rs) => this.enqueueOwner((rs ?? old)!));
    // deletePod: a Recreate rollout waits for its old pods to be gone.
    this.pods.addEventHandler((_key, old, pod) => {
      if (pod || !old) return;
      const ref = getControllerOf(old);
      if (ref?.kind !== 'ReplicaSet') return;
      const rs = this.sets.get(`${old.metadata.namespace}/${ref.name}`);
      if (rs && rs.metadata.uid === ref.uid) this.enqueueOwner(rs);
    });
    return this;
  }

  private enqueueOwner(rs: ReplicaSet): void {
    const ref = getControllerOf(rs);
    if (ref?.kind !== 'Deployment') return;
    const d = this.deployments.get(`${rs.metadata.namespace}/${ref.name}`);
    if (d && d.metadata.uid === ref.uid) this.queue.add(keyOf(d));
  }

  /** syncDeployment: the sets it owns, then a scale, a Recreate or a RollingUpdate step, then the status. */
  syncDeployment(key: string): void | Error {
    const cached = this.deployments.get(key);
    if (!cached) return;
    const sets = this.getReplicaSetsForDeployment(cached);
    if (cached.metadata.deletionTimestamp) return this.syncStatus(cached, sets);
    const d = this.checkPausedConditions(cached);
    if (d instanceof Error) return d;
    // A paused Deployment is only scaled (dc.sync): no new ReplicaSet, no rollout step, Progressing left as it is.
    if (d.spec?.paused) return this.scaleOnly(d, sets, false);
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
   * it out in proportion to their sizes; not modelled).
   */
  private scaleOnly(d: Deployment, sets: ReplicaSet[], progress = true): void | Error {
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
    return this.syncStatus(d, this.getReplicaSetsForDeployment(d), progress);
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
    const r = this.api.update(
      IDENTITY,
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
      this.timeline.record(
        'deployment',
        `waits for ${running.length} old pod${running.length > 1 ? 's' : ''} to be gone (Recreate)`,
        `${SOURCE}/recreate.go oldPodsRunning`,
        { actor: IDENTITY.name },
      );
      return this.syncStatus(d, sets);
    }
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
      this.setDeploymentRevision(d, revision);
      if (String(revision) === existing.metadata.annotations?.[REVISION_ANNOTATION]) return existing;
      const r = this.api.update(IDENTITY, 'replicasets', existing.metadata.namespace, {
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
    const r = this.api.create(IDENTITY, 'replicasets', d.metadata.namespace, rs);
    if (!r.ok) return new Error(r.status.message);
    this.setDeploymentRevision(d, maxOldRevision + 1);
    if (replicas > 0)
      this.recorder.event(
        this.ref(d),
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${name} from 0 to ${replicas}`,
      );
    return r.object;
  }

  /** SetDeploymentRevision: the Deployment carries its new set's revision annotation (kubectl rollout undo reads it). */
  private setDeploymentRevision(d: Deployment, revision: number): void {
    const fresh = this.deployments.get(keyOf(d)) ?? d;
    if (fresh.metadata.annotations?.[REVISION_ANNOTATION] === String(revision)) return;
    this.api.update(IDENTITY, 'deployments', fresh.metadata.namespace, {
      ...fresh,
      metadata: {
        ...fresh.metadata,
        annotations: { ...fresh.metadata.annotations, [REVISION_ANNOTATION]: String(revision) },
      },
    });
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
    const r = this.api.update(IDENTITY, 'replicasets', rs.metadata.namespace, {
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
   * syncRolloutStatus / calculateStatus: the counts over all its sets (updatedReplicas: the new
   * set's; terminatingReplicas with DeploymentReplicaSetTerminatingReplicas), and the Available
   * and Progressing conditions; one status update when something changed.
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
    const now = toTime(this.clock.now());
    const conditions = [...(d.status?.conditions ?? [])];
    const set = (c: DeploymentCondition) => {
      const i = conditions.findIndex((x) => x.type === c.type);
      const prev = conditions[i];
      if (prev && prev.status === c.status && prev.reason === c.reason) return;
      const next = {
        ...c,
        lastUpdateTime: now,
        lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now,
      };
      if (i >= 0) conditions[i] = next;
      else conditions.push(next);
    };
    if (available >= replicas - maxUnavailable(d))
      set({
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      });
    else
      set({
        type: 'Available',
        status: 'False',
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      });
    // syncDeploymentStatus (a paused Deployment's sync) leaves Progressing to checkPausedConditions.
    if (newRS && progress) {
      const complete = status.updatedReplicas === replicas && total === replicas && available === replicas;
      if (complete)
        set({
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${newRS.metadata.name}" has successfully progressed.`,
        });
      else
        set({
          type: 'Progressing',
          status: 'True',
          reason: 'ReplicaSetUpdated',
          message: `ReplicaSet "${newRS.metadata.name}" is progressing.`,
        });
    }
    status.conditions = conditions;
    if (jsonEqual(status, d.status ?? {})) return;
    const r = this.api.update(
      IDENTITY,
      'deployments',
      d.metadata.namespace,
      { ...d, status },
      { subresource: 'status' },
    );
    return r.ok || r.code === 409 || r.code === 404 ? undefined : new Error(r.status.message);
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

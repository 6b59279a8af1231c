import type { Resource } from '../apiserver/apiserver';
import type { Pod, ReplicaSet } from '../apimachinery/types';
import { type Cluster, USER } from '../cluster/cluster';
import { listNames, PlanError } from './plan-error';

/** An object the plan creates before the pods that owns one of them (a custom resource). */
export interface PlannedOwner {
  resource: Resource;
  apiVersion: string;
  kind: string;
  name: string;
}

/**
 * Who owns the planned pods: ReplicaSets created before them (which pods each owns), and other
 * objects that are a pod's controller; the ownerReferences get the owners' uids at creation.
 */
export class OwnerPlan {
  /** ReplicaSets to create before the pods, and which planned pods each owns. */
  private readonly replicaSets = new Map<string, { rs: ReplicaSet; pods: { name: string; blocking: boolean }[] }>();
  /** Pods owned by one of the plan's other objects (ownedBy). */
  private readonly objectOwners: (PlannedOwner & { pod: string })[] = [];

  constructor(
    private readonly cluster: () => Cluster,
    private readonly started: () => boolean,
  ) {}

  get replicaSetCount(): number {
    return this.replicaSets.size;
  }

  hasReplicaSet(name: string): boolean {
    return this.replicaSets.has(name);
  }

  /** A ReplicaSet to create (at once when the plan runs already). */
  addReplicaSet(name: string, rs: ReplicaSet): void {
    this.replicaSets.set(name, { rs, pods: [] });
    if (this.started()) this.createReplicaSet(name);
  }

  /** A planned ReplicaSet and the pods it owns (push to own one more; before the start only). */
  replicaSet(rsName: string): { pods: { name: string; blocking: boolean }[] } {
    const rs = this.replicaSets.get(rsName);
    if (!rs)
      throw new PlanError(`unknown replicaset "${rsName}" (replicasets: ${listNames([...this.replicaSets.keys()])})`);
    return rs;
  }

  ownedByObject(podName: string, owner: PlannedOwner): void {
    this.objectOwners.push({ pod: podName, ...owner });
  }

  /**
   * Creates every planned ReplicaSet. No flush between the owners and their pods: the ReplicaSet
   * controller's first sync then finds the pods the plan gives it, as it would for objects that
   * existed before it started.
   */
  start(): void {
    for (const name of this.replicaSets.keys()) this.createReplicaSet(name, false);
  }

  /** The pod with its owners' references (and a ReplicaSet's selector labels), for its creation. */
  withOwners(planned: Pod): Pod {
    const name = planned.metadata.name!;
    const owners = [...this.replicaSets.values()].filter((r) => r.pods.some((p) => p.name === name));
    const pod = structuredClone(planned);
    for (const owner of owners) {
      const uid = owner.rs.metadata.uid;
      const blockOwnerDeletion = owner.pods.find((p) => p.name === name)!.blocking;
      const ref = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: owner.rs.metadata.name!,
        uid: uid!,
        controller: true,
        blockOwnerDeletion,
      };
      pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
      pod.metadata.labels = { ...pod.metadata.labels, ...owner.rs.spec?.selector.matchLabels };
    }
    for (const owner of this.objectOwners.filter((o) => o.pod === name)) {
      const got = this.cluster().apiserver.get(owner.resource, 'default', owner.name);
      if (!got.ok)
        throw new PlanError(
          `${owner.kind} "${owner.name}", owner of pod "${name}", does not exist: ${got.status.message}`,
        );
      const ref = {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.name,
        uid: got.object.metadata.uid!,
        controller: true,
        blockOwnerDeletion: true,
      };
      pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
    }
    return pod;
  }

  private createReplicaSet(name: string, flush = true): void {
    const cluster = this.cluster();
    const planned = this.replicaSets.get(name)!;
    const r = cluster.apiserver.create(USER, 'replicasets', planned.rs.metadata.namespace ?? 'default', planned.rs);
    if (!r.ok)
      throw new PlanError(
        `replicaset "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`,
      );
    planned.rs = r.object;
    if (flush) cluster.flush();
  }
}

import { type Cluster, USER } from '../cluster/cluster';
import type { Pod } from '../apimachinery/types';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour } from '../components/kubelet/runtime';
import { PendingPods, type PendingEntry } from './pending-pods';
import { listNames, PlanError } from './plan-error';
import { WORKLOAD_RESOURCES, type Workload, type WorkloadKind } from './workload-manifest';

/**
 * A plan's StatefulSets, Jobs and DaemonSets (created before the pods), and the behaviours of the
 * pods their controllers will create, whose names the plan cannot know in advance.
 */
export class WorkloadPlan {
  /** StatefulSets, Jobs and DaemonSets to create (before the pods), by `kind/name`. */
  private readonly workloads = new Map<string, { kind: WorkloadKind; obj: Workload }>();
  /** Behaviours of pods the workloads' controllers will create. */
  private readonly pending: PendingPods;

  constructor(
    private readonly cluster: () => Cluster,
    private readonly started: () => boolean,
  ) {
    this.pending = new PendingPods(cluster);
  }

  /** A workload to create (at once when the plan runs already). */
  add(kind: WorkloadKind, name: string, obj: Workload): void {
    const key = `${kind}/${name}`;
    if (this.workloads.has(key)) throw new PlanError(`${kind} "${name}" is declared twice`);
    this.workloads.set(key, { kind, obj });
    if (this.started()) this.create(key);
  }

  has(kind: WorkloadKind, name: string): boolean {
    return this.workloads.has(`${kind}/${name}`);
  }

  /** Behaviours for every pod one workload's controller creates (`container "app" of the pods of job "pi" …`). */
  podsBehaviour(kind: WorkloadKind, name: string, container: string, change: Partial<ContainerBehaviour>): void {
    const w = this.workloads.get(`${kind}/${name}`);
    if (!w)
      throw new PlanError(
        `unknown ${kind} "${name}" (workloads in this scenario: ${listNames([...this.workloads.keys()])})`,
      );
    const entry = this.pending.forOwner(`${kind}/${name}`, w.obj);
    this.behaviour(entry, `the pods of ${kind} "${name}"`, container, change);
  }

  /** The pending entry for a pod a planned workload will create under that name, if any. */
  pendingPod(podName: string): PendingEntry | undefined {
    return this.pending.forName(podName, [...this.workloads.values()]);
  }

  /** A pending entry's volumes changed: the pods already made get them (once the plan runs). */
  refresh(entry: PendingEntry): void {
    if (this.started()) this.pending.refresh(entry);
  }

  /** A container behaviour for the pods of a pending entry; a preStop hook must be in the template. */
  behaviour(
    entry: PendingEntry,
    what: string,
    container: string,
    change: Partial<ContainerBehaviour>,
    specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void,
  ): void {
    const spec = [...(entry.pod.spec?.initContainers ?? []), ...(entry.pod.spec?.containers ?? [])].find(
      (c) => c.name === container,
    );
    if (!spec)
      throw new PlanError(
        `${what.startsWith('the pods') ? what : `pod "${what}"`} ha${what.startsWith('the pods') ? 've' : 's'} no container "${container}" (its template's containers: ${containerNames(entry.pod)})`,
      );
    if (specChange && !spec.lifecycle?.preStop) {
      throw new PlanError(
        `${what.startsWith('the pods') ? what : `pod "${what}"`} is created by its controller from the template: give container "${container}" its preStop hook in the workload's manifest (spec.template.spec.containers[].lifecycle.preStop)`,
      );
    }
    entry.behaviours.set(container, { ...(entry.behaviours.get(container) ?? DEFAULT_BEHAVIOUR), ...change });
    this.refresh(entry);
  }

  /** The names the workloads' controllers will give their pods: NAME-ORDINAL, or NAME- and five generated characters. */
  podNames(): string[] {
    return [...this.workloads.values()].map(({ kind, obj }) =>
      kind === 'statefulset' ? `"${obj.metadata.name}-0"…` : `"${obj.metadata.name}-xxxxx"`,
    );
  }

  /** Starts watching for the pending pods (before the workloads exist). */
  startPending(): void {
    this.pending.start();
  }

  /** Creates every workload planned. */
  start(): void {
    for (const key of this.workloads.keys()) this.create(key);
  }

  private create(key: string): void {
    const w = this.workloads.get(key)!;
    const r = this.cluster().apiserver.create(
      USER,
      WORKLOAD_RESOURCES[w.kind],
      w.obj.metadata.namespace ?? 'default',
      w.obj,
    );
    if (!r.ok)
      throw new PlanError(
        `${w.kind} "${w.obj.metadata.name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`,
      );
    w.obj = r.object as Workload;
  }
}

/** A pod's container names, init containers first, quoted for an error message. */
export function containerNames(pod: Pod): string {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => `"${c.name}"`).join(', ');
}

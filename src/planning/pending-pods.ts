import type { Pod } from '../apimachinery/types';
import type { Cluster } from '../cluster/cluster';
import type { ContainerBehaviour } from '../components/kubelet/runtime';
import type { VolumeBehaviour } from '../components/kubelet/volume-manager';
import { getControllerOf } from '../components/controllers/controller-utils';
import type { Workload } from './workload-manifest';

/** Behaviours declared for pods a controller will create: by the pod's name, or for every pod of one workload. */
export interface PendingEntry {
  /** A stand-in pod of the workload's template, for the checks a planned pod gets (container names, volumes). */
  readonly pod: Pod;
  readonly behaviours: Map<string, ContainerBehaviour>;
  readonly volumes: Map<string, VolumeBehaviour>;
  /** The pods (uids) that got them, on their node. */
  readonly applied: Set<string>;
}

/**
 * The behaviours of pods that no step creates: a workload's controller does, later, under a name
 * the plan knows in advance (a StatefulSet's NAME-ORDINAL; a generated name NAME-xxxxx as the
 * report shows it) or for all of a workload's pods. Each pod a controller creates under that name
 * (or for that workload) gets them once it is bound to a node, before its kubelet starts it — a
 * StatefulSet's replacement of db-0 is "pod db-0" too. A pod watch, opened with the first entry,
 * does this; a scenario without such steps pays nothing.
 */
export class PendingPods {
  private readonly byName = new Map<string, PendingEntry>();
  private readonly byOwner = new Map<string, PendingEntry>();
  private watching = false;

  constructor(private readonly cluster: () => Cluster) {}

  /**
   * The entry for pod `name` of a planned workload, or undefined when no planned workload names
   * its pods that way (the caller then reports an unknown pod).
   */
  forName(name: string, workloads: readonly { kind: string; obj: Workload }[]): PendingEntry | undefined {
    const known = this.byName.get(name);
    if (known) return known;
    const owner = workloads.find(({ kind, obj }) => {
      const prefix = `${obj.metadata.name}-`;
      if (!name.startsWith(prefix)) return false;
      const rest = name.slice(prefix.length);
      // A StatefulSet's ordinal below its replicas; a generated name's five characters otherwise.
      if (kind === 'statefulset') return /^(0|[1-9]\d*)$/.test(rest);
      // A Deployment's pods are its ReplicaSets': NAME-<pod-template-hash>-xxxxx.
      if (kind === 'deployment')
        return /^[bcdfghjklmnpqrstvwxz2456789]{1,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(rest);
      return /^[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(rest);
    });
    if (!owner) return undefined;
    return this.add(this.byName, name, owner.obj, name);
  }

  /** The entry for every pod of one workload (`kind/name`). */
  forOwner(key: string, obj: Workload): PendingEntry {
    return this.byOwner.get(key) ?? this.add(this.byOwner, key, obj, `${obj.metadata.name}-<pod>`);
  }

  private add(map: Map<string, PendingEntry>, key: string, obj: Workload, podName: string): PendingEntry {
    const template = obj.spec?.template;
    const entry: PendingEntry = {
      pod: {
        metadata: { name: podName, ...template?.metadata },
        spec: structuredClone(template?.spec ?? { containers: [] }),
      },
      behaviours: new Map(),
      volumes: new Map(),
      applied: new Set(),
    };
    map.set(key, entry);
    return entry;
  }

  /** Opens the pod watch once the cluster runs (and looks at the pods it already has). */
  start(): void {
    if (this.watching || (this.byName.size === 0 && this.byOwner.size === 0)) return;
    this.watching = true;
    const c = this.cluster();
    c.apiserver.watch('pods', undefined, {}, (e) => {
      if (e.type !== 'DELETED') this.apply(e.object);
    });
    const now = c.apiserver.list('pods', undefined);
    for (const pod of now.ok ? now.object.items : []) this.apply(pod);
  }

  /** A pod a controller made, now on a node: its pending behaviours go to that node, keyed by its uid. */
  private apply(pod: Pod): void {
    const nodeName = pod.spec?.nodeName;
    const owner = getControllerOf(pod);
    if (!nodeName || !owner) return;
    const entries = [
      this.byOwner.get(`${owner.kind.toLowerCase()}/${owner.name}`),
      this.byName.get(pod.metadata.name!),
    ];
    // A Deployment's pods belong to its ReplicaSets, named NAME-<pod-template-hash>.
    if (owner.kind === 'ReplicaSet')
      entries.push(this.byOwner.get(`deployment/${owner.name.slice(0, owner.name.lastIndexOf('-'))}`));
    const node = this.cluster().nodes.get(nodeName);
    if (!node) return;
    const uid = pod.metadata.uid!;
    for (const entry of entries) {
      if (!entry || entry.applied.has(uid)) continue;
      entry.applied.add(uid);
      for (const [c, b] of entry.behaviours) node.containerBehaviours.set(`${uid} ${c}`, b);
      for (const [v, b] of entry.volumes) node.volumeBehaviours.set(`${uid} ${v}`, b);
    }
  }

  /** An entry changed after its pods exist: the pods that got it get the change too. */
  refresh(entry: PendingEntry): void {
    const c = this.cluster();
    const pods = c.apiserver.list('pods', undefined);
    for (const pod of pods.ok ? pods.object.items : []) {
      if (!entry.applied.has(pod.metadata.uid!) || !pod.spec?.nodeName) continue;
      const node = c.nodes.get(pod.spec.nodeName);
      if (!node) continue;
      for (const [name, b] of entry.behaviours) node.containerBehaviours.set(`${pod.metadata.uid} ${name}`, b);
      for (const [v, b] of entry.volumes) node.volumeBehaviours.set(`${pod.metadata.uid} ${v}`, b);
    }
    this.start();
  }
}

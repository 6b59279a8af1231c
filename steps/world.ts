import { setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import type { ApiResponse } from '../src/apiserver/apiserver';
import type { Pod, ReplicaSet } from '../src/apiserver/types';
import { Cluster, USER } from '../src/cluster';
import type { KubectlResult } from '../src/kubectl/kubectl';
import type { KubeletConfig } from '../src/kubelet/kubelet';
import { podFromManifest, replicaSetFromManifest } from '../src/manifest';
import type { ContainerBehaviour } from '../src/kubelet/runtime';
import { DEFAULT_BEHAVIOUR } from '../src/kubelet/runtime';
import type { VolumeBehaviour } from '../src/kubelet/volume-manager';
import type { DiagramMarks, ExpectedRow, RowMark } from '../src/timeline/sequence-diagram';

/**
 * How long the cluster has been up when the scenario begins: Given steps build their state at
 * the cluster's start, then the pods have been running for this long when T+0 (the first When or
 * Then step) comes — "as if it had been up for a while".
 */
export const WARMUP_MS = 60_000;

interface PlannedPod {
  pod: Pod;
  behaviours: Map<string, ContainerBehaviour>;
  volumes: Map<string, VolumeBehaviour>;
}

/** A step's input that names something the scenario does not have, or is otherwise unusable. */
export class ScenarioError extends Error {}

/**
 * The World of one scenario: what the Given steps plan, the cluster built from it at T+0, and
 * what the last action did (its API response, or kubectl's output).
 */
export class TerminatingWorld extends World {
  readonly cluster = new Cluster();
  /** Virtual time of T+0; undefined until the scenario starts. */
  t0?: number;
  private readonly plannedNodes: string[] = [];
  private readonly plannedPods = new Map<string, PlannedPod>();
  private readonly plannedUnreachable: string[] = [];
  /** Kubelet configuration a Given step changed, by node (e.g. the shutdown grace periods). */
  private readonly plannedKubelet = new Map<string, Partial<KubeletConfig>>();
  /** ReplicaSets to create before the pods, and which planned pods each owns. */
  private readonly plannedReplicaSets = new Map<string, { rs: ReplicaSet; pods: { name: string; blocking: boolean }[] }>();
  lastResponse?: ApiResponse<unknown>;
  lastKubectl?: KubectlResult;
  /** What the assertions matched or missed, marked in the report's diagram. */
  readonly marks: { rows: RowMark[]; expected: ExpectedRow[] } = { rows: [], expected: [] };

  constructor(options: IWorldOptions) {
    super(options);
  }

  get started(): boolean {
    return this.t0 !== undefined;
  }

  /** Virtual time of T+0 (starting the scenario if needed). */
  get start(): number {
    this.ensureStarted();
    return this.t0!;
  }

  mark(marks: DiagramMarks): void {
    this.marks.rows.push(...marks.rows);
    this.marks.expected.push(...marks.expected);
  }

  // ---- Given: the plan ----

  planNode(name: string): void {
    if (this.plannedNodes.includes(name)) throw new ScenarioError(`node "${name}" is declared twice`);
    this.plannedNodes.push(name);
    if (this.started) this.cluster.addNode(name);
  }

  planPod(name: string, nodeName: string | undefined, manifest?: string): void {
    if (nodeName !== undefined && !this.plannedNodes.includes(nodeName)) {
      throw new ScenarioError(`unknown node "${nodeName}" for pod "${name}": declare it first with  Given a node "${nodeName}"  (nodes so far: ${this.plannedNodes.map((n) => `"${n}"`).join(', ') || 'none'})`);
    }
    if (this.plannedPods.has(name)) throw new ScenarioError(`pod "${name}" is declared twice`);
    const planned = { pod: podFromManifest(name, nodeName, manifest), behaviours: new Map(), volumes: new Map() };
    this.plannedPods.set(name, planned);
    if (this.started) this.createPlanned(planned);
  }

  /** Sets how a container of a planned pod behaves when stopped (looked up when the signal comes). */
  containerBehaviour(container: string, podName: string, change: Partial<ContainerBehaviour>, specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void): void {
    const planned = this.planned(podName);
    const spec = [...(planned.pod.spec?.initContainers ?? []), ...(planned.pod.spec?.containers ?? [])].find((c) => c.name === container);
    if (!spec) throw new ScenarioError(`pod "${podName}" has no container "${container}" (its containers: ${this.containerNames(planned.pod)})`);
    if (specChange) {
      if (this.started) throw new ScenarioError(`the preStop hook of container "${container}" must be declared before the scenario starts (a pod's spec cannot change after creation)`);
      specChange(spec);
    }
    const behaviour = { ...(planned.behaviours.get(container) ?? DEFAULT_BEHAVIOUR), ...change };
    planned.behaviours.set(container, behaviour);
    if (this.started && planned.pod.spec?.nodeName) this.cluster.node(planned.pod.spec.nodeName).containerBehaviours.set(`pods/${podName} ${container}`, behaviour);
  }

  volumeBehaviour(volume: string, podName: string, behaviour: VolumeBehaviour): void {
    const planned = this.planned(podName);
    const names = (planned.pod.spec?.volumes ?? []).map((v) => v.name);
    if (!names.includes(volume)) {
      throw new ScenarioError(`pod "${podName}" has no volume "${volume}" (its volumes: ${names.map((n) => `"${n}"`).join(', ') || 'none — add spec.volumes to its manifest'})`);
    }
    planned.volumes.set(volume, behaviour);
    if (this.started && planned.pod.spec?.nodeName) this.cluster.node(planned.pod.spec.nodeName).volumeBehaviours.set(`pods/${podName} ${volume}`, behaviour);
  }

  planUnreachable(node: string): void {
    if (!this.plannedNodes.includes(node)) throw new ScenarioError(`unknown node "${node}" (nodes: ${this.plannedNodes.map((n) => `"${n}"`).join(', ') || 'none'})`);
    if (this.started) this.cluster.node(node).setReachable(false);
    else this.plannedUnreachable.push(node);
  }

  /** Changes the kubelet configuration of a declared node; only before the scenario starts (the kubelet reads it at start). */
  planKubeletConfig(node: string, change: Partial<KubeletConfig>, what: string): void {
    if (!this.plannedNodes.includes(node)) throw new ScenarioError(`unknown node "${node}" (nodes: ${this.plannedNodes.map((n) => `"${n}"`).join(', ') || 'none'})`);
    if (this.started) throw new ScenarioError(`${what} of node "${node}" must be declared before the scenario starts (the kubelet reads its configuration when it starts)`);
    this.plannedKubelet.set(node, { ...this.plannedKubelet.get(node), ...change });
  }

  /** Whether a Given step configured this node's kubelet with `key`. */
  hasKubeletConfig(node: string, key: keyof KubeletConfig): boolean {
    return this.plannedKubelet.get(node)?.[key] !== undefined;
  }

  planReplicaSet(name: string, manifest?: string): void {
    if (this.plannedReplicaSets.has(name)) throw new ScenarioError(`replicaset "${name}" is declared twice`);
    const rs = replicaSetFromManifest(name, manifest);
    this.plannedReplicaSets.set(name, { rs, pods: [] });
    if (this.started) this.createReplicaSet(name);
  }

  /**
   * The pod gets an ownerReference to the replicaset (controller: true; blockOwnerDeletion as asked,
   * true by default, as the ReplicaSet controller sets it), filled in with its uid at creation.
   */
  planOwnership(podName: string, rsName: string, blocking = true): void {
    const rs = this.plannedReplicaSets.get(rsName);
    if (!rs) throw new ScenarioError(`unknown replicaset "${rsName}" (replicasets: ${[...this.plannedReplicaSets.keys()].map((n) => `"${n}"`).join(', ') || 'none'})`);
    if (this.started) throw new ScenarioError('ownership must be declared before the scenario starts');
    this.planned(podName);
    rs.pods.push({ name: podName, blocking });
  }

  /** The first declared node, for steps that do not name one. */
  firstNode(): string {
    const n = this.plannedNodes[0];
    if (!n) throw new ScenarioError('this step needs a node to place pods on: declare one first with  Given a node "node-1"');
    return n;
  }

  /** The scenario's pod names, for error messages. */
  podNames(): string[] {
    return [...this.plannedPods.keys()];
  }

  // ---- T+0 ----

  /** Builds the planned cluster (once), lets it run for the warm-up, and fixes T+0. */
  ensureStarted(): void {
    if (this.started) return;
    for (const n of this.plannedNodes) this.cluster.addNode(n, this.plannedKubelet.get(n));
    for (const name of this.plannedReplicaSets.keys()) this.createReplicaSet(name);
    for (const planned of this.plannedPods.values()) this.createPlanned(planned);
    this.cluster.flush();
    for (const n of this.plannedUnreachable) this.cluster.node(n).setReachable(false);
    this.cluster.advance(WARMUP_MS);
    this.t0 = this.cluster.clock.now();
  }

  private createPlanned(planned: PlannedPod): void {
    const nodeName = planned.pod.spec?.nodeName;
    const name = planned.pod.metadata.name!;
    if (nodeName) {
      const node = this.cluster.node(nodeName);
      for (const [c, b] of planned.behaviours) node.containerBehaviours.set(`pods/${name} ${c}`, b);
      for (const [v, b] of planned.volumes) node.volumeBehaviours.set(`pods/${name} ${v}`, b);
    }
    const owners = [...this.plannedReplicaSets.values()].filter((r) => r.pods.some((p) => p.name === name));
    const pod = structuredClone(planned.pod);
    for (const owner of owners) {
      const uid = owner.rs.metadata.uid;
      const blockOwnerDeletion = owner.pods.find((p) => p.name === name)!.blocking;
      const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.rs.metadata.name!, uid: uid!, controller: true, blockOwnerDeletion };
      pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
      pod.metadata.labels = { ...pod.metadata.labels, ...owner.rs.spec?.selector.matchLabels };
    }
    const r = this.cluster.apiserver.create(USER, 'pods', 'default', pod);
    if (!r.ok) throw new ScenarioError(`pod "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    this.cluster.flush();
  }

  private createReplicaSet(name: string): void {
    const planned = this.plannedReplicaSets.get(name)!;
    const r = this.cluster.apiserver.create(USER, 'replicasets', 'default', planned.rs);
    if (!r.ok) throw new ScenarioError(`replicaset "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    planned.rs = r.object;
    this.cluster.flush();
  }

  private planned(podName: string): PlannedPod {
    const p = this.plannedPods.get(podName);
    if (!p) throw new ScenarioError(`unknown pod "${podName}" (pods in this scenario: ${this.podNames().map((n) => `"${n}"`).join(', ') || 'none'})`);
    return p;
  }

  private containerNames(pod: Pod): string {
    return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => `"${c.name}"`).join(', ');
  }
}

setWorldConstructor(TerminatingWorld);

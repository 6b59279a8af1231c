import { setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import type { ApiResponse, Resource, ResourceType } from '../src/apiserver/apiserver';
import type { Pod } from '../src/apiserver/types';
import type { Cluster } from '../src/cluster';
import { ClusterPlan, WARMUP_MS, type Manifest } from '../src/cluster-plan';
import { DEFAULT_RELEASE, Release } from '../src/release';
import type { KubectlResult } from '../src/kubectl/kubectl';
import type { KubeletConfig } from '../src/kubelet/kubelet';
import type { ContainerBehaviour } from '../src/kubelet/runtime';
import type { VolumeBehaviour } from '../src/kubelet/volume-manager';
import type { DiagramMarks, ExpectedRow, RowMark } from '../src/timeline/sequence-diagram';

/** A step's input that names something the scenario does not have, or is otherwise unusable. */
export class ScenarioError extends Error {}

/**
 * The World of one scenario: the cluster its Given steps plan (src/cluster-plan.ts, the loader
 * `serve --manifests` uses too), built at T+0, and what the last action did (its API response,
 * or kubectl's output).
 */
export class TerminatingWorld extends World {
  readonly plan: ClusterPlan;
  /** Virtual time of T+0; undefined until the scenario starts. */
  t0?: number;
  lastResponse?: ApiResponse<unknown>;
  lastKubectl?: KubectlResult;
  /** What the assertions matched or missed, marked in the report's diagram. */
  readonly marks: { rows: RowMark[]; expected: ExpectedRow[] } = { rows: [], expected: [] };

  constructor(options: IWorldOptions) {
    super(options);
    // --world-parameters '{"kubernetes":"1.30"}' runs the whole suite as that release.
    const kubernetes = (options.parameters as { kubernetes?: unknown } | undefined)?.kubernetes;
    let release = DEFAULT_RELEASE;
    try {
      if (kubernetes !== undefined) release = Release.parse(String(kubernetes));
    } catch (e) {
      this.parameterError = new ScenarioError(`--world-parameters: "kubernetes": ${(e as Error).message}`);
    }
    this.plan = new ClusterPlan(release);
  }

  /** A bad world parameter, reported by the Before hook as the scenario's one error. */
  readonly parameterError?: ScenarioError;

  /** The cluster, built with the planned release when a step first needs it. */
  get cluster(): Cluster {
    return this.plan.cluster;
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

  // ---- Given: the plan (see ClusterPlan for what each declaration does) ----

  planNode(name: string): void {
    this.plan.node(name);
  }

  planPod(name: string, nodeName: string | undefined, manifest?: Manifest, namespace?: string): void {
    this.plan.pod(name, nodeName, manifest, namespace);
  }

  planNamespace(name: string): void {
    this.plan.namespace(name);
  }

  /**
   * The namespace of the pod a step names: every pod step finds a pod by name in any namespace
   * when the name is unique — the planned pod's, else the one namespace holding a pod of that name
   * now, else `default` (a pod the step is about to create, or that is gone).
   */
  podNamespace(name: string): string {
    const planned = this.plan.podNamespace(name);
    if (planned) return planned;
    const live = this.cluster.apiserver.list('pods', undefined, (p) => p.metadata.name === name);
    const namespaces = live.ok ? [...new Set(live.object.items.map((p) => p.metadata.namespace ?? 'default'))] : [];
    if (namespaces.length > 1) throw new ScenarioError(`pod "${name}" exists in several namespaces (${namespaces.join(', ')}): the pod steps need pod names unique across namespaces`);
    return namespaces[0] ?? 'default';
  }

  containerBehaviour(container: string, podName: string, change: Partial<ContainerBehaviour>, specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void): void {
    this.plan.containerBehaviour(container, podName, change, specChange);
  }

  volumeBehaviour(volume: string, podName: string, behaviour: VolumeBehaviour): void {
    this.plan.volumeBehaviour(volume, podName, behaviour);
  }

  planRelease(minor: number): void {
    this.plan.kubernetes(minor);
  }

  planKubeletRelease(node: string, minor: number): void {
    this.plan.kubeletKubernetes(node, minor);
  }

  planFeatureGate(gate: string, enabled: boolean): void {
    this.plan.featureGate(gate, enabled);
  }

  planUnreachable(node: string): void {
    this.plan.nodeUnreachable(node);
  }

  planKubeletConfig(node: string, change: Partial<KubeletConfig>, what: string): void {
    this.plan.kubeletConfig(node, change, what);
  }

  hasKubeletConfig(node: string, key: keyof KubeletConfig): boolean {
    return this.plan.hasKubeletConfig(node, key);
  }

  planReplicaSet(name: string, manifest?: string): void {
    this.plan.replicaSet(name, manifest);
  }

  /** An object of another kind (a PodDisruptionBudget …) created with the plan, before the pods. */
  planObject<R extends Resource>(resource: R, object: ResourceType[R]): void {
    this.plan.object(resource, object);
  }

  planOwnership(podName: string, rsName: string, blocking = true): void {
    this.plan.ownership(podName, rsName, blocking);
  }

  firstNode(): string {
    return this.plan.firstNode();
  }

  podNames(): string[] {
    return this.plan.podNames();
  }

  // ---- T+0 ----

  /** Builds the planned cluster (once), lets it run for the warm-up, and fixes T+0. */
  ensureStarted(): void {
    if (this.started) return;
    this.plan.start();
    this.cluster.advance(WARMUP_MS);
    this.t0 = this.cluster.clock.now();
  }
}

setWorldConstructor(TerminatingWorld);

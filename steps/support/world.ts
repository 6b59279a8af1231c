import { setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import type { ApiResponse, Resource, ResourceType } from '../../src/apiserver/apiserver';
import type { Pod } from '../../src/apimachinery/types';
import type { Cluster } from '../../src/cluster/cluster';
import { ClusterPlan, type Manifest } from '../../src/planning/cluster-plan';
import { DEFAULT_RELEASE, Release } from '../../src/foundation/release';
import type { KubectlResult } from '../../src/frontends/kubectl/kubectl';
import type { ControllerProcess } from '../../src/frontends/serve/controller-process';
import type { KubeletConfig } from '../../src/components/kubelet/kubelet';
import type { ContainerBehaviour } from '../../src/components/kubelet/runtime';
import type { VolumeBehaviour } from '../../src/components/kubelet/volume-manager';
import type { DiagramMarks, ExpectedRow, RowMark } from '../../src/foundation/timeline/sequence-diagram';
import type { CommandRun, StepSpan } from '../../src/frontends/report/scenario-timeline';
import type { StepLocation } from './step-location';
import { append } from '../../src/foundation/widest';

/** A step's input that names something the scenario does not have, or is otherwise unusable. */
export class ScenarioError extends Error {}

/**
 * The World of one scenario: the cluster its Given steps plan (src/planning/cluster-plan.ts, the loader
 * `serve --manifests` uses too), built at T+0, and what the last action did (its API response,
 * or kubectl's output).
 */
export class TerminatingWorld extends World {
  readonly plan: ClusterPlan;
  /** Virtual time of T+0; undefined until the scenario starts. */
  t0?: number;
  /** The last event of the setup (before T+0). */
  setupSeq = 0;
  lastResponse?: ApiResponse<unknown>;
  lastKubectl?: KubectlResult;
  /** A controller program run against the served cluster (`Given the controller started by …`), killed after the scenario. */
  controllerProcess?: ControllerProcess;
  /** Where the running step is in its feature file (steps/support/user-mistakes.ts sets it before each step). */
  stepLocation?: StepLocation;
  /** The steps from T+0 on with the stretch of the timeline each one covered (steps/support/hooks.ts), for the report's diagram. */
  readonly stepSpans: StepSpan[] = [];
  /** The commands the running step ran (steps/actions.steps.ts), put on its span when it ends. */
  stepCommands: CommandRun[] = [];
  /** Where each node and pod was declared (`node "node-1"` → `features/x.feature:4`), for "declared twice". */
  private readonly declaredAt = new Map<string, string>();
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
    append(this.marks.rows, marks.rows);
    append(this.marks.expected, marks.expected);
  }

  // ---- Given: the plan (see ClusterPlan for what each declaration does) ----

  planNode(name: string): void {
    this.declare(`node "${name}"`);
    this.plan.node(name);
  }

  planPod(name: string, nodeName: string | undefined, manifest?: Manifest, namespace?: string): void {
    this.declare(`pod "${name}"`);
    this.plan.pod(name, nodeName, manifest, namespace);
  }

  planNamespace(name: string): void {
    this.plan.namespace(name);
  }

  /**
   * The namespace of the pod a step names: every pod step finds a pod by name in any namespace
   * when the name is unique — the planned (or resumed) pod's, else the one namespace holding a pod
   * of that name now, else `default` (a pod the step is about to create, or that is gone).
   */
  podNamespace(name: string): string {
    const planned = this.plan.podNamespace(name);
    if (planned) return planned;
    const live = this.cluster.apiserver.list('pods', undefined, (p) => p.metadata.name === name);
    const namespaces = live.ok ? [...new Set(live.object.items.map((p) => p.metadata.namespace ?? 'default'))] : [];
    if (namespaces.length > 1)
      throw new ScenarioError(
        `pod "${name}" exists in several namespaces (${namespaces.join(', ')}): the pod steps need pod names unique across namespaces`,
      );
    return namespaces[0] ?? 'default';
  }

  /** Remembers where a node or pod is declared; a second declaration fails naming the first one's line. */
  declare(what: string): void {
    const first = this.declaredAt.get(what);
    if (first !== undefined)
      throw new ScenarioError(`${what} is declared twice: first at ${first}, again at ${this.where()}`);
    this.declaredAt.set(what, this.where());
  }

  /** The running step's `file:line`, or "this step" outside a feature file. */
  where(): string {
    return this.stepLocation ? `${this.stepLocation.uri}:${this.stepLocation.line}` : 'this step';
  }

  containerBehaviour(
    container: string,
    podName: string,
    change: Partial<ContainerBehaviour>,
    specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void,
  ): void {
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
    this.cluster.advance(this.plan.warmupMs);
    this.t0 = this.cluster.clock.now();
    this.setupSeq = this.cluster.timeline.recorded;
  }
}

setWorldConstructor(TerminatingWorld);

import { DEFAULT_APISERVER_OPTIONS, type ApiServerOptions } from './apiserver/apiserver';
import type { Pod, ReplicaSet } from './apiserver/types';
import { Cluster, USER } from './cluster';
import type { KubeletConfig } from './kubelet/kubelet';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour } from './kubelet/runtime';
import type { VolumeBehaviour } from './kubelet/volume-manager';
import { podFromManifest, replicaSetFromManifest } from './manifest';
import { DEFAULT_RELEASE, Release } from './release';

/**
 * How long the cluster has been up when it is handed over: the plan is built at the cluster's
 * start, then the pods run for this long before the first action (a scenario's T+0, or the first
 * request to `serve`) — "as if it had been up for a while".
 */
export const WARMUP_MS = 60_000;

interface PlannedPod {
  pod: Pod;
  /** The uid of the pod created for this plan entry, once it exists: behaviours are set for it alone. */
  uid?: string;
  behaviours: Map<string, ContainerBehaviour>;
  volumes: Map<string, VolumeBehaviour>;
}

/** A plan that names something it does not have, or is otherwise unusable. */
export class PlanError extends Error {}

/** A manifest: a YAML doc string (a scenario's partial manifest) or an already parsed object. */
export type Manifest = string | Record<string, unknown> | undefined;

/**
 * The cluster a scenario's Given steps or `serve --manifests` describe: nodes (their kubelet
 * configuration, whether they reach the apiserver), pods and how their containers and volumes
 * behave when stopped, replicasets and which pods they own. `start()` builds it into the cluster;
 * after that, each further declaration applies to the running cluster at once (where it can).
 */
export class ClusterPlan {
  private readonly nodes: string[] = [];
  private readonly pods = new Map<string, PlannedPod>();
  private readonly unreachable: string[] = [];
  /** Kubelet configuration changed by the plan, by node (e.g. the shutdown grace periods). */
  private readonly kubelet = new Map<string, Partial<KubeletConfig>>();
  /** ReplicaSets to create before the pods, and which planned pods each owns. */
  private readonly replicaSets = new Map<string, { rs: ReplicaSet; pods: { name: string; blocking: boolean }[] }>();
  private built = false;
  /** The release every component runs (until the cluster is built, the plan may change it). */
  private plannedRelease: Release;
  /** Kubelets that run another release than the control plane, by node (version skew). */
  private readonly kubeletMinors = new Map<string, number>();
  private made?: Cluster;
  /** Steps to run once the plan is built (afterStart). */
  private readonly lastSteps: (() => void)[] = [];

  /**
   * With a Release (default v1.33) the plan builds its cluster with the planned release when it is
   * first used; with a Cluster it plans into that one, whose release is already fixed.
   */
  constructor(
    source: Cluster | Release = DEFAULT_RELEASE,
    /** kube-apiserver options of the cluster built (a `serve` session drops compacted history). */
    private readonly apiserver: Partial<ApiServerOptions> = {},
  ) {
    if (source instanceof Cluster) {
      this.made = source;
      this.plannedRelease = source.release;
    } else this.plannedRelease = source;
  }

  /** The cluster, built with the planned release when something first needs it. */
  get cluster(): Cluster {
    return (this.made ??= new Cluster({ release: this.plannedRelease, apiserver: { ...DEFAULT_APISERVER_OPTIONS, ...this.apiserver, release: this.plannedRelease } }));
  }

  get started(): boolean {
    return this.built;
  }

  get release(): Release {
    return this.plannedRelease;
  }

  /** Every component runs `minor`: declared before the nodes and pods, which are created with it. */
  kubernetes(minor: number): void {
    const what = `Kubernetes v1.${minor}`;
    this.assertNotBuilt(what);
    if (this.nodes.length > 0 || this.pods.size > 0 || this.replicaSets.size > 0) {
      throw new PlanError(`${what} must be declared before the nodes and pods (they are created with that release)`);
    }
    this.plannedRelease = this.plannedRelease.withMinor(minor);
  }

  /** A feature gate of every component (kube-apiserver, kube-controller-manager, kubelets), as --feature-gates sets it. */
  featureGate(gate: string, enabled: boolean): void {
    this.assertNotBuilt(`the feature gate ${gate}`);
    this.plannedRelease = this.wrap(() => this.plannedRelease.withGate(gate, enabled));
    for (const [node, minor] of this.kubeletMinors) this.kubeletRelease(node, minor);
  }

  /** The kubelet of `node` runs `minor` while the control plane runs the planned release (version skew). */
  kubeletKubernetes(node: string, minor: number): void {
    const what = `the kubelet on node "${node}" running Kubernetes v1.${minor}`;
    this.knownNode(node);
    if ([...this.pods.values()].some((p) => p.pod.spec?.nodeName === node)) throw new PlanError(`${what} must be declared before the pods on that node`);
    this.assertNotBuilt(what);
    this.kubeletRelease(node, minor);
    this.kubeletMinors.set(node, minor);
  }

  /**
   * A skewed kubelet's release, with the plan's gates; refused outside the version skew policy
   * (kubelets may be up to three minors older than kube-apiserver, two before v1.28, never newer).
   */
  private kubeletRelease(node: string, minor: number): Release {
    const release = this.wrap(() => this.plannedRelease.withMinor(minor));
    const control = this.plannedRelease;
    const maxSkew = control.atLeast(28) ? 3 : 2;
    if (minor > control.minor || control.minor - minor > maxSkew) {
      throw new PlanError(`the kubelet on node "${node}" cannot run ${release} with a ${control} control plane: the version skew policy allows kubelets from v1.${control.minor - maxSkew} to ${control} (at most ${maxSkew} minor releases older, never newer)`);
    }
    return release;
  }

  private assertNotBuilt(what: string): void {
    if (this.made) throw new PlanError(`${what} must be declared before the scenario starts (the cluster is built with its release when it is first used)`);
  }

  /** Release errors (unknown or locked gates) as plan errors. */
  private wrap<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw new PlanError((e as Error).message);
    }
  }

  node(name: string): void {
    if (this.nodes.includes(name)) throw new PlanError(`node "${name}" is declared twice`);
    this.nodes.push(name);
    if (this.started) this.cluster.addNode(name);
  }

  pod(name: string, nodeName: string | undefined, manifest?: Manifest): void {
    if (nodeName !== undefined && !this.nodes.includes(nodeName)) {
      throw new PlanError(`unknown node "${nodeName}" for pod "${name}": declare it first with  Given a node "${nodeName}"  (nodes so far: ${this.list(this.nodes)})`);
    }
    this.addPod(name, nodeName, manifest);
  }

  /**
   * A pod bound to a node that has no Node object and no kubelet (a node deleted before the
   * scenario, or a typo in a manifest): nothing runs it, and pod GC collects it (gcOrphaned).
   */
  podOnMissingNode(name: string, nodeName: string, manifest?: Manifest): void {
    if (this.nodes.includes(nodeName)) throw new PlanError(`node "${nodeName}" of pod "${name}" is declared in this scenario, so it exists: use  Given a pod "${name}" running on node "${nodeName}"`);
    this.addPod(name, nodeName, manifest);
  }

  private addPod(name: string, nodeName: string | undefined, manifest?: Manifest): void {
    if (this.pods.has(name)) throw new PlanError(`pod "${name}" is declared twice`);
    const planned = { pod: podFromManifest(name, nodeName, manifest), behaviours: new Map(), volumes: new Map() };
    this.pods.set(name, planned);
    if (this.started) this.createPod(planned);
  }

  /** The node that runs a planned pod: undefined when it is unscheduled or its node does not exist. */
  private runningNode(planned: PlannedPod): string | undefined {
    const nodeName = planned.pod.spec?.nodeName;
    return nodeName !== undefined && this.nodes.includes(nodeName) ? nodeName : undefined;
  }

  /** Sets how a container of a planned pod behaves when stopped (looked up when the signal comes). */
  containerBehaviour(container: string, podName: string, change: Partial<ContainerBehaviour>, specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void): void {
    const planned = this.planned(podName);
    const spec = [...(planned.pod.spec?.initContainers ?? []), ...(planned.pod.spec?.containers ?? [])].find((c) => c.name === container);
    if (!spec) throw new PlanError(`pod "${podName}" has no container "${container}" (its containers: ${this.containerNames(planned.pod)})`);
    if (specChange) {
      if (this.started) throw new PlanError(`the preStop hook of container "${container}" must be declared before the scenario starts (a pod's spec cannot change after creation)`);
      specChange(spec);
    }
    const behaviour = { ...(planned.behaviours.get(container) ?? DEFAULT_BEHAVIOUR), ...change };
    planned.behaviours.set(container, behaviour);
    const node = this.runningNode(planned);
    if (node && planned.uid) this.cluster.node(node).containerBehaviours.set(`${planned.uid} ${container}`, behaviour);
  }

  /**
   * How a regular init container (one without `restartPolicy: Always`) of a planned pod ends its
   * run: the name must be one, since only those run to completion (K56).
   */
  initContainerBehaviour(container: string, podName: string, change: Partial<ContainerBehaviour>): void {
    const planned = this.planned(podName);
    const inits = (planned.pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy !== 'Always').map((c) => c.name);
    if (!inits.includes(container)) {
      throw new PlanError(`pod "${podName}" has no regular init container "${container}" (its regular init containers: ${this.list(inits, 'none — add spec.initContainers to its manifest')})`);
    }
    this.containerBehaviour(container, podName, change);
  }

  /**
   * The container's preStop hook takes `ms` (Infinity: it never returns). A container without a
   * preStop handler gets one (`exec: sleep N`), so the kubelet runs it; one that has a handler keeps it.
   */
  preStop(container: string, podName: string, ms: number): void {
    const inits = this.planned(podName).pod.spec?.initContainers ?? [];
    const i = inits.findIndex((c) => c.name === container && c.restartPolicy !== 'Always');
    if (i >= 0) {
      // The apiserver would refuse the pod (validateInitContainers, K58): say so at this step.
      throw new PlanError(`container "${container}" of pod "${podName}" is a regular init container, which cannot have a preStop hook: spec.initContainers[${i}].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always`);
    }
    this.containerBehaviour(container, podName, { preStopMs: ms }, (c) => {
      if (c.lifecycle?.preStop) return;
      const sleep = Number.isFinite(ms) ? String(ms / 1000) : 'infinity';
      c.lifecycle = { ...c.lifecycle, preStop: { exec: { command: ['sleep', sleep] } } };
    });
  }

  volumeBehaviour(volume: string, podName: string, behaviour: VolumeBehaviour): void {
    const planned = this.planned(podName);
    const names = (planned.pod.spec?.volumes ?? []).map((v) => v.name);
    if (!names.includes(volume)) {
      throw new PlanError(`pod "${podName}" has no volume "${volume}" (its volumes: ${this.list(names, 'none — add spec.volumes to its manifest')})`);
    }
    planned.volumes.set(volume, behaviour);
    const node = this.runningNode(planned);
    if (node && planned.uid) this.cluster.node(node).volumeBehaviours.set(`${planned.uid} ${volume}`, behaviour);
  }

  nodeUnreachable(node: string): void {
    this.knownNode(node);
    if (this.started) this.cluster.node(node).setReachable(false);
    else this.unreachable.push(node);
  }

  /** Changes the kubelet configuration of a declared node; only before the start (the kubelet reads it when it starts). */
  kubeletConfig(node: string, change: Partial<KubeletConfig>, what: string): void {
    this.knownNode(node);
    if (this.started) throw new PlanError(`${what} of node "${node}" must be declared before the scenario starts (the kubelet reads its configuration when it starts)`);
    this.kubelet.set(node, { ...this.kubelet.get(node), ...change });
  }

  /** Whether the plan configured this node's kubelet with `key`. */
  hasKubeletConfig(node: string, key: keyof KubeletConfig): boolean {
    return this.kubelet.get(node)?.[key] !== undefined;
  }

  replicaSet(name: string, manifest?: Manifest): void {
    if (this.replicaSets.has(name)) throw new PlanError(`replicaset "${name}" is declared twice`);
    const rs = replicaSetFromManifest(name, manifest);
    this.replicaSets.set(name, { rs, pods: [] });
    if (this.started) this.createReplicaSet(name);
  }

  /**
   * The pod gets an ownerReference to the replicaset (controller: true; blockOwnerDeletion as asked,
   * true by default, as the ReplicaSet controller sets it), filled in with its uid at creation.
   */
  ownership(podName: string, rsName: string, blocking = true): void {
    const rs = this.replicaSets.get(rsName);
    if (!rs) throw new PlanError(`unknown replicaset "${rsName}" (replicasets: ${this.list([...this.replicaSets.keys()])})`);
    if (this.started) throw new PlanError('ownership must be declared before the scenario starts');
    this.planned(podName);
    rs.pods.push({ name: podName, blocking });
  }

  /** The first declared node, for steps that do not name one. */
  firstNode(): string {
    const n = this.nodes[0];
    if (!n) throw new PlanError('this step needs a node to place pods on: declare one first with  Given a node "node-1"');
    return n;
  }

  /** The planned pod names, for error messages. */
  podNames(): string[] {
    return [...this.pods.keys()];
  }

  /** Builds the plan into the cluster (once): nodes, replicasets, pods, then cuts off the unreachable nodes. */
  start(): void {
    if (this.built) return;
    this.built = true;
    for (const n of this.nodes) {
      const minor = this.kubeletMinors.get(n);
      this.cluster.addNode(n, minor === undefined ? this.kubelet.get(n) : { ...this.kubelet.get(n), release: this.kubeletRelease(n, minor) });
    }
    for (const name of this.replicaSets.keys()) this.createReplicaSet(name);
    for (const planned of this.pods.values()) this.createPod(planned);
    this.cluster.flush();
    for (const n of this.unreachable) this.cluster.node(n).setReachable(false);
    for (const step of this.lastSteps) step();
  }

  /**
   * Something to do once everything planned exists (e.g. configure an admission webhook, which
   * must not judge the creation of the planned objects); at once when the plan is built already.
   */
  afterStart(step: () => void): void {
    if (this.built) step();
    else this.lastSteps.push(step);
  }

  private createPod(planned: PlannedPod): void {
    const name = planned.pod.metadata.name!;
    const owners = [...this.replicaSets.values()].filter((r) => r.pods.some((p) => p.name === name));
    const pod = structuredClone(planned.pod);
    for (const owner of owners) {
      const uid = owner.rs.metadata.uid;
      const blockOwnerDeletion = owner.pods.find((p) => p.name === name)!.blocking;
      const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.rs.metadata.name!, uid: uid!, controller: true, blockOwnerDeletion };
      pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
      pod.metadata.labels = { ...pod.metadata.labels, ...owner.rs.spec?.selector.matchLabels };
    }
    const r = this.cluster.apiserver.create(USER, 'pods', 'default', pod);
    if (!r.ok) throw new PlanError(`pod "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    // Before the flush: the kubelet hears of the pod only then, and looks its behaviours up by uid.
    this.bind(planned, r.object.metadata.uid!);
    this.cluster.flush();
  }

  /** The plan entry now stands for the pod with this uid: its behaviours go to that pod's node. */
  private bind(planned: PlannedPod, uid: string): void {
    planned.uid = uid;
    const nodeName = this.runningNode(planned);
    if (!nodeName) return;
    const node = this.cluster.node(nodeName);
    for (const [c, b] of planned.behaviours) node.containerBehaviours.set(`${uid} ${c}`, b);
    for (const [v, b] of planned.volumes) node.volumeBehaviours.set(`${uid} ${v}`, b);
  }

  /**
   * A pod the user created during the scenario (`created` is what the apiserver stored): from now
   * on its name means this pod, a plain one with nothing planned for it, whatever an earlier pod of
   * that name did; that earlier pod, if it still runs somewhere, keeps its own behaviours.
   */
  userCreated(created: Pod): void {
    const planned: PlannedPod = { pod: created, behaviours: new Map(), volumes: new Map() };
    this.pods.set(created.metadata.name!, planned);
    this.bind(planned, created.metadata.uid!);
  }

  private createReplicaSet(name: string): void {
    const planned = this.replicaSets.get(name)!;
    const r = this.cluster.apiserver.create(USER, 'replicasets', 'default', planned.rs);
    if (!r.ok) throw new PlanError(`replicaset "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    planned.rs = r.object;
    this.cluster.flush();
  }

  private planned(podName: string): PlannedPod {
    const p = this.pods.get(podName);
    if (!p) throw new PlanError(`unknown pod "${podName}" (pods in this scenario: ${this.list(this.podNames())})`);
    return p;
  }

  private knownNode(node: string): void {
    if (!this.nodes.includes(node)) throw new PlanError(`unknown node "${node}" (nodes: ${this.list(this.nodes)})`);
  }

  private list(names: string[], none = 'none'): string {
    return names.map((n) => `"${n}"`).join(', ') || none;
  }

  private containerNames(pod: Pod): string {
    return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => `"${c.name}"`).join(', ');
  }
}

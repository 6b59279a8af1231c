import {
  DEFAULT_APISERVER_OPTIONS,
  type ApiServerOptions,
  type Resource,
  type ResourceType,
} from '../apiserver/apiserver';
import type { Pod } from '../apimachinery/types';
import { OwnerPlan, type PlannedOwner } from './owner-plan';
import { Cluster, USER } from '../cluster/cluster';
import type { KubeletConfig } from '../components/kubelet/kubelet';
import type { MachineState } from '../components/kubelet/machine-state';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour } from '../components/kubelet/runtime';
import type { VolumeBehaviour } from '../components/kubelet/volume-manager';
import { podFromManifest, replicaSetFromManifest, serviceFromManifest } from './manifest';
import type { ClientSpec } from '../cluster/traffic/traffic';
import { listNames, PlanError } from './plan-error';
import { ReleasePlan } from './release-plan';
import { ServicePlan } from './service-plan';
import { PerturbationPlan } from './perturbation-plan';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import type { Dump } from './restore/dump';
import { planRestore, resumeIn, resumeWebhookConfiguration, writeObjects, type RestorePlan } from './restore/restore';
import { CONTROLLERS } from '../components/controllers/registry';
import type { CsiDriverBehaviour } from '../components/csi/csi-driver';
import { containerNames, WorkloadPlan } from './workload-plan';
import { refuseAsApiserver } from './manifest-decoding';
import { WORKLOAD_RESOURCES, workloadFromManifest, type WorkloadKind } from './workload-manifest';
import { perturbationStep, type Perturbation } from '../cluster/perturbation/perturbation';

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
  /** Stored from resumed objects (with its own uid), not created. */
  restored?: boolean;
}

/** The kinds created before the workloads (whose claims need them). */
const STORAGE_FIRST: ReadonlySet<Resource> = new Set<Resource>(['storageclasses', 'persistentvolumes']);

export { PlanError } from './plan-error';

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
  /** Namespaces to create (with the system ones) before anything else. */
  private readonly namespaces: string[] = [];
  private readonly pods = new Map<string, PlannedPod>();
  private readonly unreachable: string[] = [];
  /** Kubelet configuration changed by the plan, by node (e.g. the shutdown grace periods). */
  private readonly kubelet = new Map<string, Partial<KubeletConfig>>();
  /** ReplicaSets and other owners of the planned pods. */
  private readonly owners = new OwnerPlan(
    () => this.cluster,
    () => this.started,
  );
  /** Services, kube-proxy's delays, load balancers' lags, client streams. */
  private readonly network = new ServicePlan(
    () => this.cluster,
    () => this.started,
  );
  /** Other objects to create at the start, after the ReplicaSets and before the pods (PodDisruptionBudgets …), in declaration order. */
  private readonly otherObjects: { resource: Resource; object: ResourceType[Resource] }[] = [];
  /** CSI drivers to install at the start (after the nodes), with their latencies. */
  private readonly csiDrivers = new Map<string, Partial<CsiDriverBehaviour>>();
  private built = false;
  /** The release every component runs (until the cluster is built, the plan may change it); skewed kubelets. */
  private readonly releases: ReleasePlan;
  private made?: Cluster;
  /** Steps to run once the plan is built (afterStart). */
  private readonly lastSteps: (() => void)[] = [];
  /** A real cluster's objects to resume (`Given the objects in …`, `serve --manifests` of a dump). */
  private restored?: RestorePlan;
  /** StatefulSets, Jobs and DaemonSets, and the behaviours of the pods their controllers make. */
  private readonly workloads = new WorkloadPlan(
    () => this.cluster,
    () => this.started,
  );
  /** kube-controller-manager controllers the plan turns off (`--controllers=*,-NAME`). */
  private readonly controllersOff: string[] = [];
  /** What some components see late, stale, or lose to a restart (src/cluster/perturbation/). */
  private readonly perturbations = new PerturbationPlan();

  /**
   * With a Release (default v1.36) the plan builds its cluster with the planned release when it is
   * first used; with a Cluster it plans into that one, whose release is already fixed.
   */
  constructor(
    source: Cluster | Release = DEFAULT_RELEASE,
    /** Where the cluster's virtual time starts, when the plan builds it (default: the fixed epoch). */
    private readonly epochMs?: number,
    /** kube-apiserver options of the cluster built (a `serve` session drops compacted history). */
    private readonly apiserver: Partial<ApiServerOptions> = {},
  ) {
    if (source instanceof Cluster) {
      this.made = source;
      this.releases = new ReleasePlan(source.release);
    } else this.releases = new ReleasePlan(source);
  }

  /** The cluster, built with the planned release when something first needs it. */
  get cluster(): Cluster {
    if (this.made) return this.made;
    this.made = new Cluster({
      release: this.release,
      epochMs: this.restored?.startMs ?? this.epochMs,
      apiserver: { ...DEFAULT_APISERVER_OPTIONS, ...this.apiserver, release: this.release },
      ...(this.controllersOff.length ? { controllers: ['*', ...this.controllersOff.map((n) => `-${n}`)] } : {}),
      perturbations: this.perturbations.declared,
      observeWatches: this.perturbations.observing,
    });
    if (this.podGCThreshold !== undefined) this.made.podGC.config.terminatedPodThreshold = this.podGCThreshold;
    return this.made;
  }

  /**
   * How long the cluster runs before it is handed over: a minute for a planned one; nothing for
   * resumed objects, whose state is already the state at the time they were read.
   */
  get warmupMs(): number {
    return this.restored ? 0 : WARMUP_MS;
  }

  /** The resumed objects' plan (what was assumed, what is not modelled), if objects were given. */
  get restoredObjects(): RestorePlan | undefined {
    return this.restored;
  }

  /**
   * Resumes a real cluster's objects (src/planning/restore/): they are stored as they are, virtual time
   * starts when they were read (`nowMs`, or the newest time they show), and every node's machine
   * runs what its pods' status shows. Declared first; later declarations (behaviours, an
   * unreachable node, more pods) change what was assumed.
   */
  objects(dump: Dump, nowMs?: number): void {
    this.assertNotBuilt('the objects');
    if (this.restored)
      throw new PlanError(
        'the objects of a cluster are given once (several files go in one step of serve --manifests, or one List)',
      );
    if (this.nodes.length > 0 || this.pods.size > 0 || this.owners.replicaSetCount > 0)
      throw new PlanError('the objects must come before the nodes and pods declared by other steps');
    const restored = planRestore(dump, nowMs);
    this.restored = restored;
    for (const n of restored.nodes) this.nodes.push(n.name);
    for (const p of restored.pods) {
      const key = this.pods.has(p.name) ? `${p.namespace}/${p.name}` : p.name;
      const planned: PlannedPod = {
        pod: structuredClone(p.pod),
        uid: p.uid,
        behaviours: new Map(),
        volumes: new Map(),
        restored: true,
      };
      this.pods.set(key, planned);
    }
    for (const b of restored.containerBehaviours) {
      const planned = this.planned(b.pod);
      planned.behaviours.set(b.container, {
        ...(planned.behaviours.get(b.container) ?? DEFAULT_BEHAVIOUR),
        ...b.behaviour,
      });
    }
    for (const v of restored.volumeBehaviours) this.planned(v.pod).volumes.set(v.volume, v.behaviour);
  }

  /**
   * X18 — the webhook configuration of the objects that holds `webhook` is resumed (stored) rather
   * than left out; its server is the one the caller of the step describes.
   */
  resumeWebhook(webhook: string): void {
    this.assertNotBuilt('a webhook of the objects');
    if (!this.restored)
      throw new PlanError(
        `webhook "${webhook}" of the objects: no objects were given (Given the objects in … comes first)`,
      );
    resumeWebhookConfiguration(this.restored, webhook);
  }

  /**
   * kube-controller-manager's `--terminated-pod-gc-threshold`: a plan setting like the release, so
   * declaring it does not build the cluster (a `Kubernetes v1.NN` after it still applies).
   */
  terminatedPodGCThreshold(threshold: number): void {
    if (this.made) this.made.podGC.config.terminatedPodThreshold = threshold;
    else this.podGCThreshold = threshold;
  }

  private podGCThreshold?: number;

  get started(): boolean {
    return this.built;
  }

  get release(): Release {
    return this.releases.release;
  }

  /**
   * Every component runs `minor`. Anywhere in the plan before the cluster is built (a Background's
   * nodes and pods, then a scenario's release, is the natural order): nodes, pods and ReplicaSets
   * are only planned until then and are all created with the release the plan has at that moment.
   * Kubelets already planned with another release (version skew) are checked against it.
   */
  kubernetes(minor: number): void {
    this.assertNotBuilt(`Kubernetes v1.${minor}`);
    this.releases.kubernetes(minor);
  }

  /** A feature gate of every component (kube-apiserver, kube-controller-manager, kubelets), as --feature-gates sets it. */
  featureGate(gate: string, enabled: boolean): void {
    this.assertNotBuilt(`the feature gate ${gate}`);
    this.releases.featureGate(gate, enabled);
  }

  /**
   * The kubelet of `node` runs `minor` while the control plane runs the planned release (version
   * skew); like the release, anywhere before the cluster is built (the node's pods are only planned
   * until then).
   */
  kubeletKubernetes(node: string, minor: number): void {
    this.knownNode(node);
    this.assertNotBuilt(`the kubelet on node "${node}" running Kubernetes v1.${minor}`);
    this.releases.kubelet(node, minor);
  }

  private assertNotBuilt(what: string): void {
    if (this.made)
      throw new PlanError(
        `${what} must be declared before the scenario's time starts (T+0, at the first When or Then step: the cluster is built with its release then)`,
      );
  }

  node(name: string): void {
    if (this.nodes.includes(name)) throw new PlanError(`node "${name}" is declared twice`);
    this.nodes.push(name);
    if (this.started) this.cluster.addNode(name);
  }

  pod(name: string, nodeName: string | undefined, manifest?: Manifest, namespace = 'default'): void {
    if (nodeName !== undefined && !this.nodes.includes(nodeName)) {
      throw new PlanError(
        `unknown node "${nodeName}" for pod "${name}": declare it first with  Given a node "${nodeName}"  (nodes so far: ${listNames(this.nodes)})`,
      );
    }
    if (namespace !== 'default' && !this.namespaces.includes(namespace)) {
      throw new PlanError(
        `unknown namespace "${namespace}" for pod "${name}": declare it first with  Given a namespace "${namespace}"  (namespaces so far: ${listNames(this.namespaces)})`,
      );
    }
    this.addPod(name, nodeName, manifest, namespace);
  }

  /**
   * A namespace (Active, with the `kubernetes` finalizer), as an object; `default` stays implicit
   * (the system namespaces exist as objects only where the served API creates them).
   */
  namespace(name: string): void {
    if (this.namespaces.includes(name) || name === 'default')
      throw new PlanError(`namespace "${name}" is declared twice (default always exists)`);
    this.namespaces.push(name);
    if (this.started) this.createNamespace(name);
  }

  private createNamespace(name: string): void {
    const r = this.cluster.apiserver.create(USER, 'namespaces', undefined, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
    if (!r.ok)
      throw new PlanError(
        `namespace "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`,
      );
  }

  /** The namespace of a planned or resumed pod (undefined: neither). */
  podNamespace(name: string): string | undefined {
    return this.restored?.pods.find((p) => p.name === name)?.namespace ?? this.pods.get(name)?.pod.metadata.namespace;
  }

  /**
   * A pod bound to a node that has no Node object and no kubelet (a node deleted before the
   * scenario, or a typo in a manifest): nothing runs it, and pod GC collects it (gcOrphaned).
   */
  podOnMissingNode(name: string, nodeName: string, manifest?: Manifest): void {
    if (this.nodes.includes(nodeName))
      throw new PlanError(
        `node "${nodeName}" of pod "${name}" is declared in this scenario, so it exists: use  Given a pod "${name}" running on node "${nodeName}"`,
      );
    this.addPod(name, nodeName, manifest);
  }

  private addPod(name: string, nodeName: string | undefined, manifest?: Manifest, namespace = 'default'): void {
    if (this.pods.has(name))
      throw new PlanError(
        `pod "${name}" is declared twice${this.pods.get(name)!.pod.metadata.namespace !== namespace ? ' (pod names are unique across the namespaces of a scenario: the steps find a pod by its name)' : ''}`,
      );
    const planned = {
      pod: podFromManifest(name, nodeName, manifest, namespace),
      behaviours: new Map(),
      volumes: new Map(),
    };
    refuseAsApiserver(`pod "${name}"`, 'pods', planned.pod, this.release);
    this.pods.set(name, planned);
    if (this.started) this.createPod(planned);
  }

  /** The node that runs a planned pod: undefined when it is unscheduled or its node does not exist. */
  private runningNode(planned: PlannedPod): string | undefined {
    const nodeName = planned.pod.spec?.nodeName;
    return nodeName !== undefined && this.nodes.includes(nodeName) ? nodeName : undefined;
  }

  /** Sets how a container of a planned pod behaves when stopped (looked up when the signal comes). */
  containerBehaviour(
    container: string,
    podName: string,
    change: Partial<ContainerBehaviour>,
    specChange?: (c: NonNullable<Pod['spec']>['containers'][number]) => void,
  ): void {
    const pending = this.pods.has(podName) ? undefined : this.workloads.pendingPod(podName);
    if (pending) return this.workloads.behaviour(pending, podName, container, change, specChange);
    const planned = this.planned(podName);
    const spec = [...(planned.pod.spec?.initContainers ?? []), ...(planned.pod.spec?.containers ?? [])].find(
      (c) => c.name === container,
    );
    if (!spec)
      throw new PlanError(
        `pod "${podName}" has no container "${container}" (its containers: ${containerNames(planned.pod)})`,
      );
    if (specChange) {
      if (this.started)
        throw new PlanError(
          `the preStop hook of container "${container}" must be declared before the scenario starts (a pod's spec cannot change after creation)`,
        );
      specChange(spec);
    }
    const behaviour = { ...(planned.behaviours.get(container) ?? DEFAULT_BEHAVIOUR), ...change };
    planned.behaviours.set(container, behaviour);
    const node = this.runningNode(planned);
    if (node && planned.uid && this.started)
      this.cluster.node(node).containerBehaviours.set(`${planned.uid} ${container}`, behaviour);
  }

  /** How a container of a planned pod behaves so far (the default unless a step changed it). */
  behaviourOf(container: string, podName: string): ContainerBehaviour {
    return this.planned(podName).behaviours.get(container) ?? DEFAULT_BEHAVIOUR;
  }

  /**
   * How a regular init container (one without `restartPolicy: Always`) of a planned pod ends its
   * run: the name must be one, since only those run to completion (K56).
   */
  initContainerBehaviour(container: string, podName: string, change: Partial<ContainerBehaviour>): void {
    const planned = this.pods.get(podName) ?? this.workloads.pendingPod(podName) ?? this.planned(podName);
    const inits = (planned.pod.spec?.initContainers ?? [])
      .filter((c) => c.restartPolicy !== 'Always')
      .map((c) => c.name);
    if (!inits.includes(container)) {
      throw new PlanError(
        `pod "${podName}" has no regular init container "${container}" (its regular init containers: ${listNames(inits, 'none — add spec.initContainers to its manifest')})`,
      );
    }
    this.containerBehaviour(container, podName, change);
  }

  /**
   * The container's preStop hook takes `ms` (Infinity: it never returns). A container without a
   * preStop handler gets one (`exec: sleep N`), so the kubelet runs it; one that has a handler keeps it.
   */
  preStop(container: string, podName: string, ms: number): void {
    const inits =
      (this.pods.get(podName) ?? this.workloads.pendingPod(podName) ?? this.planned(podName)).pod.spec
        ?.initContainers ?? [];
    const i = inits.findIndex((c) => c.name === container && c.restartPolicy !== 'Always');
    if (i >= 0) {
      // The apiserver would refuse the pod (validateInitContainers, K58): say so at this step.
      throw new PlanError(
        `container "${container}" of pod "${podName}" is a regular init container, which cannot have a preStop hook: spec.initContainers[${i}].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always`,
      );
    }
    this.containerBehaviour(container, podName, { preStopMs: ms }, (c) => {
      if (c.lifecycle?.preStop) return;
      const sleep = Number.isFinite(ms) ? String(ms / 1000) : 'infinity';
      c.lifecycle = { ...c.lifecycle, preStop: { exec: { command: ['sleep', sleep] } } };
    });
  }

  volumeBehaviour(volume: string, podName: string, behaviour: VolumeBehaviour): void {
    const pending = this.pods.has(podName) ? undefined : this.workloads.pendingPod(podName);
    const planned = pending ?? this.planned(podName);
    const names = (planned.pod.spec?.volumes ?? []).map((v) => v.name);
    if (!names.includes(volume)) {
      throw new PlanError(
        `pod "${podName}" has no volume "${volume}" (its volumes: ${listNames(names, 'none — add spec.volumes to its manifest')})`,
      );
    }
    planned.volumes.set(volume, behaviour);
    if (pending) return this.workloads.refresh(pending);
    const p = planned as PlannedPod;
    const node = this.runningNode(p);
    if (node && p.uid && this.started) this.cluster.node(node).volumeBehaviours.set(`${p.uid} ${volume}`, behaviour);
  }

  nodeUnreachable(node: string): void {
    this.knownNode(node);
    if (this.started) this.cluster.node(node).setReachable(false);
    else this.unreachable.push(node);
  }

  /** Changes the kubelet configuration of a declared node; only before the start (the kubelet reads it when it starts). */
  kubeletConfig(node: string, change: Partial<KubeletConfig>, what: string): void {
    this.knownNode(node);
    if (this.started)
      throw new PlanError(
        `${what} of node "${node}" must be declared before the scenario starts (the kubelet reads its configuration when it starts)`,
      );
    this.kubelet.set(node, { ...this.kubelet.get(node), ...change });
  }

  /** Whether the plan configured this node's kubelet with `key`. */
  hasKubeletConfig(node: string, key: keyof KubeletConfig): boolean {
    return this.kubelet.get(node)?.[key] !== undefined;
  }

  replicaSet(name: string, manifest?: Manifest): void {
    if (this.owners.hasReplicaSet(name)) throw new PlanError(`replicaset "${name}" is declared twice`);
    const rs = replicaSetFromManifest(name, manifest);
    this.knownNamespaceOf(`replicaset "${name}"`, rs);
    refuseAsApiserver(`replicaset "${name}"`, 'replicasets', rs, this.release);
    this.owners.addReplicaSet(name, rs);
  }

  /**
   * The pod gets an ownerReference to the replicaset (controller: true; blockOwnerDeletion as asked,
   * true by default, as the ReplicaSet controller sets it), filled in with its uid at creation.
   */
  ownership(podName: string, rsName: string, blocking = true): void {
    const rs = this.owners.replicaSet(rsName);
    if (this.started) throw new PlanError('ownership must be declared before the scenario starts');
    this.planned(podName);
    rs.pods.push({ name: podName, blocking });
  }

  /**
   * The pod gets a controller ownerReference (blockOwnerDeletion true) to an object the plan
   * creates before the pods — a custom resource — filled in with its uid at creation.
   */
  ownedBy(podName: string, owner: PlannedOwner): void {
    if (this.started) throw new PlanError('ownership must be declared before the scenario starts');
    if (!this.otherObjects.some((o) => o.resource === owner.resource && o.object.metadata.name === owner.name))
      throw new PlanError(`${owner.kind} "${owner.name}" is not declared (declare it before the pods it owns)`);
    this.planned(podName);
    this.owners.ownedByObject(podName, owner);
  }

  /** A service (its defaults: port 80 to the pods' 8080), created before the pods. */
  service(name: string, manifest?: Manifest): void {
    if (this.network.services.has(name)) throw new PlanError(`service "${name}" is declared twice`);
    const svc = serviceFromManifest(name, manifest);
    this.knownNamespaceOf(`service "${name}"`, svc);
    refuseAsApiserver(`service "${name}"`, 'services', svc, this.release);
    this.network.add(name, svc);
  }

  /** The node's kube-proxy applies each change this long after it saw it. */
  kubeProxyDelay(node: string, ms: number): void {
    this.knownNode(node);
    this.assertNotStarted(`the kube-proxy delay of node "${node}"`);
    this.network.proxyDelays.set(node, ms);
  }

  /** The load balancer in front of a service notices endpoint changes this long after they are written. */
  loadBalancerLag(service: string, ms: number): void {
    this.network.knownService(service);
    this.assertNotStarted(`the load balancer lag of service "${service}"`);
    this.network.loadBalancerLag(service, ms);
  }

  /** A stream of requests to a service, from T+0 on. */
  trafficClients(spec: Omit<ClientSpec, 'namespace'>): void {
    this.network.trafficClients(spec);
  }

  private assertNotStarted(what: string): void {
    if (this.started) throw new PlanError(`${what} must be declared before the scenario starts`);
  }

  /** The namespace of a pod the steps name: a resumed pod keeps its own, every other pod is in default. */
  namespaceOf(pod: string): string {
    return this.podNamespace(pod) ?? 'default';
  }

  /** The first declared node, for steps that do not name one. */
  firstNode(): string {
    const n = this.nodes[0];
    if (!n)
      throw new PlanError('this step needs a node to place pods on: declare one first with  Given a node "node-1"');
    return n;
  }

  /** The planned pod names, for error messages. */
  podNames(): string[] {
    return [...this.pods.keys()];
  }

  /**
   * A perturbation (issue 33): what one component sees late, stale, or loses to a restart. The
   * load balancer's lag is its own (`the load balancer of service … notices endpoint changes
   * after …`); a restart is due at T+atMs. Checked against the nodes and services once the plan
   * is built, so it may come before them.
   */
  perturb(p: Perturbation): void {
    this.assertNotBuilt(`"${perturbationStep(p)}"`);
    this.perturbations.add(p, this.controllersOff);
  }

  observeWatches(): void {
    this.assertNotBuilt('observing the watches');
    this.perturbations.observing = true;
  }

  /** The services outside clients reach through their load balancer (what a load balancer watches: their EndpointSlices). */
  loadBalancedServices(): string[] {
    return this.network.loadBalancedServices();
  }

  /** The perturbations declared (for the report and `explore`). */
  get declaredPerturbations(): readonly Perturbation[] {
    return this.perturbations.declared;
  }

  /** Builds the plan into the cluster (once): nodes, replicasets, pods, then cuts off the unreachable nodes. */
  start(): void {
    if (this.built) return;
    this.built = true;
    this.perturbations.start(this.cluster, this.warmupMs, this.nodes, this.network);
    const restored = this.restored;
    if (restored) {
      resumeIn(restored, this.cluster.release);
      for (const a of restored.assumptions) this.cluster.timeline.record(a.component, `assumed: ${a.text}`, a.source);
      writeObjects(this.cluster, restored);
    }
    for (const n of this.nodes) {
      const minor = this.releases.kubeletMinor(n);
      const machine = restored?.nodes.find((r) => r.name === n)?.machine;
      this.cluster.addNode(
        n,
        minor === undefined
          ? this.kubelet.get(n)
          : { ...this.kubelet.get(n), release: this.releases.kubeletRelease(n, minor) },
        machine && this.resumedMachine(n, machine),
      );
    }
    for (const [name, behaviour] of this.csiDrivers) this.cluster.installCsiDriver(name, behaviour);
    for (const planned of this.pods.values()) if (planned.restored) this.bind(planned, planned.uid!);
    for (const name of this.namespaces) this.createNamespace(name);
    this.owners.start();
    this.workloads.startPending();
    // Storage classes and volumes first: a workload's claims are made (and bound) as soon as it exists.
    const storage = this.otherObjects.filter((o) => STORAGE_FIRST.has(o.resource));
    for (const planned of storage) this.createObject(planned.resource, planned.object);
    this.workloads.start();
    this.network.start(this.cluster.clock.now() + WARMUP_MS);
    for (const planned of this.otherObjects)
      if (!STORAGE_FIRST.has(planned.resource)) this.createObject(planned.resource, planned.object);
    for (const planned of this.pods.values()) if (!planned.restored) this.createPod(planned, false);
    this.cluster.flush();
    for (const n of this.unreachable) this.cluster.node(n).setReachable(false);
    for (const step of this.lastSteps) step();
  }

  /** An object planned with `object()` (the last of that resource and name), if any. */
  plannedObject<R extends Resource>(resource: R, name: string): ResourceType[R] | undefined {
    const found = this.otherObjects.filter((o) => o.resource === resource && o.object.metadata.name === name);
    return found[found.length - 1]?.object as ResourceType[R] | undefined;
  }

  /**
   * A CSI driver installed in the cluster (src/components/csi/csi-driver.ts), with the latencies given so far
   * merged; declared again, its latencies change. Before the cluster is built only.
   */
  csiDriver(name: string, behaviour: Partial<CsiDriverBehaviour> = {}): void {
    if (this.built) {
      if (this.made?.csiDrivers.has(name))
        throw new PlanError(`CSI driver "${name}" is running already: give its latencies before the first When step`);
      this.cluster.installCsiDriver(name, behaviour);
      return;
    }
    this.csiDrivers.set(name, { ...this.csiDrivers.get(name), ...behaviour });
  }

  /**
   * Something to do once everything planned exists (e.g. configure an admission webhook, which
   * must not judge the creation of the planned objects); at once when the plan is built already.
   */
  afterStart(step: () => void): void {
    if (this.built) step();
    else this.lastSteps.push(step);
  }

  private createPod(planned: PlannedPod, flush = true): void {
    const name = planned.pod.metadata.name!;
    const pod = this.owners.withOwners(planned.pod);
    const r = this.cluster.apiserver.create(USER, 'pods', pod.metadata.namespace ?? 'default', pod);
    if (!r.ok)
      throw new PlanError(`pod "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    // Before the flush: the kubelet hears of the pod only then, and looks its behaviours up by uid.
    this.bind(planned, r.object.metadata.uid!);
    if (flush) this.cluster.flush();
  }

  /**
   * A resumed machine with the behaviours planned for its pods, and cut off from the start if a
   * step says it is unreachable: its kubelet may act on its pods as it starts.
   */
  private resumedMachine(node: string, machine: MachineState): MachineState {
    const containerBehaviours = new Map<string, ContainerBehaviour>();
    const volumeBehaviours = new Map<string, VolumeBehaviour>();
    const uids = new Set(machine.pods.map((p) => p.uid));
    for (const planned of this.pods.values()) {
      if (!planned.uid || !uids.has(planned.uid)) continue;
      for (const [c, b] of planned.behaviours) containerBehaviours.set(`${planned.uid} ${c}`, b);
      for (const [v, b] of planned.volumes) volumeBehaviours.set(`${planned.uid} ${v}`, b);
    }
    const unreachableSince =
      machine.unreachableSince ?? (this.unreachable.includes(node) ? this.cluster.clock.now() : undefined);
    return {
      ...machine,
      containerBehaviours,
      volumeBehaviours,
      ...(unreachableSince !== undefined ? { unreachableSince } : {}),
    };
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

  /** An object of another kind, in namespace default, created with the plan (or at once once it started). */
  object<R extends Resource>(resource: R, object: ResourceType[R]): void {
    const name = object.metadata.name;
    if (this.otherObjects.some((o) => o.resource === resource && o.object.metadata.name === name))
      throw new PlanError(`${resource} "${name}" is declared twice`);
    this.knownNamespaceOf(`${(object.kind ?? resource).toLowerCase()} "${name}"`, object);
    refuseAsApiserver(`${(object.kind ?? resource).toLowerCase()} "${name}"`, resource, object, this.release);
    this.otherObjects.push({ resource, object });
    if (this.started) this.createObject(resource, object);
  }

  /**
   * The namespace a manifest names is kept (R240): it must be `default` or one the scenario
   * declares, else the step that declares the object fails naming it.
   */
  private knownNamespaceOf(what: string, obj: { metadata: { namespace?: string } }): void {
    const namespace = obj.metadata.namespace;
    if (namespace === undefined || namespace === 'default' || this.namespaces.includes(namespace)) return;
    throw new PlanError(
      `unknown namespace "${namespace}" for ${what}: declare it first with  Given a namespace "${namespace}"  (namespaces so far: ${listNames(this.namespaces)})`,
    );
  }

  /** The objects of one resource the plan creates besides pods, workloads and services (for steps that resolve names). */
  declared<R extends Resource>(resource: R): ResourceType[R][] {
    return this.otherObjects.filter((o) => o.resource === resource).map((o) => o.object as ResourceType[R]);
  }

  private createObject(resource: Resource, object: ResourceType[Resource]): void {
    const r = this.cluster.apiserver.create(USER, resource, object.metadata.namespace ?? 'default', object);
    if (!r.ok)
      throw new PlanError(
        `${resource} "${object.metadata.name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`,
      );
    this.cluster.flush();
  }

  /**
   * A StatefulSet, Job or DaemonSet for the scenario (workload-manifest.ts), created with the
   * plan before its pods, or at once when the cluster runs already; its controller makes its pods.
   */
  workload(kind: WorkloadKind, name: string, manifest?: Manifest, replicas?: number): void {
    if (this.workloads.has(kind, name)) throw new PlanError(`${kind} "${name}" is declared twice`);
    const obj = workloadFromManifest(kind, name, manifest, replicas);
    this.knownNamespaceOf(`${kind} "${name}"`, obj);
    refuseAsApiserver(`${kind} "${name}"`, WORKLOAD_RESOURCES[kind], obj, this.release);
    this.workloads.add(kind, name, obj);
  }

  /** Whether the plan has this workload (for steps that act on it). */
  hasWorkload(kind: WorkloadKind, name: string): boolean {
    return this.workloads.has(kind, name);
  }

  /** A controller of kube-controller-manager that does not run in this scenario (by canonical name or alias). */
  controllerNotRunning(name: string): void {
    this.assertNotBuilt(`the ${name} controller not running`);
    const d = CONTROLLERS.find(
      (c) => c.name === name || c.name === `${name}-controller` || (c.aliases ?? []).includes(name),
    );
    if (!d)
      throw new PlanError(
        `"${name}" is not a controller of kube-controller-manager here; known: ${CONTROLLERS.map((c) => c.name.replace(/-controller$/, '')).join(', ')}`,
      );
    if (!this.controllersOff.includes(d.name)) this.controllersOff.push(d.name);
  }

  /**
   * Behaviours for every pod one workload's controller creates (`container "app" of the pods of
   * job "pi" …`), for names the scenario cannot know in advance.
   */
  workloadPodsBehaviour(
    kind: WorkloadKind,
    name: string,
    container: string,
    change: Partial<ContainerBehaviour>,
  ): void {
    this.workloads.podsBehaviour(kind, name, container, change);
  }

  private planned(podName: string): PlannedPod {
    const p = this.pods.get(podName);
    if (!p) {
      const made = this.workloads.podNames();
      throw new PlanError(
        `unknown pod "${podName}" (pods in this scenario: ${listNames(this.podNames())}${made.length ? `; pods its workloads will create: ${made.join(', ')}` : ''})`,
      );
    }
    return p;
  }

  /** Fails with the usual message unless the node is declared. */
  requireNode(node: string): void {
    this.knownNode(node);
  }

  private knownNode(node: string): void {
    if (!this.nodes.includes(node)) throw new PlanError(`unknown node "${node}" (nodes: ${listNames(this.nodes)})`);
  }
}

import {
  ApiServer,
  DEFAULT_APISERVER_OPTIONS,
  type ApiServerOptions,
  type ClientIdentity,
} from '../apiserver/apiserver';
import { Clock } from '../foundation/clock';
import {
  startApiextensionsControllers,
  type ApiextensionsControllers,
} from '../apiserver/apiextensions/apiextensions-server';
import { ControllerManager, type ControllerContext } from '../components/controllers/controller-manager';
import { SharedInformerFactory } from '../client/informer';
import { ApiClient } from '../client/client';
import { DEFAULT_POD_GC_CONFIG, type PodGarbageCollector, type PodGCConfig } from '../components/controllers/pod-gc';
import { CONTROLLERS, DEFAULT_CONTROLLERS } from '../components/controllers/registry';
import { DoubleRunWatch } from './double-run';
import { DEFAULT_NODE_CONFIG, SimNode, type NodeConfig } from './node';
import type { MachineState } from '../components/kubelet/machine-state';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import { KubeScheduler } from '../components/scheduler/scheduler';
import { Timeline, type Recording } from '../foundation/timeline/timeline';
import { ServiceNetwork } from './traffic/network';
import { CsiDriverSidecars, DEFAULT_CSI_BEHAVIOUR, type CsiDriverBehaviour } from '../components/csi/csi-driver';
import type { ClientView } from './perturbation/client-view';
import { describeTarget, type Perturbation, type Target } from './perturbation/perturbation';
import { Perturbations } from './perturbation/perturbations';
import { COMPONENTS, type Component } from '../foundation/timeline/event';

/** The client identities of the people and tools that drive a scenario. */
export const USER: ClientIdentity = { name: 'user', component: 'user' };
export const KUBECTL: ClientIdentity = { name: 'kubectl', component: 'kubectl' };
export const CONTROLLER: ClientIdentity = { name: 'controller', component: 'controller' };

export interface ClusterOptions {
  /** The release of every component (kube-apiserver, kube-controller-manager, kubelets, kubectl); it overrides the components' own. */
  release: Release;
  apiserver: ApiServerOptions;
  node: NodeConfig;
  podGC: PodGCConfig;
  /** kube-controller-manager --controllers: `*` for all, `-NAME` to leave one out (names in src/components/controllers/registry.ts). */
  controllers: readonly string[];
  /** Whether kube-scheduler runs (default: yes); without it, pods no step binds stay Pending. */
  scheduler: boolean;
  /** What some components see late, stale, or lose to a restart (src/cluster/perturbation/; default none). */
  perturbations: readonly Perturbation[];
}

/**
 * One simulated cluster: a virtual clock, a timeline, kube-apiserver over etcd, and nodes with
 * their kubelets. Every component reaches the apiserver only through its request methods and
 * watches.
 */
export class Cluster {
  readonly clock: Clock;
  readonly timeline: Timeline;
  readonly apiserver: ApiServer;
  readonly apiextensions: ApiextensionsControllers;
  readonly nodes = new Map<string, SimNode>();
  /** kube-controller-manager's shared informers: one watch per kind for every controller. */
  readonly informers: SharedInformerFactory;
  /**
   * The enabled controllers of kube-controller-manager, by canonical name: those that act on one
   * kind of object start on the first one (ControllerDescriptor.startsOn); `get` starts one now.
   */
  readonly controllers: ControllerManager;
  /** What each controller was started with, to start one again (a restarted kube-controller-manager). */
  private readonly controllerContext: ControllerContext;
  /** kube-scheduler, its own component beside kube-controller-manager (absent when turned off). */
  readonly scheduler?: KubeScheduler;
  /** The release of the control plane and kubectl (and of every kubelet not given its own). */
  readonly release: Release;
  private readonly options: ClusterOptions;
  private serviceNetwork?: ServiceNetwork;
  /** One pod name running on two nodes (a force deletion's double-run hazard), said on the timeline. */
  private readonly doubleRun: DoubleRunWatch;
  /** The CSI drivers installed (their controller sidecars and node plugins), by driver name. */
  readonly csiDrivers = new Map<string, CsiDriverSidecars>();
  /** What some components see late, stale, or lose to a restart (issue 33). */
  readonly perturbations: Perturbations;
  /** The perturbed controllers' processes: their view of the cluster, to kill at a restart. */
  private readonly controllerViews = new Map<string, ClientView>();

  /**
   * `epochMs`: where virtual time starts (default the fixed EPOCH_MS, 2025-01-01); `serve` passes
   * its start time, and a resumed dump the time its objects were read (src/planning/restore/).
   */
  constructor(
    options: Partial<ClusterOptions> & { record?: Recording; epochMs?: number; observeWatches?: boolean } = {},
  ) {
    this.clock = new Clock(options.epochMs);
    // record: 'summary' keeps counts instead of events (and no request records): for big runs.
    this.timeline = new Timeline(this.clock, options.record);
    const release = options.release ?? DEFAULT_RELEASE;
    const node = options.node ?? DEFAULT_NODE_CONFIG;
    this.release = release;
    this.options = {
      release,
      apiserver: { ...(options.apiserver ?? DEFAULT_APISERVER_OPTIONS), release },
      node: { ...node, kubelet: { ...node.kubelet, release } },
      podGC: { ...(options.podGC ?? DEFAULT_POD_GC_CONFIG), release },
      controllers: options.controllers ?? DEFAULT_CONTROLLERS,
      scheduler: options.scheduler ?? true,
      perturbations: options.perturbations ?? [],
    };
    this.apiserver = new ApiServer(this.clock, this.timeline, this.options.apiserver);
    this.perturbations = new Perturbations(
      this.options.perturbations,
      this.apiserver,
      this.clock,
      options.observeWatches,
    );
    // The apiextensions-apiserver's controllers (NamesAccepted, Established, the CRD finalizer) run inside kube-apiserver.
    this.apiextensions = startApiextensionsControllers(this.clock, this.timeline, this.apiserver);
    this.doubleRun = new DoubleRunWatch(this.timeline);
    this.informers = new SharedInformerFactory(this.apiserver);
    if (this.options.scheduler) {
      // A perturbed kube-scheduler reaches the apiserver through its own view, with informers of its own.
      const view = this.perturbations.viewFor({ kind: 'scheduler' });
      if (view) {
        const informers = new SharedInformerFactory(view.api);
        this.scheduler = new KubeScheduler(view.clock ?? this.clock, this.timeline, view.api, informers, release);
        this.scheduler.start();
        informers.start();
      } else {
        // Rank 0 of the shared informers' handlers: before every controller's (ControllerManager).
        this.scheduler = this.informers.registering(0, () => {
          const s = new KubeScheduler(this.clock, this.timeline, this.apiserver, this.informers, release);
          s.start();
          return s;
        });
      }
    }
    this.controllerContext = {
      clock: this.clock,
      timeline: this.timeline,
      api: this.apiserver,
      clientFor: (identity) => new ApiClient(this.apiserver, identity),
      informers: this.informers,
      release,
      config: { podGC: this.options.podGC },
    };
    this.controllers = new ControllerManager(CONTROLLERS, this.options.controllers, this.controllerContext, (name) =>
      this.contextOf(name),
    );
  }

  /**
   * The context a controller starts with: the shared one, or — for a controller a perturbation
   * acts on — its own process's view of the apiserver and clock with informers of its own, as if
   * it ran apart from the other controllers (src/cluster/perturbation/client-view.ts).
   */
  private contextOf(name: string): ControllerContext {
    const view = this.perturbations.viewFor({ kind: 'controller', name });
    if (!view) return this.controllerContext;
    this.controllerViews.set(name, view);
    return {
      ...this.controllerContext,
      api: view.api,
      clientFor: (identity) => new ApiClient(view.api, identity),
      clock: view.clock,
      informers: new SharedInformerFactory(view.api),
    };
  }

  /**
   * A component's process dies and starts again at once (issue 33): its work queues,
   * expectations and caches are lost, and the new process lists everything again. Only the
   * controllers of kube-controller-manager restart in the simulation.
   */
  restart(target: Target): void {
    if (target.kind !== 'controller')
      throw new Error(
        `restarting the ${describeTarget(target)} is not modelled: only the controllers of kube-controller-manager restart`,
      );
    const name = target.name;
    const d = CONTROLLERS.find((x) => x.name === name);
    if (!d) throw new Error(`"${name}" is not a known controller`);
    const view = this.controllerViews.get(name);
    if (!view) throw new Error(`controller "${name}" restarts only as a perturbation of its own (Perturbations)`);
    view.kill();
    const lane = controllerLane(name);
    this.timeline.record(
      lane,
      `restarted ${name}: work queues, expectations and informer caches lost; listing again`,
      'perturbation (issue 33): the process dies and starts again; client-go tools/cache/reflector.go ListAndWatch lists on start',
      { actor: name },
    );
    const ctx = this.contextOf(name);
    this.controllers.set(name, d.start(ctx));
    ctx.informers.start();
  }

  /**
   * A running controller stops (its process dies, or loses its leader lease): it no longer reacts
   * or writes. Only controllers that can stop (a `stop()` method: the workload controllers) can.
   */
  stopController(name: string): void {
    const c = this.controller<{ stop?: () => void }>(name);
    if (typeof c.stop !== 'function') throw new Error(`controller "${name}" cannot be stopped in the simulation`);
    c.stop();
    this.controllers.forget(name);
  }

  /**
   * A controller starts (again): a new instance, whose informer handlers see every cached object
   * as an addition — as a restarted kube-controller-manager relists and resyncs everything.
   */
  startController(name: string): void {
    if (this.controllers.has(name)) throw new Error(`controller "${name}" is running already`);
    const d = CONTROLLERS.find((x) => x.name === name);
    if (!d) throw new Error(`"${name}" is not a known controller; known: ${CONTROLLERS.map((x) => x.name).join(', ')}`);
    const ctx = this.contextOf(name);
    this.controllers.set(name, d.start(ctx));
    if (ctx !== this.controllerContext) ctx.informers.start();
  }

  /**
   * The service data path (a kube-proxy per node, load balancers, clients), started on first use
   * — by a scenario with a service — with `proxyDelays` for the nodes whose kube-proxy is slow.
   */
  network(proxyDelays?: ReadonlyMap<string, number>): ServiceNetwork {
    if (this.serviceNetwork) {
      if (proxyDelays && proxyDelays.size > 0)
        throw new Error('the kube-proxy delays must be set before the service network starts');
      return this.serviceNetwork;
    }
    return (this.serviceNetwork = new ServiceNetwork(
      this.clock,
      this.timeline,
      this.apiserver,
      () => [...this.nodes.values()],
      this.release,
      proxyDelays,
      (node) => this.perturbations.apiFor({ kind: 'kube-proxy', node }),
    ));
  }

  get hasNetwork(): boolean {
    return this.serviceNetwork !== undefined;
  }

  /** The pod garbage collector (for steps that change its threshold); fails when --controllers left it out. */
  get podGC(): PodGarbageCollector {
    return this.controller<PodGarbageCollector>('pod-garbage-collector-controller');
  }

  /** A running controller by canonical name; an error names the ones that run when it does not. */
  controller<T extends object>(name: string): T {
    const c = this.controllers.get(name);
    if (!c)
      throw new Error(
        `controller "${name}" is not running; running: ${[...this.controllers.keys()].join(', ') || 'none'}`,
      );
    return c as T;
  }

  /**
   * Adds a node; `kubelet` changes that node's kubelet configuration (e.g. its shutdown grace
   * periods, or `{ release }` for a kubelet older than the control plane); `machine` is what a
   * resumed node already runs when its kubelet starts (src/components/kubelet/machine-state.ts).
   */
  addNode(name: string, kubelet: Partial<NodeConfig['kubelet']> = {}, machine?: MachineState): SimNode {
    if (this.nodes.has(name)) throw new Error(`node "${name}" already exists`);
    // Each machine its own address, in the order the nodes join: 10.0.0.1, 10.0.0.2, …
    const n = this.nodes.size + 1;
    const nodeIP = `10.0.${Math.floor(n / 256)}.${n % 256}`;
    const config = { ...this.options.node, kubelet: { ...this.options.node.kubelet, nodeIP, ...kubelet } };
    const node = new SimNode(
      this.clock,
      this.timeline,
      this.perturbations.apiFor({ kind: 'kubelet', node: name }),
      name,
      config,
      machine,
    );
    node.runtime.onSandboxStarted = (s) => this.doubleRun.started(name, s);
    node.runtime.onSandboxStopped = (s) => this.doubleRun.stopped(s);
    this.nodes.set(name, node);
    this.serviceNetwork?.addNode(name);
    for (const driver of this.csiDrivers.values()) driver.registerOnNode(name);
    return node;
  }

  /**
   * Installs a CSI driver (src/components/csi/csi-driver.ts): its CSIDriver object, its node plugin on every
   * node, its external-provisioner and external-attacher. Once per driver.
   */
  installCsiDriver(name: string, behaviour: Partial<CsiDriverBehaviour> = {}): CsiDriverSidecars {
    if (this.csiDrivers.has(name)) throw new Error(`CSI driver "${name}" is installed already`);
    const driver = new CsiDriverSidecars(this.clock, this.timeline, this.apiserver, name, {
      ...DEFAULT_CSI_BEHAVIOUR,
      ...behaviour,
    }).start([...this.nodes.keys()]);
    this.csiDrivers.set(name, driver);
    return driver;
  }

  node(name: string): SimNode {
    const node = this.nodes.get(name);
    if (!node)
      throw new Error(
        `unknown node "${name}"; nodes in this scenario: ${[...this.nodes.keys()].map((n) => `"${n}"`).join(', ') || 'none'}`,
      );
    return node;
  }

  /** Run everything due now (zero-delay hops such as watch delivery), without advancing time. */
  flush(): void {
    this.clock.tick(0);
  }

  /** Advance virtual time, running everything that falls due. */
  advance(ms: number): void {
    this.clock.tick(ms);
  }

  /**
   * Runs the cluster until `done()` holds or the virtual `deadline` passes. When nothing is
   * scheduled any more, time jumps to the deadline: nothing could change `done()` on the way.
   */
  runUntil(done: () => boolean, deadline: number): boolean {
    while (!done()) {
      const next = this.clock.nextTimerAt();
      if (next === undefined || next > deadline) {
        if (this.clock.now() < deadline) this.clock.tick(deadline - this.clock.now());
        return done();
      }
      this.clock.runNext();
    }
    return true;
  }

  /**
   * "the cluster settles": run until nothing is scheduled in the next `quietMs` (10 virtual
   * minutes). Work that retries forever is stopped after `limitMs` (one virtual hour); the result
   * then names what still retries or blocks.
   */
  settle(quietMs = 10 * 60_000, limitMs = 60 * 60_000): { settled: true } | { settled: false; blockers: string[] } {
    const limit = this.clock.now() + limitMs;
    for (;;) {
      // Idle periodic loops (heartbeats, controller resyncs) are background work: they do not count.
      const next = this.clock.nextForegroundAt();
      if (next === undefined || next > this.clock.now() + quietMs) return { settled: true };
      if (next > limit) {
        this.clock.tick(limit - this.clock.now());
        return { settled: false, blockers: this.blockers() };
      }
      this.clock.tick(next - this.clock.now());
    }
  }

  /** What keeps the cluster busy or deleted pods from going away, in words: stuck volumes, unreachable nodes, crash loops, finalizers, kubelets at work. */
  blockers(): string[] {
    const out: string[] = [];
    for (const node of this.nodes.values()) {
      for (const v of node.volumes.stuckVolumes()) {
        out.push(
          `volume "${v.volume}" of ${v.podRef} on node "${node.name}" cannot be unmounted (${v.failures} failed attempts, retried with back-off; last error: ${v.lastError})`,
        );
      }
      for (const v of node.volumes.hangingVolumes()) {
        out.push(
          `volume "${v.volume}" of ${v.podRef} on node "${node.name}" is being unmounted and TearDown never returned (no retry while it is pending)`,
        );
      }
      if (!node.reachable)
        out.push(
          `node "${node.name}" is unreachable: its kubelet gets no watch events and cannot send status or its final DELETE`,
        );
      for (const c of node.kubelet.crashLoops()) {
        out.push(
          `container "${c.container}" of pods/${c.pod} on node "${node.name}" exits on its own and is restarted for ever (CrashLoopBackOff: ${c.message})`,
        );
      }
    }
    // A namespace held Terminating: what its conditions say remains (C10).
    const namespaces = this.apiserver.list(
      'namespaces',
      undefined,
      (ns) => ns.metadata.deletionTimestamp !== undefined,
    );
    for (const ns of namespaces.ok ? namespaces.object.items : []) {
      const remaining = (ns.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.message);
      out.push(
        `namespace "${ns.metadata.name}" is Terminating, held by spec.finalizers ${JSON.stringify(ns.spec?.finalizers ?? [])}${remaining.length ? `: ${remaining.join('; ')}` : ''}`,
      );
    }
    const pods = this.apiserver.list('pods', undefined);
    for (const pod of pods.ok ? pods.object.items : []) {
      const meta = pod.metadata;
      if (!meta.deletionTimestamp) continue;
      const ref = `pods/${meta.name}`;
      const finalizers = meta.finalizers ?? [];
      if (finalizers.length > 0) {
        out.push(
          `${ref} is held by finalizer${finalizers.length > 1 ? 's' : ''} ${finalizers.join(', ')} (deletionGracePeriodSeconds=${meta.deletionGracePeriodSeconds}); only removing ${finalizers.length > 1 ? 'them' : 'it'} lets the pod go`,
        );
        continue;
      }
      const nodeName = pod.spec?.nodeName;
      const node = nodeName ? this.nodes.get(nodeName) : undefined;
      if (!node)
        out.push(
          `${ref} is Terminating on node "${nodeName}", where no kubelet runs: nobody will send the final DELETE`,
        );
      else {
        const worker = node.kubelet.podWorkerStates().find((w) => w.name === meta.name);
        out.push(
          `${ref} is Terminating, waiting for the kubelet on "${node.name}" (pod worker: ${worker?.state ?? 'not started'}; phase ${pod.status?.phase})`,
        );
      }
    }
    return out;
  }
}

/** The timeline lane of a controller of kube-controller-manager (`endpointslice-controller` → endpointslice). */
function controllerLane(name: string): Component {
  const lanes: Record<string, Component> = {
    'garbage-collector-controller': 'gc',
    'pod-garbage-collector-controller': 'podgc',
    'node-lifecycle-controller': 'nodelifecycle',
    'taint-eviction-controller': 'nodelifecycle',
  };
  const short = name.replace(/-controller$/, '');
  return lanes[name] ?? (COMPONENTS.includes(short as Component) ? (short as Component) : 'controller');
}

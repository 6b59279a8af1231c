import type { Clock, TimerHandle } from '../../foundation/clock';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { ResumedContainer } from './machine-state';
import { PodNetwork } from './pod-network';

/** What a container's main process does when it receives SIGTERM (K29: 143 when SIGTERM kills it, 137 after SIGKILL, 0 when it exits by itself). */
export type SigtermBehaviour =
  /** No handler: the default disposition ends it at once, exit code 143 (128 + SIGTERM). */
  | { kind: 'dies' }
  /** Handles SIGTERM and exits after draining for `afterMs`, with `exitCode` (0 unless given). */
  | { kind: 'exits'; afterMs: number; exitCode?: number }
  /** Ignores SIGTERM (e.g. PID 1 without a handler): only SIGKILL ends it, exit code 137. */
  | { kind: 'ignores' };

/** How a container behaves when it is stopped; scenarios set these, the runtime plays them. */
export interface ContainerBehaviour {
  sigterm: SigtermBehaviour;
  /** Duration of the preStop hook (Infinity: it never returns); only used when the spec has a preStop handler. */
  preStopMs: number;
  /** The process ends by itself with this exit code (a job that completed or failed, or a crashing app)… */
  exitsOnItsOwn?: number;
  /** …after running this long (0 or unset: right after it starts); each restart runs as long again. */
  runsForMs?: number;
  /** The preStop hook ends with an error after `preStopMs` (the kubelet records FailedPreStopHook, K25). */
  preStopFails?: boolean;
  /** Pulling the container's image takes this long (the container is Waiting until then; S12). */
  pullMs?: number;
  /** …and then fails (ErrImagePull): the container is not created. */
  pullFails?: boolean;
  /** The container's memory working set while it runs, in bytes (what the summary API reports; 0 unset). */
  memoryBytes?: number;
  /**
   * How long the process keeps accepting (and finishing) connections after SIGTERM; unset: it
   * stops at SIGTERM (a process that dies of SIGTERM, or one that closes its listener first).
   */
  servesAfterSigtermMs?: number;
  /** Its readiness endpoint answers failure from SIGTERM on (while the process may still serve). */
  readinessFailsAtSigterm?: boolean;
  /** The process hangs this long after each start: it stops answering (probes fail, connections are not served). */
  hangsAfterMs?: number;
  /**
   * Even SIGKILL does not end the process (one in uninterruptible sleep on a dead NFS mount, a
   * runtime that lost its shim): StopContainer fails once the kubelet's deadline passes (X8). A
   * resumed pod gets it from a FailedKillPod Event (src/planning/restore/restore.ts).
   */
  survivesSigkill?: boolean;
}

export const DEFAULT_BEHAVIOUR: ContainerBehaviour = { sigterm: { kind: 'dies' }, preStopMs: 0 };

export interface RuntimeContainer {
  readonly name: string;
  readonly id: string;
  state: 'running' | 'exited';
  startedAt: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  /** How many times the container was created before this one (CRI restartCount annotation). */
  restartCount?: number;
  /** The run this one replaced (the kubelet shows it as lastState.terminated). */
  previous?: { id: string; exitCode: number; reason?: string; startedAt: number; finishedAt: number };
  /** A SIGTERM was delivered and the process is on its way out (its exit is scheduled or it ignores it). */
  sigtermAt?: number;
  exitTimer?: TimerHandle;
}

export interface Sandbox {
  readonly uid: string;
  readonly podRef: string;
  /**
   * The pod's namespace (podRef, as the timeline shows it, has only the name); unknown for a pod
   * a resumed node already ran (its machine state names pods by name).
   */
  readonly namespace?: string;
  state: 'ready' | 'notready' | 'removed';
  readonly containers: Map<string, RuntimeContainer>;
  /** The pod's addresses from the node's pod network (CNI ADD at RunPodSandbox); none without a pod CIDR. */
  readonly ips: readonly string[];
}

const CRI = 'CRI runtime (containerd) via pkg/kubelet/kuberuntime';
// Built once each (the timeline interns sources by value: a string concatenated per event is flattened and hashed every time).
const STOP_SOURCE = `${CRI} StopContainer`;
const EXIT_SOURCE = `${CRI} container exit (137 = SIGKILL, 143 = SIGTERM default action)`;
const START_SOURCE = `${CRI} StartContainer`;

/** The kubelet's --runtime-request-timeout (2m): what a CRI call may take beyond its own timeout. */
export const RUNTIME_REQUEST_TIMEOUT_MS = 120_000;

/**
 * The container runtime of one node (containerd behind CRI), with containers modelled as
 * processes: SIGTERM and SIGKILL, exit codes, preStop hooks, pod sandboxes. It outlives kubelet
 * restarts and API deletions: its processes stop only when someone stops them.
 */
export class ContainerRuntime {
  private readonly sandboxes = new Map<string, Sandbox>();
  private containerCounter = 0;
  /** The node's pod network (CNI host-local IPAM): configured with the node's pod CIDR by the kubelet. */
  readonly network = new PodNetwork();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    readonly nodeName: string,
    /** Looks up the scenario's behaviour for a container (by pod uid and container name). */
    private readonly behaviourOf: (uid: string, container: string) => ContainerBehaviour,
  ) {}

  sandbox(uid: string): Sandbox | undefined {
    return this.sandboxes.get(uid);
  }

  /** Every sandbox the runtime still has (ready or stopped), for housekeeping and container GC. */
  allSandboxes(): Sandbox[] {
    return [...this.sandboxes.values()];
  }

  /**
   * RunPodSandbox + CreateContainer/StartContainer for each container whose image is present: the
   * pod is up. Returns the containers whose image must be pulled first (pullImage, then
   * startContainer).
   */
  startPod(
    uid: string,
    podRef: string,
    containers: readonly string[],
    runsToCompletion: (name: string) => boolean = () => false,
    namespace?: string,
  ): string[] {
    const ip = this.network.allocate(uid);
    const sandbox: Sandbox = {
      uid,
      podRef,
      namespace,
      state: 'ready',
      containers: new Map(),
      ips: ip === undefined ? [] : [ip],
    };
    this.sandboxes.set(uid, sandbox);
    this.onSandboxStarted(sandbox);
    const toPull = containers.filter((name) => this.needsPull(uid, name));
    const started = containers.filter((name) => !toPull.includes(name)).map((name) => this.create(sandbox, name));
    for (const c of started) this.afterStart(sandbox, c, runsToCompletion(c.name));
    return toPull;
  }

  /**
   * The pod a resumed node already runs (src/components/kubelet/machine-state.ts): its sandbox, ready while
   * any container runs, and its containers as they are, with their ids, start times and restart
   * counts. Nothing is started and nothing is recorded: the processes were there before.
   */
  restorePod(uid: string, podRef: string, containers: readonly ResumedContainer[]): void {
    // Its addresses are the ones its status shows (kept by the kubelet while the sandbox reports none, K59).
    // A sandbox whose teardown fails was never stopped: it is still ready, its containers gone or not.
    const ready = containers.some((c) => c.state === 'running') || this.sandboxTeardownErrors.has(uid);
    const sandbox: Sandbox = { uid, podRef, state: ready ? 'ready' : 'notready', containers: new Map(), ips: [] };
    this.sandboxes.set(uid, sandbox);
    for (const r of containers) {
      this.containerCounter += 1;
      const id = r.id ?? `containerd://${this.nodeName}-${String(this.containerCounter).padStart(6, '0')}`;
      const c: RuntimeContainer = {
        name: r.name,
        id,
        state: r.state,
        startedAt: r.startedAt,
        restartCount: r.restartCount,
      };
      if (r.state === 'exited') {
        c.finishedAt = r.finishedAt ?? r.startedAt;
        c.exitCode = r.exitCode ?? 0;
        c.reason = r.reason ?? (c.exitCode === 0 ? 'Completed' : 'Error');
      }
      sandbox.containers.set(r.name, c);
    }
  }

  /** The container's image is not on the node yet: it must be pulled before the container can start. */
  needsPull(uid: string, name: string): boolean {
    const s = this.sandboxes.get(uid);
    return !!s && (this.behaviourOf(s.uid, name).pullMs ?? 0) > 0;
  }

  /**
   * CRI PullImage for a container's image: `done()` after the behaviour's pullMs, or
   * `done('ErrImagePull')` if the pull fails. Nothing is created: that is startContainer.
   */
  pullImage(uid: string, name: string, done: (err?: string) => void): void {
    const s = this.sandboxes.get(uid);
    if (!s) return done('ErrImagePull: no sandbox');
    const b = this.behaviourOf(s.uid, name);
    this.timeline.record('runtime', `pulling image for ${name} ${s.podRef}`, `${CRI} PullImage`, {
      actor: this.nodeName,
    });
    this.clock.after(b.pullMs ?? 0, () => {
      if (b.pullFails) {
        this.timeline.record('runtime', `pull failed ${name} ${s.podRef}: ErrImagePull`, `${CRI} PullImage`, {
          actor: this.nodeName,
        });
        return done('ErrImagePull');
      }
      done();
    });
  }

  /** CreateContainer + StartContainer of one container in an existing sandbox. */
  startContainer(uid: string, name: string, runsToCompletion = false): void {
    const s = this.sandboxes.get(uid);
    if (!s || s.state !== 'ready' || s.containers.get(name)?.state === 'running') return;
    const c = this.create(s, name);
    this.timeline.record('runtime', `started ${name} ${s.podRef}`, START_SOURCE, { actor: this.nodeName });
    this.afterStart(s, c, runsToCompletion);
  }

  private create(sandbox: Sandbox, name: string): RuntimeContainer {
    this.containerCounter += 1;
    const id = `containerd://${this.nodeName}-${String(this.containerCounter).padStart(6, '0')}`;
    const old = sandbox.containers.get(name);
    const previous =
      old?.state === 'exited'
        ? {
            id: old.id,
            exitCode: old.exitCode ?? 0,
            reason: old.reason,
            startedAt: old.startedAt,
            finishedAt: old.finishedAt ?? old.startedAt,
          }
        : undefined;
    const c: RuntimeContainer = {
      name,
      id,
      state: 'running',
      startedAt: this.clock.now(),
      restartCount: old ? (old.restartCount ?? 0) + 1 : 0,
      ...(previous ? { previous } : {}),
    };
    sandbox.containers.set(name, c);
    return c;
  }

  /**
   * The process's own course once started: it exits by itself if its behaviour says so; a regular
   * init container (`runsToCompletion`) whose behaviour says nothing completes (exit 0) at once.
   */
  private afterStart(sandbox: Sandbox, c: RuntimeContainer, runsToCompletion: boolean): void {
    const { exitsOnItsOwn, runsForMs } = this.behaviourOf(sandbox.uid, c.name);
    const code = exitsOnItsOwn ?? (runsToCompletion ? 0 : undefined);
    if (code === undefined) return;
    if (runsForMs) c.exitTimer = this.clock.after(runsForMs, () => this.exit(sandbox, c, code));
    else this.exit(sandbox, c, code);
  }

  /** A pod sandbox came up / went down on this node (the cluster watches for one name running on two nodes). */
  onSandboxStarted: (s: Sandbox) => void = () => undefined;
  onSandboxStopped: (s: Sandbox) => void = () => undefined;

  /** A container of a pod has exited (the PLEG sees it at its next relist). */
  onContainerExit: (uid: string) => void = () => undefined;

  /** Who else hears of a process ending at once (the simulated clients, whose connections it resets). */
  readonly exitObservers = new Set<(uid: string, container: string) => void>();

  hasRunningContainers(uid: string): boolean {
    const s = this.sandboxes.get(uid);
    return !!s && [...s.containers.values()].some((c) => c.state === 'running');
  }

  /**
   * Runs the container's preStop hook; `onDone` fires when it returns (with an error if it failed).
   * The hook keeps running inside the container if the kubelet stops waiting
   * (kuberuntime_container.go executePreStopHook).
   */
  execPreStop(uid: string, container: string, onDone: (err?: string) => void): void {
    const s = this.sandboxes.get(uid);
    if (!s) return;
    const { preStopMs: ms, preStopFails } = this.behaviourOf(s.uid, container);
    this.timeline.record(
      'runtime',
      `preStop ${container} ${s.podRef}`,
      'pkg/kubelet/kuberuntime/kuberuntime_container.go executePreStopHook',
      { actor: this.nodeName },
    );
    if (Number.isFinite(ms))
      this.clock.after(ms, () => onDone(preStopFails ? 'command terminated with exit code 1' : undefined));
  }

  /**
   * A preStop `sleep` action (lifecycle handlers runSleepHandler): the kubelet waits `ms` itself,
   * nothing runs in the container; `ms` undefined: the handler runner does not know the action
   * (PodLifecycleSleepAction off) and fails at once.
   */
  sleepHook(uid: string, container: string, ms: number | undefined, onDone: (err?: string) => void): void {
    const s = this.sandboxes.get(uid);
    if (!s) return;
    const source = 'pkg/kubelet/lifecycle/handlers.go handlerRunner.Run → runSleepHandler';
    if (ms === undefined) {
      this.timeline.record(
        'runtime',
        `preStop ${container} ${s.podRef}: sleep action unknown (PodLifecycleSleepAction off): Cannot run handler`,
        'pkg/kubelet/lifecycle/handlers.go handlerRunner.Run',
        { actor: this.nodeName },
      );
      return onDone('Cannot run handler: invalid handler');
    }
    this.timeline.record('runtime', `preStop ${container} ${s.podRef} (sleep ${ms / 1000}s)`, source, {
      actor: this.nodeName,
    });
    this.clock.after(ms, () => onDone());
  }

  /**
   * Whether the container's process accepts a connection now: it runs in a sandbox whose network
   * is up, and has not had SIGTERM — or is still within the time it keeps serving after it.
   */
  acceptsConnections(uid: string, container: string): boolean {
    const s = this.sandboxes.get(uid);
    const c = s?.containers.get(container);
    if (!s || s.state !== 'ready' || !c || c.state !== 'running') return false;
    const hangs = this.behaviourOf(uid, container).hangsAfterMs;
    if (hangs !== undefined && this.clock.now() >= c.startedAt + hangs) return false;
    if (c.sigtermAt === undefined) return true;
    return this.clock.now() < c.sigtermAt + (this.behaviourOf(uid, container).servesAfterSigtermMs ?? 0);
  }

  /** The id of the container's current process while it runs (a request in flight is reset when that process ends). */
  runningContainerId(uid: string, container: string): string | undefined {
    const c = this.sandboxes.get(uid)?.containers.get(container);
    return c?.state === 'running' ? c.id : undefined;
  }

  /**
   * What an HTTP probe of the container gets (prober.go runProbe): success while the process
   * accepts connections — for a readiness probe, unless its readiness endpoint fails from SIGTERM on.
   */
  probeSucceeds(uid: string, container: string, type: 'readiness' | 'liveness' | 'startup'): boolean {
    if (!this.acceptsConnections(uid, container)) return false;
    const c = this.sandboxes.get(uid)!.containers.get(container)!;
    return !(
      type === 'readiness' &&
      c.sigtermAt !== undefined &&
      this.behaviourOf(uid, container).readinessFailsAtSigterm
    );
  }

  /** Whether the runtime still has something of the pod running: a running container or a ready sandbox (runtimeCache.GetPods). */
  isRunningPod(uid: string): boolean {
    const s = this.sandboxes.get(uid);
    return !!s && (s.state === 'ready' || this.hasRunningContainers(uid));
  }

  /**
   * CRI StopContainer(timeout): send the stop signal (SIGTERM), wait up to `timeoutSeconds` for
   * the process to exit, then SIGKILL. `onExit` fires once the container has exited; `onError`
   * when the call fails (a process that survives SIGKILL, X8). The returned function abandons the
   * wait (the kubelet went away): no SIGKILL is sent then.
   */
  stopContainer(
    uid: string,
    name: string,
    timeoutSeconds: number,
    onExit: () => void,
    onError: (err: string) => void = () => undefined,
  ): () => void {
    const s = this.sandboxes.get(uid);
    const c = s?.containers.get(name);
    if (!s || !c || c.state === 'exited') {
      onExit();
      return () => undefined;
    }
    let waiting = true;
    let deadline: TimerHandle | undefined;
    const killTimer = this.clock.after(timeoutSeconds * 1000, () => {
      if (c.state !== 'running') return;
      this.signal(s, c, 'SIGKILL');
      if (c.state !== 'running' || !waiting) return;
      // The kubelet's CRI client gives the call the grace period plus --runtime-request-timeout
      // (remote_runtime.go StopContainer: context.WithTimeout(timeout + r.timeout)); a process that
      // survives SIGKILL outlasts it, and the call fails with DeadlineExceeded.
      deadline = this.clock.after(RUNTIME_REQUEST_TIMEOUT_MS, () => {
        if (!waiting) return;
        waiting = false;
        onError('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
      });
    });
    this.exitListeners(c).push(() => {
      if (!waiting) return;
      waiting = false;
      this.clock.cancel(killTimer);
      if (deadline) this.clock.cancel(deadline);
      onExit();
    });
    this.signal(s, c, 'SIGTERM');
    return () => {
      waiting = false;
      this.clock.cancel(killTimer);
      if (deadline) this.clock.cancel(deadline);
    };
  }

  /**
   * The network plugin's teardown (CNI DEL) of these sandboxes fails with this error, for ever (a
   * CNI daemon that is gone, a plugin that cannot remove its rule): StopPodSandbox returns it and
   * the sandbox stays ready. A resumed pod gets it from a FailedKillPod Event naming KillPodSandbox
   * (src/restore/restore.ts, X14).
   */
  readonly sandboxTeardownErrors = new Map<string, string>();

  /**
   * StopPodSandbox: the pod's network namespace and pause container go away. Returns the CRI
   * error when the network teardown fails (containerd's StopPodSandbox: teardownPodNetwork fails
   * the call, the sandbox is not stopped).
   */
  stopPodSandbox(uid: string): string | undefined {
    const s = this.sandboxes.get(uid);
    if (!s || s.state !== 'ready') return undefined;
    const failure = this.sandboxTeardownErrors.get(uid);
    if (failure !== undefined) {
      this.timeline.record(
        'runtime',
        `StopPodSandbox ${s.podRef} failed: ${failure}`,
        'containerd internal/cri/server/sandbox_stop.go stopPodSandbox (teardownPodNetwork failed)',
        { actor: this.nodeName },
      );
      return failure;
    }
    s.state = 'notready';
    // The network plugin's teardown (CNI DEL) frees the pod's address.
    this.network.release(uid);
    this.onSandboxStopped(s);
    this.timeline.record(
      'runtime',
      `sandbox stopped ${s.podRef}`,
      'pkg/kubelet/kuberuntime/kuberuntime_manager.go killPodWithSyncResult → StopPodSandbox',
      { actor: this.nodeName },
    );
    return undefined;
  }

  /**
   * CRI RemoveContainer of an exited container: it leaves the runtime (and with it its logs).
   * `source` names the kubelet code that asked (the pod container deletor or container GC, K41).
   */
  removeContainer(uid: string, name: string, source: string): void {
    const s = this.sandboxes.get(uid);
    const c = s?.containers.get(name);
    if (!s || !c || c.state !== 'exited') return;
    s.containers.delete(name);
    this.timeline.record('runtime', `removed ${name} ${s.podRef}`, source, { actor: this.nodeName });
  }

  /** The machine lost power: every process is gone at once (no signal, no exit the kubelet could see). */
  powerLoss(): void {
    for (const s of this.sandboxes.values()) {
      for (const c of s.containers.values()) {
        if (c.exitTimer) this.clock.cancel(c.exitTimer);
        c.state = 'exited';
      }
      if (s.state === 'ready') this.onSandboxStopped(s);
      s.state = 'notready';
    }
  }

  /** RemovePodSandbox (container GC): the sandbox, and any container still in it, is deleted. */
  removePodSandbox(uid: string): void {
    const s = this.sandboxes.get(uid);
    if (!s) return;
    if (s.state === 'ready') this.onSandboxStopped(s);
    s.state = 'removed';
    this.sandboxes.delete(uid);
    this.timeline.record(
      'runtime',
      `sandbox removed ${s.podRef}`,
      'pkg/kubelet/kuberuntime/kuberuntime_gc.go evictSandboxes → RemovePodSandbox',
      { actor: this.nodeName },
    );
  }

  private readonly listeners = new WeakMap<RuntimeContainer, (() => void)[]>();

  private exitListeners(c: RuntimeContainer): (() => void)[] {
    let l = this.listeners.get(c);
    if (!l) this.listeners.set(c, (l = []));
    return l;
  }

  private signal(s: Sandbox, c: RuntimeContainer, sig: 'SIGTERM' | 'SIGKILL'): void {
    this.timeline.record('runtime', `${sig} ${c.name} ${s.podRef}`, STOP_SOURCE, { actor: this.nodeName });
    if (sig === 'SIGKILL') {
      if (!this.behaviourOf(s.uid, c.name).survivesSigkill) return this.exit(s, c, 137);
      this.timeline.record(
        'runtime',
        `${c.name} ${s.podRef} survives SIGKILL (a process the kernel cannot kill)`,
        STOP_SOURCE,
        { actor: this.nodeName },
      );
      return;
    }
    if (c.sigtermAt !== undefined) return; // already handling an earlier SIGTERM
    c.sigtermAt = this.clock.now();
    const behaviour = this.behaviourOf(s.uid, c.name).sigterm;
    if (behaviour.kind === 'dies') this.exit(s, c, 143);
    else if (behaviour.kind === 'exits')
      c.exitTimer = this.clock.after(behaviour.afterMs, () => this.exit(s, c, behaviour.exitCode ?? 0));
  }

  private exit(s: Sandbox, c: RuntimeContainer, code: number): void {
    if (c.state === 'exited') return;
    if (c.exitTimer) this.clock.cancel(c.exitTimer);
    c.state = 'exited';
    c.exitCode = code;
    c.reason = code === 0 ? 'Completed' : 'Error';
    c.finishedAt = this.clock.now();
    this.timeline.record('runtime', `exited ${c.name} code=${code} ${s.podRef}`, EXIT_SOURCE, { actor: this.nodeName });
    this.onContainerExit(s.uid);
    for (const observe of this.exitObservers) observe(s.uid, c.name);
    const l = this.listeners.get(c) ?? [];
    this.listeners.delete(c);
    for (const f of l) f();
  }
}

import { fromTime } from '../../../apimachinery/object';
import type { ContainerStatus, Pod, PodStatus, Probe } from '../../../apimachinery/types';
import type { Scheduler, TimerHandle } from '../../../foundation/clock';
import type { Timeline } from '../../../foundation/timeline/timeline';
import { containerShouldRestart, type RestartRuleGates } from '../../../helpers/container-restart';
import { shouldAllContainersRestart } from '../restart-all';

export const WORKER_SOURCE = 'pkg/kubelet/prober/worker.go';

export type ProbeType = 'readiness' | 'liveness' | 'startup';

/** results.Result: a readiness probe starts as Failure (not ready until it succeeds), liveness and startup as Success. */
export type ProbeResult = 'Success' | 'Failure';

/** The probe's settings with the API defaults (pkg/apis/core/v1/defaults.go SetDefaults_Probe). */
export interface ProbeSpec {
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

/** SetDefaults_Probe: period 10 s, timeout 1 s, success threshold 1, failure threshold 3. */
export function probeSpec(p: Probe): ProbeSpec {
  return {
    initialDelaySeconds: p.initialDelaySeconds ?? 0,
    periodSeconds: p.periodSeconds ?? 10,
    timeoutSeconds: p.timeoutSeconds ?? 1,
    successThreshold: p.successThreshold ?? 1,
    failureThreshold: p.failureThreshold ?? 3,
  };
}

/** What a worker reads of the kubelet each time it probes. */
export interface WorkerHost {
  /** The pod as the pod manager has it now (undefined once removed). */
  pod(uid: string): Pod | undefined;
  /** The status manager's status of the pod. */
  status(uid: string): PodStatus | undefined;
  /** Runs the probe against the running container (the prober's runProbe: httpGet, tcpSocket, exec). */
  probe(uid: string, container: string, type: ProbeType): ProbeResult;
  /** The kubelet's ContainerRestartRules and RestartAllContainersOnContainerExits gates (unset: both off). */
  readonly restartRules?: RestartRuleGates;
  /** The results manager's Set: a new result for the container (the kubelet acts on it). */
  setResult(uid: string, container: string, type: ProbeType, result: ProbeResult): void;
}

/**
 * N10 — one probe worker (worker.go run / doProbe) for one probe of one container, on the
 * kubelet's scheduler: it probes every periodSeconds; a result counts once it has been the same
 * successThreshold times in a row (Success) or failureThreshold times (Failure). doProbe, per tick:
 * a pod gone or in a terminal phase ends the worker; a container not running is a Failure; if
 * the pod the worker was created with had a deletionTimestamp, liveness and startup probes report
 * Success and stop (the kubelet does not restart what it is terminating) while readiness probes
 * go on until the container stops (worker.go since kubernetes#98571, v1.21, and the fix of
 * #110309: unchanged 1.26–1.36; a pod deleted later is StopLivenessAndStartup's, N13); a terminal
 * phase in the status ends the worker even then (#124648); no probe runs
 * before initialDelaySeconds have passed since the container started, readiness and liveness
 * not before the container is started (startup probe done); a liveness or startup Failure puts
 * the worker on hold until the container is replaced.
 *
 * Upstream's first tick waits a random part of the period when the kubelet has just started
 * (to spread probes after a restart); here the first probe is at once, so runs repeat.
 */
export class ProbeWorker {
  private lastResult: ProbeResult | undefined;
  private resultRun = 0;
  private onHold = false;
  private containerID: string | undefined;
  private timer?: TimerHandle;
  private stopped = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly timeline: Timeline,
    private readonly host: WorkerHost,
    readonly uid: string,
    readonly podRef: string,
    readonly container: string,
    readonly type: ProbeType,
    readonly spec: ProbeSpec,
    private readonly nodeName: string,
    /**
     * The pod AddPod was given had a deletionTimestamp (worker.go reads `w.pod`, the object the
     * worker was created with, which later updates do not replace): only a pod added already
     * deleted — a kubelet restarted during its termination — has its liveness and startup probes
     * quieted here; otherwise StopLivenessAndStartup stops them (N13).
     */
    private readonly addedDeleted = false,
  ) {}

  start(): void {
    this.tick(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.scheduler.cancel(this.timer);
  }

  private tick(delay: number): void {
    // Idle probing does not keep "the cluster settles" waiting (a periodic loop, as the sync loop's ticks).
    this.timer = this.scheduler.after(
      delay,
      () => {
        if (this.stopped) return;
        if (this.doProbe()) this.tick(this.spec.periodSeconds * 1000);
        else this.stopped = true;
      },
      { background: true },
    );
  }

  /**
   * doProbe for a container that is not running: the worker goes on only if the container may run
   * again. Without ContainerRestartRules: unless it terminated in a pod whose restartPolicy is
   * Never. V70 — with them (v1.35+, worker.go since KEP-5307): unless it terminated and neither
   * ContainerShouldRestart (its own policy and rules first) nor, with
   * RestartAllContainersOnContainerExits, ShouldAllContainersRestart brings it back — so a
   * container of a Never pod restarted by a rule keeps its probes.
   */
  private keepsGoing(pod: Pod, status: PodStatus, c: ContainerStatus): boolean {
    const ended = c.state?.terminated;
    if (!ended) return true;
    const gates = this.host.restartRules;
    if (!gates?.rules) return pod.spec?.restartPolicy !== 'Never';
    const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
      (x) => x.name === this.container,
    );
    if (spec && containerShouldRestart(spec, pod.spec?.restartPolicy, ended.exitCode, gates.restartAll)) return true;
    return gates.restartAll && shouldAllContainersRestart(pod, undefined, status);
  }

  /** doProbe: false ends the worker. */
  doProbe(): boolean {
    const pod = this.host.pod(this.uid);
    const status = this.host.status(this.uid);
    if (!pod) return false;
    if (!status) return true;
    if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;
    const c = findStatus(status, this.container);
    if (!c || !c.containerID) return true;
    if (this.containerID !== c.containerID) {
      // A new container: the worker starts over (and leaves the hold).
      this.containerID = c.containerID;
      this.lastResult = undefined;
      this.resultRun = 0;
      this.onHold = false;
    }
    if (this.onHold) return true;
    if (!c.state?.running) {
      this.set(this.type === 'readiness' ? 'Failure' : 'Success', true);
      return this.keepsGoing(pod, status, c);
    }
    if (this.addedDeleted && this.type !== 'readiness') {
      this.set('Success', true);
      return false;
    }
    const startedAt = fromTime(c.state.running.startedAt!);
    if (this.scheduler.now() - startedAt < this.spec.initialDelaySeconds * 1000) return true;
    if (c.started) {
      if (this.type === 'startup') return true;
    } else if (this.type !== 'startup') return true;
    const result = this.host.probe(this.uid, this.container, this.type);
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    if (
      (result === 'Failure' && this.resultRun < this.spec.failureThreshold) ||
      (result === 'Success' && this.resultRun < this.spec.successThreshold)
    )
      return true;
    this.set(result, false);
    if ((this.type === 'liveness' || this.type === 'startup') && result === 'Failure') {
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }

  private current: ProbeResult | undefined;

  private set(result: ProbeResult, quiet: boolean): void {
    if (this.current === result) return;
    this.current = result;
    if (!quiet)
      this.timeline.record(
        'kubelet',
        `${this.type} probe ${result === 'Success' ? 'succeeded' : 'failed'} ${this.container} ${this.podRef}`,
        `${WORKER_SOURCE} doProbe → results_manager.go Set`,
        { actor: this.nodeName },
      );
    this.host.setResult(this.uid, this.container, this.type, result);
  }
}

function findStatus(status: PodStatus, name: string): ContainerStatus | undefined {
  for (const c of status.containerStatuses ?? []) if (c.name === name) return c;
  for (const c of status.initContainerStatuses ?? []) if (c.name === name) return c;
  return undefined;
}

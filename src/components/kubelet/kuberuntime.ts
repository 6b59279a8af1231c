import type { Pod } from '../../apimachinery/types';
import type { Scheduler } from '../../foundation/clock';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import type { ContainerRuntime } from './runtime';

/** kuberuntime_manager.go minimumGracePeriodInSeconds: every container gets at least 2 s after SIGTERM. */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** What killPod reports as it goes, for Kubernetes Events. */
export interface KillRecorder {
  event(pod: Pod, container: string, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/**
 * kuberuntime_termination_order.go terminationOrdering (K26): with sidecars (restartable init
 * containers) present, each sidecar waits for every regular container and every sidecar declared
 * after it, so sidecars stop last, in reverse order.
 */
export class TerminationOrdering {
  private readonly prerequisites = new Map<string, Set<string>>();
  private readonly waiting = new Map<string, () => void>();

  constructor(pod: Pod, running: ReadonlySet<string>) {
    const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name);
    const regular = (pod.spec?.containers ?? []).map((c) => c.name);
    sidecars.forEach((name, i) => {
      const deps = [...regular, ...sidecars.slice(i + 1)].filter((d) => running.has(d));
      this.prerequisites.set(name, new Set(deps));
    });
  }

  static needed(pod: Pod): boolean {
    return (pod.spec?.initContainers ?? []).some((c) => c.restartPolicy === 'Always');
  }

  /** waitForTurn: `onTurn` runs when all prerequisites have exited, or after `graceSeconds`, whichever is first. */
  waitForTurn(clock: Scheduler, name: string, graceSeconds: number, onTurn: (waitedMs: number) => void): void {
    const start = clock.now();
    let fired = false;
    const fire = () => {
      if (fired) return;
      fired = true;
      clock.cancel(timer);
      this.waiting.delete(name);
      onTurn(clock.now() - start);
    };
    const timer = clock.after(graceSeconds * 1000, fire);
    if ((this.prerequisites.get(name)?.size ?? 0) === 0) return fire();
    this.waiting.set(name, fire);
  }

  /** containerTerminated: release the sidecars that were waiting for it. */
  containerTerminated(name: string): void {
    for (const [waiter, deps] of this.prerequisites) {
      if (deps.delete(name) && deps.size === 0) this.waiting.get(waiter)?.();
    }
  }
}

/**
 * The kubelet side of stopping a pod (kuberuntime_manager.go killPodWithSyncResult and
 * kuberuntime_container.go killContainer): every running container is killed in parallel —
 * Killing event, preStop hook within the grace period, sidecar ordering, the 2 s floor, CRI
 * StopContainer — and then the sandbox is stopped (K23–K28).
 */
export class KubeRuntimeManager {
  /** V70 — pods whose in-place restart of every container this kubelet process has under way. */
  readonly resetting = new Set<string>();
  /** In-flight StopContainer waits: a kubelet that dies abandons them (the runtime then sends no SIGKILL). */
  private readonly inFlight = new Set<() => void>();

  constructor(
    private readonly clock: Scheduler,
    private readonly runtime: ContainerRuntime,
    private readonly recorder: KillRecorder,
    /** The kubelet's release: killContainer's grace accounting changed in v1.28, sidecar ordering came with SidecarContainers. */
    private readonly release: Release = DEFAULT_RELEASE,
  ) {}

  /** `done(err)`: the containers whose StopContainer failed, as killPodWithSyncResult's result.Error() words them (X8). */
  killPod(pod: Pod, gracePeriodOverride: number | undefined, done: (err?: string) => void): void {
    const uid = pod.metadata.uid!;
    const sandbox = this.runtime.sandbox(uid);
    const running = new Set(
      [...(sandbox?.containers.values() ?? [])].filter((c) => c.state === 'running').map((c) => c.name),
    );
    // killContainersWithSyncResult builds a terminationOrdering only with SidecarContainers on
    // (beta on from v1.29, GA v1.33; alpha off in v1.28: no ordering, #121579).
    const ordering =
      this.release.enabled('SidecarContainers') && TerminationOrdering.needed(pod)
        ? new TerminationOrdering(pod, running)
        : undefined;
    let left = running.size;
    const errors: string[] = [];
    const finish = () => {
      // The sandbox is stopped even when a container could not be (killPodWithSyncResult); its
      // failure is one more error of the result (kubecontainer.ErrKillPodSandbox, X14).
      const sandboxError = this.runtime.stopPodSandbox(uid);
      if (sandboxError !== undefined)
        errors.push(
          `failed to "KillPodSandbox" for "${uid}" with KillPodSandboxError: ${JSON.stringify(sandboxError)}`,
        );
      // PodSyncResult.Error is an aggregate (apimachinery util/errors): one error prints as itself, several as "[a, b]".
      done(errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    };
    if (left === 0) return finish();
    for (const name of running) {
      this.killContainer(pod, name, gracePeriodOverride, ordering, (err) => {
        if (err) errors.push(`failed to "KillContainer" for "${name}" with KillContainerError: ${JSON.stringify(err)}`);
        left -= 1;
        if (left === 0) finish();
      });
    }
  }

  /**
   * V70 — SyncPod's kill of a container for an in-place restart of the whole pod
   * (RestartAllContainers): killContainer with a grace period override of 0, so no preStop hook
   * runs and StopContainer gets the 2 s floor; no termination ordering (KEP-5532: "no ordering
   * during the kill", the pod's terminationGracePeriodSeconds not respected).
   */
  killContainerForRestart(pod: Pod, name: string, done: (err?: string) => void): void {
    this.killContainer(pod, name, 0, undefined, done);
  }

  /** How many StopContainer calls still wait on the runtime (what abandon() would cancel). */
  get callsInFlight(): number {
    return this.inFlight.size;
  }

  /** The kubelet process is gone: stop waiting on the runtime. */
  abandon(): void {
    for (const cancel of this.inFlight) cancel();
    this.inFlight.clear();
  }

  /**
   * killContainer (K24–K28): grace from the pod, replaced by the override; preStop; ordering; floor
   * of 2 s; StopContainer. Before v1.28 the override was applied last, after the hook and the
   * floor: the hook waited up to the pod's own grace and StopContainer still got the whole
   * override, with no 2 s floor (#115835, fixes #115817).
   */
  private killContainer(
    pod: Pod,
    name: string,
    gracePeriodOverride: number | undefined,
    ordering: TerminationOrdering | undefined,
    done: (err?: string) => void,
  ): void {
    const uid = pod.metadata.uid!;
    const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === name);
    let grace = setTerminationGracePeriod(pod);
    this.recorder.event(pod, name, 'Normal', 'Killing', `Stopping container ${name}`);
    const overrideFirst = this.release.atLeast(28);
    if (gracePeriodOverride !== undefined && overrideFirst) grace = gracePeriodOverride;

    const stop = () => {
      grace = Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS);
      if (gracePeriodOverride !== undefined && !overrideFirst) grace = gracePeriodOverride;
      let cancel: () => void = () => undefined;
      // A container that exits at SIGTERM ends the call before stopContainer returns: it is then
      // never in flight (the cancel handed back afterwards would stay in the set, with all it holds).
      let settled = false;
      const finished = () => {
        settled = true;
        this.inFlight.delete(cancel);
        ordering?.containerTerminated(name);
        done();
      };
      const failed = (err: string) => {
        settled = true;
        this.inFlight.delete(cancel);
        done(err);
      };
      cancel = this.runtime.stopContainer(uid, name, grace, finished, failed);
      if (!settled) this.inFlight.add(cancel);
    };
    const afterHook = () => {
      if (ordering && grace > 0) {
        // The wait is truncated to whole seconds before it is subtracted.
        ordering.waitForTurn(this.clock, name, grace, (waitedMs) => {
          grace -= Math.floor(waitedMs / 1000);
          stop();
        });
      } else stop();
    };
    if (spec?.lifecycle?.preStop && grace > 0)
      this.executePreStopHook(pod, name, grace, afterHook, (elapsed) => (grace -= elapsed));
    else afterHook();
  }

  /** executePreStopHook's goroutine: a failed hook is a Warning event, without the hook's output (K25). */
  private hookFailed(pod: Pod, name: string): void {
    // "do not record the message in the event so that secrets won't leak from the server"
    this.recorder.event(pod, name, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
  }

  /**
   * executePreStopHook (K25): wait for the hook or for the grace period, whichever comes first; the
   * elapsed time, truncated to seconds, comes off the grace period. A hook still running is left be.
   * A `sleep` action is run by the kubelet itself (lifecycle handlers runSleepHandler): it lasts its
   * seconds; without PodLifecycleSleepAction (beta on from v1.30, KEP-3960) the handler runner does
   * not know it and fails at once ("Cannot run handler").
   */
  private executePreStopHook(
    pod: Pod,
    name: string,
    graceSeconds: number,
    next: () => void,
    consumed: (seconds: number) => void,
  ): void {
    const start = this.clock.now();
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      this.clock.cancel(timeout);
      consumed(Math.floor((this.clock.now() - start) / 1000));
      next();
    };
    const timeout = this.clock.after(graceSeconds * 1000, finish);
    const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === name);
    const sleep = spec?.lifecycle?.preStop?.sleep;
    const onDone = this.clock.guard((err?: string) => {
      // The hook's goroutine records the failure even when the kubelet has stopped waiting for it.
      if (err) this.hookFailed(pod, name);
      finish();
    });
    if (sleep)
      this.runtime.sleepHook(
        pod.metadata.uid!,
        name,
        this.release.enabled('PodLifecycleSleepAction') ? sleep.seconds * 1000 : undefined,
        onDone,
      );
    else this.runtime.execPreStop(pod.metadata.uid!, name, onDone);
  }
}

/**
 * kuberuntime_container.go setTerminationGracePeriod (deletion path): deletionGracePeriodSeconds if
 * set, else the spec's terminationGracePeriodSeconds, else minimumGracePeriodInSeconds.
 */
export function setTerminationGracePeriod(pod: Pod): number {
  return (
    pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? MINIMUM_GRACE_PERIOD_SECONDS
  );
}

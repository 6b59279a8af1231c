import { Given, When } from '@cucumber/cucumber';
import type { Release } from '../../src/foundation/release';
import { ScenarioError, type TerminatingWorld } from '../support/world';
import { UNSERVED_SCHEDULER } from '../../src/components/scheduler/scheduler';

/**
 * The shutdown grace periods `When node … shuts down gracefully` assumes for a node whose kubelet
 * configuration does not set them (upstream's default, 0, turns graceful shutdown off): a kubelet
 * configured with shutdownGracePeriod 30s and shutdownGracePeriodCriticalPods 10s.
 */
export const SCENARIO_SHUTDOWN_PERIODS = { shutdownGracePeriodSeconds: 30, shutdownGracePeriodCriticalPodsSeconds: 10 };

function wholeSeconds(ms: number, what: string): number {
  if (ms % 1000 !== 0)
    throw new ScenarioError(
      `${what} must be whole seconds (the kubelet configuration has second resolution), not ${ms / 1000}s`,
    );
  return ms / 1000;
}

/**
 * A Node whose kubelet runs and is Ready, renewing its Lease every 10 s. Nodes and pods are
 * created before T+0 (see "Before you start").
 */
Given('a node {string}', function (this: TerminatingWorld, node: string) {
  this.planNode(node);
});

/**
 * Two nodes, as `a node` twice.
 */
Given('nodes {string} and {string}', function (this: TerminatingWorld, a: string, b: string) {
  this.planNode(a);
  this.planNode(b);
});

/**
 * The default pod: namespace `default`, one container `app` with no preStop hook that dies of
 * SIGTERM at once (exit 143), `terminationGracePeriodSeconds` 30 (the API default),
 * `restartPolicy` Always, bound to the node (the scheduler never sees it). It has been running for a
 * minute at T+0.
 */
Given('a pod {string} running on node {string}', function (this: TerminatingWorld, pod: string, node: string) {
  this.planPod(pod, node);
});

/**
 * The doc string is a partial pod manifest in YAML or JSON, merged over the default pod (objects
 * key by key; a list replaces the default one): e.g. `spec.terminationGracePeriodSeconds`,
 * `metadata.finalizers`, `spec.volumes`, `spec.containers` (their names are what the container
 * steps name), `spec.initContainers` (with `restartPolicy: Always` for sidecars). An unknown
 * top-level field or a wrong type is an error naming the field.
 */
Given(
  'a pod {string} running on node {string} with:',
  function (this: TerminatingWorld, pod: string, node: string, manifest: string) {
    this.planPod(pod, node, manifest);
  },
);

/**
 * Two default pods on one node.
 */
Given(
  'pods {string} and {string} running on node {string}',
  function (this: TerminatingWorld, a: string, b: string, node: string) {
    this.planPod(a, node);
    this.planPod(b, node);
  },
);

/**
 * The default pod bound (`spec.nodeName`) to a node that has no Node object and no kubelet, as
 * after a node was deleted: nothing runs it, it stays Pending, and pod GC force-deletes it after its
 * 40 s quarantine (K48). The node must not be declared in the scenario.
 */
Given(
  'a pod {string} bound to node {string} that does not exist',
  function (this: TerminatingWorld, pod: string, node: string) {
    this.declare(`pod "${pod}"`);
    this.plan.podOnMissingNode(pod, node);
  },
);

/**
 * The default pod without `spec.nodeName`, for a scheduler that does not run
 * (`spec.schedulerName: no-scheduler`, so kube-scheduler leaves it alone, as it leaves every pod
 * another profile handles): it stays Pending, no kubelet knows it, and a DELETE removes it at
 * once (R7).
 */
Given('a pod {string} that is not scheduled to any node', function (this: TerminatingWorld, pod: string) {
  this.planPod(pod, undefined, { spec: { schedulerName: UNSERVED_SCHEDULER } });
});

/**
 * A pod with `restartPolicy: Never` whose container `app` exited 0 by itself before T+0: phase
 * Succeeded, not deleted; a DELETE then removes it at once (R8).
 */
Given(
  'a pod {string} on node {string} whose containers have completed',
  function (this: TerminatingWorld, pod: string, node: string) {
    this.planPod(pod, node, 'spec:\n  restartPolicy: Never\n');
    this.containerBehaviour('app', pod, { exitsOnItsOwn: 0 });
  },
);

/**
 * As above, but `app` exited 1: phase Failed.
 */
Given(
  'a pod {string} on node {string} whose containers have failed',
  function (this: TerminatingWorld, pod: string, node: string) {
    this.planPod(pod, node, 'spec:\n  restartPolicy: Never\n');
    this.containerBehaviour('app', pod, { exitsOnItsOwn: 1 });
  },
);

/**
 * The container's process ignores SIGTERM (like a PID 1 without a handler): it runs until SIGKILL
 * at the end of the grace period and exits 137 (K29).
 */
Given(
  'container {string} of pod {string} ignores SIGTERM',
  function (this: TerminatingWorld, container: string, pod: string) {
    this.containerBehaviour(container, pod, { sigterm: { kind: 'ignores' } });
  },
);

/**
 * The container handles SIGTERM and exits 0 that long after it; if the grace period runs out
 * first, SIGKILL (137).
 */
Given(
  'container {string} of pod {string} exits {duration} after SIGTERM',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    this.containerBehaviour(container, pod, { sigterm: { kind: 'exits', afterMs: ms } });
  },
);

/**
 * As above, exiting with that code (a non-zero code makes the pod Failed, K32).
 */
Given(
  'container {string} of pod {string} exits {duration} after SIGTERM with code {int}',
  function (this: TerminatingWorld, container: string, pod: string, ms: number, exitCode: number) {
    this.containerBehaviour(container, pod, { sigterm: { kind: 'exits', afterMs: ms, exitCode } });
  },
);

/** The contract's phrase for a container that handles SIGTERM and exits with a given code (137 and 143 included). */
Given(
  'container {string} of pod {string} exits with code {int} {duration} after SIGTERM',
  function (this: TerminatingWorld, container: string, pod: string, exitCode: number, ms: number) {
    this.containerBehaviour(container, pod, { sigterm: { kind: 'exits', afterMs: ms, exitCode } });
  },
);

/**
 * The container's process exits by itself with that code after running that long, every time it
 * is started: with restartPolicy Always (or OnFailure and a non-zero code) the kubelet restarts it,
 * holding it back in CrashLoopBackOff (10 s doubling to 5 min) once it crashed again (K55).
 */
Given(
  'container {string} of pod {string} exits with code {int} after running {duration}',
  function (this: TerminatingWorld, container: string, pod: string, exitCode: number, ms: number) {
    this.containerBehaviour(container, pod, { exitsOnItsOwn: exitCode, runsForMs: ms });
  },
);

/**
 * A regular init container of the pod's manifest (`spec.initContainers`, no `restartPolicy: Always`)
 * exits 0 after running that long; the next init container, or the regular containers, start at
 * the sync after it (K56). Without such a step an init container completes as soon as it starts.
 */
Given(
  'init container {string} of pod {string} completes after {duration}',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    this.plan.initContainerBehaviour(container, pod, { exitsOnItsOwn: 0, runsForMs: ms });
  },
);

/**
 * The regular init container exits with that (non-zero) code after running that long, every time it
 * is started: with restartPolicy Never the pod is Failed; otherwise the kubelet starts it again,
 * holding it back in CrashLoopBackOff (10 s doubling to 5 min) once it failed again (K56, K57).
 */
Given(
  'init container {string} of pod {string} fails with exit code {int} after {duration}',
  function (this: TerminatingWorld, container: string, pod: string, exitCode: number, ms: number) {
    if (exitCode === 0)
      throw new ScenarioError(
        `exit code 0 is a success: use  Given init container "${container}" of pod "${pod}" completes after …`,
      );
    this.plan.initContainerBehaviour(container, pod, { exitsOnItsOwn: exitCode, runsForMs: ms });
  },
);

/** The hook ends with an error after that time: the kubelet records a Warning FailedPreStopHook and goes on with the kill (K25). */
Given(
  'container {string} of pod {string} has a preStop hook that fails after {duration}',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    this.plan.preStop(container, pod, ms);
    this.containerBehaviour(container, pod, { preStopFails: true });
  },
);

/** The pull starts when the pod starts, before T+0 (pods have been up a minute then): a pull longer than that is still running at T+0 (S12). */
Given(
  'the image of container {string} of pod {string} takes {duration} to pull',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    this.containerBehaviour(container, pod, { pullMs: ms });
  },
);

/** Every pull fails after 1 s: the container waits with ErrImagePull, then ImagePullBackOff between pulls (K54); it is never created and the pod stays Pending (S12). */
Given(
  'the image of container {string} of pod {string} cannot be pulled',
  function (this: TerminatingWorld, container: string, pod: string) {
    this.containerBehaviour(container, pod, { pullMs: 1000, pullFails: true });
  },
);

/**
 * Adds an exec preStop hook to the container's spec; the kubelet runs it before SIGTERM and takes
 * its whole seconds off the grace period (K25, K28). Before T+0 only: a pod's spec cannot change
 * after creation.
 */
Given(
  'container {string} of pod {string} has a preStop hook that takes {duration}',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    this.plan.preStop(container, pod, ms);
  },
);

/**
 * A preStop hook that hangs: the kubelet stops waiting when the grace period is used up, then
 * sends SIGTERM with the 2 s minimum before SIGKILL (S4). Before T+0 only.
 */
Given(
  'container {string} of pod {string} has a preStop hook that never returns',
  function (this: TerminatingWorld, container: string, pod: string) {
    this.plan.preStop(container, pod, Number.POSITIVE_INFINITY);
  },
);

/**
 * The volume must be in the pod's `spec.volumes` (its manifest). Every unmount fails and is
 * retried with back-off for ever, so the kubelet never sends its final DELETE and the pod stays
 * Terminating (S7).
 */
Given(
  'volume {string} of pod {string} cannot be unmounted',
  function (this: TerminatingWorld, volume: string, pod: string) {
    this.volumeBehaviour(volume, pod, { unmountMs: 0, neverUnmounts: true });
  },
);

/** TearDown never returns (e.g. an NFS server gone): unlike "cannot be unmounted", nothing fails and nothing is retried. */
Given(
  'volume {string} of pod {string} hangs when unmounted',
  function (this: TerminatingWorld, volume: string, pod: string) {
    this.volumeBehaviour(volume, pod, { unmountMs: 0, neverUnmounts: false, hangs: true });
  },
);

/**
 * Each unmount of the volume (in the pod's `spec.volumes`) takes that long instead of 100 ms.
 */
Given(
  'volume {string} of pod {string} takes {duration} to unmount',
  function (this: TerminatingWorld, volume: string, pod: string, ms: number) {
    this.volumeBehaviour(volume, pod, { unmountMs: ms, neverUnmounts: false });
  },
);

/**
 * From T+0 on, the node's kubelet and the apiserver cannot reach each other (no watch events, no
 * status, no Lease renewals) while its containers keep running; the node lifecycle controller
 * notices after the grace period (K46).
 */
Given('node {string} is unreachable', function (this: TerminatingWorld, node: string) {
  this.planUnreachable(node);
});

/**
 * From this moment on, as `node … is unreachable`.
 */
When('node {string} becomes unreachable', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).setReachable(false);
  this.cluster.flush();
});

/**
 * The node's kubelet reaches the apiserver again: its watch resumes (replaying the events it
 * missed, or relisting), and status and Lease writes go through again.
 */
When('node {string} becomes reachable again', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).setReachable(true);
  this.cluster.flush();
});

/**
 * The kubelet process restarts: pod workers, status cache and probes are lost, the containers keep
 * running; the new kubelet lists its pods, admits them again and carries on (K45, S10).
 */
When('the kubelet on node {string} restarts', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).restartKubelet();
  this.cluster.flush();
});

/** The kubelet's shutdownGracePeriod and shutdownGracePeriodCriticalPods (whole seconds; before the scenario starts). Regular pods get the difference (K51). */
Given(
  'node {string} has a shutdown grace period of {duration} with {duration} for critical pods',
  function (this: TerminatingWorld, node: string, total: number, critical: number) {
    const shutdownGracePeriodSeconds = wholeSeconds(total, 'the shutdown grace period');
    const shutdownGracePeriodCriticalPodsSeconds = wholeSeconds(
      critical,
      'the shutdown grace period for critical pods',
    );
    if (shutdownGracePeriodCriticalPodsSeconds > shutdownGracePeriodSeconds) {
      throw new ScenarioError(
        `the critical pods' period (${shutdownGracePeriodCriticalPodsSeconds}s) is part of the shutdown grace period and cannot exceed it (${shutdownGracePeriodSeconds}s)`,
      );
    }
    this.planKubeletConfig(
      node,
      { shutdownGracePeriodSeconds, shutdownGracePeriodCriticalPodsSeconds },
      'the shutdown grace period',
    );
  },
);

/** systemd announces a shutdown: pods are killed by priority group but not deleted, then the machine powers off (K51, K52). Without the Given above: 30s with 10s for critical pods. */
When('node {string} shuts down gracefully', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  const configured = this.hasKubeletConfig(node, 'shutdownGracePeriodSeconds');
  this.cluster.node(node).shutdown(configured ? undefined : SCENARIO_SHUTDOWN_PERIODS);
  this.cluster.flush();
});

/** Every component (kube-apiserver, kube-controller-manager, kubelets, kubectl) runs this release; before the nodes and pods. Default v1.36. */
Given('Kubernetes {release}', function (this: TerminatingWorld, release: Release) {
  this.planRelease(release.minor);
});

/** Version skew: this node's kubelet runs another (older) release than the control plane; after the node, before its pods. */
Given(
  'the kubelet on node {string} runs Kubernetes {release}',
  function (this: TerminatingWorld, node: string, release: Release) {
    this.planKubeletRelease(node, release.minor);
  },
);

/** --feature-gates for every component: `enabled` or `disabled`; refused for a gate the release does not know or has locked. */
Given('the feature gate {string} is {word}', function (this: TerminatingWorld, gate: string, state: string) {
  if (state !== 'enabled' && state !== 'disabled')
    throw new ScenarioError(`a feature gate is "enabled" or "disabled", not "${state}"`);
  this.planFeatureGate(gate, state === 'enabled');
});

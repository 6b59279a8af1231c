import { Given, When } from '@cucumber/cucumber';
import { ScenarioError, type TerminatingWorld } from './world';

/**
 * The shutdown grace periods `When node … shuts down gracefully` assumes for a node whose kubelet
 * configuration does not set them (upstream's default, 0, turns graceful shutdown off): a kubelet
 * configured with shutdownGracePeriod 30s and shutdownGracePeriodCriticalPods 10s.
 */
export const SCENARIO_SHUTDOWN_PERIODS = { shutdownGracePeriodSeconds: 30, shutdownGracePeriodCriticalPodsSeconds: 10 };

function wholeSeconds(ms: number, what: string): number {
  if (ms % 1000 !== 0) throw new ScenarioError(`${what} must be whole seconds (the kubelet configuration has second resolution), not ${ms / 1000}s`);
  return ms / 1000;
}

Given('a node {string}', function (this: TerminatingWorld, node: string) {
  this.planNode(node);
});

Given('nodes {string} and {string}', function (this: TerminatingWorld, a: string, b: string) {
  this.planNode(a);
  this.planNode(b);
});

Given('a pod {string} running on node {string}', function (this: TerminatingWorld, pod: string, node: string) {
  this.planPod(pod, node);
});

Given('a pod {string} running on node {string} with:', function (this: TerminatingWorld, pod: string, node: string, manifest: string) {
  this.planPod(pod, node, manifest);
});

Given('pods {string} and {string} running on node {string}', function (this: TerminatingWorld, a: string, b: string, node: string) {
  this.planPod(a, node);
  this.planPod(b, node);
});

Given('a pod {string} that is not scheduled to any node', function (this: TerminatingWorld, pod: string) {
  this.planPod(pod, undefined);
});

Given('a pod {string} on node {string} whose containers have completed', function (this: TerminatingWorld, pod: string, node: string) {
  this.planPod(pod, node, 'spec:\n  restartPolicy: Never\n');
  this.containerBehaviour('app', pod, { exitsOnItsOwn: 0 });
});

Given('a pod {string} on node {string} whose containers have failed', function (this: TerminatingWorld, pod: string, node: string) {
  this.planPod(pod, node, 'spec:\n  restartPolicy: Never\n');
  this.containerBehaviour('app', pod, { exitsOnItsOwn: 1 });
});

Given('container {string} of pod {string} ignores SIGTERM', function (this: TerminatingWorld, container: string, pod: string) {
  this.containerBehaviour(container, pod, { sigterm: { kind: 'ignores' } });
});

Given('container {string} of pod {string} exits {duration} after SIGTERM', function (this: TerminatingWorld, container: string, pod: string, ms: number) {
  this.containerBehaviour(container, pod, { sigterm: { kind: 'exits', afterMs: ms } });
});

Given('container {string} of pod {string} exits {duration} after SIGTERM with code {int}', function (this: TerminatingWorld, container: string, pod: string, ms: number, exitCode: number) {
  this.containerBehaviour(container, pod, { sigterm: { kind: 'exits', afterMs: ms, exitCode } });
});

Given('container {string} of pod {string} has a preStop hook that takes {duration}', function (this: TerminatingWorld, container: string, pod: string, ms: number) {
  this.plan.preStop(container, pod, ms);
});

Given('container {string} of pod {string} has a preStop hook that never returns', function (this: TerminatingWorld, container: string, pod: string) {
  this.plan.preStop(container, pod, Number.POSITIVE_INFINITY);
});

Given('volume {string} of pod {string} cannot be unmounted', function (this: TerminatingWorld, volume: string, pod: string) {
  this.volumeBehaviour(volume, pod, { unmountMs: 0, neverUnmounts: true });
});

Given('volume {string} of pod {string} takes {duration} to unmount', function (this: TerminatingWorld, volume: string, pod: string, ms: number) {
  this.volumeBehaviour(volume, pod, { unmountMs: ms, neverUnmounts: false });
});

Given('node {string} is unreachable', function (this: TerminatingWorld, node: string) {
  this.planUnreachable(node);
});

When('node {string} becomes unreachable', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).setReachable(false);
  this.cluster.flush();
});

When('node {string} becomes reachable again', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).setReachable(true);
  this.cluster.flush();
});

When('the kubelet on node {string} restarts', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).restartKubelet();
  this.cluster.flush();
});

/** The kubelet's shutdownGracePeriod and shutdownGracePeriodCriticalPods (whole seconds; before the scenario starts). Regular pods get the difference (K51). */
Given('node {string} has a shutdown grace period of {duration} with {duration} for critical pods', function (this: TerminatingWorld, node: string, total: number, critical: number) {
  const shutdownGracePeriodSeconds = wholeSeconds(total, 'the shutdown grace period');
  const shutdownGracePeriodCriticalPodsSeconds = wholeSeconds(critical, 'the shutdown grace period for critical pods');
  if (shutdownGracePeriodCriticalPodsSeconds > shutdownGracePeriodSeconds) {
    throw new ScenarioError(`the critical pods' period (${shutdownGracePeriodCriticalPodsSeconds}s) is part of the shutdown grace period and cannot exceed it (${shutdownGracePeriodSeconds}s)`);
  }
  this.planKubeletConfig(node, { shutdownGracePeriodSeconds, shutdownGracePeriodCriticalPodsSeconds }, 'the shutdown grace period');
});

/** systemd announces a shutdown: pods are killed by priority group but not deleted, then the machine powers off (K51, K52). Without the Given above: 30s with 10s for critical pods. */
When('node {string} shuts down gracefully', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  const configured = this.hasKubeletConfig(node, 'shutdownGracePeriodSeconds');
  this.cluster.node(node).shutdown(configured ? undefined : SCENARIO_SHUTDOWN_PERIODS);
  this.cluster.flush();
});

import { Given, When } from '@cucumber/cucumber';
import type { TerminatingWorld } from './world';

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

Given('container {string} of pod {string} has a preStop hook that takes {duration}', function (this: TerminatingWorld, container: string, pod: string, ms: number) {
  this.containerBehaviour(container, pod, { preStopMs: ms }, (c) => {
    c.lifecycle = { ...c.lifecycle, preStop: { exec: { command: ['sleep', String(ms / 1000)] } } };
  });
});

Given('container {string} of pod {string} has a preStop hook that never returns', function (this: TerminatingWorld, container: string, pod: string) {
  this.containerBehaviour(container, pod, { preStopMs: Number.POSITIVE_INFINITY }, (c) => {
    c.lifecycle = { ...c.lifecycle, preStop: { exec: { command: ['sleep', 'infinity'] } } };
  });
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

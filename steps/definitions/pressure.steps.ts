import { Given, Then, When } from '@cucumber/cucumber';
import type { Node } from '../../src/apimachinery/types';
import { evictionConfigFromYaml } from '../../src/planning/kubelet-config';
import { EvictionConfigError } from '../../src/components/kubelet/eviction/helpers';
import { MI } from '../../src/components/kubelet/eviction/quantity';
import { checkCondition } from './assertions.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * Node-pressure eviction (K71–K74). A node's memory.available is "plenty" until a When step below
 * says otherwise; each container's working set is what `uses …Mi of memory` says (0 without it),
 * and it is given back when the container stops, so each eviction frees what its pod used.
 */

/**
 * The kubelet's eviction settings, as KubeletConfiguration fields in YAML: evictionHard (default
 * `memory.available: 100Mi`), evictionSoft with evictionSoftGracePeriod (Go durations),
 * evictionMaxPodGracePeriod (seconds, default 0), evictionPressureTransitionPeriod (default 5m).
 * Only the memory.available signal, with a quantity (no percentage), is modelled.
 */
Given(
  'the kubelet on node {string} is configured with:',
  function (this: TerminatingWorld, node: string, yaml: string) {
    try {
      this.planKubeletConfig(
        node,
        { eviction: evictionConfigFromYaml(yaml, `the kubelet configuration of node "${node}"`) },
        'the kubelet configuration',
      );
    } catch (e) {
      if (e instanceof EvictionConfigError) throw new ScenarioError(e.message);
      throw e;
    }
  },
);

/** The container's memory working set while it runs (what the eviction manager ranks by, K73). */
Given(
  'container {string} of pod {string} uses {int}Mi of memory',
  function (this: TerminatingWorld, container: string, pod: string, mi: number) {
    this.containerBehaviour(container, pod, { memoryBytes: mi * MI });
  },
);

/** Memory taken outside the pods leaves none available now: every memory.available threshold is met. */
When('node {string} comes under memory pressure', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).comeUnderMemoryPressure(0);
  this.cluster.flush();
});

/** The same, leaving that much memory available now (e.g. between a soft and a hard threshold). */
When(
  'node {string} comes under memory pressure with {int}Mi available',
  function (this: TerminatingWorld, node: string, mi: number) {
    if (mi < 0) throw new ScenarioError(`available memory cannot be negative (${mi}Mi)`);
    this.ensureStarted();
    this.cluster.node(node).comeUnderMemoryPressure(mi * MI);
    this.cluster.flush();
  },
);

/** The memory taken outside the pods is given back: plenty available again. */
When('node {string} is no longer under memory pressure', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node).relieveMemoryPressure();
  this.cluster.flush();
});

function requireNode(world: TerminatingWorld, name: string): Node {
  world.ensureStarted();
  const r = world.cluster.apiserver.get('nodes', undefined, name);
  if (!r.ok) throw new Error(`node "${name}" does not exist`);
  return r.object;
}

/** The stored Node's condition of that type (MemoryPressure, Ready …) has this status. */
Then(
  'node {string} has condition {string} with status {string}',
  function (this: TerminatingWorld, name: string, type: string, status: string) {
    checkCondition(`node "${name}"`, requireNode(this, name), type, { status });
  },
);

/** The stored Node has a taint with that key and effect (e.g. node.kubernetes.io/memory-pressure, NoSchedule). */
Then(
  'node {string} has the taint {string} with effect {string}',
  function (this: TerminatingWorld, name: string, key: string, effect: string) {
    const taints = requireNode(this, name).spec?.taints ?? [];
    if (!taints.some((t) => t.key === key && t.effect === effect))
      throw new Error(
        `node "${name}" has no taint ${key}:${effect}; its taints: ${taints.map((t) => `${t.key}:${t.effect}`).join(', ') || 'none'}`,
      );
  },
);

/** The stored Node has no taint with that key. */
Then('node {string} has no taint {string}', function (this: TerminatingWorld, name: string, key: string) {
  const taints = requireNode(this, name).spec?.taints ?? [];
  const found = taints.find((t) => t.key === key);
  if (found) throw new Error(`node "${name}" has the taint ${found.key}:${found.effect}`);
});

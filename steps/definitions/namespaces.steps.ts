import { Given, Then, When } from '@cucumber/cucumber';
import type { Namespace } from '../../src/apimachinery/types';
import { USER } from '../../src/cluster/cluster';
import { podFromManifest } from '../../src/planning/manifest';
import { checkCondition } from './assertions.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/**
 * Namespaces and their deletion (R120–R122, C10–C12). A scenario that declares a namespace has its
 * namespaces as objects (with the system ones); pods are found by name whatever their namespace.
 */

/** A namespace, Active, with the `kubernetes` finalizer in its spec (created before T+0). */
Given('a namespace {string}', function (this: TerminatingWorld, name: string) {
  this.planNamespace(name);
});

/** The default pod (see `a pod … running on node …`) in that namespace. Pod names must be unique across namespaces. */
Given(
  'a pod {string} in namespace {string} running on node {string}',
  function (this: TerminatingWorld, pod: string, namespace: string, node: string) {
    this.planPod(pod, node, undefined, namespace);
  },
);

/** The same with a partial manifest merged over the default pod. */
Given(
  'a pod {string} in namespace {string} running on node {string} with:',
  function (this: TerminatingWorld, pod: string, namespace: string, node: string, manifest: string) {
    this.planPod(pod, node, manifest, namespace);
  },
);

/** One DELETE of the namespace with no options; returns at once (the namespace controller empties it later). */
When('the user deletes namespace {string}', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.delete(USER, 'namespaces', undefined, name, {});
  this.cluster.flush();
});

function getNamespace(world: TerminatingWorld, name: string): Namespace | undefined {
  world.ensureStarted();
  const r = world.cluster.apiserver.get('namespaces', undefined, name);
  return r.ok ? r.object : undefined;
}

/** The namespace exists with a deletionTimestamp and phase Terminating. */
Then('namespace {string} is terminating', function (this: TerminatingWorld, name: string) {
  const ns = getNamespace(this, name);
  if (!ns) throw new Error(`namespace "${name}" does not exist (any more)`);
  if (!ns.metadata.deletionTimestamp || ns.status?.phase !== 'Terminating')
    throw new Error(
      `namespace "${name}" is not terminating: phase ${ns.status?.phase}, deletionTimestamp ${ns.metadata.deletionTimestamp ?? '<absent>'}`,
    );
});

/** The namespace is no longer stored. */
Then('namespace {string} is gone', function (this: TerminatingWorld, name: string) {
  const ns = getNamespace(this, name);
  if (ns)
    throw new Error(
      `namespace "${name}" still exists: phase ${ns.status?.phase}, spec.finalizers ${JSON.stringify(ns.spec?.finalizers ?? [])}, conditions:\n${(ns.status?.conditions ?? []).map((c) => `  ${c.type}=${c.status} ${c.reason}: ${c.message}`).join('\n')}`,
    );
});

/** The namespace's status condition of that type (NamespaceContentRemaining, NamespaceFinalizersRemaining, …) has this status. */
Then(
  'namespace {string} has condition {string} with status {string}',
  function (this: TerminatingWorld, name: string, type: string, status: string) {
    const ns = getNamespace(this, name);
    if (!ns) throw new ScenarioError(`namespace "${name}" does not exist (any more)`);
    checkCondition(`namespace "${name}"`, ns, type, { status });
  },
);

/** One CREATE of the default pod bound to the node, in that namespace (e.g. into a terminating one: 403, R122). */
When(
  'the user creates pod {string} on node {string} in namespace {string}',
  function (this: TerminatingWorld, pod: string, node: string, namespace: string) {
    this.ensureStarted();
    this.cluster.node(node);
    const created = this.cluster.apiserver.create(
      USER,
      'pods',
      namespace,
      podFromManifest(pod, node, undefined, namespace),
    );
    this.lastResponse = created;
    if (created.ok) this.plan.userCreated(created.object);
    this.cluster.flush();
  },
);

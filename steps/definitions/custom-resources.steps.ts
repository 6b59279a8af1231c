import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Before, Given, Then, When } from '@cucumber/cucumber';
import type { CustomResourceDefinition } from '../../src/apiserver/apiextensions/types';
import type { Resource } from '../../src/apiserver/apiserver';
import type { KubeObject } from '../../src/apimachinery/object';
import { CONTROLLER, USER } from '../../src/cluster/cluster';
import { isObject, mergeManifest, parseYaml } from '../../src/planning/manifest';
import { SERVED_RESOURCES } from '../../src/apiserver/resources';
import { formatTimeline } from '../../src/foundation/timeline/text';
import { planStorageClassManifest } from './volumes.steps';
import { toYaml } from '../../src/frontends/yaml-output';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/** The feature file of each running scenario: `the custom resource definition in …` names a file relative to it. */
const featureFiles = new WeakMap<TerminatingWorld, string>();
Before(function (this: TerminatingWorld, { pickle }) {
  featureFiles.set(this, pickle.uri);
});

/** A kind as a scenario names it, resolved as kubectl resolves a resource argument. */
interface Target {
  resource: Resource;
  apiVersion: string;
  kind: string;
  namespaced: boolean;
}

/**
 * The kind a word names, as kubectl accepts it: a plural, singular or short name, the kind in
 * lower case, or `plural.group`; among the built-in kinds and the CRDs the scenario declares or
 * the cluster holds (their spec.names).
 */
export function resolveKind(world: TerminatingWorld, word: string): Target {
  const w = word.toLowerCase();
  for (const r of SERVED_RESOURCES) {
    if (r.toServed) continue;
    const names = [
      r.resource,
      r.singularName,
      r.kind.toLowerCase(),
      ...(r.shortNames ?? []),
      `${r.resource}.${r.group}`,
    ];
    if (names.includes(w))
      return {
        resource: r.storage,
        apiVersion: r.group ? `${r.group}/${r.version}` : r.version,
        kind: r.kind,
        namespaced: r.namespaced,
      };
  }
  const crds = [...world.plan.declared('customresourcedefinitions')];
  if (world.plan.started) {
    const listed = world.cluster.apiserver.list('customresourcedefinitions', undefined);
    if (listed.ok)
      for (const c of listed.object.items) if (!crds.some((d) => d.metadata.name === c.metadata.name)) crds.push(c);
  }
  for (const crd of crds) {
    const n = crd.spec.names;
    const names = [
      n.plural,
      n.singular ?? n.kind.toLowerCase(),
      n.kind.toLowerCase(),
      ...(n.shortNames ?? []),
      `${n.plural}.${crd.spec.group}`,
    ];
    if (!names.includes(w)) continue;
    const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
    return {
      resource: `${n.plural}.${crd.spec.group}`,
      apiVersion: `${crd.spec.group}/${version?.name}`,
      kind: n.kind,
      namespaced: crd.spec.scope === 'Namespaced',
    };
  }
  throw new ScenarioError(
    `"${word}" names no kind the cluster serves: write a built-in kind (e.g. configmap, deployment) or a kind of a custom resource definition declared before this step (${crds.map((c) => c.spec.names.singular ?? c.spec.names.kind.toLowerCase()).join(', ') || 'none declared'})`,
  );
}

function crdFrom(world: TerminatingWorld, text: string, what: string): void {
  const crd = parseYaml(text, what);
  if (!isObject(crd) || crd.kind !== 'CustomResourceDefinition' || crd.apiVersion !== 'apiextensions.k8s.io/v1') {
    throw new ScenarioError(
      `${what} must be one apiextensions.k8s.io/v1 CustomResourceDefinition (apiVersion and kind set), got ${JSON.stringify(isObject(crd) ? { apiVersion: crd.apiVersion, kind: crd.kind } : crd)}`,
    );
  }
  if (!isObject(crd.metadata) || typeof crd.metadata.name !== 'string')
    throw new ScenarioError(`${what} has no metadata.name (it must be <plural>.<group>)`);
  world.planObject('customresourcedefinitions', crd as unknown as CustomResourceDefinition);
}

/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1, YAML) from a file relative to the feature
 * file, created with the plan before the other objects and the pods: its names are accepted and it
 * is Established before anything else is created, so its custom resources can be declared after it.
 */
Given('the custom resource definition in {string}', function (this: TerminatingWorld, path: string) {
  const file = resolve(dirname(featureFiles.get(this) ?? '.'), path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ScenarioError(`cannot read the custom resource definition ${path} (${file}): ${(e as Error).message}`);
  }
  crdFrom(this, text, `the custom resource definition in ${path}`);
});

/** The same from the doc string (a whole CustomResourceDefinition in YAML). */
Given('the custom resource definition with:', function (this: TerminatingWorld, manifest: string) {
  crdFrom(this, manifest, 'the custom resource definition of this step');
});

/**
 * An object of any served kind, from a partial manifest (YAML) merged over one of that kind and
 * name in namespace default, created with the plan before the pods; the word is the kind or
 * resource as kubectl accepts it (`configmap`, `deploy`, `database` for a custom resource whose
 * definition was declared before). `replicaset`, `job`, `daemonset` and `service` keep what their
 * own steps did: a ReplicaSet, Job, DaemonSet or Service merged over the defaults those steps
 * give (a ReplicaSet for its pods to be owned by; a Job with one container `app` and
 * `restartPolicy: Never`; a DaemonSet selecting `app: NAME`; a Service with port 80 to 8080);
 * `storageclass` also installs the CSI driver its provisioner names (P15, steps/volumes.steps.ts).
 */
Given('a {word} {string} with:', function (this: TerminatingWorld, word: string, name: string, manifest: string) {
  if (word === 'replicaset') return this.planReplicaSet(name, manifest);
  if (word === 'job' || word === 'daemonset') return this.plan.workload(word, name, manifest);
  if (word === 'service') return this.plan.service(name, manifest);
  const target = resolveKind(this, word);
  // A StorageClass brings its CSI driver up (steps/volumes.steps.ts).
  if (target.resource === 'storageclasses') return planStorageClassManifest(this, name, manifest);
  const what = `the manifest of ${word} "${name}"`;
  const overlay = parseYaml(manifest, what);
  if (!isObject(overlay)) throw new ScenarioError(`${what} must be a YAML mapping, got ${JSON.stringify(overlay)}`);
  const base = { apiVersion: target.apiVersion, kind: target.kind, metadata: { name } };
  this.planObject(target.resource, mergeManifest(base, overlay) as KubeObject);
});

/** The pod gets a controller ownerReference (blockOwnerDeletion true) to that object (a custom resource declared before), with its uid. */
Given(
  'the {word} {string} owns pod {string}',
  function (this: TerminatingWorld, word: string, name: string, pod: string) {
    const target = resolveKind(this, word);
    this.plan.ownedBy(pod, { resource: target.resource, apiVersion: target.apiVersion, kind: target.kind, name });
  },
);

function namespaceOf(target: Target): string | undefined {
  return target.namespaced ? 'default' : undefined;
}

/** One DELETE of the object with that propagationPolicy (Foreground, Background or Orphan); returns at once. */
When(
  'the user deletes the {word} {string} with propagation {word}',
  function (this: TerminatingWorld, word: string, name: string, policy: string) {
    this.ensureStarted();
    const target = resolveKind(this, word);
    this.lastResponse = this.cluster.apiserver.delete(USER, target.resource, namespaceOf(target), name, {
      propagationPolicy: policy,
    });
    this.lastKubectl = undefined;
    this.cluster.flush();
  },
);

/** One DELETE of the CustomResourceDefinition: it becomes Terminating and the CRD finalizer deletes its custom resources. */
When('the user deletes the custom resource definition {string}', function (this: TerminatingWorld, name: string) {
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.delete(USER, 'customresourcedefinitions', undefined, name, {});
  this.lastKubectl = undefined;
  this.cluster.flush();
});

/** A controller's GET, then an UPDATE without that finalizer (with the fresh resourceVersion). */
When(
  'a controller removes finalizer {string} from the {word} {string}',
  function (this: TerminatingWorld, finalizer: string, word: string, name: string) {
    this.ensureStarted();
    const target = resolveKind(this, word);
    const got = this.cluster.apiserver.get(target.resource, namespaceOf(target), name);
    if (!got.ok) throw new ScenarioError(`${word} "${name}" does not exist: ${got.status.message}`);
    const finalizers = got.object.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer))
      throw new ScenarioError(
        `${word} "${name}" has no finalizer "${finalizer}" (its finalizers: ${JSON.stringify(finalizers)})`,
      );
    const next = {
      ...got.object,
      metadata: { ...got.object.metadata, finalizers: finalizers.filter((f) => f !== finalizer) },
    };
    this.lastResponse = this.cluster.apiserver.update(CONTROLLER, target.resource, namespaceOf(target), next);
    this.lastKubectl = undefined;
    this.cluster.flush();
  },
);

function stored(world: TerminatingWorld, word: string, name: string): KubeObject | undefined {
  world.ensureStarted();
  const target = resolveKind(world, word);
  const got = world.cluster.apiserver.get(target.resource, namespaceOf(target), name);
  return got.ok ? got.object : undefined;
}

/** The object is stored (possibly with a deletionTimestamp, held by finalizers). */
Then('the {word} {string} exists', function (this: TerminatingWorld, word: string, name: string) {
  if (!stored(this, word, name))
    throw new Error(
      `${word} "${name}" does not exist.\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/** The object has left storage. */
Then('the {word} {string} is gone', function (this: TerminatingWorld, word: string, name: string) {
  const o = stored(this, word, name);
  if (o)
    throw new Error(
      `${word} "${name}" still exists (deletionTimestamp ${o.metadata.deletionTimestamp ?? 'unset'}, finalizers ${JSON.stringify(o.metadata.finalizers ?? [])}).\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/** The CustomResourceDefinition is stored (Terminating or not). */
Then('the custom resource definition {string} exists', function (this: TerminatingWorld, name: string) {
  if (!stored(this, 'customresourcedefinitions', name))
    throw new Error(
      `custom resource definition "${name}" does not exist.\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/** The CustomResourceDefinition has left storage (its CRD finalizer removed its finalizer). */
Then('the custom resource definition {string} is gone', function (this: TerminatingWorld, name: string) {
  const o = stored(this, 'customresourcedefinitions', name);
  if (o)
    throw new Error(
      `custom resource definition "${name}" still exists (finalizers ${JSON.stringify(o.metadata.finalizers ?? [])}).\nIts conditions:\n${toYaml((o as CustomResourceDefinition).status?.conditions ?? [])}\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/** A condition of the CRD (NamesAccepted, Established, Terminating) with that status and reason. */
Then(
  'the custom resource definition {string} has condition {word} {word} with reason {word}',
  function (this: TerminatingWorld, name: string, type: string, status: string, reason: string) {
    this.ensureStarted();
    const got = this.cluster.apiserver.get('customresourcedefinitions', undefined, name);
    if (!got.ok) throw new Error(`custom resource definition "${name}" does not exist`);
    const c = (got.object.status?.conditions ?? []).find((x) => x.type === type);
    if (!c || c.status !== status || c.reason !== reason) {
      throw new Error(
        `custom resource definition "${name}" has ${c ? `${type} ${c.status} with reason ${c.reason} ("${c.message}")` : `no ${type} condition`}, not ${type} ${status} with reason ${reason}.\nIts conditions:\n${toYaml(got.object.status?.conditions ?? [])}`,
      );
    }
  },
);

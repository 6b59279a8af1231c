import type { KubeObject } from '../apimachinery/object';
import type { FeatureGate, Release } from '../foundation/release';
import type { PodSpec } from '../apimachinery/types';
import { dropDisabledPodSpecFields } from './pod-strategy';

/**
 * R320 — fields kube-apiserver drops on write while their feature gate is off: the
 * `dropDisabledFields` of each registry strategy's PrepareForCreate / PrepareForUpdate
 * (pkg/api/pod/util.go for pods and every pod template, pkg/registry/core/service/strategy.go,
 * pkg/api/persistentvolumeclaim/util.go, pkg/registry/batch/job/strategy.go,
 * pkg/registry/apps/statefulset/strategy.go). A field is kept when the stored object already
 * uses it (each upstream `…InUse(old)`): an update must not strip what the object was created
 * with while the gate was on.
 *
 * One table, applied in one place (Store.create and Store's beforeUpdate, after the strategy's
 * PrepareForCreate / PrepareForUpdate). A release whose types lack the field altogether never
 * gets this far: strict decoding refuses it (R240). The pod fields dropped before this table
 * existed keep their own code (pod-strategy.ts dropDisabledPodSpecFields: init containers'
 * restartPolicy, the sleep action, lifecycle.stopSignal, schedulingGates, the container restart
 * rules), run by the pod strategy for a pod and from here for every pod template; a
 * PodDisruptionBudget's unhealthyPodEvictionPolicy is dropped by its strategy.
 */

/** A path into an object; `*` walks every element of a list. */
type Path = readonly string[];

export interface GatedField {
  /** The resources the field belongs to; 'pod spec' is a pod's spec and every pod template's. */
  readonly where: 'pod spec' | readonly string[];
  /** The field (and the fields dropped with it, as one `…InUse`), from the pod spec or the object. */
  readonly paths: readonly Path[];
  readonly gate: FeatureGate;
  /** Upstream's function and the change that added the field. */
  readonly source: string;
}

export const GATED_FIELDS: readonly GatedField[] = [
  {
    where: 'pod spec',
    paths: [['workloadRef']],
    gate: 'GenericWorkload',
    source: 'pkg/api/pod/util.go dropDisabledFields, workloadRef (KEP-4671, v1.35; replaced in v1.36)',
  },
  {
    where: 'pod spec',
    paths: [['schedulingGroup']],
    gate: 'GenericWorkload',
    source: 'pkg/api/pod/util.go dropDisabledFields, schedulingGroup (KEP-4671, v1.36)',
  },
  {
    where: 'pod spec',
    paths: [['resources']],
    gate: 'PodLevelResources',
    source: 'pkg/api/pod/util.go dropDisabledFields, pod-level resources (KEP-2837, v1.32)',
  },
  {
    where: 'pod spec',
    paths: [['hostnameOverride']],
    gate: 'HostnameOverride',
    source: 'pkg/api/pod/util.go dropDisabledFields, hostnameOverride (KEP-4762, v1.34)',
  },
  {
    where: 'pod spec',
    paths: [
      ['containers', '*', 'resizePolicy'],
      ['initContainers', '*', 'resizePolicy'],
    ],
    gate: 'InPlacePodVerticalScaling',
    source: 'pkg/api/pod/util.go dropDisabledFields, ResizePolicy (KEP-1287, v1.27)',
  },
  {
    where: 'pod spec',
    paths: [['securityContext', 'supplementalGroupsPolicy']],
    gate: 'SupplementalGroupsPolicy',
    source: 'pkg/api/pod/util.go dropDisabledFields, supplementalGroupsPolicy (KEP-3619, v1.31)',
  },
  {
    where: 'pod spec',
    paths: [['securityContext', 'seLinuxChangePolicy']],
    gate: 'SELinuxChangePolicy',
    source: 'pkg/api/pod/util.go dropDisabledFields, seLinuxChangePolicy (KEP-1710, v1.32)',
  },
  {
    where: 'pod spec',
    paths: [['hostUsers']],
    gate: 'UserNamespacesSupport',
    source: 'pkg/api/pod/util.go dropDisabledFields, hostUsers (KEP-127, v1.25)',
  },
  {
    where: 'pod spec',
    paths: [
      ['resourceClaims'],
      ['containers', '*', 'resources', 'claims'],
      ['initContainers', '*', 'resources', 'claims'],
    ],
    gate: 'DynamicResourceAllocation',
    source: 'pkg/api/pod/util.go dropDisabledDynamicResourceAllocationFields (KEP-3063, v1.26)',
  },
  {
    where: ['services'],
    paths: [['spec', 'trafficDistribution']],
    gate: 'ServiceTrafficDistribution',
    source: 'pkg/registry/core/service/strategy.go dropServiceDisabledFields (KEP-4444, v1.30)',
  },
  {
    where: ['persistentvolumeclaims'],
    paths: [['spec', 'volumeAttributesClassName']],
    gate: 'VolumeAttributesClass',
    source: 'pkg/api/persistentvolumeclaim/util.go DropDisabledFields (KEP-3751, v1.29)',
  },
  {
    where: ['jobs'],
    paths: [['spec', 'successPolicy']],
    gate: 'JobSuccessPolicy',
    source: 'pkg/registry/batch/job/strategy.go PrepareForCreate/PrepareForUpdate (KEP-3998, v1.30)',
  },
  {
    where: ['jobs'],
    paths: [
      ['spec', 'backoffLimitPerIndex'],
      ['spec', 'maxFailedIndexes'],
    ],
    gate: 'JobBackoffLimitPerIndex',
    source: 'pkg/registry/batch/job/strategy.go PrepareForCreate/PrepareForUpdate (KEP-3850, v1.28)',
  },
  {
    where: ['jobs'],
    paths: [['spec', 'podReplacementPolicy']],
    gate: 'JobPodReplacementPolicy',
    source: 'pkg/registry/batch/job/strategy.go PrepareForCreate/PrepareForUpdate (KEP-3939, kubernetes#118772, v1.28)',
  },
  {
    where: ['jobs'],
    paths: [['spec', 'managedBy']],
    gate: 'JobManagedBy',
    source: 'pkg/registry/batch/job/strategy.go PrepareForCreate/PrepareForUpdate (KEP-4368, kubernetes#123273, v1.30)',
  },
  {
    where: ['statefulsets'],
    paths: [['spec', 'ordinals']],
    gate: 'StatefulSetStartOrdinal',
    source: 'pkg/registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields (KEP-3335, v1.26)',
  },
  {
    where: ['statefulsets'],
    paths: [['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable']],
    gate: 'MaxUnavailableStatefulSet',
    source:
      'pkg/registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields (KEP-961, v1.24; off again in v1.36, #137904)',
  },
];

/** Where a kind keeps its pod spec(s): a pod's spec, a template's (pod.DropDisabledTemplateFields). */
const POD_SPEC_AT: Readonly<Record<string, Path>> = {
  pods: ['spec'],
  podtemplates: ['template', 'spec'],
  replicationcontrollers: ['spec', 'template', 'spec'],
  replicasets: ['spec', 'template', 'spec'],
  deployments: ['spec', 'template', 'spec'],
  statefulsets: ['spec', 'template', 'spec'],
  daemonsets: ['spec', 'template', 'spec'],
  jobs: ['spec', 'template', 'spec'],
  cronjobs: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The objects holding the last step of `path`, with that key: every element where the path has `*`. */
function holders(root: unknown, path: Path): Node[] {
  let level: unknown[] = [root];
  for (const step of path.slice(0, -1))
    level = level.flatMap((v) => {
      if (step === '*') return Array.isArray(v) ? v : [];
      return isNode(v) && v[step] !== undefined ? [v[step]] : [];
    });
  return level.filter(isNode);
}

function inUse(root: unknown, paths: readonly Path[]): boolean {
  return paths.some((p) =>
    holders(root, p).some((h) => h[p[p.length - 1]] !== undefined && h[p[p.length - 1]] !== null),
  );
}

function at(obj: unknown, path: Path): unknown {
  return holders(obj, [...path, '']).at(0);
}

/** The rows of `resource` whose gate is off in `release`, with where they start: worked out once per release. */
const ROWS = new WeakMap<Release, Map<string, readonly { field: GatedField; from: Path }[]>>();

function rowsOf(resource: string, release: Release): readonly { field: GatedField; from: Path }[] {
  let byResource = ROWS.get(release);
  if (!byResource) ROWS.set(release, (byResource = new Map()));
  let rows = byResource.get(resource);
  if (!rows) {
    rows = GATED_FIELDS.filter((field) => !release.enabled(field.gate)).flatMap((field) => {
      if (field.where !== 'pod spec') return field.where.includes(resource) ? [{ field, from: [] }] : [];
      const specAt = POD_SPEC_AT[resource];
      return specAt ? [{ field, from: specAt }] : [];
    });
    byResource.set(resource, rows);
  }
  return rows;
}

/**
 * dropDisabledFields: every field of the table whose gate is off in `release` is removed from
 * `obj`, unless `old` (the stored object, on an update) already uses it. Returns the paths dropped.
 */
export function dropDisabledFields(
  resource: string,
  obj: KubeObject,
  old: KubeObject | undefined,
  release: Release,
): string[] {
  const rows = rowsOf(resource, release);
  // Every row of a kind starts at the object or at its one pod spec: found once.
  const specAt = POD_SPEC_AT[resource];
  const spec = specAt && at(obj, specAt);
  const oldSpec = specAt && old && at(old, specAt);
  // pod.DropDisabledTemplateFields: a template's spec loses what a pod's would (a pod's own
  // strategy does it for a pod).
  if (specAt && resource !== 'pods' && spec !== undefined)
    dropDisabledPodSpecFields(spec as PodSpec, oldSpec as PodSpec | undefined, release);
  const dropped: string[] = [];
  for (const { field, from } of rows) {
    const base = from.length === 0 ? obj : spec;
    if (base === undefined || (old && inUse(from.length === 0 ? old : oldSpec, field.paths))) continue;
    for (const path of field.paths)
      for (const holder of holders(base, path)) {
        const key = path[path.length - 1];
        if (holder[key] === undefined) continue;
        delete holder[key];
        dropped.push(path.join('.'));
      }
  }
  return dropped;
}

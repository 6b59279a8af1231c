import type { Resource } from '../apiserver/apiserver';
import type { DaemonSet, Deployment, Job, Pod, PodTemplateSpec, ReplicaSet, StatefulSet } from '../apimachinery/types';
import { ManifestError, mergeManifest, parseYaml } from './manifest';

/** The workload kinds a scenario declares (`Given a statefulset …`, `a job …`, `a daemonset …`). */
export type WorkloadKind = 'statefulset' | 'job' | 'daemonset' | 'replicaset' | 'deployment';

export const WORKLOAD_RESOURCES: Readonly<Record<WorkloadKind, Resource>> = {
  statefulset: 'statefulsets',
  job: 'jobs',
  daemonset: 'daemonsets',
  replicaset: 'replicasets',
  deployment: 'deployments',
};
const KINDS: Readonly<Record<WorkloadKind, { kind: string; apiVersion: string }>> = {
  replicaset: { kind: 'ReplicaSet', apiVersion: 'apps/v1' },
  deployment: { kind: 'Deployment', apiVersion: 'apps/v1' },
  statefulset: { kind: 'StatefulSet', apiVersion: 'apps/v1' },
  job: { kind: 'Job', apiVersion: 'batch/v1' },
  daemonset: { kind: 'DaemonSet', apiVersion: 'apps/v1' },
};

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec']);

export type Workload = StatefulSet | Job | DaemonSet | ReplicaSet | Deployment;

/**
 * The workload a scenario means: apps/v1 StatefulSet (selecting `app: NAME`, serviceName NAME,
 * `replicas` as the step says), batch/v1 Job (its pods `restartPolicy: Never`; the apiserver
 * generates its selector) or apps/v1 DaemonSet (selecting `app: NAME`), each with one container
 * `app`, and the doc string's partial manifest merged over it (objects key by key, lists
 * replaced). Its containers do what the runtime's defaults say (they run until stopped) unless a
 * behaviour step says otherwise.
 */
export function workloadFromManifest(
  kind: WorkloadKind,
  name: string,
  manifest: string | Record<string, unknown> | undefined,
  replicas?: number,
): Workload {
  const template: PodTemplateSpec = { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app' }] } };
  let spec: Record<string, unknown>;
  if (kind === 'statefulset')
    spec = { replicas: replicas ?? 1, serviceName: name, selector: { matchLabels: { app: name } }, template };
  else if (kind === 'replicaset' || kind === 'deployment')
    spec = { replicas: replicas ?? 1, selector: { matchLabels: { app: name } }, template };
  else if (kind === 'daemonset') spec = { selector: { matchLabels: { app: name } }, template };
  else spec = { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app' }] } } };
  const base = { ...KINDS[kind], metadata: { name, namespace: 'default' }, spec };
  if (manifest === undefined || (typeof manifest === 'string' && manifest.trim() === '')) return base as Workload;
  const what = `the manifest of ${kind} "${name}"`;
  const overlay = typeof manifest === 'object' ? manifest : parseYaml(manifest, what);
  if (typeof overlay !== 'object' || overlay === null || Array.isArray(overlay))
    throw new ManifestError(`${what} must be a YAML mapping (metadata:, spec: …), got ${JSON.stringify(overlay)}`);
  for (const key of Object.keys(overlay)) {
    if (!TOP_LEVEL.has(key)) {
      const hint = ['template', 'replicas', 'selector', 'backoffLimit', 'podFailurePolicy'].includes(key)
        ? ` (did you mean spec.${key}?)`
        : '';
      throw new ManifestError(
        `unknown field "${key}" at the top of ${what}${hint}: expected apiVersion, kind, metadata, spec`,
        key,
      );
    }
  }
  const o = overlay as { kind?: unknown; metadata?: { name?: unknown }; spec?: { replicas?: unknown } };
  if (o.kind !== undefined && o.kind !== KINDS[kind].kind)
    throw new ManifestError(
      `${what} has kind ${JSON.stringify(o.kind)}; a ${kind} step takes ${KINDS[kind].kind} manifests`,
    );
  if (o.metadata?.name !== undefined && o.metadata.name !== name)
    throw new ManifestError(`${what} names it "${String(o.metadata.name)}" but the step names it "${name}"`);
  if (
    (kind === 'statefulset' || kind === 'replicaset' || kind === 'deployment') &&
    o.spec?.replicas !== undefined &&
    o.spec.replicas !== replicas
  ) {
    throw new ManifestError(
      `${what} sets spec.replicas ${JSON.stringify(o.spec.replicas)} but the step says ${replicas} replicas`,
      'spec.replicas',
    );
  }
  return mergeManifest(base, overlay) as Workload;
}

/** The containers (init ones first) of a workload's pod template, for steps that name one. */
export function templateContainers(w: Workload): string[] {
  const spec: Pod['spec'] = w.spec?.template?.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].map((c) => c.name);
}

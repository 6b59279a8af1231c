import type { Resource } from '../../apiserver/apiserver';
import type { Cluster } from '../../cluster/cluster';
import type { Target } from '../../cluster/perturbation/perturbation';
import { formatTimeline } from '../../foundation/timeline/text';

/**
 * What `terminating explore` learns from a scenario's unperturbed run (as Sieve learns from its
 * reference run): which components ran, what each watched, and when each kind changed from T+0
 * on. The plans are derived from it (src/frontends/explore/plans.ts).
 */
export interface Observation {
  /** Each component and the resources it watched. */
  readonly components: readonly { target: Target; resources: readonly Resource[] }[];
  /** When each resource changed, in ms after T+0 (distinct instants, in order). */
  readonly changes: ReadonlyMap<Resource, readonly number[]>;
  /** How long the scenario ran from T+0 (ms). */
  readonly durationMs: number;
  /** Its timeline from T+0, as text (for the report, beside a perturbed run's). */
  readonly timeline: string;
}

/** The observation of a finished run. */
export function observe(cluster: Cluster, t0: number, loadBalanced: readonly string[]): Observation {
  const components = [...cluster.perturbations.watched.values()].map(({ target, resources }) => ({
    target,
    resources: [...resources].sort(),
  }));
  for (const service of loadBalanced)
    components.push({ target: { kind: 'load-balancer', service }, resources: ['endpointslices'] });
  const changes = new Map<Resource, number[]>();
  for (const e of cluster.apiserver.etcd.historySince(0)) {
    if (e.at < t0) continue;
    const resource = resourceOfKey(e.key);
    if (!resource) continue;
    const list = changes.get(resource) ?? [];
    const at = e.at - t0;
    if (list[list.length - 1] !== at) list.push(at);
    changes.set(resource, list);
  }
  const events = cluster.timeline.since(t0).filter((e) => e.component !== 'watch' && e.component !== 'etcd');
  return { components, changes, durationMs: cluster.clock.now() - t0, timeline: formatTimeline(events, t0) };
}

/** The etcd prefixes that are not the resource's name (the stores' etcdPrefix). */
const PREFIXES: Record<string, Resource> = {
  minions: 'nodes',
  'services/specs': 'services',
  'services/endpoints': 'endpoints',
};

/** `/registry/pods/default/web` → pods, `/registry/minions/node-1` → nodes. */
function resourceOfKey(key: string): Resource | undefined {
  const parts = key.split('/');
  return PREFIXES[parts[2]] ?? PREFIXES[`${parts[2]}/${parts[3]}`] ?? (parts[2] as Resource | undefined);
}

/** The last observation recorded in this process (explore runs the scenario in process). */
let last: Observation | undefined;

export function recordObservation(o: Observation): void {
  last = o;
}

export function takeObservation(): Observation | undefined {
  const o = last;
  last = undefined;
  return o;
}

import type { Resource } from '../../apiserver/apiserver';
import type { Cluster } from '../../cluster/cluster';
import { pluralOf } from '../../apiserver/watch-cache';
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
    // The watch cache's reading of a key: minions are nodes, services/endpoints endpoints, a group a custom resource.
    const resource = pluralOf(e.key) as Resource;
    const list = changes.get(resource) ?? [];
    const at = e.at - t0;
    if (list[list.length - 1] !== at) list.push(at);
    changes.set(resource, list);
  }
  const events = cluster.timeline.since(t0).filter((e) => e.component !== 'watch' && e.component !== 'etcd');
  return { components, changes, durationMs: cluster.clock.now() - t0, timeline: formatTimeline(events, t0) };
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

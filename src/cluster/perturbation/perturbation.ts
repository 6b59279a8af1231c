import type { Resource } from '../../apiserver/apiserver';
import { CONTROLLERS } from '../../components/controllers/registry';
import { formatDuration } from '../../foundation/timeline/time';

/**
 * Perturbations (issue 33, after Sieve, OSDI '22): what one component sees of the cluster is
 * late, stale, or lost to a restart. Each is a scenario step (steps/definitions/perturbation.steps.ts) and a
 * plan of `terminating explore` (src/frontends/explore/). They act at one place, the component's connection
 * to the apiserver (src/cluster/perturbation/client-view.ts): its watches, its reads, its process.
 */

/** Whose view of the cluster is perturbed. */
export type Target =
  /** A controller of kube-controller-manager, by canonical name (src/controllers/registry.ts). */
  | { kind: 'controller'; name: string }
  /** One node's kubelet. */
  | { kind: 'kubelet'; node: string }
  /** One node's kube-proxy. */
  | { kind: 'kube-proxy'; node: string }
  /** The load balancer in front of one service. */
  | { kind: 'load-balancer'; service: string }
  /** A client of the served HTTP API, by the product token of its User-Agent. */
  | { kind: 'client'; userAgent: string }
  /** kube-scheduler (its own process beside kube-controller-manager). */
  | { kind: 'scheduler' };

export type Perturbation =
  /** Every watch event of `resource` reaches the component `delayMs` after it would have. */
  | { type: 'late'; target: Target; resource: Resource; delayMs: number }
  /** The component's process dies at T+atMs and starts again at once: in-memory state lost, then a relist. */
  | { type: 'restart'; target: Target; atMs: number }
  /** The component reads `resource` from a cache `staleMs` behind the apiserver. */
  | { type: 'stale'; target: Target; resource: Resource; staleMs: number }
  /** The component's watch of `resource` loses every event from T+fromMs until it lists again at T+relistMs. */
  | { type: 'miss'; target: Target; resource: Resource; fromMs: number; relistMs: number }
  /**
   * Every request of the component takes `delayMs`: it runs that far behind the apiserver, so each
   * write lands `delayMs` after the state it was decided on (exact for the first request of each
   * reaction; the later requests of one reaction land with it, not `delayMs` apart). Controllers and the scheduler only.
   */
  | { type: 'slow'; target: Target; delayMs: number };

/** The kinds a perturbation names, singular as a scenario writes them, with their resource. */
export const WATCHED_KINDS: Readonly<Record<string, Resource>> = {
  pod: 'pods',
  node: 'nodes',
  service: 'services',
  endpointslice: 'endpointslices',
  endpoints: 'endpoints',
  poddisruptionbudget: 'poddisruptionbudgets',
  replicaset: 'replicasets',
  deployment: 'deployments',
  statefulset: 'statefulsets',
  daemonset: 'daemonsets',
  job: 'jobs',
  controllerrevision: 'controllerrevisions',
  namespace: 'namespaces',
};

/** The singular kind of a resource, as the steps write it. */
export function kindOf(resource: Resource): string {
  return Object.entries(WATCHED_KINDS).find(([, r]) => r === resource)?.[0] ?? resource;
}

export class PerturbationError extends Error {}

/**
 * A target as the steps write it: `endpointslice controller` (or its canonical name
 * `endpointslice-controller`), `kubelet on node "node-1"`, `kube-proxy on node "node-1"`,
 * `load balancer of service "web"`, `client "database-operator"` (a served client's User-Agent).
 */
export function parseTarget(text: string): Target {
  const t = text.trim().replace(/^the /, '');
  let m = /^kubelet on node "([^"]+)"$/.exec(t);
  if (m) return { kind: 'kubelet', node: m[1] };
  m = /^kube-proxy on node "([^"]+)"$/.exec(t);
  if (m) return { kind: 'kube-proxy', node: m[1] };
  m = /^load balancer of service "([^"]+)"$/.exec(t);
  if (m) return { kind: 'load-balancer', service: m[1] };
  m = /^client "([^"]+)"$/.exec(t);
  if (m) return { kind: 'client', userAgent: m[1] };
  if (t === 'scheduler' || t === 'kube-scheduler') return { kind: 'scheduler' };
  m = /^([a-z-]+?)(?:[ -]controller)?$/.exec(t);
  const word = m?.[1];
  const d =
    word === undefined
      ? undefined
      : CONTROLLERS.find((c) => c.name === `${word}-controller` || (c.aliases ?? []).includes(word));
  if (d) return { kind: 'controller', name: d.name };
  throw new PerturbationError(
    `"${text}" names no component that can be perturbed: write a controller (${CONTROLLERS.map((c) => controllerWords(c.name)).join(', ')}), kubelet on node "NAME", kube-proxy on node "NAME", load balancer of service "NAME", scheduler, or client "USER-AGENT"`,
  );
}

/** `endpointslice-controller` → `endpointslice controller`, as the steps write it. */
function controllerWords(name: string): string {
  return `${name.replace(/-controller$/, '')} controller`;
}

/** A target as the steps write it (parseTarget's inverse). */
export function describeTarget(t: Target): string {
  switch (t.kind) {
    case 'controller':
      return controllerWords(t.name);
    case 'kubelet':
      return `kubelet on node "${t.node}"`;
    case 'kube-proxy':
      return `kube-proxy on node "${t.node}"`;
    case 'load-balancer':
      return `load balancer of service "${t.service}"`;
    case 'client':
      return `client "${t.userAgent}"`;
    case 'scheduler':
      return 'scheduler';
  }
}

/** One key per target, for maps. */
export function targetKey(t: Target): string {
  return `${t.kind}:${describeTarget(t)}`;
}

/** The Given step that declares a perturbation (what `explore` writes into a reproducing feature). */
export function perturbationStep(p: Perturbation): string {
  const who = describeTarget(p.target);
  switch (p.type) {
    case 'late':
      return `Given the ${who} sees ${kindOf(p.resource)} changes ${formatDuration(p.delayMs)} late`;
    case 'restart':
      return `Given the ${who} restarts at T+${formatDuration(p.atMs)}`;
    case 'stale':
      return `Given the ${who} reads ${kindOf(p.resource)} from a cache ${formatDuration(p.staleMs)} stale`;
    case 'miss':
      return `Given the ${who} misses ${kindOf(p.resource)} changes from T+${formatDuration(p.fromMs)} until a relist at T+${formatDuration(p.relistMs)}`;
    case 'slow':
      return `Given requests of the ${who} take ${formatDuration(p.delayMs)}`;
  }
}

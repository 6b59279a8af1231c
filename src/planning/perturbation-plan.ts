import type { Cluster } from '../cluster/cluster';
import { describeTarget, perturbationStep, type Perturbation } from '../cluster/perturbation/perturbation';
import { formatDuration } from '../foundation/timeline/time';
import { listNames, PlanError } from './plan-error';
import type { ServicePlan } from './service-plan';

/**
 * A plan's perturbations (issue 33): what one component sees late, stale, or loses to a restart.
 * Checked as declared where they can be, and against the nodes and services once the plan is
 * built, so they may come before them.
 */
export class PerturbationPlan {
  /** The perturbations declared (for the report and `explore`). */
  readonly declared: Perturbation[] = [];
  /** `explore`'s unperturbed run: note what every component watches (Perturbations.watched). */
  observing = false;

  /**
   * The load balancer's lag is its own (`the load balancer of service … notices endpoint changes
   * after …`); a restart is due at T+atMs.
   */
  add(p: Perturbation, controllersOff: readonly string[]): void {
    const t = p.target;
    if (p.type === 'restart' && t.kind !== 'controller')
      throw new PlanError(
        `restarting the ${describeTarget(t)} is not modelled: only the controllers of kube-controller-manager restart (their work queues, expectations and caches lost, then a relist)`,
      );
    if (p.type === 'slow' && t.kind !== 'controller' && t.kind !== 'scheduler')
      throw new PlanError(
        `slow requests of the ${describeTarget(t)} are not modelled: only a controller of kube-controller-manager or the scheduler runs behind the apiserver here (its watches, reads and timers all go through its own connection); ${NOT_SLOW[t.kind]}`,
      );
    if (t.kind === 'load-balancer' && !(p.type === 'late' && p.resource === 'endpointslices'))
      throw new PlanError(
        `the load balancer of service "${t.service}" only watches EndpointSlices: write  Given the load balancer of service "${t.service}" sees endpointslice changes ${p.type === 'late' ? formatDuration(p.delayMs) : '2s'} late`,
      );
    if (p.type === 'miss' && p.relistMs <= p.fromMs)
      throw new PlanError(`${perturbationStep(p)}: the relist must come after the changes it missed`);
    if (t.kind === 'controller' && controllersOff.includes(t.name))
      throw new PlanError(`the ${describeTarget(t)} does not run in this scenario: it cannot be perturbed`);
    this.declared.push(p);
  }

  /** Checks the targets against what the plan built, and schedules the restarts (T+0 is `warmupMs` from now). */
  start(cluster: Cluster, warmupMs: number, nodes: readonly string[], network: ServicePlan): void {
    if (this.declared.length > 0) cluster.perturbations.startAt(cluster.clock.now() + warmupMs);
    for (const p of this.declared) {
      const t = p.target;
      if ((t.kind === 'kubelet' || t.kind === 'kube-proxy') && !nodes.includes(t.node))
        throw new PlanError(
          `${perturbationStep(p)}: unknown node "${t.node}" (nodes in this scenario: ${listNames(nodes)})`,
        );
      if (t.kind === 'kube-proxy' && network.services.size === 0)
        throw new PlanError(`${perturbationStep(p)}: no service in this scenario, so no kube-proxy runs`);
      if (t.kind === 'load-balancer') {
        network.knownService(t.service);
        if (p.type === 'late') network.lbLags.set(t.service, Math.max(network.lbLags.get(t.service) ?? 0, p.delayMs));
      }
      if (p.type === 'restart') cluster.clock.after(warmupMs + p.atMs, () => cluster.restart(t));
    }
  }
}

/** Why the other components' requests cannot be slowed (yet). */
const NOT_SLOW: Record<Exclude<Perturbation['target']['kind'], 'controller' | 'scheduler'>, string> = {
  kubelet: "the kubelet's work is driven by its machine (containers, PLEG) on the cluster's clock",
  'kube-proxy': 'kube-proxy only reads (use: sees endpointslice changes … late)',
  'load-balancer': 'a load balancer only reads (use: sees endpointslice changes … late)',
  client: "a served client's HTTP requests are answered when they arrive",
};

import type { ApiServer } from '../../apiserver/apiserver';
import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { PodGCConfig } from './pod-gc';
import type { EndpointsConfig } from './endpoint/endpoints-controller';
import type { EndpointSliceConfig } from './endpointslice/endpointslice-controller';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { SharedInformerFactory } from '../../client/informer';

/** What every controller is given at start (upstream: controllercontext.ControllerContext). */
export interface ControllerContext {
  readonly clock: Clock;
  readonly timeline: Timeline;
  readonly api: ApiServer;
  /** The shared informers of kube-controller-manager: one watch per kind for every controller. */
  readonly informers: SharedInformerFactory;
  /** The kube-controller-manager release modelled (and its feature gates). */
  readonly release: Release;
  /** The per-controller settings of kube-controller-manager's component config (flags such as --terminated-pod-gc-threshold). */
  readonly config: ControllerConfig;
}

/** kube-controller-manager's component config, one entry per controller that has settings. */
export interface ControllerConfig {
  readonly podGC: PodGCConfig;
  /** --endpointslice-updates-batch-period, --max-endpoints-per-slice (defaults when absent). */
  readonly endpointSlice?: EndpointSliceConfig;
  /** --endpoint-updates-batch-period (default when absent). */
  readonly endpoints?: EndpointsConfig;
}

/**
 * One controller of kube-controller-manager (cmd/kube-controller-manager/app: ControllerDescriptor):
 * its canonical name (names/controller_names.go, what `--controllers` takes), the older names it
 * still answers to, and its start function. A controller built with `start` registers its informer
 * handlers there; the manager starts the informers once every enabled controller has.
 */
export interface ControllerDescriptor {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Builds and starts the controller; returns it, for tests and steps that reach into it. */
  start(ctx: ControllerContext): object;
}

/**
 * `--controllers` (cmd/kube-controller-manager/app/options: KubeControllerManagerOptions.Controllers,
 * IsControllerEnabled): `*` turns on every controller, `NAME` one, `-NAME` turns one off; the last
 * word naming a controller wins over `*`. Names and aliases both work.
 */
export function isControllerEnabled(descriptor: ControllerDescriptor, controllers: readonly string[]): boolean {
  const names = [descriptor.name, ...(descriptor.aliases ?? [])];
  let enabled = false;
  for (const word of controllers) {
    if (names.includes(word)) return true;
    if (word.startsWith('-') && names.includes(word.slice(1))) return false;
    if (word === '*') enabled = true;
  }
  return enabled;
}

/** A `--controllers` word that names no controller: one message listing the known names. */
export function checkControllerNames(
  descriptors: readonly ControllerDescriptor[],
  controllers: readonly string[],
): void {
  const known = new Set(descriptors.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
  for (const word of controllers) {
    const name = word.startsWith('-') ? word.slice(1) : word;
    if (word !== '*' && !known.has(name)) {
      throw new Error(`"${word}" is not a known controller; known: ${descriptors.map((d) => d.name).join(', ')}`);
    }
  }
}

/**
 * kube-controller-manager's StartControllers: each enabled controller in registration order, then
 * the shared informers (informerFactory.Start), so that every handler sees every object.
 */
export function startControllers(
  descriptors: readonly ControllerDescriptor[],
  controllers: readonly string[],
  ctx: ControllerContext,
  contextOf: (name: string) => ControllerContext = () => ctx,
): Map<string, object> {
  checkControllerNames(descriptors, controllers);
  const started = new Map<string, object>();
  // A controller may have a context of its own (a perturbed one, src/cluster/perturbation/): its informers start with the others.
  const factories = new Set([ctx.informers]);
  for (const d of descriptors) {
    if (!isControllerEnabled(d, controllers)) continue;
    const own = contextOf(d.name);
    factories.add(own.informers);
    started.set(d.name, d.start(own));
  }
  for (const f of factories) f.start();
  return started;
}

import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import type { ApiClient } from '../../client/client';
import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { PodGCConfig } from './pod-gc';
import type { EndpointsConfig } from './endpoint/endpoints-controller';
import type { EndpointSliceConfig } from './endpointslice/endpointslice-controller';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { SharedInformerFactory } from '../../client/informer';
import type { Resource } from '../../apiserver/apiserver';
import type { KubeObject } from '../../apimachinery/object';

/** What every controller is given at start (upstream: controllercontext.ControllerContext). */
export interface ControllerContext {
  readonly clock: Clock;
  readonly timeline: Timeline;
  readonly api: ApiServer;
  /**
   * A client of `api` bound to one controller's identity: its writes go out as that controller
   * (upstream: ControllerContext.ClientBuilder.ClientOrDie("replicaset-controller"), a clientset
   * per controller with its own service account and user agent).
   */
  clientFor(identity: ClientIdentity): ApiClient;
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
  /**
   * The objects the controller acts on, when it does nothing observable until one exists: it
   * starts when the first of them reaches kube-controller-manager's informers (or when a step
   * asks for it), not with the manager — a scenario without Deployments does not pay for the
   * Deployment controller. Absent: it starts with the manager (its work does not wait for an
   * object of its own: the garbage collector's and pod GC's periodic syncs, node lifecycle's
   * monitor). Upstream starts every controller at once; its informers are created on first use
   * (informers.SharedInformerFactory InformerFor), which is what a scenario's cost follows here.
   */
  readonly startsOn?: readonly StartTrigger[];
}

/** A kind whose first object (that `matches`, when given) starts a lazily started controller. */
export interface StartTrigger {
  readonly resource: Resource;
  readonly matches?: (obj: KubeObject) => boolean;
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
  // Built only for a word other than `*`: every scenario's cluster passes `['*']`.
  let known: Set<string> | undefined;
  for (const word of controllers) {
    if (word === '*') continue;
    known ??= new Set(descriptors.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
    const name = word.startsWith('-') ? word.slice(1) : word;
    if (!known.has(name)) {
      throw new Error(`"${word}" is not a known controller; known: ${descriptors.map((d) => d.name).join(', ')}`);
    }
  }
}

/**
 * kube-controller-manager's StartControllers: each enabled controller in registration order, then
 * the shared informers (informerFactory.Start), so that every handler sees every object. A
 * controller with `startsOn` waits for its first object (see ControllerDescriptor.startsOn);
 * whenever it starts, its handlers run in its place of the registration order
 * (SharedInformerFactory.registering), so the timeline is the one of a manager that started
 * everything at once.
 */
export class ControllerManager {
  /** The controllers started, by canonical name. */
  private readonly running = new Map<string, object>();
  /** The enabled controllers still waiting for their first object: how to start each now, and to stop waiting. */
  private readonly waiting = new Map<string, { start: () => object; drop: () => void }>();

  constructor(
    private readonly descriptors: readonly ControllerDescriptor[],
    controllers: readonly string[],
    ctx: ControllerContext,
    contextOf: (name: string) => ControllerContext = () => ctx,
  ) {
    checkControllerNames(descriptors, controllers);
    // A controller may have a context of its own (a perturbed one, src/cluster/perturbation/): its informers start with the others.
    const factories = new Set([ctx.informers]);
    descriptors.forEach((d, i) => {
      if (!isControllerEnabled(d, controllers)) return;
      const own = contextOf(d.name);
      factories.add(own.informers);
      // Rank 0 is kube-scheduler's, which registers on the same informers before the controllers.
      const start = (): object => {
        const c = own.informers.registering(i + 1, () => d.start(own));
        this.running.set(d.name, c);
        return c;
      };
      const triggers = d.startsOn;
      // A controller with informers of its own (a perturbed one) starts at once: its watches open with the others'.
      if (!triggers || own !== ctx) {
        start();
        return;
      }
      const drop = (): void => {
        this.waiting.delete(d.name);
        for (const t of triggers) own.informers.informerFor(t.resource).dropTrigger(fire);
      };
      const fire = (): object => {
        if (!this.waiting.has(d.name)) return this.running.get(d.name)!;
        drop();
        return start();
      };
      this.waiting.set(d.name, { start: fire, drop });
      for (const t of triggers) own.informers.informerFor(t.resource).beforeFirst(t.matches ?? always, fire);
    });
    for (const f of factories) f.start();
  }

  /** Whether `name` is enabled: running, or waiting for its first object. */
  has(name: string): boolean {
    return this.running.has(name) || this.waiting.has(name);
  }

  /** The enabled controllers' names, in registration order (running or waiting). */
  keys(): string[] {
    return this.descriptors.map((d) => d.name).filter((n) => this.has(n));
  }

  /** A controller instance started outside the manager's own start (a restart, a start after a stop). */
  set(name: string, controller: object): void {
    this.waiting.get(name)?.drop();
    this.running.set(name, controller);
  }

  /** The controller, started now if it was waiting for its first object (a step reaches into it). */
  get(name: string): object | undefined {
    return this.running.get(name) ?? this.waiting.get(name)?.start();
  }

  /** A controller that will not start by itself any more (stopped, or replaced by another instance). */
  forget(name: string): void {
    this.running.delete(name);
    this.waiting.get(name)?.drop();
  }
}

const always = (): boolean => true;

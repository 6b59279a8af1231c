import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { EndpointSlice, Pod, Service } from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { keyOf, splitKey, type SharedInformer } from '../../../client/informer';
import { podInformer, type PodInformer } from '../../../client/pod-informer';
import { ServiceSelectorCache } from '../service-selector-cache';
import { WorkQueue } from '../../../client/workqueue';
import { reconcile, RECONCILER_SOURCE, type EndpointChange } from './reconciler';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../helpers/well-known';
import { CONTROLLER_NAME, describeConditions, MAX_ENDPOINTS_PER_SLICE, podEndpointChanged } from './utils';

const SOURCE = 'pkg/controller/endpointslice/endpointslice_controller.go';
const IDENTITY: ClientIdentity = { name: 'endpointslice-controller', component: 'endpointslice' };

export interface EndpointSliceConfig {
  /** --endpointslice-updates-batch-period (default 0): a pod change is synced after this delay, so changes within it are batched. */
  endpointUpdatesBatchPeriodMs: number;
  /** --max-endpoints-per-slice (default 100). */
  maxEndpointsPerSlice: number;
}

export const DEFAULT_ENDPOINTSLICE_CONFIG: EndpointSliceConfig = {
  endpointUpdatesBatchPeriodMs: 0,
  maxEndpointsPerSlice: MAX_ENDPOINTS_PER_SLICE,
};

/** How one endpoint change reads on the timeline: `web-1 ready=false serving=true terminating=true`, or `web-1 removed`. */
export function describeChange(c: EndpointChange): string {
  return c.endpoint ? `${c.pod} ${describeConditions(c.endpoint)}` : `${c.pod} removed`;
}

/**
 * The EndpointSlice controller (pkg/controller/endpointslice): services, pods and slices through
 * the shared informers; event handlers only queue service keys — a service change at once
 * (onServiceUpdate), a pod change that matters to its endpoints after the batch period
 * (updatePod → queue.AddAfter), a managed slice deleted by someone else at once — and syncService
 * reconciles the service's slices (reconciler.go). Every write is one timeline event naming the
 * endpoints it changed and their conditions (`updated web-abcde: web-1 ready=false serving=true
 * terminating=true`).
 */
export class EndpointSliceController extends ControllerBase {
  readonly queue: WorkQueue;
  private readonly services: SharedInformer<Service>;
  private readonly slices: SharedInformer<EndpointSlice>;
  private readonly pods: PodInformer;
  private readonly selectorCache: ServiceSelectorCache;
  /** Slices by owning service key (the slice lister's label selection, kept as an index). */
  private readonly slicesByService = new Map<string, Map<string, EndpointSlice>>();

  /** --endpointslice-updates-batch-period, --max-endpoints-per-slice (the component config's, or the defaults). */
  readonly config: EndpointSliceConfig;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.config = ctx.config.endpointSlice ?? DEFAULT_ENDPOINTSLICE_CONFIG;
    const pods = podInformer(informers);
    this.pods = pods;
    this.services = informers.informerFor('services');
    this.slices = informers.informerFor('endpointslices');
    this.selectorCache = new ServiceSelectorCache((ns) => pods.list(ns));
    this.queue = new WorkQueue(clock, (key) => this.syncService(key));
  }

  /** The handlers: services, the pods they select, and the slices this controller manages. */
  start(): this {
    this.services.addEventHandler((key, _old, svc) => {
      this.selectorCache.serviceChanged(key, svc);
      this.queue.add(key);
    });
    this.pods.addEventHandler((key, old, pod) => this.onPodChange(key, old, pod));
    this.slices.addEventHandler((key, old, slice) => this.onSliceChange(key, old, slice));
    return this;
  }

  /** addPod / updatePod / deletePod: the services whose endpoints the change touches, after the batch period. */
  private onPodChange(key: string, old: Pod | undefined, pod: Pod | undefined): void {
    const services = this.selectorCache.podChanged(key, old, pod);
    if (services.length === 0) return;
    if (old && pod && !podEndpointChanged(old, pod)) return;
    for (const svc of services) this.queue.addAfter(svc, this.config.endpointUpdatesBatchPeriodMs);
  }

  /** The slice index by service; a managed slice deleted by someone else brings its service back (onEndpointSliceDelete). */
  private onSliceChange(key: string, old: EndpointSlice | undefined, slice: EndpointSlice | undefined): void {
    const s = (slice ?? old)!;
    if (s.metadata.labels?.[LABEL_MANAGED_BY] !== CONTROLLER_NAME) return;
    const svc = `${s.metadata.namespace}/${s.metadata.labels?.[LABEL_SERVICE_NAME] ?? ''}`;
    let owned = this.slicesByService.get(svc);
    if (!owned) this.slicesByService.set(svc, (owned = new Map()));
    if (slice) {
      // An event older than what this controller wrote itself (remember) does not move the cache back.
      const known = owned.get(key);
      if (!known || Number(slice.metadata.resourceVersion) >= Number(known.metadata.resourceVersion))
        owned.set(key, slice);
    } else {
      owned.delete(key);
      if (!this.pendingDeletes.delete(key)) this.queue.add(svc);
    }
  }

  /** Slices this controller deleted itself, whose DELETED event needs no resync. */
  private readonly pendingDeletes = new Set<string>();

  /**
   * syncService: a deleted service's slices are left to the garbage collector (their
   * ownerReference); a service without a selector is not managed; otherwise the slices are
   * reconciled with the pods the selector picks.
   */
  syncService(key: string): void | Error {
    const svc = this.services.get(key);
    if (!svc || !svc.spec?.selector) return;
    const { namespace } = splitKey(key);
    const existing = [...(this.slicesByService.get(key)?.values() ?? [])].filter((s) =>
      s.metadata.ownerReferences?.some((o) => o.uid === svc.metadata.uid && o.kind === 'Service'),
    );
    existing.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const result = reconcile(
      svc,
      this.selectorCache.podsOf(key),
      existing,
      this.config.maxEndpointsPerSlice,
      this.release.has('EndpointSliceFindPortSidecars'),
    );
    let failed: Error | undefined;
    for (const { slice, changes } of result.create) {
      const r = this.client.create('endpointslices', namespace, slice);
      if (!r.ok) failed = new Error(r.status.message);
      else {
        this.remember(key, r.object);
        this.record(`created ${r.object.metadata.name}`, changes, 'reconcile → finalize (create)');
      }
    }
    for (const { slice, changes } of result.update) {
      const r = this.client.update('endpointslices', namespace, slice);
      if (!r.ok) failed = new Error(r.status.message);
      else {
        this.remember(key, r.object);
        this.record(`updated ${slice.metadata.name}`, changes, 'reconcile → finalize (update)');
      }
    }
    for (const slice of result.delete) {
      this.pendingDeletes.add(keyOf(slice));
      const r = this.client.delete('endpointslices', namespace, slice.metadata.name!);
      if (!r.ok) {
        this.pendingDeletes.delete(keyOf(slice));
        if (r.code !== 404) failed = new Error(r.status.message);
      } else {
        this.slicesByService.get(key)?.delete(keyOf(slice));
        this.record(
          `deleted ${slice.metadata.name}`,
          (slice.endpoints ?? []).map((ep) => ({ pod: ep.targetRef?.name ?? ep.addresses[0] })),
          'reconcile → finalize (delete)',
        );
      }
    }
    return failed;
  }

  /**
   * The endpointSliceTracker's part: what this controller just wrote is what its next sync starts
   * from, even before the slice informer has seen it (else a second sync in the same instant would
   * create the slice twice).
   */
  private remember(svcKey: string, slice: EndpointSlice): void {
    let owned = this.slicesByService.get(svcKey);
    if (!owned) this.slicesByService.set(svcKey, (owned = new Map()));
    owned.set(keyOf(slice), slice);
  }

  private record(what: string, changes: readonly EndpointChange[], fn: string): void {
    const text = changes.length > 0 ? `${what}: ${changes.map(describeChange).join(', ')}` : `${what} (no endpoints)`;
    this.timeline.record('endpointslice', text, `${SOURCE} syncService → ${RECONCILER_SOURCE} ${fn}`, {
      actor: IDENTITY.name,
    });
  }
}

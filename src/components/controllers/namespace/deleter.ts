import type { ApiResponse, ApiServer, Resource } from '../../../apiserver/apiserver';
import type { ApiClient } from '../../../client/client';
import { fromTime, toTime, type KubeObject } from '../../../apimachinery/object';
import { FINALIZER_KUBERNETES } from '../../../apiserver/namespace-strategy';
import type { Namespace, Pod } from '../../../apimachinery/types';
import type { Release } from '../../../foundation/release';
import type { Timeline } from '../../../foundation/timeline/timeline';
import { NamespaceConditionUpdater, type ContentTotals } from './conditions';

export const DELETER_SOURCE = 'pkg/controller/namespace/deletion/namespaced_resources_deleter.go';

/** finalizerEstimateSeconds: the wait assumed for content held only by finalizers. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** ResourcesRemainingError: content is still going away; the controller looks again after about half the estimate. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

/** A write or read of the deleter that failed: its Status message is the error's. */
class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function ok<T>(r: ApiResponse<T>): T {
  if (!r.ok) throw new RequestError(r.code, r.status.message);
  return r.object;
}

/** GroupVersionResource.String(): "/v1, Resource=pods", "apps/v1, Resource=replicasets". */
function gvrString(apiVersion: string, resource: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Resource=${resource}`;
}

/** resource.group as the ContentRemaining message names it: "pods.", "replicasets.apps". */
function groupResource(apiVersion: string, resource: string): string {
  // A custom resource is keyed plural.group already (databases.example.com): GroupResource.String() names it once.
  if (resource.includes('.')) return resource;
  return `${resource}.${apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''}`;
}

/** gvrDeletionMetadata: the estimate for one resource, and what of it remains, by finalizer. */
interface Remaining {
  estimate: number;
  count: number;
  byFinalizer: Map<string, number>;
}

/**
 * namespacedResourcesDeleter (C10–C12): empties a deleting namespace, then removes the `kubernetes`
 * finalizer from its spec (namespaces/finalize), after which the apiserver removes it. Every pass:
 * the namespace is read fresh; for each namespaced resource the apiserver serves (its discovery),
 * the pods' graceful estimate (the longest terminationGracePeriodSeconds of pods not terminal,
 * unless that long has passed since the namespace's deletionTimestamp), a DELETECOLLECTION with
 * propagationPolicy Background (pods are deleted gracefully), and a LIST of what remains. With
 * OrderedNamespaceDeletion (on from v1.33) pods go first: nothing else is deleted while a pod
 * remains. The conditions are written to the namespace's status whenever they change.
 */
export class NamespacedResourcesDeleter {
  constructor(
    private readonly api: ApiServer,
    /** The namespace controller's own client, for its writes. */
    private readonly client: ApiClient,
    private readonly timeline: Timeline,
    private readonly release: Release,
    private readonly now: () => number,
  ) {}

  /** Delete: undefined when done (or nothing to do); a ResourcesRemainingError, or another error, to retry. */
  delete(name: string): Error | undefined {
    try {
      const got = this.api.get('namespaces', undefined, name);
      if (!got.ok) return got.code === 404 ? undefined : new RequestError(got.code, got.status.message);
      let ns = got.object;
      if (ns.metadata.deletionTimestamp === undefined) return undefined;
      // updateNamespaceStatusFunc: a deleting namespace is Terminating (the apiserver set it already).
      if (ns.status?.phase !== 'Terminating')
        ns = ok(
          this.client.update(
            'namespaces',
            undefined,
            { ...ns, status: { ...ns.status, phase: 'Terminating' } },
            { subresource: 'status' },
          ),
        );
      if ((ns.spec?.finalizers ?? []).length === 0 || !(ns.spec?.finalizers ?? []).includes(FINALIZER_KUBERNETES))
        return undefined;
      const { estimate, errors } = this.deleteAllContent(ns);
      if (errors.length > 0) return new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      if (estimate > 0) return new ResourcesRemainingError(estimate);
      this.timeline.record(
        'namespace',
        `namespace ${name} is empty: finalize (remove ${FINALIZER_KUBERNETES} from spec.finalizers)`,
        `${DELETER_SOURCE} finalizeNamespace`,
        { actor: this.client.identity.name },
      );
      // retryOnConflictError(finalizeNamespace): a conflict (the status was just written) reads the namespace again and retries.
      for (let latest = ns; ; ) {
        const finalizers = [
          ...new Set((latest.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES)),
        ].sort();
        const r = this.client.update(
          'namespaces',
          undefined,
          { ...latest, spec: { ...latest.spec, finalizers } },
          { subresource: 'finalize' },
        );
        if (r.ok || r.code === 404) return undefined;
        if (r.code !== 409) return new RequestError(r.code, r.status.message);
        const again = this.api.get('namespaces', undefined, name);
        if (!again.ok) return again.code === 404 ? undefined : new RequestError(again.code, again.status.message);
        latest = again.object;
      }
    } catch (e) {
      if (e instanceof RequestError) return e;
      throw e;
    }
  }

  /** deleteAllContent: the resources in turn (pods first with OrderedNamespaceDeletion); the estimate and the errors; the conditions written. */
  private deleteAllContent(ns: Namespace): { estimate: number; errors: string[] } {
    const namespace = ns.metadata.name!;
    const deletedAt = fromTime(ns.metadata.deletionTimestamp!);
    const conditions = new NamespaceConditionUpdater();
    const errors: string[] = [];
    const totals: ContentTotals = { byResource: new Map(), byFinalizer: new Map() };
    let estimate = 0;
    const resources = this.api.namespacedResources();
    const pass = (list: typeof resources) => {
      for (const { resource, apiVersion } of list) {
        const r = this.deleteAllContentForGroupVersionResource(resource, apiVersion, namespace, deletedAt);
        if (r.error) {
          errors.push(r.error);
          conditions.processDeleteContentErr(r.error);
        }
        estimate = Math.max(estimate, r.remaining.estimate);
        if (r.remaining.count > 0) {
          totals.byResource.set(groupResource(apiVersion, resource), r.remaining.count);
          for (const [f, n] of r.remaining.byFinalizer) totals.byFinalizer.set(f, (totals.byFinalizer.get(f) ?? 0) + n);
        }
      }
    };
    const ordered = this.release.enabled('OrderedNamespaceDeletion');
    if (ordered) {
      pass(resources.filter((r) => r.resource === 'pods'));
      if (totals.byResource.size > 0) {
        this.timeline.record(
          'namespace',
          `namespace ${namespace}: pods remain, the rest waits (OrderedNamespaceDeletion)`,
          `${DELETER_SOURCE} deleteAllContent`,
          { actor: this.client.identity.name },
        );
        conditions.processContentTotals(totals);
        this.writeConditions(ns, conditions);
        return { estimate, errors };
      }
    }
    pass(resources);
    conditions.processContentTotals(totals);
    this.writeConditions(ns, conditions);
    const left = [...totals.byResource].map(([r, n]) => `${r} ${n}`).join(', ');
    if (left || estimate > 0)
      this.timeline.record(
        'namespace',
        `namespace ${namespace}: content remains (${left || 'none listed'}), estimate ${estimate}s`,
        `${DELETER_SOURCE} deleteAllContent`,
        { actor: this.client.identity.name },
      );
    return { estimate, errors };
  }

  /** conditionUpdater.Update, then UpdateStatus when a condition changed (a failed write is only logged upstream). */
  private writeConditions(ns: Namespace, updater: NamespaceConditionUpdater): void {
    const { conditions, changed } = updater.update(ns, toTime(this.now()));
    if (changed)
      this.client.update(
        'namespaces',
        undefined,
        { ...ns, status: { ...ns.status, conditions } },
        { subresource: 'status' },
      );
  }

  /** deleteAllContentForGroupVersionResource: estimate, DELETECOLLECTION, then what remains (C11). */
  private deleteAllContentForGroupVersionResource(
    resource: Resource,
    apiVersion: string,
    namespace: string,
    deletedAt: number,
  ): { remaining: Remaining; error?: string } {
    let estimate = 0;
    if (resource === 'pods') {
      // estimateGracefulTerminationForPods, then: no estimate once that long has passed since the namespace's deletion.
      const pods = this.api.list('pods', namespace);
      if (!pods.ok) return { remaining: { estimate, count: 0, byFinalizer: new Map() }, error: pods.status.message };
      for (const pod of pods.object.items as Pod[]) {
        const phase = pod.status?.phase;
        if (phase === 'Succeeded' || phase === 'Failed') continue;
        estimate = Math.max(estimate, pod.spec?.terminationGracePeriodSeconds ?? 0);
      }
      if (this.now() - deletedAt >= estimate * 1000) estimate = 0;
    }
    const deleted = this.client.deleteCollection(resource, namespace, { propagationPolicy: 'Background' });
    if (!deleted.ok)
      return { remaining: { estimate, count: 0, byFinalizer: new Map() }, error: deleted.status.message };
    const list = this.api.list(resource, namespace);
    if (!list.ok) return { remaining: { estimate, count: 0, byFinalizer: new Map() }, error: list.status.message };
    const items = list.object.items as KubeObject[];
    const byFinalizer = new Map<string, number>();
    for (const item of items)
      for (const f of item.metadata.finalizers ?? []) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + 1);
    if (estimate !== 0 || items.length === 0) return { remaining: { estimate, count: items.length, byFinalizer } };
    // Content held by finalizers: a default estimate for the garbage collector (or whoever) to finish.
    if (byFinalizer.size > 0)
      return { remaining: { estimate: FINALIZER_ESTIMATE_SECONDS, count: items.length, byFinalizer } };
    return {
      remaining: { estimate, count: items.length, byFinalizer },
      error: `unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(apiVersion, resource)}`,
    };
  }
}

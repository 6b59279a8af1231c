import type { ApiServer, ClientIdentity } from '../apiserver';
import { jsonEqual, toTime } from '../../apimachinery/object';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { CustomResource } from './served-resources';
import {
  CUSTOM_RESOURCE_CLEANUP_FINALIZER,
  isConditionTrue,
  setCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
} from './types';

export const FINALIZER_SOURCE = 'staging/src/k8s.io/apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go';

/** deleteInstances' wait.PollUntilContextTimeout: every 5 s (the first at once), for at most a minute. */
export const INSTANCE_POLL_INTERVAL_MS = 5000;
export const INSTANCE_POLL_TIMEOUT_MS = 60_000;

/**
 * CRDFinalizer (pkg/controller/finalizer): a CRD with a deletionTimestamp and the
 * customresourcecleanup.apiextensions.k8s.io finalizer is emptied, then released.
 * 1. UpdateStatus: Terminating=True InstanceDeletionInProgress "CustomResource deletion is in progress".
 * 2. If it was Established: every namespace that holds instances gets one DeleteCollection, straight
 *    on the storage (no admission, no options: no grace, background propagation); then the
 *    instances are listed at once and every 5 s until none is left — finalizers of their own hold
 *    them — for at most a minute. Left over after it: Terminating=True InstanceDeletionCheck "could
 *    not confirm zero CustomResources remaining: context deadline exceeded" is written and the sync
 *    fails, to be retried with the queue's back-off. Never established: Terminating=False
 *    NeverEstablished "resource was never established".
 * 3. Terminating=False InstanceDeletionCompleted "removed all instances", and the finalizer is
 *    removed, through UpdateStatus too (the status strategy takes the metadata as sent); with no
 *    finalizer left the CRD leaves storage.
 * The sync blocks its worker while it polls; here the key waits in `polling` and nothing else is
 * done for it meanwhile.
 */
export class CRDFinalizer {
  private readonly queue: WorkQueue;
  private readonly polling = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    private readonly crds: SharedInformer<CustomResourceDefinition>,
    private readonly identity: ClientIdentity,
  ) {
    this.queue = new WorkQueue(clock, (key) => this.sync(key));
    crds.addEventHandler((key, old, crd) => {
      if (
        !crd?.metadata.deletionTimestamp ||
        !(crd.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)
      )
        return;
      // updateCustomResourceDefinition: a change of nothing but the Terminating condition (its own writes) is not queued.
      if (
        old &&
        old.metadata.resourceVersion !== crd.metadata.resourceVersion &&
        jsonEqual(withoutTerminating(old), withoutTerminating(crd))
      )
        return;
      this.queue.add(key);
    });
  }

  private sync(key: string): void | Error {
    if (this.polling.has(key)) return;
    const cached = this.crds.get(key);
    if (
      !cached?.metadata.deletionTimestamp ||
      !(cached.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)
    )
      return;
    const r = this.updateStatus(cached, {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    });
    if (!r.ok) return r.code === 404 || r.code === 409 ? undefined : new Error(r.message);
    const crd = r.crd;
    if (!isConditionTrue(crd, 'Established'))
      return this.finish(crd, {
        type: 'Terminating',
        status: 'False',
        reason: 'NeverEstablished',
        message: 'resource was never established',
      });
    const resource = key as CustomResource;
    const namespaces = new Set<string | undefined>(this.instances(resource).map((o) => o.metadata.namespace));
    for (const namespace of namespaces) {
      const d = this.api.deleteCollection(this.identity, resource, namespace, { gracePeriodSeconds: 0 }, undefined, {
        admission: false,
      });
      if (!d.ok) {
        const failed = this.updateStatus(crd, {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionFailed',
          message: `could not issue all deletes: ${d.status.message}`,
        });
        return new Error(failed.ok ? d.status.message : failed.message);
      }
    }
    this.polling.set(key, this.clock.now() + INSTANCE_POLL_TIMEOUT_MS);
    this.poll(key, crd);
  }

  /** One check of the wait: none left finishes; at the deadline the sync fails; otherwise again in 5 s. */
  private poll(key: string, crd: CustomResourceDefinition): void {
    const left = this.instances(key as CustomResource).length;
    const deadline = this.polling.get(key)!;
    if (left === 0) {
      this.polling.delete(key);
      this.finish(newer(this.crds.get(key), crd), {
        type: 'Terminating',
        status: 'False',
        reason: 'InstanceDeletionCompleted',
        message: 'removed all instances',
      });
      return;
    }
    if (this.clock.now() + INSTANCE_POLL_INTERVAL_MS > deadline) {
      this.polling.delete(key);
      this.timeline.record(
        'apiserver',
        `CRDFinalizer ${key}: ${left} instance${left === 1 ? '' : 's'} remaining after ${INSTANCE_POLL_TIMEOUT_MS / 1000}s; retried with back-off`,
        `${FINALIZER_SOURCE} deleteInstances`,
        { actor: this.identity.name },
      );
      this.updateStatus(newer(this.crds.get(key), crd), {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionCheck',
        message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
      });
      this.queue.addRateLimited(key);
      return;
    }
    this.clock.after(INSTANCE_POLL_INTERVAL_MS, () => this.poll(key, crd));
  }

  private instances(resource: CustomResource) {
    const list = this.api.list(resource, undefined);
    return list.ok ? list.object.items : [];
  }

  /** The last UpdateStatus: the final condition and the finalizer removed. */
  private finish(crd: CustomResourceDefinition, condition: CustomResourceDefinitionCondition): void | Error {
    const next: CustomResourceDefinition = {
      ...crd,
      metadata: {
        ...crd.metadata,
        finalizers: (crd.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER),
      },
      status: { ...crd.status },
    };
    const r = this.updateStatus(next, condition);
    if (!r.ok && r.code !== 404 && r.code !== 409) return new Error(r.message);
  }

  private updateStatus(
    crd: CustomResourceDefinition,
    condition: CustomResourceDefinitionCondition,
  ): { ok: true; crd: CustomResourceDefinition } | { ok: false; code: number; message: string } {
    const next: CustomResourceDefinition = { ...crd, metadata: { ...crd.metadata }, status: { ...crd.status } };
    setCondition(next, condition, toTime(this.clock.now()));
    const r = this.api.update(this.identity, 'customresourcedefinitions', undefined, next, { subresource: 'status' });
    return r.ok ? { ok: true, crd: r.object } : { ok: false, code: r.code, message: r.status.message };
  }
}

/** The fresher of the lister's copy and the one the last UpdateStatus answered (the watch may not have brought it yet). */
function newer(
  listed: CustomResourceDefinition | undefined,
  written: CustomResourceDefinition,
): CustomResourceDefinition {
  return listed && Number(listed.metadata.resourceVersion) > Number(written.metadata.resourceVersion)
    ? listed
    : written;
}

function withoutTerminating(crd: CustomResourceDefinition): unknown {
  const { resourceVersion: _rv, ...metadata } = crd.metadata;
  return {
    ...crd,
    metadata,
    status: { ...crd.status, conditions: (crd.status?.conditions ?? []).filter((c) => c.type !== 'Terminating') },
  };
}

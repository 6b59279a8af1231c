import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { Namespace } from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import type { SharedInformer } from '../../../client/informer';
import { DefaultControllerRateLimiter, WorkQueue } from '../../../client/workqueue';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter';

const SOURCE = 'pkg/controller/namespace/namespace_controller.go';
const IDENTITY: ClientIdentity = { name: 'namespace-controller', component: 'namespace' };

/** namespaceDeletionGracePeriod: a deleting namespace is looked at 5 s after the event (admission caches, pods already terminating). */
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5000;

/**
 * The namespace controller (pkg/controller/namespace, C10–C12): every namespace update that shows a
 * deletionTimestamp queues it 5 s later; the sync runs the namespaced resources deleter. While
 * content remains it looks again after estimate/2 + 1 seconds (the worker's ResourcesRemainingError
 * branch); other errors are retried through its rate limiter (5 ms doubling to 60 s, 10 qps).
 */
export class NamespaceController extends ControllerBase {
  private readonly queue: WorkQueue;
  private readonly namespaces: SharedInformer<Namespace>;
  private readonly deleter: NamespacedResourcesDeleter;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.namespaces = ctx.informers.informerFor('namespaces');
    this.deleter = new NamespacedResourcesDeleter(ctx.api, this.client, ctx.timeline, ctx.release, () =>
      ctx.clock.now(),
    );
    // nsControllerRateLimiter: per item 5 ms to 60 s, overall 10 qps with a burst of 100.
    this.queue = new WorkQueue(
      ctx.clock,
      (key) => this.syncNamespaceFromKey(key),
      new DefaultControllerRateLimiter(ctx.clock, { baseDelayMs: 5, maxDelayMs: 60_000, qps: 10, burst: 100 }),
    );
  }

  /** enqueueNamespace on add and update: only a namespace that is being deleted. */
  start(): this {
    this.namespaces.addEventHandler((key, _old, ns) => {
      if (ns?.metadata.deletionTimestamp) this.queue.addAfter(key, NAMESPACE_DELETION_GRACE_PERIOD_MS);
    });
    return this;
  }

  /** syncNamespaceFromKey → Delete; the worker's requeue for content that remains. */
  private syncNamespaceFromKey(key: string): void | Error {
    if (!this.namespaces.get(key)) return;
    const err = this.deleter.delete(key);
    if (err instanceof ResourcesRemainingError) {
      const seconds = Math.floor(err.estimate / 2) + 1;
      this.timeline.record(
        'namespace',
        `namespace ${key}: content remaining, estimate ${err.estimate}s: sync again in ${seconds}s`,
        `${SOURCE} worker (ResourcesRemainingError)`,
        { actor: IDENTITY.name },
      );
      this.queue.addAfter(key, seconds * 1000);
      return;
    }
    if (err)
      this.timeline.record('namespace', `namespace ${key}: ${err.message}; retried with back-off`, `${SOURCE} worker`, {
        actor: IDENTITY.name,
      });
    return err;
  }
}

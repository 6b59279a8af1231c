import type { ClientIdentity } from '../../../apiserver/apiserver';
import type { Namespace, ServiceAccount } from '../../../apimachinery/types';
import type { SharedInformer } from '../../../client/informer';
import { WorkQueue } from '../../../client/workqueue';
import type { ControllerContext } from '../controller-manager';
import { StoppableController } from '../stoppable';

const SOURCE = 'pkg/controller/serviceaccount/serviceaccounts_controller.go';
const IDENTITY: ClientIdentity = { name: 'service-account-controller', component: 'controller' };
/** DefaultServiceAccountsControllerOptions: the ServiceAccounts every namespace gets. */
const SERVICE_ACCOUNTS = ['default'];

/**
 * R246 — the serviceaccounts controller of kube-controller-manager (ServiceAccountsController):
 * every active namespace gets a ServiceAccount `default`; a namespace added or updated is synced,
 * and so is the namespace of a `default` ServiceAccount that is deleted (it is made again). A
 * namespace that is being deleted gets none (syncNamespace skips a non-Active phase). A failed
 * create is retried through the queue's rate limiter; AlreadyExists is success.
 */
export class ServiceAccountsController extends StoppableController {
  readonly queue: WorkQueue;
  private readonly namespaces: SharedInformer<Namespace>;
  private readonly accounts: SharedInformer<ServiceAccount>;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    this.queue = new WorkQueue(ctx.clock, (key) => this.syncNamespace(key));
    this.namespaces = ctx.informers.informerFor('namespaces');
    this.accounts = ctx.informers.informerFor('serviceaccounts');
  }

  start(): this {
    // namespaceAdded / namespaceUpdated: the namespace's name is the key.
    this.namespaces.addEventHandler(this.whileRunning((_key, _old, ns) => ns && this.queue.add(ns.metadata.name!)));
    // serviceAccountDeleted: a managed account that goes is made again.
    this.accounts.addEventHandler(
      this.whileRunning((_key, old, sa) => {
        if (!sa && old && SERVICE_ACCOUNTS.includes(old.metadata.name!)) this.queue.add(old.metadata.namespace!);
      }),
    );
    return this;
  }

  /** syncNamespace: create the managed accounts the namespace lacks. */
  private syncNamespace(name: string): void | Error {
    if (this.stopped) return;
    const ns = this.namespaces.get(name);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return;
    for (const account of SERVICE_ACCOUNTS) {
      if (this.accounts.get(`${name}/${account}`)) continue;
      const r = this.client.create('serviceaccounts', name, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: account, namespace: name },
      });
      if (r.ok || r.code === 409) continue;
      // A namespace being deleted refuses new content (Forbidden): nothing to do.
      if (r.code === 403 || r.code === 404) return;
      this.timeline.record(
        'controller',
        `serviceaccounts/${account} in namespace ${name} could not be created: ${r.status.message}; retried with back-off`,
        `${SOURCE} syncNamespace`,
        { actor: IDENTITY.name },
      );
      return new Error(r.status.message);
    }
  }
}

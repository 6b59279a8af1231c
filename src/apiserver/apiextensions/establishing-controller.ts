import type { ApiServer, ClientIdentity } from '../apiserver';
import { toTime } from '../../apimachinery/object';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import { isConditionTrue, setCondition, type CustomResourceDefinition } from './types';

export const ESTABLISHING_SOURCE =
  'staging/src/k8s.io/apiextensions-apiserver/pkg/controller/establish/establishing_controller.go';

/**
 * How long a CRD whose names are accepted waits before it is Established: the crdHandler queues it
 * (customresource_handler.go updateCustomResourceDefinition) with no delay when one kube-apiserver
 * runs (MasterCount 1, the default), 5 s in an HA control plane, so that every apiserver serves it
 * first.
 */
export const ESTABLISH_DELAY_MS = 0;
export const ESTABLISH_DELAY_HA_MS = 5000;

/**
 * EstablishingController (pkg/controller/establish): a CRD queued by the crdHandler (an update
 * that shows NamesAccepted=True and Established not True) gets Established=True
 * InitialNamesAccepted "the initial names have been accepted" through UpdateStatus; from then on
 * discovery lists its resources. NotFound and Conflict end the sync (the CRD comes again).
 */
export class EstablishingController {
  private readonly queue: WorkQueue;

  constructor(
    private readonly clock: Clock,
    private readonly api: ApiServer,
    private readonly crds: SharedInformer<CustomResourceDefinition>,
    private readonly identity: ClientIdentity,
    delayMs = ESTABLISH_DELAY_MS,
  ) {
    this.queue = new WorkQueue(clock, (key) => this.sync(key));
    // The crdHandler's UpdateFunc queues it (an add never carries accepted names: create clears the status).
    crds.addEventHandler((key, old, crd) => {
      if (old && crd && !isConditionTrue(crd, 'Established') && isConditionTrue(crd, 'NamesAccepted'))
        this.queue.addAfter(key, delayMs);
    });
  }

  private sync(key: string): void | Error {
    const cached = this.crds.get(key);
    if (!cached || !isConditionTrue(cached, 'NamesAccepted') || isConditionTrue(cached, 'Established')) return;
    const crd: CustomResourceDefinition = { ...cached, metadata: { ...cached.metadata }, status: { ...cached.status } };
    setCondition(
      crd,
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
      toTime(this.clock.now()),
    );
    const r = this.api.update(this.identity, 'customresourcedefinitions', undefined, crd, { subresource: 'status' });
    if (!r.ok && r.code !== 404 && r.code !== 409) return new Error(r.status.message);
  }
}

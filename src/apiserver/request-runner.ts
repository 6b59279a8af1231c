import { StatusError } from '../apimachinery/errors';
import type { Timeline } from '../foundation/timeline/timeline';
import type { AdmissionChain } from './admission-chain';
import type { Etcd } from './etcd';
import { builtinKind } from './kinds';
import type { RequestLog } from './request-log';
import type { ApiResponse, ClientIdentity, Resource } from './request-types';
import { WebhookCallPending } from './webhook/caller';

/**
 * What every mutating request goes through, whatever its verb (endpoints/handlers' common part):
 * it is numbered and recorded on the timeline's apiserver lane under its client's name (unless
 * its kind is quiet), the etcd writes it makes carry its number, admission's warnings are
 * collected for its response, and a StatusError becomes its failure response.
 */
export class RequestRunner {
  constructor(
    private readonly timeline: Timeline,
    private readonly etcd: Etcd,
    private readonly requests: RequestLog,
    private readonly admission: AdmissionChain,
  ) {}

  mutate<T>(
    client: ClientIdentity,
    verb: string,
    resource: Resource,
    namespace: string | undefined,
    name: string,
    text: string,
    source: string,
    run: () => { code: number; object: T },
    /** Undoes what the apiserver counted for a request that leaves no trace. */
    forget: () => void,
  ): ApiResponse<T> {
    // With webhooks configured, a caller may not have its answer yet (WebhookCallPending): the
    // request then leaves no trace, to run again once the HTTP layer has called the webhook.
    const mark = this.admission.active ? this.timeline.checkpoint() : -1;
    const record = this.requests.begin(verb, resource, namespace, name, this.etcd.currentRevision);
    // A namespace's deletion and its controller's writes are shown (their etcd writes stay quiet); the
    // system namespaces kube-apiserver creates are not.
    const quietly = builtinKind(resource)?.quiet;
    const quiet = typeof quietly === 'object' ? !quietly.requestsShown(verb) : quietly === true;
    const event = quiet ? undefined : this.timeline.record('apiserver', text, source, { actor: client.name });
    if (event) event.requestId = record.id;
    this.etcd.currentRequestId = record.id;
    if (this.admission.warnings.length > 0) this.admission.warnings = [];
    try {
      const response = serve(record.id, run);
      if (this.admission.warnings.length > 0) response.warnings = this.admission.warnings;
      record.response = response;
      if (event)
        this.timeline.annotate(
          event,
          response.ok ? String(response.code) : `${response.code} ${response.status.reason}`,
        );
      return response;
    } catch (e) {
      // Nothing was stored before admission asked (admission runs before storage), unless a
      // collection deletion had removed some items already: those stay, and so does the record.
      if (e instanceof WebhookCallPending && mark >= 0 && this.etcd.currentRevision === record.revisionBefore) {
        this.timeline.rollback(mark);
        this.requests.forgetLast();
        forget();
      }
      throw e;
    } finally {
      if (mark >= 0) this.timeline.release();
      this.etcd.currentRequestId = 0;
    }
  }
}

/** Runs a request, its StatusError turned into the failure response. */
export function serve<T>(requestId: number | undefined, run: () => { code: number; object: T }): ApiResponse<T> {
  try {
    const { code, object } = run();
    return { ok: true, code, object, requestId: requestId ?? 0 };
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { ok: false, code: e.code, status: e.status, requestId: requestId ?? 0 };
  }
}

/** The 404 of a path nothing serves (a custom resource not, or no longer, served). */
export function pathNotFound(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'NotFound',
    code: 404,
    message: 'the server could not find the requested resource',
    details: {},
  });
}

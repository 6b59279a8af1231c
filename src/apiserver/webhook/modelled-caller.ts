import { webhookUrl, type AdmissionReview, type WebhookCaller, type WebhookOutcome } from './caller';
import type { Webhook } from './configuration';

/**
 * How a modelled webhook server behaves: it rejects (as controller-runtime's admission.Denied
 * answers: allowed false, code 403, reason Forbidden, the message given), allows after a while
 * (`takes`), has nothing behind its Service (`down`), or (a mutating webhook) adds a finalizer
 * to every object that lacks it, with a JSONPatch, or (an injector, such as Vault's agent
 * injector) adds an init container to every pod that lacks it — on UPDATE too, which the pod's
 * update validation then refuses (spec is immutable but for images and a few fields).
 */
export type ModelledWebhook =
  | { readonly rejects: string }
  | { readonly takesMs: number }
  | { readonly down: true }
  | { readonly addsFinalizer: string }
  | { readonly addsInitContainer: string };

/**
 * The WebhookCaller of scenarios: each webhook's server is a behaviour, answered at once on the
 * virtual clock. A webhook that takes longer than its timeoutSeconds fails as the HTTP client's
 * deadline does (`context deadline exceeded`); one that takes less is answered in the same
 * virtual instant (the synchronous core does not let a request take virtual time). A Service with
 * no server behind it fails as kube-apiserver's service resolver does (`no endpoints available
 * for service …`).
 */
export class ModelledWebhookCaller implements WebhookCaller {
  private readonly servers = new Map<string, ModelledWebhook>();

  /** The server behind the webhook named `name`. */
  serve(name: string, behaviour: ModelledWebhook): void {
    this.servers.set(name, behaviour);
  }

  call(hook: Webhook, review: AdmissionReview): WebhookOutcome {
    const server = this.servers.get(hook.name);
    const url = webhookUrl(hook);
    const service = hook.clientConfig?.service;
    if (server === undefined || 'down' in server) {
      return {
        callError: service
          ? `Post "${url}": no endpoints available for service "${service.name}"`
          : `Post "${url}": dial tcp: connect: connection refused`,
      };
    }
    if ('takesMs' in server) {
      if (server.takesMs >= (hook.timeoutSeconds ?? 10) * 1000)
        return { callError: `Post "${url}": context deadline exceeded` };
      return { response: { uid: review.request.uid, allowed: true } };
    }
    if ('addsFinalizer' in server) {
      const finalizers = review.request.object?.metadata.finalizers;
      if (finalizers?.includes(server.addsFinalizer)) return { response: { uid: review.request.uid, allowed: true } };
      const ops = finalizers
        ? [{ op: 'add', path: '/metadata/finalizers/-', value: server.addsFinalizer }]
        : [{ op: 'add', path: '/metadata/finalizers', value: [server.addsFinalizer] }];
      return {
        response: {
          uid: review.request.uid,
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
        },
      };
    }
    if ('addsInitContainer' in server) {
      const pod = review.request.object as
        | { spec?: { initContainers?: { name: string }[]; containers?: { image?: string }[] } }
        | undefined;
      const inits = pod?.spec?.initContainers;
      if (!pod?.spec || inits?.some((c) => c.name === server.addsInitContainer))
        return { response: { uid: review.request.uid, allowed: true } };
      const container = {
        name: server.addsInitContainer,
        image: 'registry.example.com/injected:1',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      };
      const ops = inits
        ? [{ op: 'add', path: '/spec/initContainers/0', value: container }]
        : [{ op: 'add', path: '/spec/initContainers', value: [container] }];
      return {
        response: {
          uid: review.request.uid,
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
        },
      };
    }
    return {
      response: {
        uid: review.request.uid,
        allowed: false,
        status: { code: 403, reason: 'Forbidden', message: server.rejects },
      },
    };
  }
}

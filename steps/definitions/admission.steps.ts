import { Given, When } from '@cucumber/cucumber';
import type { Resource } from '../../src/apiserver/apiserver';
import type { Cluster } from '../../src/cluster/cluster';
import { USER } from '../../src/cluster/cluster';
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../src/apimachinery/types';
import { ModelledWebhookCaller, type ModelledWebhook } from '../../src/apiserver/webhook/modelled-caller';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/** Each scenario's modelled webhook servers (the apiserver's WebhookCaller in scenarios). */
const callers = new WeakMap<Cluster, ModelledWebhookCaller>();

export function callerOf(cluster: Cluster): ModelledWebhookCaller {
  let caller = callers.get(cluster);
  if (!caller) {
    caller = new ModelledWebhookCaller();
    callers.set(cluster, caller);
    cluster.apiserver.webhookCaller = caller;
  }
  return caller;
}

/**
 * A ValidatingWebhookConfiguration `pod-policy` (then `pod-policy-2`, …) with one webhook
 * `pod-policy.example.com` on pods, called through the Service `default/pod-policy` (port 443,
 * path /validate), failurePolicy as given (Fail, the v1 default), timeoutSeconds 10, sideEffects
 * None. It is created once the planned nodes and pods exist, so it judges only what the
 * scenario does from then on.
 */
export function planValidatingWebhook(
  world: TerminatingWorld,
  operations: string[],
  server: ModelledWebhook,
  failurePolicy = 'Fail',
  matchConditions?: { name: string; expression: string }[],
): void {
  planWebhook(
    world,
    'validating',
    (n) => (n === 1 ? 'pod-policy' : `pod-policy-${n}`),
    { operations, failurePolicy, path: '/validate', matchConditions },
    server,
  );
}

/**
 * Creates a webhook configuration of one webhook `NAME.example.com` on pods (Service
 * `default/NAME`), once the plan is built, with its modelled server.
 */
function planWebhook(
  world: TerminatingWorld,
  kind: 'validating' | 'mutating',
  nameFor: (n: number) => string,
  hook: {
    operations: string[];
    failurePolicy?: string;
    path: string;
    matchConditions?: { name: string; expression: string }[];
  },
  server: ModelledWebhook,
): void {
  const caller = callerOf(world.cluster);
  const resource = kind === 'validating' ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
  world.plan.afterStart(() => {
    const existing = world.cluster.apiserver.list(resource, undefined);
    const name = nameFor(existing.ok ? existing.object.items.length + 1 : 1);
    const webhook = {
      name: `${name}.example.com`,
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      ...(hook.failurePolicy ? { failurePolicy: hook.failurePolicy } : {}),
      clientConfig: { service: { namespace: 'default', name, path: hook.path } },
      rules: [{ operations: hook.operations, apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      ...(hook.matchConditions ? { matchConditions: hook.matchConditions } : {}),
    };
    const config: ValidatingWebhookConfiguration | MutatingWebhookConfiguration = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [webhook],
    };
    caller.serve(webhook.name, server);
    const r = world.cluster.apiserver.create(USER, resource, undefined, config as never);
    if (!r.ok)
      throw new ScenarioError(
        `the ${kind} webhook could not be configured: ${r.code} ${r.status.reason}: ${r.status.message}`,
      );
    world.cluster.flush();
  });
}

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', '*'];

export function operation(word: string): string {
  if (!OPERATIONS.includes(word))
    throw new ScenarioError(
      `a webhook rule's operation is one of ${OPERATIONS.join(', ')}, not "${word}" (a PATCH is admitted as an UPDATE)`,
    );
  return word;
}

/**
 * A webhook server that denies every {word} (CREATE, UPDATE, DELETE or *) of a pod (not its
 * subresources: the kubelet's pods/status writes pass) with the message given, as
 * controller-runtime's admission.Denied answers (403 Forbidden). The request fails with
 * `admission webhook "pod-policy.example.com" denied the request: MESSAGE`.
 */
Given(
  'a validating webhook that rejects {word} of pods with {string}',
  function (this: TerminatingWorld, op: string, message: string) {
    planValidatingWebhook(this, [operation(op)], { rejects: message });
  },
);

/**
 * A webhook on CREATE and UPDATE of pods (what policy engines such as Gatekeeper register) whose
 * server answers "allowed" after the duration given. From timeoutSeconds (10 s) on, the call
 * fails with `context deadline exceeded`, and failurePolicy Fail rejects the request with 500
 * InternalError. A quicker answer allows the request in the same virtual instant.
 */
Given('a validating webhook that takes {duration}', function (this: TerminatingWorld, ms: number) {
  planValidatingWebhook(this, ['CREATE', 'UPDATE'], { takesMs: ms });
});

/**
 * The same webhook with no server behind its Service: every CREATE or UPDATE of a pod fails with
 * 500 InternalError, `failed calling webhook "pod-policy.example.com": failed to call webhook:
 * Post "https://pod-policy.default.svc:443/validate?timeout=10s": no endpoints available for
 * service "pod-policy"` (failurePolicy Fail).
 */
Given('a validating webhook that is down', function (this: TerminatingWorld) {
  planValidatingWebhook(this, ['CREATE', 'UPDATE'], { down: true });
});

/** The same with failurePolicy Ignore (the call's failure lets the request on) or Fail. */
Given('a validating webhook that is down with failurePolicy {word}', function (this: TerminatingWorld, policy: string) {
  if (policy !== 'Fail' && policy !== 'Ignore')
    throw new ScenarioError(`failurePolicy is Fail or Ignore, not "${policy}"`);
  planValidatingWebhook(this, ['CREATE', 'UPDATE'], { down: true }, policy);
});

/**
 * A MutatingWebhookConfiguration `finalizer-injector` whose webhook `finalizer-injector.example.com`
 * (Service `default/finalizer-injector`, path /mutate) adds the finalizer to every pod created or
 * updated without it, as some policy engines and operators' webhooks do. The update that removes
 * it is patched back: it changes nothing and succeeds, and the pod stays.
 */
Given('a mutating webhook that adds finalizer {string} to pods', function (this: TerminatingWorld, finalizer: string) {
  planWebhook(
    this,
    'mutating',
    () => 'finalizer-injector',
    { operations: ['CREATE', 'UPDATE'], path: '/mutate' },
    { addsFinalizer: finalizer },
  );
});

/** The user DELETEs one cluster-scoped admission object (its response is the last request's). */
export function deleteClusterScoped(world: TerminatingWorld, resource: Resource, name: string): void {
  world.ensureStarted();
  world.lastResponse = world.cluster.apiserver.delete(USER, resource, undefined, name, {});
  world.lastKubectl = undefined;
  world.cluster.flush();
}

/** DELETE mutatingwebhookconfigurations/NAME. */
When('the user deletes mutating webhook configuration {string}', function (this: TerminatingWorld, name: string) {
  deleteClusterScoped(this, 'mutatingwebhookconfigurations', name);
});

/** DELETE validatingwebhookconfigurations/NAME: its webhooks judge no request from then on. */
When('the user deletes validating webhook configuration {string}', function (this: TerminatingWorld, name: string) {
  deleteClusterScoped(this, 'validatingwebhookconfigurations', name);
});

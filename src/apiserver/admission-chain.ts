import type { KubeObject } from '../apimachinery/object';
import type { DeleteOptions, Namespace } from '../apimachinery/types';
import type { Release } from '../foundation/release';
import type { Timeline } from '../foundation/timeline/timeline';
import type { Eviction } from './eviction';
import { isTerminating, namespaceTerminatingError } from './namespace-strategy';
import type { ClientIdentity, Resource, ResourceType } from './request-types';
import type { Store, StoreAdmission } from './store';
import { qualifiedResource } from './strategy';
import type { ParamResource } from './admissionpolicy/generic/policy-source';
import { PolicyAdmission, type PolicyHook } from './validatingadmissionpolicy/dispatcher';
import type { TypeConverter } from './mutatingadmissionpolicy/apply-configuration';
import {
  MutatingPolicyAdmission,
  PolicyReinvocation,
  type MutatingPolicyHook,
} from './mutatingadmissionpolicy/dispatcher';
import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  MutatingWebhookConfiguration,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingWebhookConfiguration,
} from '../apimachinery/types';
import { NO_WEBHOOK_CALLER, type WebhookCaller } from './webhook/caller';
import type { Webhook } from './webhook/configuration';
import { WebhookAdmission, type ConfiguredWebhook } from './webhook/dispatcher';
import type { AdmissionAttributes } from './webhook/matching';

/** What the admission chain reads of the apiserver's storage. */
export interface AdmissionStorage {
  /** The Store of a resource (built-in or custom); throws the 404 of one not served. */
  store<R extends Resource>(resource: R): Store<ResourceType[R]>;
  /** Every resource served now (for a policy's paramKind). */
  resources(): readonly Resource[];
  /** The number of the request running now (the webhooks' AdmissionReview uid). */
  requestId(): number;
  /** The served kinds' schemas as server-side apply reads them (a MutatingAdmissionPolicy's ApplyConfiguration merges with them). */
  typeConverter(): TypeConverter;
}

type Request = Omit<AdmissionAttributes, 'group' | 'version' | 'kind' | 'namespaced'>;

/**
 * kube-apiserver's admission chain as far as modelled: the NamespaceLifecycle plugin, then
 * MutatingAdmissionPolicy, MutatingAdmissionWebhook, ValidatingAdmissionPolicy and ValidatingAdmissionWebhook (their
 * order in the plugin list of kube-apiserver, staging/src/k8s.io/apiserver/pkg/admission), with
 * the configurations they read kept fresh as their objects change (the configuration managers'
 * informers). The built-in mutating plugins that handle one kind (DefaultTolerationSeconds,
 * DefaultStorageClass, StorageObjectInUseProtection) are that kind's beforeCreate (kinds/).
 */
export class AdmissionChain {
  /** The admission webhooks of the configurations stored (ValidatingAdmissionWebhook, MutatingAdmissionWebhook). */
  readonly webhooks: WebhookAdmission;
  /** How webhooks are reached: modelled in scenarios, over HTTPS in `serve` (webhook/caller.ts). */
  webhookCaller: WebhookCaller = NO_WEBHOOK_CALLER;
  /** The ValidatingAdmissionPolicy plugin (R210). */
  readonly policies: PolicyAdmission;
  /** The MutatingAdmissionPolicy plugin (R317). */
  readonly mutatingPolicies: MutatingPolicyAdmission;
  /** The warnings admission (and a custom resource's ratcheted CEL rules) gave the request running now (warning.AddWarning on its context). */
  warnings: string[] = [];
  /** The policies with their bindings, read again after one changes (the policy source's informers). */
  private policyHooks: PolicyHook[] | undefined;
  /** The mutating policies with their bindings, read again after one changes. */
  private mutatingPolicyHooks: MutatingPolicyHook[] | undefined;
  /** The configured webhooks, read again after a configuration changes. */
  private configuredWebhooks: { validating?: ConfiguredWebhook[]; mutating?: ConfiguredWebhook[] } = {};

  constructor(
    timeline: Timeline,
    private readonly storage: AdmissionStorage,
    release: Release,
  ) {
    this.webhooks = new WebhookAdmission(
      timeline,
      { webhooks: (mutating) => this.webhooksOf(mutating), namespaceLabels: (ns) => this.namespaceLabels(ns) },
      () => this.webhookCaller,
      release,
    );
    this.policies = new PolicyAdmission(
      timeline,
      {
        hooks: () => this.policyHooksOf(),
        namespace: (ns) => this.namespace(ns),
        namespaceLabels: (ns) => this.namespaceLabels(ns),
        paramResource: (apiVersion, kind) => this.paramResource(apiVersion, kind),
      },
      release,
    );
    this.mutatingPolicies = new MutatingPolicyAdmission(
      timeline,
      {
        hooks: () => this.mutatingPolicyHooksOf(),
        namespace: (ns) => this.namespace(ns),
        namespaceLabels: (ns) => this.namespaceLabels(ns),
        paramResource: (apiVersion, kind) => this.paramResource(apiVersion, kind),
        typeConverter: () => this.storage.typeConverter(),
      },
      release,
    );
  }

  /** Whether any webhook or policy is configured (without, the plugins handle nothing and nothing is built for them). */
  get active(): boolean {
    return this.webhooks.has(true) || this.webhooks.has(false) || this.policies.has() || this.mutatingPolicies.has();
  }

  /** A configuration of this kind was written: its plugin reads the configurations again. */
  configurationChanged(configuration: 'mutating-webhooks' | 'validating-webhooks' | 'policies'): void {
    if (configuration === 'validating-webhooks') this.configuredWebhooks.validating = undefined;
    else if (configuration === 'mutating-webhooks') this.configuredWebhooks.mutating = undefined;
    else {
      this.policyHooks = undefined;
      this.mutatingPolicyHooks = undefined;
    }
  }

  /**
   * R122 — the NamespaceLifecycle admission plugin for a create: a namespace that is terminating
   * takes no new content (403 Forbidden with the NamespaceTerminating cause).
   */
  admitNamespaceLifecycle(resource: Resource, namespace: string | undefined, name: string): void {
    const ns = namespace === undefined ? undefined : this.namespace(namespace);
    if (ns !== undefined && isTerminating(ns))
      throw namespaceTerminatingError(qualifiedResource(this.storage.store(resource).strategy), name, namespace!);
  }

  /**
   * The admission chain of one CREATE or UPDATE (a PATCH is admitted as an UPDATE, with its
   * options as UpdateOptions: patch.go patchToUpdateOptions), or undefined without webhooks (the
   * plugins then handle nothing, and nothing is built for them). Kind, group and version are the
   * resource's; the options are the request's CreateOptions or UpdateOptions as the webhook
   * receives them.
   */
  forWrite<R extends Resource>(
    client: ClientIdentity,
    operation: 'CREATE' | 'UPDATE',
    resource: R,
    namespace: string | undefined,
    name: string,
    subresource: string,
    dryRun: boolean,
  ): StoreAdmission<ResourceType[R]> | undefined {
    if (!this.active) return undefined;
    const options = {
      kind: operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    };
    return this.chain<R>(client, { operation, resource, namespace, name, subresource, dryRun }, options);
  }

  /** delete.go: mutating admission first, with no object, then validating admission on the object (Store.Delete's deleteValidation). */
  forDelete<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions,
  ): StoreAdmission<ResourceType[R]> | undefined {
    if (!this.active) return undefined;
    const request = {
      operation: 'DELETE' as const,
      resource,
      namespace,
      name,
      subresource: '',
      dryRun: (options.dryRun ?? []).length > 0,
    };
    const deleteOptions = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...options };
    if (this.webhooks.has(true)) this.webhooks.mutate(this.info(client, request, deleteOptions), undefined, undefined);
    return this.chain<R>(client, request, deleteOptions);
  }

  /** CREATE pods/NAME/eviction through the webhooks, with the policy/v1 Eviction as the object (R203). */
  admitEviction(
    client: ClientIdentity,
    namespace: string,
    name: string,
    eviction: Eviction,
    dryRun: boolean,
  ): Eviction {
    const request = {
      operation: 'CREATE' as const,
      resource: 'pods',
      namespace,
      name,
      subresource: 'eviction',
      dryRun,
    };
    const base = this.info(client, request, {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    });
    const info = {
      ...base,
      attributes: { ...base.attributes, objectKind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
      // An Eviction's scheme has no defaults of its own (the pod's do not apply to it).
      defaults: undefined,
    };
    const object = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      ...eviction,
      metadata: { ...eviction.metadata, name, namespace },
    } as KubeObject;
    const admitted = this.mutate(info, object, undefined, this.mutatingPolicies.has());
    if (this.policies.has()) this.warnings.push(...this.policies.validate(info, admitted, undefined));
    if (this.webhooks.has(false)) this.webhooks.validate(info, admitted, undefined);
    return admitted as Eviction;
  }

  private chain<R extends Resource>(
    client: ClientIdentity,
    request: Request,
    options: Record<string, unknown>,
  ): StoreAdmission<ResourceType[R]> | undefined {
    const mutating = this.webhooks.has(true);
    const validating = this.webhooks.has(false);
    const policies = this.policies.has();
    // The MutatingAdmissionPolicy plugin admits CREATE and UPDATE (and CONNECT), not DELETE.
    const mutatingPolicies = request.operation !== 'DELETE' && this.mutatingPolicies.has();
    if (!mutating && !validating && !policies && !mutatingPolicies) return undefined;
    const info = this.info(client, request, options);
    return {
      mutate: (obj, old) => this.mutate(info, obj, old, mutatingPolicies) as ResourceType[R],
      // The ValidatingAdmissionPolicy plugin runs before ValidatingAdmissionWebhook (the plugin order of kube-apiserver).
      validate: (obj, old) => {
        if (policies) this.warnings.push(...this.policies.validate(info, obj, old));
        if (validating) this.webhooks.validate(info, obj, old);
      },
    };
  }

  /**
   * The mutating plugins in their order (admission.ReinvocationHandler): MutatingAdmissionPolicy,
   * then MutatingAdmissionWebhook; then, when either changed the object (ShouldReinvoke), the
   * second pass: the policies' IfNeeded invocations, then the webhooks' (their second round).
   */
  private mutate(
    info: ReturnType<AdmissionChain['info']>,
    obj: KubeObject,
    old: KubeObject | undefined,
    policies: boolean,
  ): KubeObject {
    const state = new PolicyReinvocation();
    const current = policies ? this.mutatingPolicies.mutate(info, obj, old, state, false)! : obj;
    const secondPass = (o: KubeObject | undefined, webhooksChanged: boolean) =>
      policies && (state.shouldReinvoke || webhooksChanged)
        ? this.mutatingPolicies.mutate(info, o, old, state, true)
        : o;
    if (this.webhooks.has(true)) return this.webhooks.mutate(info, current, old, secondPass)!;
    return secondPass(current, false)!;
  }

  private info(client: ClientIdentity, request: Request, options: Record<string, unknown>) {
    const s = this.storage.store(request.resource as Resource).strategy;
    const [group, version] = s.apiVersion.includes('/') ? s.apiVersion.split('/') : ['', s.apiVersion];
    const attributes: AdmissionAttributes = {
      ...request,
      group,
      version,
      kind: s.kind,
      namespaced: s.namespaced,
      namespace: s.namespaced ? request.namespace : undefined,
    };
    const store = this.storage.store(request.resource as Resource);
    return {
      attributes,
      username: client.name,
      options,
      requestId: this.storage.requestId(),
      defaults: ((obj: KubeObject) => store.defaultObject(obj)) as ((obj: KubeObject) => void) | undefined,
    };
  }

  /** The webhooks of every configuration of one kind, configurations in name order (the configuration managers sort them so). */
  private webhooksOf(mutating: boolean): ConfiguredWebhook[] {
    const slot = mutating ? 'mutating' : 'validating';
    let hooks = this.configuredWebhooks[slot];
    if (hooks === undefined) {
      const configurations: (MutatingWebhookConfiguration | ValidatingWebhookConfiguration)[] = mutating
        ? this.storage.store('mutatingwebhookconfigurations').list(undefined).items
        : this.storage.store('validatingwebhookconfigurations').list(undefined).items;
      hooks = configurations.flatMap((c) =>
        ((c.webhooks ?? []) as Webhook[]).map((hook) => ({ configuration: c.metadata.name ?? '', hook })),
      );
      this.configuredWebhooks[slot] = hooks;
    }
    return hooks;
  }

  /** Every policy with the bindings naming it, policies and bindings in name order (bindings of no policy left out). */
  private policyHooksOf(): PolicyHook[] {
    if (this.policyHooks === undefined) {
      const bindings: ValidatingAdmissionPolicyBinding[] = this.storage
        .store('validatingadmissionpolicybindings')
        .list(undefined).items;
      const policies: ValidatingAdmissionPolicy[] = this.storage
        .store('validatingadmissionpolicies')
        .list(undefined).items;
      this.policyHooks = policies
        .map((policy) => ({
          policy,
          bindings: bindings.filter((b) => b.spec?.policyName === policy.metadata.name),
        }))
        .filter((h) => h.bindings.length > 0);
    }
    return this.policyHooks;
  }

  /** Every MutatingAdmissionPolicy with the bindings naming it, in name order (none where the kind is not served). */
  private mutatingPolicyHooksOf(): MutatingPolicyHook[] {
    if (this.mutatingPolicyHooks === undefined) {
      const served = this.storage.resources().includes('mutatingadmissionpolicies');
      const bindings: MutatingAdmissionPolicyBinding[] = served
        ? this.storage.store('mutatingadmissionpolicybindings').list(undefined).items
        : [];
      const policies: MutatingAdmissionPolicy[] = served
        ? this.storage.store('mutatingadmissionpolicies').list(undefined).items
        : [];
      this.mutatingPolicyHooks = policies
        .map((policy) => ({
          policy,
          bindings: bindings.filter((b) => b.spec?.policyName === policy.metadata.name),
        }))
        .filter((h) => h.bindings.length > 0);
    }
    return this.mutatingPolicyHooks;
  }

  /** The REST mapping of a ValidatingAdmissionPolicy's paramKind: the built-in or served custom resource of that apiVersion and kind (R210). */
  private paramResource(apiVersion: string, kind: string): ParamResource | undefined {
    const resource = this.storage
      .resources()
      .find(
        (r) => this.storage.store(r).strategy.apiVersion === apiVersion && this.storage.store(r).strategy.kind === kind,
      );
    if (resource === undefined) return undefined;
    const store = this.storage.store(resource);
    return { namespaced: store.strategy.namespaced, list: (namespace) => store.list(namespace).items };
  }

  private namespace(name: string): Namespace | undefined {
    const namespaces = this.storage.store('namespaces');
    return namespaces.exists(undefined, name) ? namespaces.get(undefined, name) : undefined;
  }

  private namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined {
    return this.namespace(namespace)?.metadata.labels;
  }
}

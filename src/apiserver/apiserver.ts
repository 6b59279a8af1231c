import type { Clock } from '../foundation/clock';
import type { Component } from '../foundation/timeline/event';
import type { RevisionReader, Timeline } from '../foundation/timeline/timeline';
import { createHash } from 'node:crypto';
import { forbidden, invalid, notFound, StatusError, type FieldError } from '../apimachinery/errors';
import { Etcd, type EtcdEvent, type StoredObject } from './etcd';
import { createEviction, EVICTION_SOURCE, type Eviction } from './eviction';
import { BINDING_SOURCE, setPodHostAndAnnotations } from './binding';
import { scheduleCompaction } from './compaction';
import { isTerminating, namespaceTerminatingError } from './namespace-strategy';
import { clone, toTime, type KubeObject } from '../apimachinery/object';
import { applyPatchBody, type PatchType } from './patch';
import { checkConvertible } from './field-manager';
import { FieldManager, type ManagerInfo } from './managedfields/manager';
import { FieldSet } from './managedfields/fieldpath';
import { schemaDefinitions } from './schemas';
import { applyScale, scaleOf, type Scale, type ScalableResource } from './scale';
import { Store, STORE_SOURCE, type StoreAdmission } from './store';
import { qualifiedKind, qualifiedResource, type Strategy } from './strategy';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import type {
  DeleteOptions,
  Deployment,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  StatefulSet,
  Status,
} from '../apimachinery/types';
import { NO_WEBHOOK_CALLER, WebhookCallPending, type WebhookCaller } from './webhook/caller';
import type { Webhook } from './webhook/configuration';
import { PolicyAdmission, type ParamResource, type PolicyHook } from './validatingadmissionpolicy/dispatcher';
import { WebhookAdmission, type ConfiguredWebhook } from './webhook/dispatcher';
import type { AdmissionAttributes } from './webhook/matching';
import {
  encodeContinue,
  expired,
  parseListOptions,
  selectionMatches,
  tooLargeResourceVersion,
  type ListOptions,
} from './list-options';
import { deterministicUid } from '../apimachinery/uid';
import { validateDeleteOptions } from '../apimachinery/validation';
import { describeDeleteOptions } from './delete-options';
import { Watch, type WatchEvent, type WatchFilter } from './watch';
import { APIEXTENSIONS_GROUP, nodeNameOf, pluralOf, resourceOf, WatchIndex } from './watch-cache';
import { CustomResourceServing, type CustomResource } from './apiextensions/served-resources';
import { applyCustomScale, customScaleOf, type ScaleSubresource } from './apiextensions/custom-resource-scale';
import type { CustomResourceDefinition } from './apiextensions/types';
import { builtinKind, builtinKinds, type BuiltinResource, type BuiltinResourceType } from './kinds';
import type { KindContext, KindStrategies } from './kinds/kind';
import { validateObjectName } from './object-names';

export type Resource = BuiltinResource | CustomResource;
export type { BuiltinResource };
/** The object type of every resource: a built-in kind's (kinds/), a custom resource's plain object. */
export type ResourceType = BuiltinResourceType & { [K in CustomResource]: KubeObject };

/** One page of a LIST (metav1.ListMeta with its items). */
export interface ListPage<T> {
  items: T[];
  resourceVersion: string;
  /** The token of the next page, when `limit` cut the list short. */
  continue?: string;
  /** How many items follow this page (only when no selector filtered the list, as etcd3 GetList). */
  remainingItemCount?: number;
}
/**
 * The body of a successful DELETE (store.go finalizeDelete, R49/R50): pods (ReturnDeletedObject)
 * always answer with the Pod; other resources with the object while finalizers hold it, else with
 * a Success Status naming it.
 */
export type DeleteResponseBody<R extends Resource> = R extends 'pods' ? Pod : ResourceType[R] | Status;

/** Who sends a request: shown as the event's actor, and its lane for client-side events. */
export interface ClientIdentity {
  readonly name: string;
  readonly component: Component;
}

export type ApiResponse<T> = (
  | { ok: true; code: number; object: T; requestId: number }
  | { ok: false; code: number; status: Status & { reason: string; message: string }; requestId: number }
) & {
  /** Admission's warnings (a ValidatingAdmissionPolicy binding's Warn action), for the response's Warning headers. */
  warnings?: readonly string[];
};

/** A mutating request as the apiserver saw it, for "what did the last request change". */
export interface RequestRecord {
  readonly id: number;
  readonly verb: string;
  readonly resource: Resource;
  readonly namespace?: string;
  readonly name: string;
  /** The etcd revision before the request ran. */
  readonly revisionBefore: number;
  response?: ApiResponse<unknown>;
}

export interface ApiServerOptions {
  /** Delay between a write and its delivery to each watcher (default 0: same instant, after the write). */
  watchLatencyMs: number;
  /** kube-apiserver --etcd-compaction-interval (default 5m): watches cannot resume from before the last compaction. */
  compactionIntervalMs: number;
  /** The kube-apiserver release modelled (and its feature gates). */
  release: Release;
  /**
   * Compaction drops what it compacts (a `serve` session): etcd's history before the compacted
   * revision, the timeline's events and the request records from before it. Off (scenarios),
   * compaction is logical only and everything is kept for the report.
   */
  dropCompactedHistory?: boolean;
  /**
   * Whether writes keep managedFields (kube-apiserver always does). Off for scenarios, whose
   * timelines leave managed fields out of every diff anyway, so that the per-write cost stays
   * flat; `serve` and every served API turn it on (trackManagedFields). Server-side apply works
   * either way (without them each apply finds no other managers, so it conflicts with nobody).
   */
  managedFields: boolean;
}

export const DEFAULT_APISERVER_OPTIONS: ApiServerOptions = {
  watchLatencyMs: 0,
  compactionIntervalMs: 5 * 60_000,
  release: DEFAULT_RELEASE,
  managedFields: false,
};

/** Options of create, update and patch: metav1.CreateOptions/UpdateOptions/PatchOptions as far as modelled. */
export interface WriteOptions {
  dryRun?: boolean;
  /** The fieldManager parameter (default: the client's name, as upstream takes the User-Agent's product). */
  fieldManager?: string;
}

const HANDLERS = 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers';
// The sources of the requests' events, each one string built once: the timeline interns sources
// by value, and a string concatenated anew per request would be flattened and hashed every time.
const CREATE_SOURCE = `${HANDLERS}/create.go createHandler → ${STORE_SOURCE} Store.Create`;
const UPDATE_SOURCE = `${HANDLERS}/update.go UpdateResource → ${STORE_SOURCE} Store.Update`;
const PATCH_SOURCE = `${HANDLERS}/patch.go PatchResource → ${STORE_SOURCE} Store.Update`;
const APPLY_SOURCE = `${HANDLERS}/patch.go PatchResource (applyPatcher) → ${STORE_SOURCE} Store.Update`;
const DELETE_SOURCE = `${HANDLERS}/delete.go DeleteResource → ${STORE_SOURCE} Store.Delete`;

/** The components that run inside kube-controller-manager (its User-Agent names the manager). */
const CONTROLLER_MANAGER_COMPONENTS: ReadonlySet<Component> = new Set<Component>([
  'gc',
  'nodelifecycle',
  'podgc',
  'controller',
]);

/** The default GetResetFields of a kind with a status: status through the main resource, spec through status. */
const DEFAULT_RESET_FIELDS = { main: [[{ field: 'status' }]], status: [[{ field: 'spec' }]] } as const;

/** The Success Status an eviction answers with. */
const SUCCESS: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
/**
 * The resources kept out of the apiserver/etcd/watch lanes to keep timelines readable (each kind
 * module says whether it is quiet: none of these takes part in deleting a pod).
 */
const QUIET_RESOURCES: ReadonlySet<string> = new Set(
  builtinKinds()
    .filter((k) => k.quiet)
    .map((k) => k.resource),
);
const CRD_PREFIX = '/registry/apiextensions.k8s.io/customresourcedefinitions/';

/** Whether a resource name is a custom resource's (`<plural>.<group>`: built-in names have no dot). */
export function isCustomResource(resource: string): resource is CustomResource {
  return resource.includes('.');
}

/**
 * The namespaces kube-apiserver creates at start (pkg/controlplane/controller/systemnamespaces:
 * kube-system, kube-public, kube-node-lease; the bootstrap controller adds default).
 */
export const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'] as const;

/**
 * kube-apiserver for the resources that take part in pod deletion: the REST handlers
 * (endpoints/handlers: create.go, update.go, patch.go, delete.go, watch.go) in front of one
 * generic registry Store per resource, all on one etcd. Every mutating request is recorded on
 * the timeline with the canonical text of docs/steps.md.
 */
export class ApiServer {
  readonly etcd: Etcd;
  private readonly stores: { [R in BuiltinResource]: Store<ResourceType[R]> };
  /** The custom resources served, one Store per CRD (apiextensions/served-resources.ts). */
  readonly customResources: CustomResourceServing;
  /** Each built-in kind's strategies: its status and finalize subresources' beside its main one. */
  private readonly strategies: Readonly<Record<string, KindStrategies<KubeObject>>>;
  private readonly watches: WatchIndex;
  /** Every request (or, when the timeline keeps no events, only the last one). */
  private readonly requests: RequestRecord[] = [];
  private requestCount = 0;
  /** Request records dropped with compacted history (dropCompactedHistory). */
  private requestsDropped = 0;
  private createCounter = 0;
  /** How many names each generateName base has been given (R76). */
  private readonly generatedNames = new Map<string, number>();
  private namespacesBootstrapped = false;
  private readonly startedAt: number;
  /** The admission webhooks of the configurations stored (ValidatingAdmissionWebhook, MutatingAdmissionWebhook). */
  readonly webhooks: WebhookAdmission;
  /** How webhooks are reached: modelled in scenarios, over HTTPS in `serve` (webhook/caller.ts). */
  webhookCaller: WebhookCaller = NO_WEBHOOK_CALLER;
  /** The ValidatingAdmissionPolicy plugin (R210). */
  readonly policies: PolicyAdmission;
  /** The policies with their bindings, read again after one changes (the policy source's informers). */
  private policyHooks: PolicyHook[] | undefined;
  /** The warnings admission (and a custom resource's ratcheted CEL rules) gave the request running now (warning.AddWarning on its context). */
  private admissionWarnings: string[] = [];
  /** The configured webhooks, read again after a configuration changes (the configuration managers' informers). */
  private configuredWebhooks: { validating?: ConfiguredWebhook[]; mutating?: ConfiguredWebhook[] } = {};

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    public options: ApiServerOptions = DEFAULT_APISERVER_OPTIONS,
  ) {
    this.startedAt = clock.now();
    this.watches = new WatchIndex(clock, options.watchLatencyMs);
    this.etcd = new Etcd(
      timeline,
      () => clock.now(),
      (key) => !QUIET_RESOURCES.has(pluralOf(key)),
    );
    // Each kind's REST storage, assembled from its kind module (kinds/): a Store over its main
    // strategy, with its validation and defaulting (the kind's `rules`, kind-rules/) plugged in, and the
    // strategies of its subresources.
    const ctx: KindContext = {
      release: options.release,
      now: () => clock.now(),
      validateName: (resource, name) => validateName(resource as Resource, name, options.release),
    };
    const stores: Record<string, Store<KubeObject>> = {};
    const subresourceStrategies: Record<string, KindStrategies<KubeObject>> = {};
    for (const kind of builtinKinds()) {
      const strategies = kind.strategies(ctx);
      const store = new Store<KubeObject>(this.etcd, clock, strategies.main, true, options.release);
      store.useKindRules(kind.rules, options.release);
      stores[kind.resource] = store;
      subresourceStrategies[kind.resource] = strategies;
    }
    this.stores = stores as { [R in BuiltinResource]: Store<ResourceType[R]> };
    this.strategies = subresourceStrategies;
    this.customResources = new CustomResourceServing(this.etcd, clock, options.release, (warning) =>
      this.admissionWarnings.push(warning),
    );
    this.webhooks = new WebhookAdmission(
      timeline,
      { webhooks: (mutating) => this.webhooksOf(mutating), namespaceLabels: (ns) => this.namespaceLabels(ns) },
      () => this.webhookCaller,
      options.release,
    );
    this.policies = new PolicyAdmission(
      timeline,
      {
        hooks: () => this.policyHooksOf(),
        namespace: (ns) =>
          this.stores.namespaces.exists(undefined, ns) ? this.stores.namespaces.get(undefined, ns) : undefined,
        namespaceLabels: (ns) => this.namespaceLabels(ns),
        paramResource: (apiVersion, kind) => this.paramResource(apiVersion, kind),
      },
      options.release,
    );
    this.etcd.subscribe((e) => this.dispatch(e));
    if (options.dropCompactedHistory) {
      scheduleCompaction({
        clock,
        etcd: this.etcd,
        timeline,
        intervalMs: options.compactionIntervalMs,
        startedAt: this.startedAt,
        compactedRevision: () => this.compactedRevision(),
        dropRequestsBefore: (revision) => this.dropRequestsBefore(revision),
        forgetAbsentKeys: () => {
          for (const store of Object.values(this.stores)) store.forgetAbsentKeys();
          for (const store of this.customResources.stores()) store.forgetAbsentKeys();
        },
      });
    }
  }

  /** R207: the compactor (compaction.ts) drops the request records of the history it compacts. */
  private dropRequestsBefore(revision: number): void {
    let drop = 0;
    while (drop < this.requests.length && this.requests[drop].revisionBefore < revision) drop++;
    if (this.timeline.keepsEvents && drop > 0) {
      this.requests.splice(0, drop);
      this.requestsDropped += drop;
    }
  }

  // ---- reads (not recorded on the timeline: they change nothing) ----

  get<R extends Resource>(resource: R, namespace: string | undefined, name: string): ApiResponse<ResourceType[R]> {
    return this.serve(undefined, () => ({ code: 200, object: this.store(resource).get(namespace, name) }));
  }

  list<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    matches: (o: ResourceType[R]) => boolean = () => true,
  ): ApiResponse<{ items: ResourceType[R][]; resourceVersion: string }> {
    return this.serve(undefined, () => {
      const list = this.store(resource).list(namespace);
      return { code: 200, object: { items: list.items.filter(matches), resourceVersion: list.resourceVersion } };
    });
  }

  /**
   * A LIST with metav1.ListOptions (handlers/get.go ListResource → Store.List → cacher/etcd3
   * GetList): label and field selectors, `limit`/`continue` pages in key order at one revision,
   * and the resourceVersion semantics of v1.33: unset or NotOlderThan reads the latest state
   * (a version newer than the latest is a 504 "Too large resource version"), `0` reads any state
   * (the watch cache: the whole list, `limit` ignored), Exact (and continue) reads the state at
   * that revision, 410 Expired once compacted.
   */
  listPage<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    query: ListOptions,
  ): ApiResponse<ListPage<ResourceType[R]>> {
    return this.serve(undefined, () => {
      const opts = parseListOptions(resource, { metadata: {} }, query);
      const current = this.etcd.currentRevision;
      const prefix = this.prefixOf(resource, namespace);
      let revision = current;
      let startKey: string | undefined;
      if (opts.continue) {
        revision = opts.continue.rv;
        startKey = prefix + opts.continue.start;
        if (revision < this.compactedRevision()) {
          throw expired(
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
          );
        }
      } else if (opts.resourceVersion !== undefined && opts.resourceVersion !== '0') {
        const asked = Number(opts.resourceVersion);
        if (asked > current) throw tooLargeResourceVersion(asked, current);
        if (opts.resourceVersionMatch === 'Exact') {
          if (asked < this.compactedRevision()) throw expired('The resourceVersion for the provided list is too old.');
          revision = asked;
        }
      }
      const limit = opts.resourceVersion === '0' && !opts.continue ? 0 : opts.limit;
      const entries = revision === current ? this.etcd.listEntries(prefix) : this.stateAt(prefix, revision);
      const selected = entries.filter(
        ([key, obj]) =>
          (startKey === undefined || key >= startKey) && selectionMatches(resource, opts, obj as unknown as KubeObject),
      );
      const page = limit > 0 ? selected.slice(0, limit) : selected;
      const result: ListPage<ResourceType[R]> = {
        items: page.map(([, obj]) => obj as unknown as ResourceType[R]),
        resourceVersion: String(revision),
      };
      if (limit > 0 && selected.length > limit) {
        const [nextKey] = selected[limit];
        result.continue = encodeContinue(nextKey.slice(prefix.length), revision);
        if (!opts.labels && !opts.fields) result.remainingItemCount = selected.length - limit;
      }
      return { code: 200, object: result };
    });
  }

  /**
   * Creates the system namespaces that are missing (kube-apiserver's start-up controllers), off
   * the timeline. From then on objects can only be created in existing namespaces (the
   * NamespaceLifecycle admission plugin); scenarios that never call this keep their implicit
   * `default` namespace.
   */
  ensureSystemNamespaces(): void {
    this.namespacesBootstrapped = true;
    for (const name of SYSTEM_NAMESPACES) {
      const existing = this.get('namespaces', undefined, name);
      if (existing.ok) continue;
      this.create({ name: 'kube-apiserver', component: 'apiserver' }, 'namespaces', undefined, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
      // R246: a cluster that is serving has had its serviceaccounts controller run long before:
      // each system namespace already has its ServiceAccount "default" (the controller makes the
      // ones of namespaces created later).
      this.create({ name: 'service-account-controller', component: 'controller' }, 'serviceaccounts', name, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default', namespace: name },
      });
    }
  }

  /**
   * handlers/watch.go + cacher: a watch from `resourceVersion` (replaying the history after it),
   * or from now. A revision older than the last compaction answers 410 Expired, as etcd does.
   */
  watch<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    opts: {
      resourceVersion?: string;
      matches?: (o: ResourceType[R]) => boolean;
      nodeName?: string;
      /**
       * Without a resourceVersion (or with "0"), begin with a synthetic ADDED event for every
       * object that exists now, as the watch cache does for "get state and start at most recent"
       * (cacher.Watch with an unset or zero resourceVersion). In-process callers that list first
       * leave it off.
       */
      initialState?: boolean;
      /**
       * A streaming list (sendInitialEvents=true; cacher.Watch with SendInitialEvents): the
       * current state as ADDED events in key order, handed back at once in `Watch.initialEvents`
       * with the revision they are at (the watch cache serves them from memory, before any live
       * event), and the watch continues from that revision.
       */
      sendInitialEvents?: boolean;
    },
    handler: (e: WatchEvent<ResourceType[R]>) => void,
  ): ApiResponse<Watch> {
    return this.serve(undefined, () => {
      const prefix = this.prefixOf(resource, namespace);
      const matches = opts.matches as ((o: KubeObject) => boolean) | undefined;
      const node = opts.nodeName;
      // fieldSelector spec.nodeName=NODE, as the kubelet asks for its pods.
      const filter: WatchFilter = {
        prefix,
        matches: node === undefined ? matches : (o) => nodeNameOf(o) === node && (!matches || matches(o)),
      };
      const initial = opts.initialState && (opts.resourceVersion === undefined || opts.resourceVersion === '0');
      // A streaming list's resourceVersion is a lower bound on the state it starts from (NotOlderThan),
      // not a point in history: the current state satisfies it, compacted or not.
      const from =
        opts.resourceVersion === undefined || initial || opts.sendInitialEvents
          ? undefined
          : Number(opts.resourceVersion);
      if (from !== undefined && from < this.compactedRevision()) {
        throw new StatusError({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Expired',
          code: 410,
          message: `too old resource version: ${from} (${this.compactedRevision()})`,
        });
      }
      const w: Watch = new Watch(
        this.clock,
        this.options.watchLatencyMs,
        filter,
        handler as (e: WatchEvent) => void,
        () => this.watches.remove(w, node),
      );
      if (opts.sendInitialEvents) {
        const revision = this.etcd.currentRevision;
        const events: WatchEvent[] = [];
        for (const [key, value] of this.etcd.listEntries(prefix)) {
          const event = w.eventFor({ revision, type: 'PUT', key, value, requestId: 0, at: this.clock.now() });
          if (event) events.push(event);
        }
        w.initialEvents = { events, revision };
      } else if (from !== undefined) for (const e of this.etcd.historySince(from)) w.offer(e);
      if (initial && !opts.sendInitialEvents) {
        const revision = this.etcd.currentRevision;
        for (const [key, value] of this.etcd.listEntries(prefix))
          w.offer({ revision, type: 'PUT', key, value, requestId: 0, at: this.clock.now() });
      }
      this.watches.add(w, node);
      return { code: 200, object: w };
    });
  }

  // ---- writes ----

  /** handlers/create.go CreateResource → Store.Create. */
  create<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    obj: ResourceType[R],
    opts: WriteOptions = {},
  ): ApiResponse<ResourceType[R]> {
    // R76 — rest.BeforeCreate: a missing name is generated from generateName (names.SimpleNameGenerator).
    const name = obj.metadata.name || (obj.metadata.generateName ? this.generateName(obj.metadata.generateName) : '');
    return this.mutate(client, 'CREATE', resource, namespace, name, `CREATE ${resource}/${name}`, CREATE_SOURCE, () => {
      // The decoded request body: the store prepares it in place, so the caller's object stays as sent.
      const withNs = clone(obj);
      // create.go records the create's manager on the decoded object — defaulted by the scheme as it
      // was decoded (SetDefaults_*), before admission and the strategy add their parts.
      if (this.options.managedFields) {
        const strategy = this.store(resource).strategy;
        const decoded = { apiVersion: strategy.apiVersion, kind: strategy.kind, ...clone(withNs) };
        decoded.metadata.name = name;
        builtinKind(resource)?.schemeDefaults?.(decoded);
        this.fields().update(
          undefined,
          decoded,
          this.managerOf(client, resource, undefined, 'Update', opts.fieldManager),
          this.resetFieldsOf(resource, undefined),
          toTime(this.clock.now()),
        );
        withNs.metadata.managedFields = decoded.metadata.managedFields;
      }
      this.refuseCreateWhileTerminating(resource, name, false);
      const admission = this.admissionFor<R>(client, 'CREATE', resource, namespace, name, '', !!opts.dryRun);
      return { code: 201, object: this.createObject(resource, namespace, name, withNs, !!opts.dryRun, admission) };
    });
  }

  /** Store.Create of a prepared body (create, and an apply that creates). */
  private createObject<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    name: string,
    withNs: ResourceType[R],
    dryRun: boolean,
    admission?: StoreAdmission<ResourceType[R]>,
  ): ResourceType[R] {
    const store = this.store(resource);
    // plugin/pkg/admission/namespace/lifecycle: once the namespaces exist as objects, a namespaced
    // object can only be created in one of them.
    if (
      store.strategy.namespaced &&
      this.namespacesBootstrapped &&
      !this.stores.namespaces.exists(undefined, namespace ?? '')
    )
      throw notFound('namespaces', namespace ?? '');
    // …and none in a namespace that is being terminated (R122).
    if (store.strategy.namespaced) this.admitNamespaceLifecycle(resource, namespace, name);
    const errs = validateName(resource, name, this.options.release);
    if (errs.length > 0) throw invalid(qualifiedKind(store.strategy), name, errs);
    withNs.metadata.name = name;
    if (store.strategy.namespaced) withNs.metadata.namespace = namespace;
    // The kind's built-in mutating admission and its REST storage's allocations (kinds/kind.ts beforeCreate).
    builtinKind(resource)?.beforeCreate?.(withNs, { list: (r) => this.store(r as Resource).list(undefined).items });
    this.createCounter += 1;
    const uid = deterministicUid(resource, namespace, name, this.createCounter);
    return this.store(resource).create(withNs, { dryRun, uid, admission });
  }

  /** handlers/update.go UpdateResource → Store.Update (PUT of a whole object, optionally the status subresource). */
  update<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    obj: ResourceType[R],
    opts: { subresource?: 'status' | 'finalize' } & WriteOptions = {},
  ): ApiResponse<ResourceType[R]> {
    const name = obj.metadata.name ?? '';
    const path = opts.subresource ? `${resource}/${name}/${opts.subresource}` : `${resource}/${name}`;
    return this.mutate(client, 'UPDATE', resource, namespace, name, `UPDATE ${path}`, UPDATE_SOURCE, () => {
      const preconditions = obj.metadata.uid ? { uid: obj.metadata.uid } : undefined;
      const admission = this.admissionFor<R>(
        client,
        'UPDATE',
        resource,
        namespace,
        name,
        opts.subresource ?? '',
        !!opts.dryRun,
      );
      const track = this.tracker<ResourceType[R]>(client, resource, opts.subresource, opts.fieldManager);
      const r = this.store(resource).update(namespace, name, (existing) => track(existing, clone(obj)), {
        dryRun: opts.dryRun,
        strategy: this.strategyFor(resource, opts.subresource),
        preconditions,
        admission,
      });
      return { code: 200, object: r.object };
    });
  }

  /** handlers/patch.go PatchResource: the patch is applied to the freshest stored copy inside Store.Update. */
  patch<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    opts: { subresource?: 'status' } & WriteOptions = {},
  ): ApiResponse<ResourceType[R]> {
    const path = opts.subresource ? `${resource}/${name}/${opts.subresource}` : `${resource}/${name}`;
    return this.mutate(client, 'PATCH', resource, namespace, name, `PATCH ${path}`, PATCH_SOURCE, () => {
      // patch.go: a PATCH is admitted as an UPDATE, with its options as UpdateOptions (patchToUpdateOptions).
      const admission = this.admissionFor<R>(
        client,
        'UPDATE',
        resource,
        namespace,
        name,
        opts.subresource ?? '',
        !!opts.dryRun,
      );
      const track = this.tracker<ResourceType[R]>(client, resource, opts.subresource, opts.fieldManager);
      const r = this.store(resource).update(
        namespace,
        name,
        (existing) => track(existing, applyPatchBody(existing, type, body)),
        { dryRun: opts.dryRun, strategy: this.strategyFor(resource, opts.subresource), admission },
      );
      return { code: 200, object: r.object };
    });
  }

  /**
   * Server-side apply (patch.go applyPatcher → managedfields): `body`, an object of the
   * resource's kind, applied for `fieldManager`; conflicts with other managers are a 409 unless
   * `force`. An object that does not exist is created from the configuration (201), except through
   * a subresource.
   */
  apply<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    name: string,
    body: ResourceType[R],
    opts: {
      fieldManager: string;
      force?: boolean;
      subresource?: 'status';
      dryRun?: boolean;
      check?: (live: ResourceType[R]) => void;
    },
  ): ApiResponse<ResourceType[R]> {
    const path = opts.subresource ? `${resource}/${name}/${opts.subresource}` : `${resource}/${name}`;
    const text = `PATCH ${path} fieldManager=${opts.fieldManager}${opts.force ? ' force=true' : ''}`;
    return this.mutate(client, 'PATCH', resource, namespace, name, text, APPLY_SOURCE, () => {
      const info = this.managerOf(client, resource, opts.subresource, 'Apply', opts.fieldManager);
      const reset = this.resetFieldsOf(resource, opts.subresource);
      const now = toTime(this.clock.now());
      const store = this.store(resource);
      if (!opts.subresource && !store.exists(namespace, name)) {
        this.refuseCreateWhileTerminating(resource, name, true);
        const created = this.untracked(
          this.fields().apply(undefined, clone(body), info, !!opts.force, reset, now) as ResourceType[R],
        );
        // An apply that creates is admitted as a CREATE (patch.go applyPatcher's create path).
        const admission = this.admissionFor<R>(client, 'CREATE', resource, namespace, name, '', !!opts.dryRun);
        return { code: 201, object: this.createObject(resource, namespace, name, created, !!opts.dryRun, admission) };
      }
      const admission = this.admissionFor<R>(
        client,
        'UPDATE',
        resource,
        namespace,
        name,
        opts.subresource ?? '',
        !!opts.dryRun,
      );
      const r = store.update(
        namespace,
        name,
        (existing) => {
          opts.check?.(existing);
          return this.untracked(
            this.fields().apply(existing, clone(body), info, !!opts.force, reset, now) as ResourceType[R],
          );
        },
        { dryRun: opts.dryRun, strategy: this.strategyFor(resource, opts.subresource), admission },
      );
      return { code: 200, object: r.object };
    });
  }

  /** GET …/scale (ScaleREST.Get): the object's autoscaling/v1 Scale. */
  getScale(
    resource: ScalableResource | CustomResource,
    namespace: string | undefined,
    name: string,
  ): ApiResponse<Scale> {
    return this.serve(undefined, () => {
      if (isCustomResource(resource))
        return {
          code: 200,
          object: customScaleOf(this.store(resource).get(namespace, name), this.scaleSubresourceOf(resource)),
        };
      return { code: 200, object: scaleOf(this.store(resource).get(namespace, name)) };
    });
  }

  /** A custom resource's scale subresource (its storage version's), or the 404 of one it does not have. */
  private scaleSubresourceOf(resource: CustomResource): ScaleSubresource {
    const info = this.customResources.get(resource)?.info;
    const scale = info?.versions.find((v) => v.name === info.storageVersion)?.subresources.scale;
    if (!scale) throw notFound(resource, 'scale');
    return scale;
  }

  /**
   * PATCH or PUT …/scale (ScaleREST.Update): the patch is applied to the object's Scale (or the
   * Scale sent replaces it), and its spec.replicas is written to the object in one update through
   * the main strategy; the answer is the new Scale.
   */
  scale(
    client: ClientIdentity,
    resource: ScalableResource | CustomResource,
    namespace: string | undefined,
    name: string,
    change: { patch: PatchType; body: unknown } | { scale: Scale },
    opts: { dryRun?: boolean } = {},
  ): ApiResponse<Scale> {
    const verb = 'patch' in change ? 'PATCH' : 'UPDATE';
    if (isCustomResource(resource)) {
      return this.mutate(
        client,
        verb,
        resource,
        namespace,
        name,
        `${verb} ${resource}/${name}/scale`,
        'staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/etcd.go ScaleREST.Update',
        () => {
          const subresource = this.scaleSubresourceOf(resource);
          const r = this.store(resource).update(
            namespace,
            name,
            (existing) => {
              const next =
                'patch' in change
                  ? (applyPatchBody(customScaleOf(existing, subresource), change.patch, change.body) as Scale)
                  : change.scale;
              return applyCustomScale(existing, next, subresource);
            },
            { dryRun: opts.dryRun },
          );
          return { code: 200, object: customScaleOf(r.object, subresource) };
        },
      );
    }
    return this.mutate(
      client,
      verb,
      resource,
      namespace,
      name,
      `${verb} ${resource}/${name}/scale`,
      `pkg/registry/apps/${resource.slice(0, -1)}/storage/storage.go ScaleREST.Update`,
      () => {
        const store = this.store(resource) as Store<Deployment | ReplicaSet | StatefulSet>;
        const r = store.update(
          namespace,
          name,
          (existing) => {
            const next =
              'patch' in change
                ? (applyPatchBody(scaleOf(existing), change.patch, change.body) as Scale)
                : change.scale;
            return applyScale(existing, next, resource);
          },
          { dryRun: opts.dryRun },
        );
        return { code: 200, object: scaleOf(r.object) };
      },
    );
  }

  /**
   * V12 — a server-side apply PATCH (application/apply-patch+yaml) of a pod's status with
   * ?fieldManager=…&force=true, as client-go's ApplyStatus sends it (patch.go applyPatcher → apply),
   * after the typed conversion of the live pod (checkConvertible).
   */
  applyStatus(
    client: ClientIdentity,
    namespace: string,
    name: string,
    body: unknown,
    opts: { fieldManager: string; force: true },
  ): ApiResponse<Pod> {
    const config = {
      apiVersion: 'v1',
      kind: 'Pod',
      ...(body as object),
      metadata: { name, namespace, ...(body as Partial<Pod>).metadata },
    } as Pod;
    return this.apply(client, 'pods', namespace, name, config, {
      ...opts,
      subresource: 'status',
      check: checkConvertible as (live: ResourceType['pods']) => void,
    });
  }

  /** Turns on managedFields for every write from now on (kube-apiserver's behaviour; serve and the served API use it). */
  trackManagedFields(): void {
    this.options = { ...this.options, managedFields: true };
  }

  private fieldManager?: FieldManager;

  /** An applied object as stored while managedFields are not kept: without them (each apply then starts afresh). */
  private untracked<T extends KubeObject>(obj: T): T {
    if (!this.options.managedFields) delete obj.metadata.managedFields;
    return obj;
  }

  /** The field manager, over the served kinds' OpenAPI definitions (built on first use). */
  private fields(): FieldManager {
    return (this.fieldManager ??= new FieldManager(schemaDefinitions(), (apiVersion, kind) =>
      this.customResources.fieldRoot(apiVersion, kind),
    ));
  }

  /** The update function of a PUT or PATCH, recording its manager when managed fields are kept. */
  private tracker<T>(
    client: ClientIdentity,
    resource: Resource,
    subresource: 'status' | 'finalize' | undefined,
    fieldManager: string | undefined,
  ): (existing: T, next: T) => T {
    if (!this.options.managedFields) return keepNext;
    const info = this.managerOf(client, resource, subresource, 'Update', fieldManager);
    const reset = this.resetFieldsOf(resource, subresource);
    return (existing, next) => {
      this.fields().update(existing as KubeObject, next as KubeObject, info, reset, toTime(this.clock.now()));
      return next;
    };
  }

  /**
   * buildManagerInfo: the fieldManager parameter or, without one, the client's product (upstream
   * takes the User-Agent up to its first '/': kubelet, kube-controller-manager).
   */
  private managerOf(
    client: ClientIdentity,
    resource: Resource,
    subresource: string | undefined,
    operation: 'Apply' | 'Update',
    fieldManager: string | undefined,
  ): ManagerInfo {
    const manager =
      fieldManager ??
      (CONTROLLER_MANAGER_COMPONENTS.has(client.component) ? 'kube-controller-manager' : client.name.split('/')[0]);
    return {
      manager,
      operation,
      apiVersion: this.store(resource).strategy.apiVersion,
      ...(subresource ? { subresource } : {}),
    };
  }

  /**
   * handlers/delete.go DeleteResource → Store.Delete. Options are validated before storage is
   * touched (R2: 422 beats 404). The response is the object (pods: ReturnDeletedObject, R49) or,
   * for other resources once removed, a Status; 202 only for an explicit orphanDependents=false
   * that did not remove the object (R50).
   */
  delete<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): ApiResponse<DeleteResponseBody<R>> {
    const text = `DELETE ${resource}/${name}${describeDeleteOptions(options)}`;
    return this.mutate(client, 'DELETE', resource, namespace, name, text, DELETE_SOURCE, () => {
      const errs = validateDeleteOptions(options);
      if (errs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', '', errs);
      // A REST storage with its own Delete (namespaces, CRDs) answers 200 with what it returns.
      const kind = builtinKind(resource);
      if (kind?.restDelete) {
        const rest = {
          store: this.store(resource) as Store<KubeObject>,
          now: this.clock.now(),
          admission: () =>
            this.deleteAdmission<R>(client, resource, namespace, name, options) as StoreAdmission<KubeObject>,
        };
        return { code: 200, object: kind.restDelete(rest, name, options) as DeleteResponseBody<R> };
      }
      const admission = this.deleteAdmission<R>(client, resource, namespace, name, options);
      const { object, wasDeleted } = this.store(resource).delete(namespace, name, options, admission);
      return {
        code: !wasDeleted && options.orphanDependents === false ? 202 : 200,
        object: object as DeleteResponseBody<R>,
      };
    });
  }

  /** handlers/delete.go DeleteCollection → Store.DeleteCollection (R61); answers with the items as listed. */
  deleteCollection<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    options: DeleteOptions,
    matches: (o: ResourceType[R]) => boolean = () => true,
    opts: { admission?: boolean } = {},
  ): ApiResponse<ResourceType[R][]> {
    // `admission: false`: the apiserver's own callers on its storage (the CRDFinalizer's rest.ValidateAllObjectFunc).
    const admission =
      opts.admission === false
        ? () => undefined
        : (name: string) => this.deleteAdmission<R>(client, resource, namespace, name, options);
    return this.mutate(
      client,
      'DELETECOLLECTION',
      resource,
      namespace,
      '',
      `DELETECOLLECTION ${resource}${describeDeleteOptions(options)}`,
      `${HANDLERS}/delete.go DeleteCollection → ${STORE_SOURCE} Store.DeleteCollection`,
      () => ({
        code: 200,
        object: this.store(resource).deleteCollection(namespace, options, matches, admission),
      }),
    );
  }

  /**
   * R78, D5–D7 — pods/eviction (eviction.go EvictionREST.Create). The pod is read; one that
   * canIgnorePDB (terminal, Pending or already deleting) is deleted at once, with a
   * resourceVersion precondition while it is Pending (shouldEnforceResourceVersion); any other is
   * checked against the PodDisruptionBudget that selects it (checkPodDisruptionBudgets): a spent
   * disruption is written to the budget's status, in this request, before the pod is deleted; a
   * refusal is the 429 (or 403, 500) the check throws. The answer is 201 with a Success Status.
   */
  evict(
    client: ClientIdentity,
    namespace: string,
    name: string,
    eviction: Eviction,
    opts: { dryRun?: boolean } = {},
  ): ApiResponse<Status> {
    const text = `CREATE pods/${name}/eviction${describeDeleteOptions(eviction.deleteOptions ?? {})}`;
    return this.mutate(
      client,
      'CREATE',
      'pods',
      namespace,
      name,
      text,
      `${EVICTION_SOURCE} EvictionREST.Create`,
      () => {
        // An eviction is a create (of the pods/eviction subresource): refused in a terminating namespace (R122).
        this.admitNamespaceLifecycle('pods', namespace, name);
        // create.go: mutating admission on the Eviction; EvictionREST.Create: createValidation on it
        // first. The pod's deletion that follows goes to the store without admission (ValidateAllObjectFunc).
        if (this.webhooks.has(true) || this.webhooks.has(false) || this.policies.has())
          eviction = this.admitEviction(client, namespace, name, eviction, !!opts.dryRun);
        const storage = {
          pods: this.stores.pods,
          budgets: this.stores.poddisruptionbudgets,
          budgetStatus: this.strategies.poddisruptionbudgets.status as unknown as Strategy<PodDisruptionBudget>,
          clock: this.clock,
          release: this.options.release,
        };
        createEviction(storage, namespace, name, eviction, !!opts.dryRun);
        return { code: 201, object: SUCCESS };
      },
    );
  }

  /** pods/binding: BindingREST (binding.ts). */
  bind(client: ClientIdentity, namespace: string, name: string, nodeName: string): ApiResponse<Pod> {
    return this.mutate(
      client,
      'CREATE',
      'pods',
      namespace,
      name,
      `CREATE pods/${name}/binding node=${nodeName}`,
      BINDING_SOURCE,
      () => ({
        code: 201,
        object: setPodHostAndAnnotations(this.stores.pods, this.clock, this.options.release, namespace, name, nodeName),
      }),
    );
  }

  /**
   * R76 — the next name for `base`: its Nth generated name is derived from N, a count per base,
   * so a workload's pod names depend on that workload alone (not on what else was created before),
   * and are the same on every run and through every client.
   */
  private generateName(base: string): string {
    const n = (this.generatedNames.get(base) ?? 0) + 1;
    this.generatedNames.set(base, n);
    return generateName(base, n);
  }

  // ---- bookkeeping for assertions ----

  request(id: number): RequestRecord | undefined {
    const r = this.requests[this.timeline.keepsEvents ? id - 1 - this.requestsDropped : 0];
    return r?.id === id ? r : undefined;
  }

  get lastRequest(): RequestRecord | undefined {
    return this.requests[this.requests.length - 1];
  }

  /** The object stored under `key` just after revision `revision` (undefined if absent then). */
  objectAt(key: string, revision: number): KubeObject | undefined {
    let state: KubeObject | undefined;
    for (const e of this.etcd.keyHistory(key)) {
      if (e.revision > revision) break;
      state = e.type === 'PUT' ? (e.value as unknown as KubeObject) : undefined;
    }
    return state;
  }

  keyFor(resource: Resource, namespace: string | undefined, name: string): string {
    return this.store(resource).key(namespace, name);
  }

  /** etcd compaction model: every interval the apiserver compacts to the revision it saw one interval earlier. */
  compactedRevision(): number {
    // With dropped history, revisionAt answers the compacted revision for the times before it.
    const interval = this.options.compactionIntervalMs;
    const ticks = Math.floor((this.clock.now() - this.startedAt) / interval);
    if (ticks < 1) return 0;
    return this.etcd.revisionAt(this.startedAt + (ticks - 1) * interval);
  }

  private prefixOf(resource: Resource, namespace: string | undefined): string {
    const s = this.store(resource).strategy;
    return s.namespaced && namespace ? `/registry/${s.etcdPrefix}/${namespace}/` : `/registry/${s.etcdPrefix}/`;
  }

  /**
   * The objects under `prefix` as they were just after `revision`, in key order (a past etcd range
   * read): the current range with the changes made since `revision` undone, newest first. A page
   * of a paginated LIST (continue) reads a recent revision, so this costs the keys plus the few
   * changes since, not the whole history from the start.
   */
  private stateAt(prefix: string, revision: number): [string, StoredObject][] {
    const state = new Map<string, StoredObject>(this.etcd.listEntries(prefix));
    let reappeared = false;
    for (let r = this.etcd.currentRevision; r > revision; r--) {
      const e = this.etcd.change(r)!;
      if (!e.key.startsWith(prefix)) continue;
      // Before a creation the key was absent; before an update or a deletion it held `prev`.
      if (e.prev === undefined) state.delete(e.key);
      else {
        reappeared ||= !state.has(e.key);
        state.set(e.key, e.prev);
      }
    }
    const entries = [...state.entries()];
    return reappeared ? entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : entries;
  }

  /**
   * R122 — the NamespaceLifecycle admission plugin for a create: a namespace that is terminating
   * takes no new content (403 Forbidden with the NamespaceTerminating cause).
   */
  private admitNamespaceLifecycle(resource: Resource, namespace: string | undefined, name: string): void {
    if (namespace === undefined || !this.stores.namespaces.exists(undefined, namespace)) return;
    const ns = this.stores.namespaces.get(undefined, namespace);
    if (isTerminating(ns))
      throw namespaceTerminatingError(qualifiedResource(this.store(resource).strategy), name, namespace);
  }

  /**
   * GetResetFields of the resource's strategy: a custom resource resets `status` through its main
   * resource, and `spec` through its status, only when its CRD version has a status subresource
   * (customresource/strategy.go, status_strategy.go); the built-in kinds as resetFields says.
   */
  private resetFieldsOf(resource: Resource, subresource: string | undefined): FieldSet {
    if (!isCustomResource(resource)) {
      const reset = builtinKind(resource)?.resetFields ?? DEFAULT_RESET_FIELDS;
      return FieldSet.of(...(subresource === 'status' ? reset.status : reset.main));
    }
    if (!this.customResources.get(resource)?.status) return new FieldSet();
    return subresource === 'status' ? FieldSet.of([{ field: 'spec' }]) : FieldSet.of([{ field: 'status' }]);
  }

  /**
   * A5 — no new custom resources while their CRD is terminating. Up to v1.33 the crdHandler
   * refuses a POST with 405 ("create not allowed while custom resource definition is
   * terminating") and lets a server-side apply create one; from v1.34 (kubernetes#132467) a
   * create admission wrapper (forbidCreateAdmission) refuses both with 403 Forbidden.
   */
  private refuseCreateWhileTerminating(resource: Resource, name: string, byApply: boolean): void {
    if (!isCustomResource(resource) || !this.customResources.get(resource)?.info.terminating) return;
    const cause = 'create not allowed while custom resource definition is terminating';
    if (this.options.release.atLeast(34)) throw forbidden(resource, name, cause);
    if (!byApply) throw createWhileTerminating(resource);
  }

  /** The namespaced resources this apiserver stores, with their API version (the namespace controller's discovery). */
  namespacedResources(): { resource: Resource; apiVersion: string }[] {
    const custom = this.customResources.list().map((c) => c.resource);
    return [...(Object.keys(this.stores) as Resource[]), ...custom]
      .filter((r) => this.store(r).strategy.namespaced)
      .map((resource) => ({ resource, apiVersion: this.store(resource).strategy.apiVersion }));
  }

  /**
   * The Store of a resource: a built-in one, or that of a custom resource whose CRD is served
   * (a custom resource not or no longer served is the 404 of a path nothing serves).
   */
  private store<R extends Resource>(resource: R): Store<ResourceType[R]> {
    const builtin = (this.stores as Record<string, Store<KubeObject>>)[resource];
    if (builtin !== undefined) return builtin as Store<ResourceType[R]>;
    const custom = this.customResources.get(resource);
    if (custom === undefined)
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: 'the server could not find the requested resource',
        details: {},
      });
    return custom.store as unknown as Store<ResourceType[R]>;
  }

  private strategyFor(resource: Resource, subresource: 'status' | 'finalize' | undefined): Strategy<never> | undefined {
    if (subresource === 'finalize') {
      const finalize = this.strategies[resource]?.finalize;
      if (!finalize) throw notFound(resource, 'finalize');
      return finalize as unknown as Strategy<never>;
    }
    if (subresource !== 'status') return undefined;
    if (isCustomResource(resource)) {
      const status = this.customResources.get(resource)?.status;
      if (!status) throw notFound(resource, 'status');
      return status as unknown as Strategy<never>;
    }
    return this.strategies[resource]?.status as Strategy<never> | undefined;
  }

  /** Runs one mutating request: records its arrival, runs it, and turns StatusErrors into failure responses. */
  private mutate<T>(
    client: ClientIdentity,
    verb: string,
    resource: Resource,
    namespace: string | undefined,
    name: string,
    text: string,
    source: string,
    run: () => { code: number; object: T },
  ): ApiResponse<T> {
    // `response` has its slot from the start: the record is kept for the whole run, and a member
    // added later would need a second allocation for it.
    // With webhooks configured, a caller may not have its answer yet (WebhookCallPending): the
    // request then leaves no trace, to run again once the HTTP layer has called the webhook.
    const mark =
      this.webhooks.has(true) || this.webhooks.has(false) || this.policies.has() ? this.timeline.checkpoint() : -1;
    const record: RequestRecord = {
      id: ++this.requestCount,
      verb,
      resource,
      namespace,
      name,
      revisionBefore: this.etcd.currentRevision,
      response: undefined,
    };
    if (!this.timeline.keepsEvents) this.requests.length = 0;
    this.requests.push(record);
    // A namespace's deletion and its controller's writes are shown (their etcd writes stay quiet); the
    // system namespaces kube-apiserver creates are not.
    const quietly = builtinKind(resource)?.quiet;
    const quiet = typeof quietly === 'object' ? !quietly.requestsShown(verb) : quietly === true;
    const event = quiet ? undefined : this.timeline.record('apiserver', text, source, { actor: client.name });
    if (event) event.requestId = record.id;
    this.etcd.currentRequestId = record.id;
    const created = this.createCounter;
    if (this.admissionWarnings.length > 0) this.admissionWarnings = [];
    try {
      const response = this.serve(record.id, run);
      if (this.admissionWarnings.length > 0) response.warnings = this.admissionWarnings;
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
        this.requests.pop();
        this.requestCount -= 1;
        this.createCounter = created;
      }
      throw e;
    } finally {
      if (mark >= 0) this.timeline.release();
      this.etcd.currentRequestId = 0;
    }
  }

  private serve<T>(requestId: number | undefined, run: () => { code: number; object: T }): ApiResponse<T> {
    try {
      const { code, object } = run();
      return { ok: true, code, object, requestId: requestId ?? 0 };
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      return { ok: false, code: e.code, status: e.status, requestId: requestId ?? 0 };
    }
  }

  /**
   * The admission chain of one CREATE or UPDATE (a PATCH is admitted as an UPDATE, with its
   * options as UpdateOptions: patch.go patchToUpdateOptions), or undefined without webhooks (the
   * plugins then handle nothing, and nothing is built for them). Kind, group and version are the
   * resource's; the options are the request's CreateOptions or UpdateOptions as the webhook
   * receives them.
   */
  private admissionFor<R extends Resource>(
    client: ClientIdentity,
    operation: 'CREATE' | 'UPDATE',
    resource: R,
    namespace: string | undefined,
    name: string,
    subresource: string,
    dryRun: boolean,
  ): StoreAdmission<ResourceType[R]> | undefined {
    if (!this.webhooks.has(true) && !this.webhooks.has(false) && !this.policies.has()) return undefined;
    const options = {
      kind: operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    };
    return this.admissionChain<R>(client, { operation, resource, namespace, name, subresource, dryRun }, options);
  }

  private admissionChain<R extends Resource>(
    client: ClientIdentity,
    request: Omit<AdmissionAttributes, 'group' | 'version' | 'kind' | 'namespaced'>,
    options: Record<string, unknown>,
  ): StoreAdmission<ResourceType[R]> | undefined {
    const mutating = this.webhooks.has(true);
    const validating = this.webhooks.has(false);
    const policies = this.policies.has();
    if (!mutating && !validating && !policies) return undefined;
    const info = this.admissionInfo(client, request, options);
    return {
      mutate: (obj, old) => (mutating ? (this.webhooks.mutate(info, obj, old) as ResourceType[R]) : obj),
      // The ValidatingAdmissionPolicy plugin runs before ValidatingAdmissionWebhook (the plugin order of kube-apiserver).
      validate: (obj, old) => {
        if (policies) this.admissionWarnings.push(...this.policies.validate(info, obj, old));
        if (validating) this.webhooks.validate(info, obj, old);
      },
    };
  }

  /** delete.go: mutating admission first, with no object, then validating admission on the object (Store.Delete's deleteValidation). */
  private deleteAdmission<R extends Resource>(
    client: ClientIdentity,
    resource: R,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions,
  ): StoreAdmission<ResourceType[R]> | undefined {
    if (!this.webhooks.has(true) && !this.webhooks.has(false) && !this.policies.has()) return undefined;
    const request = {
      operation: 'DELETE' as const,
      resource,
      namespace,
      name,
      subresource: '',
      dryRun: (options.dryRun ?? []).length > 0,
    };
    const deleteOptions = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...options };
    if (this.webhooks.has(true))
      this.webhooks.mutate(this.admissionInfo(client, request, deleteOptions), undefined, undefined);
    return this.admissionChain<R>(client, request, deleteOptions);
  }

  private admissionInfo(
    client: ClientIdentity,
    request: Omit<AdmissionAttributes, 'group' | 'version' | 'kind' | 'namespaced'>,
    options: Record<string, unknown>,
  ) {
    const s = this.store(request.resource as Resource).strategy;
    const [group, version] = s.apiVersion.includes('/') ? s.apiVersion.split('/') : ['', s.apiVersion];
    const attributes: AdmissionAttributes = {
      ...request,
      group,
      version,
      kind: s.kind,
      namespaced: s.namespaced,
      namespace: s.namespaced ? request.namespace : undefined,
    };
    return { attributes, username: client.name, options, requestId: this.requestCount };
  }

  /** CREATE pods/NAME/eviction through the webhooks, with the policy/v1 Eviction as the object (R203). */
  private admitEviction(
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
    const base = this.admissionInfo(client, request, {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(dryRun ? { dryRun: ['All'] } : {}),
    });
    const info = {
      ...base,
      attributes: { ...base.attributes, objectKind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
    };
    const object = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      ...eviction,
      metadata: { ...eviction.metadata, name, namespace },
    } as KubeObject;
    const admitted = this.webhooks.has(true) ? this.webhooks.mutate(info, object, undefined)! : object;
    if (this.policies.has()) this.admissionWarnings.push(...this.policies.validate(info, admitted, undefined));
    if (this.webhooks.has(false)) this.webhooks.validate(info, admitted, undefined);
    return admitted as Eviction;
  }

  /** The webhooks of every configuration of one kind, configurations in name order (the configuration managers sort them so). */
  private webhooksOf(mutating: boolean): ConfiguredWebhook[] {
    const slot = mutating ? 'mutating' : 'validating';
    let hooks = this.configuredWebhooks[slot];
    if (hooks === undefined) {
      const store = mutating ? this.stores.mutatingwebhookconfigurations : this.stores.validatingwebhookconfigurations;
      hooks = store
        .list(undefined)
        .items.flatMap((c) =>
          ((c.webhooks ?? []) as Webhook[]).map((hook) => ({ configuration: c.metadata.name ?? '', hook })),
        );
      this.configuredWebhooks[slot] = hooks;
    }
    return hooks;
  }

  /** Every policy with the bindings naming it, policies and bindings in name order (bindings of no policy left out). */
  private policyHooksOf(): PolicyHook[] {
    if (this.policyHooks === undefined) {
      const bindings = this.stores.validatingadmissionpolicybindings.list(undefined).items;
      this.policyHooks = this.stores.validatingadmissionpolicies
        .list(undefined)
        .items.map((policy) => ({
          policy,
          bindings: bindings.filter((b) => b.spec?.policyName === policy.metadata.name),
        }))
        .filter((h) => h.bindings.length > 0);
    }
    return this.policyHooks;
  }

  /** The REST mapping of a ValidatingAdmissionPolicy's paramKind: the built-in or served custom resource of that apiVersion and kind (R210). */
  private paramResource(apiVersion: string, kind: string): ParamResource | undefined {
    const custom = this.customResources.list().map((c) => c.resource);
    const resource = [...(Object.keys(this.stores) as Resource[]), ...custom].find(
      (r) => this.store(r).strategy.apiVersion === apiVersion && this.store(r).strategy.kind === kind,
    );
    if (resource === undefined) return undefined;
    const store = this.store(resource);
    return { namespaced: store.strategy.namespaced, list: (namespace) => store.list(namespace).items };
  }

  private namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined {
    return this.stores.namespaces.exists(undefined, namespace)
      ? this.stores.namespaces.get(undefined, namespace).metadata.labels
      : undefined;
  }

  /** Fans one etcd change out to every open watch, and records it once on the watch lane. */
  private dispatch(e: EtcdEvent): void {
    const resource = resourceOf(e.key);
    const configuration = builtinKind(resource)?.admissionConfiguration;
    if (configuration === 'validating-webhooks') this.configuredWebhooks.validating = undefined;
    else if (configuration === 'mutating-webhooks') this.configuredWebhooks.mutating = undefined;
    else if (configuration === 'policies') this.policyHooks = undefined;
    // The crdHandler's storage follows every CRD write before any watcher hears of it.
    else if (resource === APIEXTENSIONS_GROUP && e.key.startsWith(CRD_PREFIX))
      this.customResources.changed(
        e.key.slice(CRD_PREFIX.length),
        e.type === 'DELETE' ? undefined : (e.value as unknown as CustomResourceDefinition),
      );
    if (!QUIET_RESOURCES.has(pluralOf(e.key))) {
      this.timeline.recordRevision(
        'watch',
        e.revision,
        this.watchLane,
        'staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go transform',
      );
    }
    this.watches.offer(e);
  }

  /** The watch lane's events keep only their revision; the text is read back from etcd's history. */
  private readonly watchLane: RevisionReader = {
    text: (revision) => {
      const e = this.etcd.change(revision)!;
      const type = e.type === 'DELETE' ? 'DELETED' : e.prev ? 'MODIFIED' : 'ADDED';
      const plural = pluralOf(e.key);
      return `${type} ${plural}/${e.key.slice(e.key.lastIndexOf('/') + 1)} rv=${revision}`;
    },
    patch: () => undefined,
  };
}

/** The 405 MethodNotSupported of a create while the CRD is terminating, with the crdHandler's message. */
function createWhileTerminating(resource: CustomResource): StatusError {
  const dot = resource.indexOf('.');
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'MethodNotAllowed',
    code: 405,
    message: 'create not allowed while custom resource definition is terminating',
    details: { group: resource.slice(dot + 1), kind: resource.slice(0, dot) },
  });
}

/** The update function without managed fields: the updated object as it is (one function for every write). */
function keepNext<T>(_existing: T, next: T): T {
  return next;
}

/** names.SimpleNameGenerator: generateName (cut to 58 characters) plus 5 characters, here derived from the base's count so runs repeat. */
function generateName(base: string, counter: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const digest = createHash('sha1').update(`${base}#${counter}`).digest();
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[digest[i] % alphabet.length];
  return base.slice(0, 58) + suffix;
}

/**
 * ValidateObjectMeta's name checks (object-names.ts): required, then the kind's own check or a
 * DNS-1123 subdomain.
 */
export function validateName(resource: Resource, name: string, release: Release = DEFAULT_RELEASE): FieldError[] {
  return validateObjectName(name, builtinKind(resource)?.validateName, release);
}

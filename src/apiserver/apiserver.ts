import type { Clock } from '../clock';
import type { Component } from '../timeline/event';
import type { RevisionReader, Timeline } from '../timeline/timeline';
import { createHash } from 'node:crypto';
import { badRequest, conflict, invalid, notFound, StatusError, type FieldError } from './errors';
import { Etcd, type EtcdEvent, type StoredObject } from './etcd';
import { canIgnorePDB, checkEvictionPreconditions, EVICTION_CONDITION, EVICTION_SOURCE, evictionDeleteOptions, shouldEnforceResourceVersion, type Eviction } from './eviction';
import { EventTtl } from './event-ttl';
import { genericStrategy } from './generic-strategy';
import { clone, type KubeObject } from './object';
import { applyPatchBody, type PatchType } from './patch';
import { serverSideApply } from './field-manager';
import { podStatusStrategy, podStrategyFor } from './pod-strategy';
import { updatePodCondition } from './pod-util';
import { Store, STORE_SOURCE } from './store';
import type { Strategy } from './strategy';
import { admitDefaultTolerationSeconds } from './admission';
import { DEFAULT_RELEASE, type Release } from '../release';
import type { DeleteOptions, Event, Lease, MutatingWebhookConfiguration, Namespace, Node, Pod, ReplicaSet, Status, ValidatingWebhookConfiguration } from './types';
import { NO_WEBHOOK_CALLER, WebhookCallPending, type WebhookCaller } from './webhook/caller';
import { webhookConfigurationStrategy, type Webhook } from './webhook/configuration';
import { WebhookAdmission, type ConfiguredWebhook } from './webhook/dispatcher';
import type { AdmissionAttributes } from './webhook/matching';
import type { StoreAdmission } from './store';
import { encodeContinue, expired, parseListOptions, selectionMatches, tooLargeResourceVersion, type ListOptions } from './list-options';
import { deterministicUid } from './uid';
import { validateDeleteOptions } from './validation';
import { Watch, type WatchEvent, type WatchFilter } from './watch';

export type Resource = 'pods' | 'replicasets' | 'nodes' | 'events' | 'leases' | 'namespaces' | 'validatingwebhookconfigurations' | 'mutatingwebhookconfigurations';
export type ResourceType = {
  pods: Pod;
  replicasets: ReplicaSet;
  nodes: Node;
  events: Event;
  leases: Lease;
  namespaces: Namespace;
  validatingwebhookconfigurations: ValidatingWebhookConfiguration;
  mutatingwebhookconfigurations: MutatingWebhookConfiguration;
};

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

export type ApiResponse<T> =
  | { ok: true; code: number; object: T; requestId: number }
  | { ok: false; code: number; status: Status & { reason: string; message: string }; requestId: number };

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
}

export const DEFAULT_APISERVER_OPTIONS: ApiServerOptions = { watchLatencyMs: 0, compactionIntervalMs: 5 * 60_000, release: DEFAULT_RELEASE };

const HANDLERS = 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers';
/** Event objects are stored and watchable, but kept out of the apiserver/etcd/watch lanes to keep timelines readable. */
const QUIET_RESOURCES: ReadonlySet<Resource> = new Set(['events', 'leases', 'namespaces']);
const REGISTRY = '/registry/';

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
  private readonly stores: { [R in Resource]: Store<ResourceType[R]> };
  private readonly watches: WatchIndex;
  /** Every request (or, when the timeline keeps no events, only the last one). */
  private readonly requests: RequestRecord[] = [];
  private requestCount = 0;
  /** Request records dropped with compacted history (dropCompactedHistory). */
  private requestsDropped = 0;
  private createCounter = 0;
  private namespacesBootstrapped = false;
  private readonly startedAt: number;
  /** The admission webhooks of the configurations stored (ValidatingAdmissionWebhook, MutatingAdmissionWebhook). */
  readonly webhooks: WebhookAdmission;
  /** How webhooks are reached: modelled in scenarios, over HTTPS in `serve` (webhook/caller.ts). */
  webhookCaller: WebhookCaller = NO_WEBHOOK_CALLER;
  /** The configured webhooks, read again after a configuration changes (the configuration managers' informers). */
  private configuredWebhooks: { validating?: ConfiguredWebhook[]; mutating?: ConfiguredWebhook[] } = {};

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    readonly options: ApiServerOptions = DEFAULT_APISERVER_OPTIONS,
  ) {
    this.startedAt = clock.now();
    this.watches = new WatchIndex(clock, options.watchLatencyMs);
    this.etcd = new Etcd(timeline, () => clock.now(), (key) => !QUIET_RESOURCES.has(resourceOf(key) as Resource));
    this.stores = {
      pods: new Store<Pod>(this.etcd, clock, podStrategyFor(options.release), true, options.release),
      // pkg/registry/apps/replicaset/strategy.go: apps/v1 ReplicaSets delete dependents (in the background) by default.
      replicasets: new Store<ReplicaSet>(this.etcd, clock, genericStrategy<ReplicaSet>({ kind: 'ReplicaSet', apiVersion: 'apps/v1', resource: 'replicasets', namespaced: true, gcPolicy: 'DeleteDependents' })),
      // pkg/registry/core/node/storage: nodes live under /registry/minions.
      nodes: new Store<Node>(this.etcd, clock, genericStrategy<Node>({ kind: 'Node', apiVersion: 'v1', resource: 'nodes', etcdPrefix: 'minions', namespaced: false })),
      events: new Store<Event>(this.etcd, clock, genericStrategy<Event>({ kind: 'Event', apiVersion: 'v1', resource: 'events', namespaced: true })),
      // Node heartbeats (pkg/kubelet/nodelease): one Lease per node in kube-node-lease.
      leases: new Store<Lease>(this.etcd, clock, genericStrategy<Lease>({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', resource: 'leases', namespaced: true })),
      // pkg/registry/core/namespace: cluster-scoped; deleting one (and its contents) is not modelled.
      namespaces: new Store<Namespace>(this.etcd, clock, genericStrategy<Namespace>({ kind: 'Namespace', apiVersion: 'v1', resource: 'namespaces', namespaced: false })),
      // pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration: cluster-scoped.
      validatingwebhookconfigurations: new Store<ValidatingWebhookConfiguration>(this.etcd, clock, webhookConfigurationStrategy('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations')),
      mutatingwebhookconfigurations: new Store<MutatingWebhookConfiguration>(this.etcd, clock, webhookConfigurationStrategy('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations')),
    };
    this.webhooks = new WebhookAdmission(timeline, { webhooks: (mutating) => this.webhooksOf(mutating), namespaceLabels: (ns) => this.namespaceLabels(ns) }, () => this.webhookCaller);
    this.etcd.subscribe((e) => this.dispatch(e));
    if (options.dropCompactedHistory) this.scheduleCompaction();
  }

  /**
   * R207 — storage/etcd3/compact.go compactor: every --etcd-compaction-interval it compacts etcd to the
   * revision it saw one interval earlier (compactedRevision), and here the history before it is
   * dropped, with the timeline events and request records of that time. Events whose --event-ttl
   * ran out are removed first (EventTtl).
   */
  private scheduleCompaction(): void {
    const interval = this.options.compactionIntervalMs;
    const eventTtl = new EventTtl(this.etcd);
    this.etcd.subscribe((e) => eventTtl.note(e));
    const tick = () => {
      eventTtl.expire(this.clock.now());
      const revision = this.compactedRevision();
      const ticks = Math.floor((this.clock.now() - this.startedAt) / interval);
      this.etcd.compact(revision);
      this.timeline.forgetUntil(this.startedAt + (ticks - 1) * interval);
      let drop = 0;
      while (drop < this.requests.length && this.requests[drop].revisionBefore < revision) drop++;
      if (this.timeline.keepsEvents && drop > 0) {
        this.requests.splice(0, drop);
        this.requestsDropped += drop;
      }
      for (const store of Object.values(this.stores)) store.forgetAbsentKeys();
      this.clock.after(interval, tick, { background: true });
    };
    this.clock.after(interval, tick, { background: true });
  }

  // ---- reads (not recorded on the timeline: they change nothing) ----

  get<R extends Resource>(resource: R, namespace: string | undefined, name: string): ApiResponse<ResourceType[R]> {
    return this.serve(undefined, () => ({ code: 200, object: this.stores[resource].get(namespace, name) }));
  }

  list<R extends Resource>(resource: R, namespace: string | undefined, matches: (o: ResourceType[R]) => boolean = () => true): ApiResponse<{ items: ResourceType[R][]; resourceVersion: string }> {
    return this.serve(undefined, () => {
      const list = this.stores[resource].list(namespace);
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
  listPage<R extends Resource>(resource: R, namespace: string | undefined, query: ListOptions): ApiResponse<ListPage<ResourceType[R]>> {
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
          throw expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
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
      const selected = entries.filter(([key, obj]) => (startKey === undefined || key >= startKey) && selectionMatches(resource, opts, obj as unknown as KubeObject));
      const page = limit > 0 ? selected.slice(0, limit) : selected;
      const result: ListPage<ResourceType[R]> = { items: page.map(([, obj]) => obj as unknown as ResourceType[R]), resourceVersion: String(revision) };
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
      this.create({ name: 'kube-apiserver', component: 'apiserver' }, 'namespaces', undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
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
      const from = opts.resourceVersion === undefined || initial ? undefined : Number(opts.resourceVersion);
      if (from !== undefined && from < this.compactedRevision()) {
        throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: `too old resource version: ${from} (${this.compactedRevision()})` });
      }
      const w: Watch = new Watch(this.clock, this.options.watchLatencyMs, filter, handler as (e: WatchEvent) => void, () => this.watches.remove(w, node));
      if (from !== undefined) for (const e of this.etcd.historySince(from)) w.offer(e);
      if (initial) {
        const revision = this.etcd.currentRevision;
        for (const [key, value] of this.etcd.listEntries(prefix)) w.offer({ revision, type: 'PUT', key, value, requestId: 0, at: this.clock.now() });
      }
      this.watches.add(w, node);
      return { code: 200, object: w };
    });
  }

  // ---- writes ----

  /** handlers/create.go CreateResource → Store.Create. */
  create<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, obj: ResourceType[R], opts: { dryRun?: boolean } = {}): ApiResponse<ResourceType[R]> {
    // R76 — rest.BeforeCreate: a missing name is generated from generateName (names.SimpleNameGenerator).
    const name = obj.metadata.name || (obj.metadata.generateName ? generateName(obj.metadata.generateName, this.createCounter + 1) : '');
    return this.mutate(client, 'CREATE', resource, namespace, name, `CREATE ${resource}/${name}`, `${HANDLERS}/create.go createHandler → ${STORE_SOURCE} Store.Create`, () => {
      const store = this.stores[resource];
      // plugin/pkg/admission/namespace/lifecycle: once the namespaces exist as objects, a namespaced
      // object can only be created in one of them.
      if (store.strategy.namespaced && this.namespacesBootstrapped && !this.stores.namespaces.exists(undefined, namespace ?? '')) throw notFound('namespaces', namespace ?? '');
      const errs = validateName(resource, name);
      if (errs.length > 0) throw invalid(store.strategy.kind, name, errs);
      // The decoded request body: the store prepares it in place, so the caller's object stays as sent.
      const withNs = clone(obj);
      withNs.metadata.name = name;
      if (store.strategy.namespaced) withNs.metadata.namespace = namespace;
      if (resource === 'pods') admitDefaultTolerationSeconds(withNs as Pod);
      this.createCounter += 1;
      const uid = deterministicUid(resource, namespace, name, this.createCounter);
      const admission = this.admissionFor<R>(client, { operation: 'CREATE', resource, namespace, name, subresource: '', dryRun: !!opts.dryRun }, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', ...(opts.dryRun ? { dryRun: ['All'] } : {}) });
      return { code: 201, object: this.stores[resource].create(withNs, { dryRun: opts.dryRun, uid, admission }) };
    });
  }

  /** handlers/update.go UpdateResource → Store.Update (PUT of a whole object, optionally the status subresource). */
  update<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, obj: ResourceType[R], opts: { subresource?: 'status'; dryRun?: boolean } = {}): ApiResponse<ResourceType[R]> {
    const name = obj.metadata.name ?? '';
    const path = opts.subresource ? `${resource}/${name}/${opts.subresource}` : `${resource}/${name}`;
    return this.mutate(client, 'UPDATE', resource, namespace, name, `UPDATE ${path}`, `${HANDLERS}/update.go UpdateResource → ${STORE_SOURCE} Store.Update`, () => {
      const preconditions = obj.metadata.uid ? { uid: obj.metadata.uid } : undefined;
      const admission = this.admissionFor<R>(client, { operation: 'UPDATE', resource, namespace, name, subresource: opts.subresource ?? '', dryRun: !!opts.dryRun }, updateOptions(opts.dryRun));
      const r = this.stores[resource].update(namespace, name, () => clone(obj), { dryRun: opts.dryRun, strategy: this.strategyFor(resource, opts.subresource), preconditions, admission });
      return { code: 200, object: r.object };
    });
  }

  /** handlers/patch.go PatchResource: the patch is applied to the freshest stored copy inside Store.Update. */
  patch<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, name: string, type: PatchType, body: unknown, opts: { subresource?: 'status'; dryRun?: boolean } = {}): ApiResponse<ResourceType[R]> {
    const path = opts.subresource ? `${resource}/${name}/${opts.subresource}` : `${resource}/${name}`;
    return this.mutate(client, 'PATCH', resource, namespace, name, `PATCH ${path}`, `${HANDLERS}/patch.go PatchResource → ${STORE_SOURCE} Store.Update`, () => {
      // patch.go: a PATCH is admitted as an UPDATE, with its options as UpdateOptions (patchToUpdateOptions).
      const admission = this.admissionFor<R>(client, { operation: 'UPDATE', resource, namespace, name, subresource: opts.subresource ?? '', dryRun: !!opts.dryRun }, updateOptions(opts.dryRun));
      const r = this.stores[resource].update(namespace, name, (existing) => applyPatchBody(existing, type, body), { dryRun: opts.dryRun, strategy: this.strategyFor(resource, opts.subresource), admission });
      return { code: 200, object: r.object };
    });
  }

  /**
   * V12 — a server-side apply PATCH (application/apply-patch+yaml) of a pod's status with
   * ?fieldManager=…&force=true, as client-go's ApplyStatus sends it (patch.go applyPatcher →
   * field-manager.ts). Only forced applies are modelled.
   */
  applyStatus(client: ClientIdentity, namespace: string, name: string, body: unknown, opts: { fieldManager: string; force: true }): ApiResponse<Pod> {
    const text = `PATCH pods/${name}/status fieldManager=${opts.fieldManager} force=true`;
    return this.mutate(client, 'PATCH', 'pods', namespace, name, text, `${HANDLERS}/patch.go PatchResource (applyPatcher) → ${STORE_SOURCE} Store.Update`, () => {
      const r = this.stores.pods.update(namespace, name, (existing) => serverSideApply(existing, body), { strategy: this.strategyFor('pods', 'status') });
      return { code: 200, object: r.object };
    });
  }

  /**
   * handlers/delete.go DeleteResource → Store.Delete. Options are validated before storage is
   * touched (R2: 422 beats 404). The response is the object (pods: ReturnDeletedObject, R49) or,
   * for other resources once removed, a Status; 202 only for an explicit orphanDependents=false
   * that did not remove the object (R50).
   */
  delete<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, name: string, options: DeleteOptions = {}): ApiResponse<DeleteResponseBody<R>> {
    const text = `DELETE ${resource}/${name}${describeDeleteOptions(options)}`;
    return this.mutate(client, 'DELETE', resource, namespace, name, text, `${HANDLERS}/delete.go DeleteResource → ${STORE_SOURCE} Store.Delete`, () => {
      const errs = validateDeleteOptions(options);
      if (errs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', '', errs);
      const admission = this.deleteAdmission<R>(client, resource, namespace, name, options);
      const { object, wasDeleted } = this.stores[resource].delete(namespace, name, options, admission);
      return { code: !wasDeleted && options.orphanDependents === false ? 202 : 200, object: object as DeleteResponseBody<R> };
    });
  }

  /** handlers/delete.go DeleteCollection → Store.DeleteCollection (R61); answers with the items as listed. */
  deleteCollection<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, options: DeleteOptions, matches: (o: ResourceType[R]) => boolean = () => true): ApiResponse<ResourceType[R][]> {
    return this.mutate(client, 'DELETECOLLECTION', resource, namespace, '', `DELETECOLLECTION ${resource}${describeDeleteOptions(options)}`, `${HANDLERS}/delete.go DeleteCollection → ${STORE_SOURCE} Store.DeleteCollection`, () => ({
      code: 200,
      object: this.stores[resource].deleteCollection(namespace, options, matches, (name) => this.deleteAdmission<R>(client, resource, namespace, name, options)),
    }));
  }

  /**
   * R78 — pods/eviction (eviction.go EvictionREST.Create). The pod is read; one that canIgnorePDB
   * (terminal, Pending or already deleting) is deleted at once, with a resourceVersion
   * precondition while it is Pending (shouldEnforceResourceVersion); any other would be checked
   * against the PodDisruptionBudget that selects it — none are modelled, so it is deleted too.
   * addConditionAndDeletePod first writes DisruptionTarget=True (EvictionByEvictionAPI) to the
   * status through the status strategy (PodDisruptionConditions; not on a dry run), moving a
   * resourceVersion precondition on to that write, then runs the pod's Store.Delete with the
   * eviction's DeleteOptions. The answer is 201 with a Success Status.
   */
  evict(client: ClientIdentity, namespace: string, name: string, eviction: Eviction, opts: { dryRun?: boolean } = {}): ApiResponse<Status> {
    const text = `CREATE pods/${name}/eviction${describeDeleteOptions(eviction.deleteOptions ?? {})}`;
    return this.mutate(client, 'CREATE', 'pods', namespace, name, text, `${EVICTION_SOURCE} EvictionREST.Create`, () => {
      // create.go: mutating admission on the Eviction; EvictionREST.Create: createValidation on it
      // first. The pod's deletion that follows goes to the store without admission (ValidateAllObjectFunc).
      if (this.webhooks.has(true) || this.webhooks.has(false)) eviction = this.admitEviction(client, namespace, name, eviction, !!opts.dryRun);
      let options = evictionDeleteOptions(name, eviction, !!opts.dryRun);
      const pod = this.stores.pods.get(namespace, name);
      if (canIgnorePDB(pod) && shouldEnforceResourceVersion(pod) && options.preconditions?.resourceVersion === undefined) {
        options = { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } };
      }
      if ((options.dryRun ?? []).length === 0 && this.options.release.enabled('PodDisruptionConditions')) {
        const { object } = this.stores.pods.update(
          namespace,
          name,
          (latest) => {
            checkEvictionPreconditions(options, latest);
            const status = { ...latest.status };
            updatePodCondition(status, EVICTION_CONDITION, this.clock.now());
            latest.status = status;
            return latest;
          },
          { strategy: podStatusStrategy },
        );
        if (options.preconditions?.resourceVersion !== undefined) options = { ...options, preconditions: { ...options.preconditions, resourceVersion: object.metadata.resourceVersion } };
      }
      this.stores.pods.delete(namespace, name, options);
      return { code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
    });
  }

  /**
   * pods/binding (pkg/registry/core/pod/storage/storage.go BindingREST.setPodHostAndAnnotations):
   * a pod that is being deleted, or already bound, cannot be bound (R60).
   */
  bind(client: ClientIdentity, namespace: string, name: string, nodeName: string): ApiResponse<Pod> {
    return this.mutate(client, 'CREATE', 'pods', namespace, name, `CREATE pods/${name}/binding node=${nodeName}`, 'pkg/registry/core/pod/storage/storage.go BindingREST.setPodHostAndAnnotations', () => {
      const r = this.stores.pods.update(namespace, name, (pod) => {
        // BindingREST.assignPod: errors of the update function become a Conflict on "pods/binding".
        if (pod.metadata.deletionTimestamp) throw conflict('pods/binding', name, `pod ${name} is being deleted, cannot be assigned to a host`);
        if (pod.spec?.nodeName) throw conflict('pods/binding', name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
        pod.spec = { ...pod.spec!, nodeName };
        return pod;
      }, { strategy: { ...podStatusStrategy, prepareForUpdate: () => undefined, validateUpdate: () => [] } });
      return { code: 201, object: r.object };
    });
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
    return this.stores[resource].key(namespace, name);
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
    const s = this.stores[resource].strategy;
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

  private strategyFor(resource: Resource, subresource: 'status' | undefined): Strategy<never> | undefined {
    return (resource === 'pods' && subresource === 'status' ? podStatusStrategy : undefined) as Strategy<never> | undefined;
  }

  /** Runs one mutating request: records its arrival, runs it, and turns StatusErrors into failure responses. */
  private mutate<T>(client: ClientIdentity, verb: string, resource: Resource, namespace: string | undefined, name: string, text: string, source: string, run: () => { code: number; object: T }): ApiResponse<T> {
    // `response` has its slot from the start: the record is kept for the whole run, and a member
    // added later would need a second allocation for it.
    // With webhooks configured, a caller may not have its answer yet (WebhookCallPending): the
    // request then leaves no trace, to run again once the HTTP layer has called the webhook.
    const mark = this.webhooks.has(true) || this.webhooks.has(false) ? this.timeline.checkpoint() : -1;
    const record: RequestRecord = { id: ++this.requestCount, verb, resource, namespace, name, revisionBefore: this.etcd.currentRevision, response: undefined };
    if (!this.timeline.keepsEvents) this.requests.length = 0;
    this.requests.push(record);
    const event = QUIET_RESOURCES.has(resource) ? undefined : this.timeline.record('apiserver', text, source, { actor: client.name });
    if (event) event.requestId = record.id;
    this.etcd.currentRequestId = record.id;
    const created = this.createCounter;
    try {
      const response = this.serve(record.id, run);
      record.response = response;
      if (event) this.timeline.annotate(event, response.ok ? String(response.code) : `${response.code} ${response.status.reason}`);
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
   * The admission chain of one request (StoreAdmission), or undefined without webhooks (the
   * plugins then handle nothing). Kind, group and version are the resource's; options are the
   * request's CreateOptions, UpdateOptions or DeleteOptions as the webhook receives them.
   */
  private admissionFor<R extends Resource>(client: ClientIdentity, request: Omit<AdmissionAttributes, 'group' | 'version' | 'kind' | 'namespaced'>, options: Record<string, unknown>): StoreAdmission<ResourceType[R]> | undefined {
    const mutating = this.webhooks.has(true);
    const validating = this.webhooks.has(false);
    if (!mutating && !validating) return undefined;
    const info = this.admissionInfo(client, request, options);
    return {
      mutate: (obj, old) => (mutating ? (this.webhooks.mutate(info, obj, old) as ResourceType[R]) : obj),
      validate: (obj, old) => {
        if (validating) this.webhooks.validate(info, obj, old);
      },
    };
  }

  /** delete.go: mutating admission first, with no object, then validating admission on the object (Store.Delete's deleteValidation). */
  private deleteAdmission<R extends Resource>(client: ClientIdentity, resource: R, namespace: string | undefined, name: string, options: DeleteOptions): StoreAdmission<ResourceType[R]> | undefined {
    const request = { operation: 'DELETE' as const, resource, namespace, name, subresource: '', dryRun: (options.dryRun ?? []).length > 0 };
    const deleteOptions = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...options };
    if (this.webhooks.has(true)) this.webhooks.mutate(this.admissionInfo(client, request, deleteOptions), undefined, undefined);
    return this.admissionFor<R>(client, request, deleteOptions);
  }

  private admissionInfo(client: ClientIdentity, request: Omit<AdmissionAttributes, 'group' | 'version' | 'kind' | 'namespaced'>, options: Record<string, unknown>) {
    const s = this.stores[request.resource as Resource].strategy;
    const [group, version] = s.apiVersion.includes('/') ? s.apiVersion.split('/') : ['', s.apiVersion];
    const attributes: AdmissionAttributes = { ...request, group, version, kind: s.kind, namespaced: s.namespaced, namespace: s.namespaced ? request.namespace : undefined };
    return { attributes, username: client.name, options, requestId: this.requestCount };
  }

  /** CREATE pods/NAME/eviction through the webhooks, with the policy/v1 Eviction as the object (R203). */
  private admitEviction(client: ClientIdentity, namespace: string, name: string, eviction: Eviction, dryRun: boolean): Eviction {
    const request = { operation: 'CREATE' as const, resource: 'pods', namespace, name, subresource: 'eviction', dryRun };
    const base = this.admissionInfo(client, request, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', ...(dryRun ? { dryRun: ['All'] } : {}) });
    const info = { ...base, attributes: { ...base.attributes, objectKind: { group: 'policy', version: 'v1', kind: 'Eviction' } } };
    const object = { apiVersion: 'policy/v1', kind: 'Eviction', ...eviction, metadata: { ...eviction.metadata, name, namespace } } as KubeObject;
    const admitted = this.webhooks.has(true) ? this.webhooks.mutate(info, object, undefined)! : object;
    if (this.webhooks.has(false)) this.webhooks.validate(info, admitted, undefined);
    return admitted as Eviction;
  }

  /** The webhooks of every configuration of one kind, configurations in name order (the configuration managers sort them so). */
  private webhooksOf(mutating: boolean): ConfiguredWebhook[] {
    const slot = mutating ? 'mutating' : 'validating';
    let hooks = this.configuredWebhooks[slot];
    if (hooks === undefined) {
      const store = mutating ? this.stores.mutatingwebhookconfigurations : this.stores.validatingwebhookconfigurations;
      hooks = store.list(undefined).items.flatMap((c) => ((c.webhooks ?? []) as Webhook[]).map((hook) => ({ configuration: c.metadata.name ?? '', hook })));
      this.configuredWebhooks[slot] = hooks;
    }
    return hooks;
  }

  private namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined {
    return this.stores.namespaces.exists(undefined, namespace) ? this.stores.namespaces.get(undefined, namespace).metadata.labels : undefined;
  }

  /** Fans one etcd change out to every open watch, and records it once on the watch lane. */
  private dispatch(e: EtcdEvent): void {
    const resource = resourceOf(e.key);
    if (resource === 'validatingwebhookconfigurations') this.configuredWebhooks.validating = undefined;
    else if (resource === 'mutatingwebhookconfigurations') this.configuredWebhooks.mutating = undefined;
    if (!QUIET_RESOURCES.has(resource as Resource)) {
      this.timeline.recordRevision('watch', e.revision, this.watchLane, 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go transform');
    }
    this.watches.offer(e);
  }

  /** The watch lane's events keep only their revision; the text is read back from etcd's history. */
  private readonly watchLane: RevisionReader = {
    text: (revision) => {
      const e = this.etcd.change(revision)!;
      const type = e.type === 'DELETE' ? 'DELETED' : e.prev ? 'MODIFIED' : 'ADDED';
      const resource = resourceOf(e.key);
      const plural = resource === 'minions' ? 'nodes' : resource;
      return `${type} ${plural}/${e.key.slice(e.key.lastIndexOf('/') + 1)} rv=${revision}`;
    },
    patch: () => undefined,
  };
}

/** metav1.UpdateOptions as a webhook receives them (a PATCH's PatchOptions become these too). */
function updateOptions(dryRun: boolean | undefined): Record<string, unknown> {
  return { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', ...(dryRun ? { dryRun: ['All'] } : {}) };
}

/** names.SimpleNameGenerator: generateName (cut to 58 characters) plus 5 characters, here derived from the creation counter so runs repeat. */
function generateName(base: string, counter: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const digest = createHash('sha1').update(`${base}#${counter}`).digest();
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[digest[i] % alphabet.length];
  return base.slice(0, 58) + suffix;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * ValidateObjectMeta's name checks (apimachinery/pkg/api/validation): a name (or generateName) is
 * required; namespaces are DNS-1123 labels (ValidateNamespaceName), the other kinds here DNS-1123
 * subdomains (ValidatePodName, ValidateNodeName, …).
 */
function validateName(resource: Resource, name: string): FieldError[] {
  if (name === '') return [{ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' }];
  if (resource === 'namespaces') {
    if (name.length > 63) return [{ field: 'metadata.name', type: 'Invalid', value: name, detail: 'must be no more than 63 characters' }];
    if (!DNS1123_LABEL.test(name)) return [{ field: 'metadata.name', type: 'Invalid', value: name, detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')" }];
    return [];
  }
  if (name.length > 253) return [{ field: 'metadata.name', type: 'Invalid', value: name, detail: 'must be no more than 253 characters' }];
  if (!DNS1123_SUBDOMAIN.test(name)) return [{ field: 'metadata.name', type: 'Invalid', value: name, detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" }];
  return [];
}

/** DELETE's options in the canonical order (docs/steps.md): `gracePeriodSeconds=0 propagationPolicy=Background …`. */
export function describeDeleteOptions(o: DeleteOptions): string {
  const parts: string[] = [];
  if (o.gracePeriodSeconds !== undefined) parts.push(`gracePeriodSeconds=${o.gracePeriodSeconds}`);
  if (o.propagationPolicy !== undefined) parts.push(`propagationPolicy=${o.propagationPolicy}`);
  if (o.orphanDependents !== undefined) parts.push(`orphanDependents=${o.orphanDependents}`);
  if (o.preconditions?.uid !== undefined) parts.push(`preconditions.uid=${o.preconditions.uid}`);
  if (o.preconditions?.resourceVersion !== undefined) parts.push(`preconditions.resourceVersion=${o.preconditions.resourceVersion}`);
  if (o.dryRun !== undefined && o.dryRun.length > 0) parts.push(`dryRun=${o.dryRun.join(',')}`);
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/**
 * R1 — handlers/delete.go DeleteResource: a non-empty body (`undefined` here means an empty one;
 * even `{}` is a body of two bytes) is the only source of DeleteOptions; with an empty body they
 * are decoded from the query string (meta/v1 conversion.go: gracePeriodSeconds through
 * strconv.ParseInt, where a bad value is a 400; orphanDependents false only for "0" or "false",
 * any case, true otherwise; dryRun taken as given).
 */
export function deleteOptionsFromRequest(body: DeleteOptions | undefined, query: Record<string, string> = {}): DeleteOptions {
  if (body !== undefined) return clone(body);
  const options: DeleteOptions = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === 'gracePeriodSeconds') {
      if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
      }
      options.gracePeriodSeconds = Number(value);
    } else if (key === 'propagationPolicy') options.propagationPolicy = value;
    else if (key === 'orphanDependents') options.orphanDependents = !(value === '0' || value.toLowerCase() === 'false');
    else if (key === 'dryRun') options.dryRun = [value];
  }
  return options;
}


/** The resource segment of a key, /registry/<resource>/[<namespace>/]<name>, without splitting it. */
function resourceOf(key: string): string {
  return key.slice(REGISTRY.length, key.indexOf('/', REGISTRY.length));
}

function nodeNameOf(o: unknown): string | undefined {
  return (o as Pod | undefined)?.spec?.nodeName;
}

/**
 * The open watches, with those that select pods by spec.nodeName indexed by that node (the watch
 * cache's indexed triggers, cacher NodeNameTriggerFunc): an event is offered only to the watches
 * of the nodes its old and new versions name, plus every unindexed watch.
 */
class WatchIndex {
  private readonly unindexed = new Set<Watch>();
  private readonly byNode = new Map<string, Set<Watch>>();

  constructor(
    private readonly clock: Clock,
    private readonly latencyMs: number,
  ) {}

  add(w: Watch, node: string | undefined): void {
    if (node === undefined) this.unindexed.add(w);
    else {
      let set = this.byNode.get(node);
      if (!set) this.byNode.set(node, (set = new Set()));
      set.add(w);
    }
  }

  remove(w: Watch, node: string | undefined): void {
    if (node === undefined) this.unindexed.delete(w);
    else this.byNode.get(node)?.delete(w);
  }

  /**
   * Offers one change to the watches interested in it. With a latency each watch hands it over on
   * its own timer. Without one, a single zero-delay hand-off delivers it to all of them in the same
   * order: their own hand-offs would have been queued back to back (nothing runs between them), and
   * whatever a handler hands off in turn still runs after the last of them.
   */
  offer(e: EtcdEvent): void {
    if (this.latencyMs > 0) return this.forEachInterested(e, (w) => w.offer(e));
    const targets: Watch[] = [];
    const events: WatchEvent[] = [];
    this.forEachInterested(e, (w) => {
      const event = w.eventFor(e);
      if (!event) return;
      targets.push(w);
      events.push(event);
    });
    if (targets.length === 0) return;
    this.clock.after(0, () => {
      for (let i = 0; i < targets.length; i++) targets[i].deliver(events[i]);
    });
  }

  private forEachInterested(e: EtcdEvent, visit: (w: Watch) => void): void {
    this.unindexed.forEach(visit);
    const a = nodeNameOf(e.value);
    const b = nodeNameOf(e.prev);
    if (a !== undefined) this.byNode.get(a)?.forEach(visit);
    if (b !== undefined && b !== a) this.byNode.get(b)?.forEach(visit);
  }
}

import type { Clock } from '../foundation/clock';
import type { RevisionReader, Timeline } from '../foundation/timeline/timeline';
import { invalid, notFound, type FieldError } from '../apimachinery/errors';
import { Etcd, type EtcdEvent } from './etcd';
import { createEviction, EVICTION_SOURCE, type Eviction } from './eviction';
import { BINDING_SOURCE, setPodHostAndAnnotations } from './binding';
import { scheduleCompaction } from './compaction';
import { clone, toTime, type KubeObject } from '../apimachinery/object';
import { applyPatchBody, type PatchType } from './patch';
import { checkConvertible } from './field-manager';
import type { Scale, ScalableResource } from './scale';
import { appsScaleRest, CUSTOM_SCALE_SOURCE, customScaleRest, type ScaleChange, type ScaleRest } from './scale-rest';
import { Store, STORE_SOURCE, type StoreAdmission } from './store';
import { qualifiedKind, type Strategy } from './strategy';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import type { DeleteOptions, Pod, PodDisruptionBudget, Status } from '../apimachinery/types';
import type { WebhookCaller } from './webhook/caller';
import type { PolicyAdmission } from './validatingadmissionpolicy/dispatcher';
import type { WebhookAdmission } from './webhook/dispatcher';
import type { ListOptions } from './list-options';
import { readListPage } from './list-page';
import { PodNodeIndex } from './pod-node-index';
import { deterministicUid } from '../apimachinery/uid';
import { validateDeleteOptions } from '../apimachinery/validation';
import { describeDeleteOptions } from './delete-options';
import type { Watch, WatchEvent } from './watch';
import {
  APIEXTENSIONS_GROUP,
  pluralOf,
  resourceOf,
  WatchIndex,
  watchLaneReader,
  type WatchOptions,
} from './watch-cache';
import { CustomResourceServing, type CustomResource } from './apiextensions/served-resources';
import type { CustomResourceDefinition } from './apiextensions/types';
import { builtinKind, builtinKinds } from './kinds';
import type { KindStrategies } from './kinds/kind';
import { assembleStorage } from './kinds/rest-storage';
import { NameGenerator, validateObjectName } from './object-names';
import { refuseCreateWhileTerminating } from './apiextensions/create-while-terminating';
import { AdmissionChain } from './admission-chain';
import { RequestFields } from './request-fields';
import { RequestLog } from './request-log';
import { pathNotFound, RequestRunner, serve } from './request-runner';
import { createSystemNamespaces } from './system-namespaces';
import {
  DEFAULT_APISERVER_OPTIONS,
  isCustomResource,
  type ApiResponse,
  type ApiServerOptions,
  type BuiltinResource,
  type ClientIdentity,
  type DeleteResponseBody,
  type ListPage,
  type RequestRecord,
  type Resource,
  type ResourceType,
  type WriteOptions,
} from './request-types';

export type * from './request-types';
export { DEFAULT_APISERVER_OPTIONS, isCustomResource } from './request-types';

const HANDLERS = 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers';
// The sources of the requests' events, each one string built once: the timeline interns sources
// by value, and a string concatenated anew per request would be flattened and hashed every time.
const CREATE_SOURCE = `${HANDLERS}/create.go createHandler → ${STORE_SOURCE} Store.Create`;
const UPDATE_SOURCE = `${HANDLERS}/update.go UpdateResource → ${STORE_SOURCE} Store.Update`;
const PATCH_SOURCE = `${HANDLERS}/patch.go PatchResource → ${STORE_SOURCE} Store.Update`;
const APPLY_SOURCE = `${HANDLERS}/patch.go PatchResource (applyPatcher) → ${STORE_SOURCE} Store.Update`;
const DELETE_SOURCE = `${HANDLERS}/delete.go DeleteResource → ${STORE_SOURCE} Store.Delete`;
const WATCH_SOURCE = 'staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go transform';

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

export { SYSTEM_NAMESPACES } from './system-namespaces';

/**
 * kube-apiserver for the resources that take part in pod deletion: the REST handlers
 * (endpoints/handlers: create.go, update.go, patch.go, delete.go, watch.go) in front of one
 * generic registry Store per resource, all on one etcd. Every mutating request is recorded on
 * the timeline with the canonical text of docs/steps.md.
 */
export class ApiServer {
  readonly etcd: Etcd;
  private podsByNode?: PodNodeIndex; // the watch cache's pods by spec.nodeName, built at the first LIST using it
  private readonly stores: { [R in BuiltinResource]: Store<ResourceType[R]> };
  /** The custom resources served, one Store per CRD (apiextensions/served-resources.ts). */
  readonly customResources: CustomResourceServing;
  /** Each built-in kind's strategies: its status and finalize subresources' beside its main one. */
  private readonly strategies: Readonly<Record<string, KindStrategies<KubeObject>>>;
  private readonly watches: WatchIndex;
  /** The watch lane's events keep only their revision; the text is read back from etcd's history. */
  private readonly watchLane: RevisionReader;
  /** The mutating requests served (request-log.ts). */
  private readonly requests: RequestLog;
  /** What every mutating request goes through (request-runner.ts). */
  private readonly runner: RequestRunner;
  private createCounter = 0;
  /** The names given for generateName (R76). */
  private readonly names = new NameGenerator();
  private namespacesBootstrapped = false;
  private readonly startedAt: number;
  /** The admission chain: NamespaceLifecycle, the webhooks, the policies (admission-chain.ts). */
  private readonly admission: AdmissionChain;
  /** The managed fields of the writes and server-side apply (request-fields.ts). */
  private readonly fields: RequestFields;

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
    this.watchLane = watchLaneReader(this.etcd);
    this.requests = new RequestLog(timeline);
    // Each kind's REST storage, assembled from its kind module (kinds/rest-storage.ts).
    const storage = assembleStorage(this.etcd, clock, options.release, (resource, name) =>
      validateName(resource as Resource, name, options.release),
    );
    this.stores = storage.stores as { [R in BuiltinResource]: Store<ResourceType[R]> };
    this.strategies = storage.strategies;
    this.customResources = new CustomResourceServing(this.etcd, clock, options.release, (warning) =>
      this.admission.warnings.push(warning),
    );
    this.admission = new AdmissionChain(
      timeline,
      {
        store: (resource) => this.store(resource),
        resources: () => [
          ...(Object.keys(this.stores) as Resource[]),
          ...this.customResources.list().map((c) => c.resource),
        ],
        requestId: () => this.requests.count,
        typeConverter: () => this.fields.manager(),
      },
      options.release,
    );
    this.runner = new RequestRunner(timeline, this.etcd, this.requests, this.admission);
    this.fields = new RequestFields(
      clock,
      this.customResources,
      (resource) => this.store(resource).strategy.apiVersion,
      () => this.options.managedFields,
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
        dropRequestsBefore: (revision) => this.requests.dropBefore(revision),
        forgetAbsentKeys: () => {
          for (const store of Object.values(this.stores)) store.forgetAbsentKeys();
          for (const store of this.customResources.stores()) store.forgetAbsentKeys();
        },
      });
    }
  }

  /** The admission webhooks of the configurations stored (ValidatingAdmissionWebhook, MutatingAdmissionWebhook). */
  get webhooks(): WebhookAdmission {
    return this.admission.webhooks;
  }

  /** The ValidatingAdmissionPolicy plugin (R210). */
  get policies(): PolicyAdmission {
    return this.admission.policies;
  }

  /** How webhooks are reached: modelled in scenarios, over HTTPS in `serve` (webhook/caller.ts). */
  get webhookCaller(): WebhookCaller {
    return this.admission.webhookCaller;
  }

  set webhookCaller(caller: WebhookCaller) {
    this.admission.webhookCaller = caller;
  }

  // ---- reads (not recorded on the timeline: they change nothing) ----

  get<R extends Resource>(resource: R, namespace: string | undefined, name: string): ApiResponse<ResourceType[R]> {
    return serve(undefined, () => ({ code: 200, object: this.store(resource).get(namespace, name) }));
  }

  list<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    matches: (o: ResourceType[R]) => boolean = () => true,
  ): ApiResponse<{ items: ResourceType[R][]; resourceVersion: string }> {
    return serve(undefined, () => {
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
    return serve(undefined, () => ({
      code: 200,
      object: readListPage<ResourceType[R]>(
        this.etcd,
        () => this.compactedRevision(),
        resource,
        this.prefixOf(resource, namespace),
        query,
        () => (this.podsByNode ??= new PodNodeIndex(this.etcd)),
      ),
    }));
  }

  /**
   * Creates the system namespaces that are missing (kube-apiserver's start-up controllers), off
   * the timeline. From then on objects can only be created in existing namespaces (the
   * NamespaceLifecycle admission plugin); scenarios that never call this keep their implicit
   * `default` namespace.
   */
  ensureSystemNamespaces(): void {
    this.namespacesBootstrapped = true;
    createSystemNamespaces(this);
  }

  /**
   * handlers/watch.go + cacher: a watch from `resourceVersion` (replaying the history after it),
   * or from now. A revision older than the last compaction answers 410 Expired, as etcd does.
   */
  watch<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    opts: WatchOptions<ResourceType[R]>,
    handler: (e: WatchEvent<ResourceType[R]>) => void,
  ): ApiResponse<Watch> {
    return serve(undefined, () => ({
      code: 200,
      object: this.watches.open(
        this.etcd,
        () => this.compactedRevision(),
        this.prefixOf(resource, namespace),
        opts as WatchOptions<KubeObject>,
        handler as (e: WatchEvent) => void,
      ),
    }));
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
    const name = obj.metadata.name || (obj.metadata.generateName ? this.names.next(obj.metadata.generateName) : '');
    return this.mutate(client, 'CREATE', resource, namespace, name, `CREATE ${resource}/${name}`, CREATE_SOURCE, () => {
      // The decoded request body: the store prepares it in place, so the caller's object stays as sent.
      const withNs = clone(obj);
      // create.go records the create's manager on the decoded object — defaulted by the scheme as it
      // was decoded (SetDefaults_*), before admission and the strategy add their parts.
      if (this.options.managedFields) {
        const strategy = this.store(resource).strategy;
        const decoded = { apiVersion: strategy.apiVersion, kind: strategy.kind, ...clone(withNs) };
        decoded.metadata.name = name;
        builtinKind(resource)?.schemeDefaults?.(decoded, this.options.release);
        this.fields
          .manager()
          .update(
            undefined,
            decoded,
            this.fields.managerOf(client, resource, undefined, 'Update', opts.fieldManager),
            this.fields.resetFieldsOf(resource, undefined),
            toTime(this.clock.now()),
          );
        withNs.metadata.managedFields = decoded.metadata.managedFields;
      }
      refuseCreateWhileTerminating(this.customResources, this.options.release, resource, name, false);
      const admission = this.admission.forWrite<R>(client, 'CREATE', resource, namespace, name, '', !!opts.dryRun);
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
    if (store.strategy.namespaced) this.admission.admitNamespaceLifecycle(resource, namespace, name);
    const errs = validateName(resource, name, this.options.release);
    if (errs.length > 0) throw invalid(qualifiedKind(store.strategy), name, errs);
    withNs.metadata.name = name;
    if (store.strategy.namespaced) withNs.metadata.namespace = namespace;
    // The kind's built-in mutating admission and its REST storage's allocations (kinds/kind.ts beforeCreate).
    builtinKind(resource)?.beforeCreate?.(withNs, {
      list: (r) => this.store(r as Resource).list(undefined).items,
      warn: (text) => this.admission.warnings.push(text),
    });
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
      const admission = this.admission.forWrite<R>(
        client,
        'UPDATE',
        resource,
        namespace,
        name,
        opts.subresource ?? '',
        !!opts.dryRun,
      );
      const track = this.fields.tracker<ResourceType[R]>(client, resource, opts.subresource, opts.fieldManager);
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
      const admission = this.admission.forWrite<R>(
        client,
        'UPDATE',
        resource,
        namespace,
        name,
        opts.subresource ?? '',
        !!opts.dryRun,
      );
      const track = this.fields.tracker<ResourceType[R]>(client, resource, opts.subresource, opts.fieldManager);
      // A status update without admission and managed fields: the body's status lists need no copy,
      // and the patch is merged into the update's own copy of the pod (applyPatchBody; the kubelet's).
      const asSent = resource === 'pods' && opts.subresource === 'status' && !admission && !this.options.managedFields;
      const r = this.store(resource).update(
        namespace,
        name,
        (existing) => track(existing, applyPatchBody(existing, type, body, asSent)),
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
      const info = this.fields.managerOf(client, resource, opts.subresource, 'Apply', opts.fieldManager);
      const reset = this.fields.resetFieldsOf(resource, opts.subresource);
      const now = toTime(this.clock.now());
      const store = this.store(resource);
      if (!opts.subresource && !store.exists(namespace, name)) {
        refuseCreateWhileTerminating(this.customResources, this.options.release, resource, name, true);
        const created = this.fields.untracked(
          this.fields.manager().apply(undefined, clone(body), info, !!opts.force, reset, now) as ResourceType[R],
        );
        // An apply that creates is admitted as a CREATE (patch.go applyPatcher's create path).
        const admission = this.admission.forWrite<R>(client, 'CREATE', resource, namespace, name, '', !!opts.dryRun);
        return { code: 201, object: this.createObject(resource, namespace, name, created, !!opts.dryRun, admission) };
      }
      const admission = this.admission.forWrite<R>(
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
          return this.fields.untracked(
            this.fields.manager().apply(existing, clone(body), info, !!opts.force, reset, now) as ResourceType[R],
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
    return serve(undefined, () => ({
      code: 200,
      object: this.scaleRestOf(resource).get(this.store(resource).get(namespace, name)),
    }));
  }

  /**
   * PATCH or PUT …/scale (ScaleREST.Update, scale-rest.ts): spec.replicas of the changed Scale is
   * written to the object in one update through the main strategy; the answer is the new Scale.
   */
  scale(
    client: ClientIdentity,
    resource: ScalableResource | CustomResource,
    namespace: string | undefined,
    name: string,
    change: ScaleChange,
    opts: { dryRun?: boolean } = {},
  ): ApiResponse<Scale> {
    const verb = 'patch' in change ? 'PATCH' : 'UPDATE';
    const text = `${verb} ${resource}/${name}/scale`;
    const run = () => {
      const rest = this.scaleRestOf(resource);
      const store = this.store(resource) as Store<KubeObject>;
      const r = store.update(namespace, name, (existing) => rest.update(existing, change), { dryRun: opts.dryRun });
      return { code: 200, object: rest.get(r.object) };
    };
    if (isCustomResource(resource))
      return this.mutate(client, verb, resource, namespace, name, text, CUSTOM_SCALE_SOURCE, run);
    const appsSource = `pkg/registry/apps/${resource.slice(0, -1)}/storage/storage.go ScaleREST.Update`;
    return this.mutate(client, verb, resource, namespace, name, text, appsSource, run);
  }

  /** The ScaleREST of a resource: an apps kind's, or a custom resource's storage version's (the 404 of one without). */
  private scaleRestOf(resource: ScalableResource | CustomResource): ScaleRest {
    if (!isCustomResource(resource)) return appsScaleRest(resource);
    const info = this.customResources.get(resource)?.info;
    const scale = info?.versions.find((v) => v.name === info.storageVersion)?.subresources.scale;
    if (!scale) throw notFound(resource, 'scale');
    return customScaleRest(scale);
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
            this.admission.forDelete<R>(client, resource, namespace, name, options) as StoreAdmission<KubeObject>,
        };
        return { code: 200, object: kind.restDelete(rest, name, options) as DeleteResponseBody<R> };
      }
      const admission = this.admission.forDelete<R>(client, resource, namespace, name, options);
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
        : (name: string) => this.admission.forDelete<R>(client, resource, namespace, name, options);
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
        this.admission.admitNamespaceLifecycle('pods', namespace, name);
        // create.go: mutating admission on the Eviction; EvictionREST.Create: createValidation on it
        // first. The pod's deletion that follows goes to the store without admission (ValidateAllObjectFunc).
        if (this.admission.active)
          eviction = this.admission.admitEviction(client, namespace, name, eviction, !!opts.dryRun);
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

  // ---- bookkeeping for assertions ----

  request(id: number): RequestRecord | undefined {
    return this.requests.get(id);
  }

  get lastRequest(): RequestRecord | undefined {
    return this.requests.last;
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
    if (custom === undefined) throw pathNotFound();
    return custom.store as unknown as Store<ResourceType[R]>;
  }

  /**
   * The strategy a write through a subresource uses: the one its REST storage declares (a
   * built-in kind's KindStrategies; a custom resource's status strategy while its CRD version
   * serves status, customresource/status_strategy.go). A built-in kind without a status strategy
   * of its own has its status written through its main one (nodes: the node lifecycle
   * controller's NodeStatus writes); any other subresource without a strategy is NotFound.
   */
  private strategyFor(resource: Resource, subresource: 'status' | 'finalize' | undefined): Strategy<never> | undefined {
    if (subresource === undefined) return undefined;
    const builtin = this.strategies[resource];
    const declared: Partial<KindStrategies<KubeObject>> = isCustomResource(resource)
      ? { status: this.customResources.get(resource)?.status as unknown as Strategy<KubeObject> | undefined }
      : { status: builtin?.status ?? builtin?.main, finalize: builtin?.finalize };
    const strategy = declared[subresource];
    if (strategy === undefined) throw notFound(resource, subresource);
    return strategy as unknown as Strategy<never>;
  }

  /** Runs one mutating request (request-runner.ts); a request run again later leaves its generated-name count as it was. */
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
    const created = this.createCounter;
    return this.runner.mutate(client, verb, resource, namespace, name, text, source, run, () => {
      this.createCounter = created;
    });
  }

  /** Fans one etcd change out to every open watch, and records it once on the watch lane. */
  private dispatch(e: EtcdEvent): void {
    const resource = resourceOf(e.key);
    const configuration = builtinKind(resource)?.admissionConfiguration;
    if (configuration !== undefined) this.admission.configurationChanged(configuration);
    // The crdHandler's storage follows every CRD write before any watcher hears of it.
    else if (resource === APIEXTENSIONS_GROUP && e.key.startsWith(CRD_PREFIX))
      this.customResources.changed(
        e.key.slice(CRD_PREFIX.length),
        e.type === 'DELETE' ? undefined : (e.value as unknown as CustomResourceDefinition),
      );
    if (!QUIET_RESOURCES.has(pluralOf(e.key))) {
      this.timeline.noteRevision('watch', e.revision, this.watchLane, WATCH_SOURCE);
    }
    this.watches.offer(e);
  }
}

/**
 * ValidateObjectMeta's name checks (object-names.ts): required, then the kind's own check or a
 * DNS-1123 subdomain.
 */
export function validateName(resource: Resource, name: string, release: Release = DEFAULT_RELEASE): FieldError[] {
  return validateObjectName(name, builtinKind(resource)?.validateName, release);
}

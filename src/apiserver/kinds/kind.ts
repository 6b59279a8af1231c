import type { FieldError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { DeleteOptions, Status } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import type { KindRules } from '../kind-rules';
import type { Printer } from '../printers/printer';
import type { ServedSubresource } from '../resources';
import type { Store, StoreAdmission } from '../store';
import type { Strategy } from '../strategy';

/**
 * One built-in kind as kube-apiserver serves it, declared once: what upstream's
 * pkg/registry/<group>/<kind>/storage/storage.go assembles into one REST storage (its
 * genericregistry.Store: the strategies, the scope, the short names and categories, the
 * subresources, the TableConvertor) together with what the rest of the apiserver learns from the
 * kind's types (its OpenAPI model, its protobuf message, its scheme defaults). Discovery, the
 * RESTMapper, the printers, OpenAPI, protobuf, the garbage collector's mapping, the kinds
 * `explain` resumes and the scenario `{kind}` parameter are all derived from these declarations
 * (kinds/index.ts); the generic apiserver only ever asks a kind for its hooks.
 */
export interface BuiltinKind<T extends KubeObject = KubeObject, R extends string = string> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The plural: URLs, etcd keys (unless the strategy's etcdPrefix says otherwise), NotFound errors. */
  readonly resource: R;
  readonly singularName: string;
  readonly namespaced: boolean;
  /** The verbs discovery lists (metav1.APIResource.Verbs). */
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** The etcd key segment under /registry/ (default: the resource; nodes are stored as minions). Its strategy's etcdPrefix agrees. */
  readonly etcdPrefix?: string;
  /** The subresources served (pods/status, pods/eviction, deployments/scale, …). */
  readonly subresources: Readonly<Record<string, ServedSubresource>>;
  /**
   * The same objects served at a second group/version (events.k8s.io/v1 Events over core/v1
   * Events), with the conversion between the stored and the served form. Discovery lists these
   * after every kind's own version.
   */
  readonly alsoServedAs?: readonly {
    readonly group: string;
    readonly version: string;
    readonly toServed: (obj: KubeObject) => KubeObject;
    readonly fromServed: (obj: KubeObject) => KubeObject;
    /** Its OpenAPI model class (EventsV1Event). */
    readonly openapi?: string;
    /** Its protobuf message (k8s.io.api.events.v1.Event). */
    readonly protobuf?: string;
  }[];
  /**
   * Whether the release modelled serves the kind at this group/version (absent: every release).
   * A kind not served has no REST storage: each request for it is the 404 of a path nothing
   * serves, and discovery does not list it.
   */
  readonly served?: (release: Release) => boolean;
  /** The REST strategies: the main resource's, and those of its status and finalize subresources. */
  strategies(ctx: KindContext): KindStrategies<T>;
  /**
   * The kind's scheme defaulting of a decoded body (SetDefaults_<Kind>; with `rules.defaults`, the
   * scheme's Default as the request decoder applies it): run on every decoded create and update
   * body before mutating admission, and again on each object a mutating webhook or policy
   * patched (R203); the strategies run it again in PrepareForCreate.
   */
  schemeDefaults?(obj: T, release: Release): void;
  /**
   * What a create does to a new object after its name is checked and before it is stored: the
   * built-in mutating admission plugins that handle this kind (DefaultTolerationSeconds,
   * DefaultStorageClass, StorageObjectInUseProtection) and the REST storage's own allocations
   * (a Service's cluster IP and node ports). May throw the StatusError of a refusal.
   */
  beforeCreate?(obj: T, cluster: CreateContext): void;
  /** The REST storage's own Delete, where it replaces the generic Store.Delete (namespaces, CRDs). */
  restDelete?(rest: RestDeleteContext<T>, name: string, options: DeleteOptions): T | Status;
  /**
   * The strategies' GetResetFields: the fields a write through the main resource and through
   * status never sets (default: status, and spec through status). Kinds without a status reset nothing.
   */
  readonly resetFields?: { readonly main: readonly FieldPath[]; readonly status: readonly FieldPath[] };
  /** Its validation and defaulting beyond the strategy's own (kind-rules/: ValidateX, SetDefaults_X; R242, R248). */
  readonly rules?: KindRules<T>;
  /** ValidateObjectMeta's name check, where the kind's differs from a DNS-1123 subdomain. */
  readonly validateName?: (name: string, release: Release) => FieldError[];
  /**
   * Kept out of the timeline's etcd and watch lanes (and its requests off the apiserver lane):
   * none of these takes part in deleting a pod. `requestsShown` names the verbs whose requests
   * are still shown (a namespace's deletion and its controller's writes are).
   */
  readonly quiet?: boolean | { readonly requestsShown: (verb: string) => boolean };
  /** Which admission configuration the kind holds: its writes refresh that admission plugin's view. */
  readonly admissionConfiguration?: 'mutating-webhooks' | 'validating-webhooks' | 'policies';
  /** The Table printer (pkg/printers/internalversion), or the default Name/Created At columns. */
  readonly printer?: Printer;
  /**
   * The OpenAPI model of @kubernetes/client-node that is its definition, or, for a kind newer than
   * those models (v1.34), its definition name (`io.k8s.api.….Kind`), built from k8s.io/api types.go
   * (schemas.ts). Every served kind has one (kinds.test.ts).
   */
  readonly openapi?: string;
  /** Its protobuf message, whose closure scripts/protobuf-descriptors.ts writes (absent: not served as protobuf). */
  readonly protobuf?: string;
  /** Whether `explain` resumes a dump's objects of this kind (planning/restore/resumed-kinds.ts). */
  readonly resumed?: boolean;
  /** garbagecollector.go DefaultIgnoredResources: the collector neither watches nor follows the kind. */
  readonly gcIgnored?: boolean;
}

/** One step of a field path, as FieldSet.of takes it. */
export type FieldPath = readonly { readonly field: string }[];

export interface KindStrategies<T extends KubeObject> {
  readonly main: Strategy<T>;
  readonly status?: Strategy<T>;
  /** namespaces/finalize (FinalizeREST). */
  readonly finalize?: Strategy<T>;
}

/** What a kind's strategies are built from: the release modelled and the virtual clock. */
export interface KindContext {
  readonly release: Release;
  readonly now: () => number;
  /** The name check of another kind (a binding validates the policy name it points to). */
  readonly validateName: (resource: string, name: string) => FieldError[];
}

/** What a create's hooks may read of the cluster: the stored objects of a resource. */
export interface CreateContext {
  readonly list: (resource: string) => readonly KubeObject[];
  /** Adds a Warning header to the response (warning.AddWarning on the request's context). */
  readonly warn: (text: string) => void;
}

/** What a REST storage's own Delete works with. */
export interface RestDeleteContext<T extends KubeObject> {
  readonly store: Store<T>;
  readonly now: number;
  /** The request's delete admission (mutating webhooks are called when it is first asked for). */
  readonly admission: () => StoreAdmission<T> | undefined;
}

/** Every verb, as most kinds serve them. */
export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
/** The status subresource's verbs. */
export const STATUS = { rest: 'StatusREST', verbs: ['get', 'patch', 'update'] } as const;
/** The scale subresource of replicasets, deployments, statefulsets and replicationcontrollers: an autoscaling/v1 Scale. */
export const SCALE = {
  rest: 'ScaleREST',
  verbs: ['get', 'patch', 'update'],
  kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
} as const;
/** Kinds without a status: a write resets nothing (their strategies' GetResetFields are empty). */
export const NO_RESET_FIELDS = { main: [], status: [] } as const;

import type { DeleteOptions } from '../apimachinery/types';
import type { FieldError } from '../apimachinery/errors';
import type { KubeObject } from '../apimachinery/object';

/** rest.GarbageCollectionPolicy: what a resource does with dependents when no policy is given. */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/**
 * The per-resource behaviour the generic store delegates to (upstream: rest.RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy, RESTGracefulDeleteStrategy, GarbageCollectionDeleteStrategy).
 */
export interface Strategy<T extends KubeObject = KubeObject> {
  /** e.g. "Pod"; used in Invalid/Conflict errors. */
  readonly kind: string;
  readonly apiVersion: string;
  /** e.g. "pods"; the plural used in URLs, NotFound errors and etcd keys. */
  readonly resource: string;
  /** The etcd key prefix segment (nodes are stored under "minions" upstream). */
  readonly etcdPrefix: string;
  readonly namespaced: boolean;
  /** Pods allow an update without a resourceVersion (podStrategy.AllowUnconditionalUpdate). */
  readonly allowUnconditionalUpdate: boolean;
  /**
   * Store.ReturnDeletedObject: a DELETE answers with the object (pods, pkg/registry/core/pod/storage)
   * rather than a Status naming it (every other resource here, R50).
   */
  readonly returnDeletedObject?: boolean;
  prepareForCreate(obj: T, now: number): void;
  validate(obj: T): FieldError[];
  prepareForUpdate(next: T, old: T): void;
  validateUpdate(next: T, old: T): FieldError[];
  /** RESTGracefulDeleteStrategy.CheckGracefulDelete; absent = the resource is deleted without grace. */
  checkGracefulDelete?(obj: T, options: DeleteOptions): boolean;
  defaultGarbageCollectionPolicy?(): GarbageCollectionPolicy;
  /** A further condition for an update of a deleting object to remove it (namespaces: spec.finalizers empty too, R120). */
  shouldDeleteDuringUpdate?(next: T, existing: T): boolean;
}

/** The kind errors.NewInvalid names: Kind.group for a kind outside the core group (`ReplicaSet.apps "web" is invalid`). */
export function qualifiedKind(strategy: Pick<Strategy, 'kind' | 'apiVersion'>): string {
  const slash = strategy.apiVersion.indexOf('/');
  return slash < 0 ? strategy.kind : `${strategy.kind}.${strategy.apiVersion.slice(0, slash)}`;
}

/** The resource errors.NewForbidden names: resource.group outside the core group (`replicasets.apps`). */
export function qualifiedResource(strategy: Pick<Strategy, 'resource' | 'apiVersion'>): string {
  const slash = strategy.apiVersion.indexOf('/');
  return slash < 0 ? strategy.resource : `${strategy.resource}.${strategy.apiVersion.slice(0, slash)}`;
}

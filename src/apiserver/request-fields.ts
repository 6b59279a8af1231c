import type { KubeObject } from '../apimachinery/object';
import { toTime } from '../apimachinery/object';
import type { Clock } from '../foundation/clock';
import type { Component } from '../foundation/timeline/event';
import type { CustomResourceServing } from './apiextensions/served-resources';
import { builtinKind } from './kinds';
import { type FieldPath, NO_RESET_FIELDS } from './kinds/kind';
import { FieldSet } from './managedfields/fieldpath';
import { FieldManager, type ManagerInfo } from './managedfields/manager';
import { type ClientIdentity, isCustomResource, type Resource } from './request-types';
import { schemaDefinitions } from './schemas';

/** The components that run inside kube-controller-manager (its User-Agent names the manager). */
const CONTROLLER_MANAGER_COMPONENTS: ReadonlySet<Component> = new Set<Component>([
  'gc',
  'nodelifecycle',
  'podgc',
  'controller',
]);

/** The default GetResetFields of a kind with a status: status through the main resource, spec through status. */
const DEFAULT_RESET_FIELDS = { main: [[{ field: 'status' }]], status: [[{ field: 'spec' }]] } as const;

/**
 * The managed fields of the requests (endpoints/handlers/fieldmanager, managedfields): who sets
 * what, recorded on every write while they are kept, and server-side apply's field manager over
 * the served kinds' OpenAPI definitions.
 */
export class RequestFields {
  private fieldManager?: FieldManager;

  constructor(
    private readonly clock: Clock,
    private readonly customResources: CustomResourceServing,
    /** The API version a resource is stored at (its strategy's). */
    private readonly apiVersionOf: (resource: Resource) => string,
    /** Whether writes keep managedFields now (ApiServerOptions.managedFields). */
    private readonly kept: () => boolean,
  ) {}

  /** An applied object as stored while managedFields are not kept: without them (each apply then starts afresh). */
  untracked<T extends KubeObject>(obj: T): T {
    if (!this.kept()) delete obj.metadata.managedFields;
    return obj;
  }

  /** The field manager, over the served kinds' OpenAPI definitions (built on first use). */
  manager(): FieldManager {
    return (this.fieldManager ??= new FieldManager(schemaDefinitions(), (apiVersion, kind) =>
      this.customResources.fieldRoot(apiVersion, kind),
    ));
  }

  /** The update function of a PUT or PATCH, recording its manager when managed fields are kept. */
  tracker<T>(
    client: ClientIdentity,
    resource: Resource,
    subresource: 'status' | 'finalize' | undefined,
    fieldManager: string | undefined,
  ): (existing: T, next: T) => T {
    if (!this.kept()) return keepNext;
    const info = this.managerOf(client, resource, subresource, 'Update', fieldManager);
    const reset = this.resetFieldsOf(resource, subresource);
    return (existing, next) => {
      this.manager().update(existing as KubeObject, next as KubeObject, info, reset, toTime(this.clock.now()));
      return next;
    };
  }

  /**
   * buildManagerInfo: the fieldManager parameter or, without one, the client's product (upstream
   * takes the User-Agent up to its first '/': kubelet, kube-controller-manager).
   */
  managerOf(
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
      apiVersion: this.apiVersionOf(resource),
      ...(subresource ? { subresource } : {}),
    };
  }

  /**
   * GetResetFields of the resource's strategy: a custom resource resets `status` through its main
   * resource, and `spec` through its status, only when its CRD version has a status subresource
   * (customresource/strategy.go, status_strategy.go); the built-in kinds as resetFields says.
   */
  resetFieldsOf(resource: Resource, subresource: string | undefined): FieldSet {
    const reset = isCustomResource(resource)
      ? this.customResources.get(resource)?.status
        ? DEFAULT_RESET_FIELDS
        : NO_RESET_FIELDS
      : (builtinKind(resource)?.resetFields ?? DEFAULT_RESET_FIELDS);
    // The strategy of the subresource written resets its own fields; any other (namespaces/finalize)
    // resets what the main resource does (namespaceFinalizeStrategy.GetResetFields: status).
    const bySubresource: Readonly<Record<string, readonly FieldPath[]>> = reset;
    return FieldSet.of(...((subresource !== undefined ? bySubresource[subresource] : undefined) ?? reset.main));
  }
}

/** The update function without managed fields: the updated object as it is (one function for every write). */
function keepNext<T>(_existing: T, next: T): T {
  return next;
}

import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Etcd } from '../etcd';
import type { KubeObject } from '../../apimachinery/object';
import { Store } from '../store';
import type { Strategy } from '../strategy';
import type { OpenApiSchema } from '../managedfields/schema';
import { decodeCustomResource, type JSONSchemaProps } from './custom-resource-schema';
import { customResourceStrategies } from './custom-resource-strategy';
import {
  isConditionTrue,
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceSubresources,
} from './types';

/**
 * A custom resource's name as the apiserver knows it: `<plural>.<group>`, its CRD's name. No
 * built-in resource name has a dot, so the two never meet.
 */
export type CustomResource = `${string}.${string}`;

/** One served version of a custom resource (a CRD's spec.versions entry with served: true). */
export interface ServedVersion {
  readonly name: string;
  readonly schema?: JSONSchemaProps;
  readonly subresources: CustomResourceSubresources;
  readonly printerColumns: readonly CustomResourceColumnDefinition[];
  readonly deprecated: boolean;
  readonly deprecationWarning?: string;
}

/** What the apiserver serves for one CRD: its accepted names, scope, served versions and storage. */
export interface ServedCustomResource {
  readonly resource: CustomResource;
  readonly uid: string;
  readonly group: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly namespaced: boolean;
  readonly versions: readonly ServedVersion[];
  readonly storageVersion: string;
  /** Established=True: discovery lists it (DiscoveryController). */
  readonly established: boolean;
  /** Terminating=True: no creates, and discovery lists only delete, deletecollection, get, list and watch. */
  readonly terminating: boolean;
  /** spec.preserveUnknownFields: no pruning. */
  readonly preserveUnknownFields: boolean;
}

interface Entry {
  readonly info: ServedCustomResource;
  readonly store: Store<KubeObject>;
  readonly status?: Strategy<KubeObject>;
  /** What the entry was built from: a CRD update that changes neither keeps the store. */
  readonly built: string;
  /** Server-side apply's schema of the kind per served version (see fieldRoot). */
  readonly fieldRoots: ReadonlyMap<string, OpenApiSchema>;
}

const OBJECT_META = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The schema server-side apply walks a custom resource with (the crdHandler's type converter,
 * managedfields.NewTypeConverter over controller/openapi/builder's models): the version's
 * schema with apiVersion, kind and metadata as ObjectMeta; none (the deduced type: maps granular,
 * lists atomic) without a schema or with spec.preserveUnknownFields.
 */
function fieldRoot(schema: JSONSchemaProps | undefined): OpenApiSchema | undefined {
  if (!schema) return undefined;
  const given = schema as OpenApiSchema;
  return {
    ...given,
    type: 'object',
    properties: {
      ...given.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: OBJECT_META },
    },
  };
}

/**
 * The crdHandler's serving state (pkg/apiserver/customresource_handler.go, crdInfo per CRD uid):
 * for each CRD whose NamesAccepted or Established condition is true, one generic registry Store
 * with the strategy built from the CRD (customresource/strategy.go), on the same etcd as every
 * other resource. It follows every CRD write synchronously (upstream's crdHandler follows its
 * informer; the storage map is rebuilt when spec or accepted names change), and forgets a CRD
 * that is deleted or no longer served. `version` counts the changes, for the caches of discovery
 * and OpenAPI.
 */
export class CustomResourceServing {
  private readonly entries = new Map<CustomResource, Entry>();
  version = 0;

  constructor(
    private readonly etcd: Etcd,
    private readonly clock: Clock,
    private readonly release: Release,
    /** warning.AddWarning for the request running now (a ratcheted CEL rule's error). */
    private readonly warn: (warning: string) => void = () => undefined,
  ) {}

  /** A CRD was written (or deleted: `crd` undefined). */
  changed(name: string, crd: CustomResourceDefinition | undefined): void {
    const resource = name as CustomResource;
    const existing = this.entries.get(resource);
    const info = crd && servedInfo(crd);
    if (!info) {
      if (existing) {
        this.entries.delete(resource);
        this.version++;
      }
      return;
    }
    const built = JSON.stringify(info);
    if (existing?.built === built) return;
    const storage = info.versions.find((v) => v.name === info.storageVersion) ?? info.versions[0];
    const { main, status } = customResourceStrategies({
      group: info.group,
      version: info.storageVersion,
      plural: info.plural,
      kind: info.kind,
      namespaced: info.namespaced,
      hasStatus: storage?.subresources.status !== undefined,
      schema: storage?.schema,
      preserveUnknownFields: info.preserveUnknownFields,
      release: this.release,
      warn: this.warn,
    });
    const fieldRoots = new Map<string, OpenApiSchema>();
    for (const v of info.preserveUnknownFields ? [] : info.versions) {
      const root = fieldRoot(v.schema);
      if (root) fieldRoots.set(v.name, root);
    }
    const store = new Store<KubeObject>(this.etcd, this.clock, main, true, this.release);
    // The crdHandler's decoder prunes and defaults a body by its storage version's schema; its
    // defaulter defaults an object a mutating webhook or policy patched (R203). Here one function
    // does both, so a field a webhook adds outside the schema is pruned then, not only at storage.
    const schema = storage?.schema;
    if (schema)
      store.useDefaulter((obj) =>
        decodeCustomResource(obj as unknown as Record<string, unknown>, schema, info.preserveUnknownFields),
      );
    this.entries.set(resource, {
      info,
      store,
      status,
      built,
      fieldRoots,
    });
    this.version++;
  }

  get(
    resource: string,
  ): { info: ServedCustomResource; store: Store<KubeObject>; status?: Strategy<KubeObject> } | undefined {
    return this.entries.get(resource as CustomResource);
  }

  /** Every served custom resource, in CRD name order. */
  list(): ServedCustomResource[] {
    return [...this.entries.values()]
      .map((e) => e.info)
      .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  }

  /** The schema server-side apply walks a custom resource of `kind` at `apiVersion` with, when a CRD serves one. */
  fieldRoot(apiVersion: string, kind: string): OpenApiSchema | undefined {
    const slash = apiVersion.indexOf('/');
    if (slash < 0) return undefined;
    const group = apiVersion.slice(0, slash);
    for (const e of this.entries.values()) {
      if (e.info.group === group && e.info.kind === kind) return e.fieldRoots.get(apiVersion.slice(slash + 1));
    }
    return undefined;
  }

  stores(): Store<KubeObject>[] {
    return [...this.entries.values()].map((e) => e.store);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * What is served of a CRD, or undefined when nothing is: upstream's crdHandler serves a CRD once
 * NamesAccepted or Established is true, under its accepted names (status.acceptedNames).
 */
function servedInfo(crd: CustomResourceDefinition): ServedCustomResource | undefined {
  if (!isConditionTrue(crd, 'NamesAccepted') && !isConditionTrue(crd, 'Established')) return undefined;
  const accepted = crd.status?.acceptedNames;
  const storage = crd.spec.versions.find((v) => v.storage);
  if (!accepted?.plural || !accepted.kind || !storage) return undefined;
  const versions = crd.spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      name: v.name,
      ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
      subresources: v.subresources ?? {},
      printerColumns: v.additionalPrinterColumns ?? [],
      deprecated: v.deprecated === true,
      ...(v.deprecationWarning ? { deprecationWarning: v.deprecationWarning } : {}),
    }));
  return {
    resource: crd.metadata.name as CustomResource,
    uid: crd.metadata.uid ?? '',
    group: crd.spec.group,
    plural: accepted.plural,
    singular: accepted.singular ?? accepted.kind.toLowerCase(),
    kind: accepted.kind,
    listKind: accepted.listKind ?? `${accepted.kind}List`,
    shortNames: accepted.shortNames ?? [],
    categories: accepted.categories ?? [],
    namespaced: crd.spec.scope === 'Namespaced',
    versions,
    storageVersion: storage.name,
    established: isConditionTrue(crd, 'Established'),
    terminating: isConditionTrue(crd, 'Terminating'),
    preserveUnknownFields: crd.spec.preserveUnknownFields === true,
  };
}

import type { KubeObject } from '../apimachinery/object';
import type { Pod, Status } from '../apimachinery/types';
import type { Component } from '../foundation/timeline/event';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import type { CustomResource } from './apiextensions/served-resources';
import type { BuiltinResource, BuiltinResourceType } from './kinds';

/**
 * The types of the apiserver's requests and answers: which resources there are, who asks, what
 * comes back (metav1.Status, ListMeta), and the options of the server and of a write.
 */

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

/** Whether a resource name is a custom resource's (`<plural>.<group>`: built-in names have no dot). */
export function isCustomResource(resource: string): resource is CustomResource {
  return resource.includes('.');
}

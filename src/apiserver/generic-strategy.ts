import { jsonEqual, toTime, type KubeObject } from '../apimachinery/object';
import type { GarbageCollectionPolicy, Strategy } from './strategy';
import { validateFinalizers, validateObjectMetaUpdate } from '../apimachinery/validation';

/**
 * A strategy for the other kinds the simulation stores (ReplicaSets, Nodes, Events): none of them
 * supports graceful deletion, so a DELETE removes them at once unless finalizers hold them
 * (e.g. pkg/registry/apps/replicaset/strategy.go, pkg/registry/core/node/strategy.go).
 */
export function genericStrategy<T extends KubeObject>(config: {
  kind: string;
  apiVersion: string;
  resource: string;
  etcdPrefix?: string;
  namespaced: boolean;
  gcPolicy?: GarbageCollectionPolicy;
  /**
   * Whether metadata.generation counts spec changes (default true). Kinds without a spec leave it
   * unset: Secrets, ConfigMaps and ServiceAccounts (their strategies' PrepareForCreate set none).
   */
  generation?: boolean;
}): Strategy<T> {
  const generation = config.generation ?? true;
  return {
    kind: config.kind,
    apiVersion: config.apiVersion,
    resource: config.resource,
    etcdPrefix: config.etcdPrefix ?? config.resource,
    namespaced: config.namespaced,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj, now) {
      if (generation) obj.metadata.generation = 1;
      obj.metadata.creationTimestamp = toTime(now);
    },
    validate(obj) {
      return validateFinalizers(obj.metadata.finalizers ?? []);
    },
    prepareForUpdate(next, old) {
      if (!generation) return;
      const { metadata: _n, status: _ns, ...nextSpec } = next as KubeObject & { status?: unknown };
      const { metadata: _o, status: _os, ...oldSpec } = old as KubeObject & { status?: unknown };
      if (!jsonEqual(nextSpec, oldSpec)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validateUpdate(next, old) {
      return validateObjectMetaUpdate(next.metadata, old.metadata);
    },
    ...(config.gcPolicy ? { defaultGarbageCollectionPolicy: () => config.gcPolicy! } : {}),
  };
}

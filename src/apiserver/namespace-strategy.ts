import { genericStrategy } from './generic-strategy';
import type { Strategy } from './strategy';
import type { Namespace } from './types';

/** The label every namespace carries with its own name (v1.LabelMetadataName). */
export const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * pkg/apis/core/v1/defaults.go SetDefaults_Namespace (NamespaceDefaultLabelName, GA in v1.22, so
 * in every release modelled): the `kubernetes.io/metadata.name` label is set to the name on every
 * write, whatever the body says.
 */
export function defaultNameLabel(ns: Namespace): void {
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, [METADATA_NAME_LABEL]: ns.metadata.name };
}

/**
 * pkg/registry/core/namespace/strategy.go: a new namespace is Active and carries the `kubernetes`
 * finalizer (appended if the body lists others); an update keeps the stored status and
 * finalizers (they change through the status and finalize subresources only). No generation.
 */
export function namespaceStrategy(): Strategy<Namespace> {
  const base = genericStrategy<Namespace>({ kind: 'Namespace', apiVersion: 'v1', resource: 'namespaces', namespaced: false, generation: false });
  return {
    ...base,
    prepareForCreate(ns, now) {
      defaultNameLabel(ns);
      ns.status = { phase: 'Active' };
      const finalizers = ns.spec?.finalizers ?? [];
      ns.spec = { ...ns.spec, finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'] };
      base.prepareForCreate(ns, now);
    },
    prepareForUpdate(next, old) {
      defaultNameLabel(next);
      next.spec = { ...next.spec, finalizers: old.spec?.finalizers };
      if (next.spec.finalizers === undefined) delete next.spec.finalizers;
      next.status = old.status;
      if (next.status === undefined) delete next.status;
      base.prepareForUpdate(next, old);
    },
  };
}

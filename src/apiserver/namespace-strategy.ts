import { conflict, forbidden, type StatusError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import { toTime, type KubeObject } from '../apimachinery/object';
import type { Strategy } from './strategy';
import type { DeleteOptions, Namespace, Status } from '../apimachinery/types';
import type { Store } from './store';
import { validateFinalizers } from '../apimachinery/validation';

export const NAMESPACE_SOURCE = 'pkg/registry/core/namespace';

/** api.FinalizerKubernetes: the spec finalizer the namespace controller removes once the namespace is empty. */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** The label every namespace carries with its own name (v1.LabelMetadataName; NamespaceDefaultLabelName, GA in v1.22). */
export const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';
/** v1.NamespaceTerminatingCause: the StatusCause type of a create refused in a terminating namespace. */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/**
 * pkg/apis/core/v1/defaults.go SetDefaults_Namespace (NamespaceDefaultLabelName, GA in v1.22, so
 * in every release modelled): the `kubernetes.io/metadata.name` label is set to the name on every
 * write, whatever the body says.
 */
export function defaultNameLabel(ns: Namespace): void {
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, [METADATA_NAME_LABEL]: ns.metadata.name };
}

/**
 * The namespace strategies (pkg/registry/core/namespace/strategy.go, R120): on create the phase is
 * Active and spec.finalizers holds `kubernetes`; an update of the namespace keeps its
 * spec.finalizers and status (only namespaces/finalize and namespaces/status change them); a status
 * update keeps the spec, and its phase must agree with the deletionTimestamp; a finalize keeps the
 * status. An update of a deleting namespace removes it only once spec.finalizers is empty too
 * (REST.ShouldDeleteDuringUpdate). A DELETE answers with the namespace (ReturnDeletedObject).
 */
export function namespaceStrategies(): {
  main: Strategy<Namespace>;
  status: Strategy<Namespace>;
  finalize: Strategy<Namespace>;
} {
  // Namespaces have no generation (R93).
  const base = genericStrategy<Namespace>({
    kind: 'Namespace',
    apiVersion: 'v1',
    resource: 'namespaces',
    namespaced: false,
    generation: false,
  });
  const main: Strategy<Namespace> = {
    ...base,
    returnDeletedObject: true,
    prepareForCreate(ns, now) {
      base.prepareForCreate(ns, now);
      ns.status = { phase: 'Active' };
      const finalizers = ns.spec?.finalizers ?? [];
      ns.spec = {
        ...ns.spec,
        finalizers: finalizers.includes(FINALIZER_KUBERNETES) ? finalizers : [...finalizers, FINALIZER_KUBERNETES],
      };
      defaultNameLabel(ns);
    },
    prepareForUpdate(next, old) {
      next.spec = { ...next.spec, finalizers: old.spec?.finalizers };
      if (next.spec.finalizers === undefined) delete next.spec.finalizers;
      next.status = old.status;
      if (next.status === undefined) delete next.status;
      defaultNameLabel(next);
      base.prepareForUpdate(next, old);
    },
    shouldDeleteDuringUpdate(next) {
      return (next.spec?.finalizers ?? []).length === 0;
    },
  };
  const status: Strategy<Namespace> = {
    ...main,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
      next.metadata.labels = old.metadata.labels;
    },
    validateUpdate(next, old) {
      const errs = base.validateUpdate(next, old);
      const phase = next.status?.phase;
      // ValidateNamespaceStatusUpdate.
      if (next.metadata.deletionTimestamp === undefined && phase !== 'Active')
        errs.push({
          field: 'status.Phase',
          type: 'Invalid',
          value: phase ?? '',
          detail: 'A namespace may only be in active status if it does not have a deletion timestamp.',
        });
      if (next.metadata.deletionTimestamp !== undefined && phase !== 'Terminating')
        errs.push({
          field: 'status.Phase',
          type: 'Invalid',
          value: phase ?? '',
          detail: 'A namespace may only be in terminating status if it has a deletion timestamp.',
        });
      return errs;
    },
  };
  const finalize: Strategy<Namespace> = {
    ...main,
    prepareForUpdate(next, old) {
      next.status = old.status;
      defaultNameLabel(next);
    },
    validateUpdate(next, old) {
      // ValidateNamespaceFinalizeUpdate: each spec finalizer is a standard or qualified name.
      return [
        ...base.validateUpdate(next, old),
        ...validateFinalizers(next.spec?.finalizers ?? []).map((e) => ({
          ...e,
          field: e.field.replace('metadata.finalizers', 'spec.finalizers'),
        })),
      ];
    },
  };
  return { main, status, finalize };
}

/**
 * storage.go REST.Delete's first request (R121): with the namespace's uid (and the client's
 * resourceVersion) as preconditions, it stamps deletionTimestamp and phase Terminating in one
 * write, and sets the orphan / foreground finalizers as the options ask (shouldHaveOrphanFinalizer,
 * shouldHaveDeleteDependentsFinalizer; the list sorted). The namespace stays until the namespace
 * controller has emptied it and removed `kubernetes` from spec.finalizers.
 */
export function stampNamespaceTerminating(ns: Namespace, options: DeleteOptions, now: number): Namespace {
  const next: Namespace = { ...ns, metadata: { ...ns.metadata }, status: { ...ns.status, phase: 'Terminating' } };
  next.metadata.deletionTimestamp ??= toTime(now);
  const current = new Set(ns.metadata.finalizers ?? []);
  const orphan =
    options.orphanDependents !== undefined && options.orphanDependents !== null
      ? options.orphanDependents
      : options.propagationPolicy
        ? options.propagationPolicy === 'Orphan'
        : current.has('orphan');
  const foreground =
    options.orphanDependents !== undefined && options.orphanDependents !== null
      ? !options.orphanDependents
      : options.propagationPolicy
        ? options.propagationPolicy === 'Foreground'
        : current.has('foregroundDeletion');
  const want = new Set(current);
  for (const [f, on] of [
    ['orphan', orphan],
    ['foregroundDeletion', foreground],
  ] as const)
    on ? want.add(f) : want.delete(f);
  if ([...want].sort().join() !== [...current].sort().join()) next.metadata.finalizers = [...want].sort();
  return next;
}

/**
 * The UID precondition REST.Delete adds, checked against the namespace read: a mismatch is a
 * Conflict naming the namespace (so is a resourceVersion mismatch).
 */
export function namespaceDeletePreconditionError(ns: Namespace, options: DeleteOptions): StatusError | undefined {
  const uid = options.preconditions?.uid;
  const name = ns.metadata.name ?? '';
  const conflictWith = (cause: string) => conflict('namespaces', name, cause);
  if (uid && uid !== ns.metadata.uid)
    return conflictWith(`Precondition failed: UID in precondition: ${uid}, UID in object meta: ${ns.metadata.uid}`);
  const rv = options.preconditions?.resourceVersion;
  if (rv && rv !== ns.metadata.resourceVersion)
    return conflictWith(
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${ns.metadata.resourceVersion}`,
    );
  return undefined;
}

/**
 * plugin/pkg/admission/namespace/lifecycle Admit (R122): a create in a namespace that is
 * terminating is refused, 403 Forbidden with the NamespaceTerminating cause.
 */
export function namespaceTerminatingError(qualifiedResource: string, name: string, namespace: string): StatusError {
  const err = forbidden(
    qualifiedResource,
    name,
    `unable to create new content in namespace ${namespace} because it is being terminated`,
  );
  err.status.details = {
    ...err.status.details,
    causes: [
      {
        reason: NAMESPACE_TERMINATING_CAUSE,
        message: `namespace ${namespace} is being terminated`,
        field: 'metadata.namespace',
      },
    ],
  };
  return err;
}

/** Whether the namespace object is terminating (what the lifecycle admission plugin's lister sees). */
export function isTerminating(ns: KubeObject & { status?: { phase?: string } }): boolean {
  return ns.status?.phase === 'Terminating';
}

/**
 * R121 — namespace storage.go REST.Delete: the first DELETE stamps the namespace Terminating (the
 * uid of the namespace read as a precondition, with the client's own); later ones answer with the
 * namespace while spec.finalizers holds it, and once it is empty delete it as any object. No
 * admission runs here (the namespace kind's REST storage replaces Store.Delete).
 */
export function deleteNamespace(
  rest: { readonly store: Store<Namespace>; readonly now: number },
  name: string,
  options: DeleteOptions,
): Namespace | Status {
  const { store } = rest;
  const ns = store.get(undefined, name);
  const refused = namespaceDeletePreconditionError(ns, options);
  if (refused) throw refused;
  const dryRun = (options.dryRun ?? []).length > 0;
  if (ns.metadata.deletionTimestamp === undefined) {
    const preconditions = {
      uid: ns.metadata.uid,
      ...(options.preconditions?.resourceVersion ? { resourceVersion: options.preconditions.resourceVersion } : {}),
    };
    return store.guaranteedUpdateRaw(undefined, name, preconditions, dryRun, (existing) =>
      stampNamespaceTerminating(existing, options, rest.now),
    );
  }
  if ((ns.spec?.finalizers ?? []).length > 0) return ns;
  return store.delete(undefined, name, {
    ...options,
    preconditions: { ...options.preconditions, uid: ns.metadata.uid },
  }).object;
}

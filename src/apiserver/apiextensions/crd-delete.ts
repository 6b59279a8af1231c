import { conflict } from '../../apimachinery/errors';
import { toTime } from '../../apimachinery/object';
import type { DeleteOptions, Status } from '../../apimachinery/types';
import type { Store, StoreAdmission } from '../store';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, setCondition, type CustomResourceDefinition } from './types';

/**
 * customresourcedefinition/etcd.go REST.Delete: the CRD read, its uid a precondition (a
 * different one given is a Conflict); the first DELETE, after validating admission, stamps the
 * deletionTimestamp, adds the customresourcecleanup finalizer and the Terminating condition
 * (InstanceDeletionPending) in one update, and answers with the CRD; later ones go to
 * Store.Delete, where the finalizer holds it until the CRDFinalizer is done.
 */
export function deleteCustomResourceDefinition(
  rest: {
    readonly store: Store<CustomResourceDefinition>;
    readonly now: number;
    readonly admission: () => StoreAdmission<CustomResourceDefinition> | undefined;
  },
  name: string,
  options: DeleteOptions,
): CustomResourceDefinition | Status {
  const { store } = rest;
  const crd = store.get(undefined, name);
  const uid = options.preconditions?.uid;
  if (uid !== undefined && uid !== crd.metadata.uid)
    throw conflict(
      'customresourcedefinitions.apiextensions.k8s.io',
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${crd.metadata.uid}`,
    );
  const rv = options.preconditions?.resourceVersion;
  if (rv !== undefined && rv !== crd.metadata.resourceVersion)
    throw conflict(
      'customresourcedefinitions.apiextensions.k8s.io',
      name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${crd.metadata.resourceVersion}`,
    );
  const admission = rest.admission();
  if (crd.metadata.deletionTimestamp !== undefined)
    return store.delete(
      undefined,
      name,
      { ...options, preconditions: { ...options.preconditions, uid: crd.metadata.uid } },
      admission,
    ).object;
  const dryRun = (options.dryRun ?? []).length > 0;
  return store.guaranteedUpdateRaw(
    undefined,
    name,
    { uid: crd.metadata.uid, ...(rv !== undefined ? { resourceVersion: rv } : {}) },
    dryRun,
    (existing) => {
      admission?.validate(undefined, existing);
      const now = rest.now;
      existing.metadata.deletionTimestamp ??= toTime(now);
      const finalizers = existing.metadata.finalizers ?? [];
      if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER))
        existing.metadata.finalizers = [...finalizers, CUSTOM_RESOURCE_CLEANUP_FINALIZER];
      setCondition(
        existing,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        },
        toTime(now),
      );
      return existing;
    },
  );
}

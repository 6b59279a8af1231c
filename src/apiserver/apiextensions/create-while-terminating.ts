import { forbidden, StatusError } from '../../apimachinery/errors';
import type { Release } from '../../foundation/release';
import { isCustomResource } from '../request-types';
import type { CustomResource, CustomResourceServing } from './served-resources';

/**
 * A5 — no new custom resources while their CRD is terminating. Up to v1.33 the crdHandler
 * refuses a POST with 405 ("create not allowed while custom resource definition is
 * terminating") and lets a server-side apply create one; from v1.34 (kubernetes#132467) a
 * create admission wrapper (forbidCreateAdmission) refuses both with 403 Forbidden.
 */
export function refuseCreateWhileTerminating(
  customResources: CustomResourceServing,
  release: Release,
  resource: string,
  name: string,
  byApply: boolean,
): void {
  if (!isCustomResource(resource) || !customResources.get(resource)?.info.terminating) return;
  const cause = 'create not allowed while custom resource definition is terminating';
  if (release.atLeast(34)) throw forbidden(resource, name, cause);
  if (!byApply) throw createWhileTerminating(resource);
}

/** The 405 MethodNotSupported of a create while the CRD is terminating, with the crdHandler's message. */
function createWhileTerminating(resource: CustomResource): StatusError {
  const dot = resource.indexOf('.');
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'MethodNotAllowed',
    code: 405,
    message: 'create not allowed while custom resource definition is terminating',
    details: { group: resource.slice(dot + 1), kind: resource.slice(0, dot) },
  });
}

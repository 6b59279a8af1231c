import type { KubeObject } from '../../apiserver/object';
import type { PatchType } from '../../apiserver/patch';
import { StatusError } from '../../apiserver/errors';
import { decodeJson, mediaTypeOf } from '../body';
import { unsupportedMediaType } from '../status';
import { dryRunOf, served, unwrap, writeResult, type RequestScope } from './scope';

/** The patch types of handlers/patch.go, by Content-Type. */
const PATCH_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};
const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * handlers/patch.go PatchResource → ApiServer.patch: JSON Patch, JSON merge patch, or strategic
 * merge patch (pods and the other built-in kinds), applied to the freshest stored object.
 * Server-side apply is not modelled: its patch type answers 415 saying so.
 */
export async function patchResource(scope: RequestScope): Promise<void> {
  const contentType = mediaTypeOf(scope.req.headers['content-type']);
  if (contentType === APPLY_PATCH) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'UnsupportedMediaType',
      code: 415,
      message: `the body of the request was in an unknown format - server-side apply (${APPLY_PATCH}) is not modelled by this simulated kube-apiserver; use client-side apply (kubectl apply without --server-side) or another patch type: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`,
    });
  }
  const type = PATCH_TYPES[contentType];
  if (!type) throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', APPLY_PATCH]);
  const body = decodeJson(await scope.body());
  const dryRun = dryRunOf(scope);
  const subresource = scope.info.subresource === 'status' ? 'status' : undefined;
  const { code, object } = unwrap(await scope.webhooks.admitted(() => scope.api.patch(scope.client, scope.resource.storage, scope.info.namespace, scope.info.name, type, body, { subresource, dryRun })));
  writeResult(scope, code, served(scope, object as KubeObject));
}

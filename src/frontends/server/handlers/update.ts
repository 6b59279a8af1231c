import { badRequest } from '../../../apimachinery/errors';
import type { KubeObject } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import { checkBehaviourAnnotations } from '../behaviours';
import type { Scale, ScalableResource } from '../../../apiserver/scale';
import { decodeJson } from '../body';
import { decodeResourceBody } from './create';
import { admit, dryRunOf, fieldManagerOf, served, unwrap, writeResult, type RequestScope } from './scope';

/** ScaleREST.Update: a PUT of a scalable resource's Scale, whose name must be the URL's. */
export async function updateScale(scope: RequestScope): Promise<void> {
  const scale = decodeJson(await scope.body()) as Scale;
  if (scale.metadata?.name !== scope.info.name)
    throw badRequest(
      `the name of the object (${scale.metadata?.name ?? ''}) does not match the name on the URL (${scope.info.name})`,
    );
  const { code, object } = unwrap(
    scope.api.scale(
      scope.client,
      scope.resource.storage as ScalableResource,
      scope.info.namespace,
      scope.info.name,
      { scale },
      { dryRun: dryRunOf(scope) },
    ),
  );
  writeResult(scope, code, object);
}

/**
 * handlers/update.go UpdateResource → ApiServer.update: a PUT of the whole object, or through a
 * subresource with a strategy of its own (StatusREST, FinalizeREST). The body's name must be the URL's.
 */
export async function updateResource(scope: RequestScope, subresource?: 'status' | 'finalize'): Promise<void> {
  const obj = await decodeResourceBody(scope);
  const name = obj.metadata.name ?? '';
  if (name !== scope.info.name)
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${scope.info.name})`);
  if (scope.resource.storage === 'pods' && subresource === undefined) checkBehaviourAnnotations(obj as Pod);
  const dryRun = dryRunOf(scope);
  const { code, object } = await admit(scope, () =>
    scope.api.update(scope.client, scope.resource.storage, scope.info.namespace, obj as never, {
      subresource,
      dryRun,
      fieldManager: fieldManagerOf(scope),
    }),
  );
  writeResult(scope, code, served(scope, object as KubeObject));
}

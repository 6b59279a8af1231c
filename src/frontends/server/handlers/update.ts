import { badRequest } from '../../../apimachinery/errors';
import type { KubeObject } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import { checkBehaviourAnnotations } from '../behaviours';
import type { Scale, ScalableResource } from '../../../apiserver/scale';
import { decodeJson } from '../body';
import { decodeResourceBody } from './create';
import { admit, dryRunOf, fieldManagerOf, served, unwrap, writeResult, type RequestScope } from './scope';

/**
 * handlers/update.go UpdateResource → ApiServer.update: a PUT of the whole object (or of a pod's
 * status subresource). The body's name must be the URL's.
 */
export async function updateResource(scope: RequestScope): Promise<void> {
  if (scope.info.subresource === 'scale') {
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
    return writeResult(scope, code, object);
  }
  const obj = await decodeResourceBody(scope);
  const name = obj.metadata.name ?? '';
  if (name !== scope.info.name)
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${scope.info.name})`);
  if (scope.resource.storage === 'pods' && scope.info.subresource === '') checkBehaviourAnnotations(obj as Pod);
  const dryRun = dryRunOf(scope);
  const subresource =
    scope.info.subresource === 'status' || scope.info.subresource === 'finalize' ? scope.info.subresource : undefined;
  const { code, object } = await admit(scope, () =>
    scope.api.update(scope.client, scope.resource.storage, scope.info.namespace, obj as never, {
      subresource,
      dryRun,
      fieldManager: fieldManagerOf(scope),
    }),
  );
  writeResult(scope, code, served(scope, object as KubeObject));
}

import { badRequest } from '../../apiserver/errors';
import { EVICTION_GROUP_VERSIONS, type Eviction } from '../../apiserver/eviction';
import { decodeObjectBody } from '../body';
import { dryRunOf, unwrap, writeResult, type RequestScope } from './scope';

/**
 * R78 — POST pods/NAME/eviction (handlers/create.go createHandler with EvictionREST as a
 * NamedCreater): the body is an Eviction of policy/v1 or v1beta1 (JSON, YAML, or protobuf as
 * client-go sends it; apiVersion and kind default to policy/v1 Eviction), in the request's
 * namespace; ApiServer.evict answers 201 with a Success Status.
 */
export async function createEviction(scope: RequestScope): Promise<void> {
  const body = decodeObjectBody(await scope.body(), scope.req.headers['content-type']) as Eviction & Record<string, unknown>;
  const { apiVersion = 'policy/v1', kind = 'Eviction' } = body;
  if (kind !== 'Eviction' || !EVICTION_GROUP_VERSIONS.includes(apiVersion)) {
    throw badRequest(`the object provided is unrecognized (must be of type Eviction): ${String(kind)} in version "${String(apiVersion)}" cannot be handled as a Eviction`);
  }
  const namespace = scope.info.namespace!;
  // rest.EnsureObjectNamespaceMatchesRequestNamespace
  if (body.metadata?.namespace && body.metadata.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const { code, object } = unwrap(scope.api.evict(scope.client, namespace, scope.info.name, body, { dryRun: dryRunOf(scope) }));
  writeResult(scope, code, object);
}

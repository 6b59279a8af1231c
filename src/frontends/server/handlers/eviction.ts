import { EVICTION_GROUP_VERSIONS, type Eviction } from '../../../apiserver/eviction';
import { decodeObjectBody, namespaceMismatch, unrecognizedKind } from '../body';
import { admit, dryRunOf, writeResult, type RequestScope } from './scope';

/**
 * R78 — POST pods/NAME/eviction (handlers/create.go createHandler with EvictionREST as a
 * NamedCreater): the body is an Eviction of policy/v1 or v1beta1 in JSON or YAML (as kubectl
 * drain sends it; apiVersion and kind default to policy/v1 Eviction), in the request's
 * namespace; ApiServer.evict answers 201 with a Success Status.
 */
export async function createEviction(scope: RequestScope): Promise<void> {
  const body = decodeObjectBody(await scope.body(), scope.req.headers['content-type']) as Eviction &
    Record<string, unknown>;
  const { apiVersion = 'policy/v1', kind = 'Eviction' } = body;
  if (kind !== 'Eviction' || !EVICTION_GROUP_VERSIONS.includes(apiVersion))
    throw unrecognizedKind('Eviction', kind, apiVersion);
  const namespace = scope.info.namespace!;
  if (body.metadata?.namespace && body.metadata.namespace !== namespace) throw namespaceMismatch();
  const dryRun = dryRunOf(scope);
  const { code, object } = await admit(scope, () =>
    scope.api.evict(scope.client, namespace, scope.info.name, body, { dryRun }),
  );
  writeResult(scope, code, object);
}

import { checkDeleteOptionsTypes, deleteOptionsFromRequest } from '../../../apiserver/delete-options';
import { parseListOptions, selectionMatches } from '../../../apiserver/list-options';
import type { KubeObject } from '../../../apimachinery/object';
import type { DeleteOptions } from '../../../apimachinery/types';
import { decodeObjectBody } from '../body';
import { groupVersionString } from '../../../apiserver/resources';
import { admit, query, queryRecord, served, writeResult, type RequestScope } from './scope';

/**
 * DeleteOptions from a non-empty body (JSON or YAML), else from the query string
 * (handlers/delete.go; R1). The body's apiVersion/kind are the options' own type meta; fields of
 * the wrong JSON type fail as the release's decoder did (V7).
 */
async function deleteOptionsOf(scope: RequestScope): Promise<DeleteOptions> {
  const raw = await scope.body();
  if (raw.length === 0) return deleteOptionsFromRequest(undefined, queryRecord(scope));
  const { apiVersion: _a, kind: _k, ...options } = decodeObjectBody(raw, scope.req.headers['content-type']);
  return deleteOptionsFromRequest(checkDeleteOptionsTypes(options, scope.api.options.release));
}

/**
 * handlers/delete.go DeleteResource → ApiServer.delete: 200 with the pod (or a Success Status
 * for kinds that do not return the deleted object), 202 when dependents are still being deleted.
 */
export async function deleteResource(scope: RequestScope): Promise<void> {
  const options = await deleteOptionsOf(scope);
  const { code, object } = await admit(scope, () =>
    scope.api.delete(scope.client, scope.resource.storage, scope.info.namespace, scope.info.name, options),
  );
  const obj = object as KubeObject;
  writeResult(scope, code, obj.kind === 'Status' ? obj : served(scope, obj));
}

/**
 * handlers/delete.go DeleteCollection → ApiServer.deleteCollection: every object the label and
 * field selectors match is deleted with the same options; the answer lists them as they were.
 */
export async function deleteCollection(scope: RequestScope): Promise<void> {
  const storage = scope.resource.storage;
  const selection = parseListOptions(
    storage,
    { metadata: {} },
    { labelSelector: query(scope, 'labelSelector'), fieldSelector: query(scope, 'fieldSelector') },
  );
  const options = await deleteOptionsOf(scope);
  const { object } = await admit(scope, () =>
    scope.api.deleteCollection(scope.client, storage, scope.info.namespace, options, (o) =>
      selectionMatches(storage, selection, o as KubeObject),
    ),
  );
  const r = scope.resource;
  const items = (object as KubeObject[]).map((o) => {
    const { apiVersion: _a, kind: _k, ...rest } = served(scope, o);
    return rest;
  });
  writeResult(scope, 200, {
    kind: `${r.kind}List`,
    apiVersion: groupVersionString(r.group, r.version),
    metadata: { resourceVersion: String(scope.api.etcd.currentRevision) },
    items,
  });
}

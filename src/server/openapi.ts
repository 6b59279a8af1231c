import { createHash } from 'node:crypto';
import type { Release } from '../release';
import { SERVED_RESOURCES, type ServedResource } from './resources';

/**
 * OpenAPI v3 as far as kubectl v1.33 needs it (staging/src/k8s.io/kube-openapi handler3; the
 * kubectl side is k8s.io/kubectl/pkg/cmd/util/... and client-go openapi3.Root):
 *
 * - `/openapi/v3` lists one document per group/version (`serverRelativeURL` with a hash);
 * - `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}` describe the served paths and
 *   their operations, each tagged with `x-kubernetes-group-version-kind` and listing its query
 *   parameters. `kubectl create/apply -f` reads them to learn that the server validates fields
 *   itself (the PATCH operation takes `fieldValidation`), so it sends `fieldValidation=Strict`
 *   instead of validating client-side.
 *
 * The documents carry no object schemas: `kubectl apply` then computes its strategic merge
 * patch from its built-in types (patcher.go falls back to them when the OpenAPI document has no
 * schema for the kind), and `kubectl explain` has nothing to show. `/openapi/v2` is not served.
 */
export function openApiDocument(path: string, release: Release): object | undefined {
  if (path === '/openapi/v3') return openApiRoot(release);
  const gv = path.replace(/^\/openapi\/v3\//, '');
  if (gv === path) return undefined;
  const resources = SERVED_RESOURCES.filter((r) => gvPath(r) === gv);
  if (resources.length === 0) return undefined;
  return groupVersionDocument(resources, release);
}

function gvPath(r: ServedResource): string {
  return r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
}

function openApiRoot(release: Release): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of new Set(SERVED_RESOURCES.map(gvPath))) {
    const hash = createHash('sha512').update(JSON.stringify(openApiDocument(`/openapi/v3/${gv}`, release))).digest('hex').toUpperCase().slice(0, 128);
    paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
  }
  return { paths };
}

const param = (name: string, description: string, type = 'string') => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });
const WRITE_PARAMS = [
  param('dryRun', 'When present, indicates that modifications should not be persisted.'),
  param('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  param('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: Ignore, Warn (default), Strict.'),
];
const LIST_PARAMS = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'].map((n) =>
  param(n, `See metav1.ListOptions ${n}.`, n === 'limit' || n === 'timeoutSeconds' ? 'integer' : n === 'watch' || n === 'allowWatchBookmarks' || n === 'sendInitialEvents' ? 'boolean' : 'string'),
);

function groupVersionDocument(resources: ServedResource[], release: Release): object {
  const paths: Record<string, object> = {};
  for (const r of resources) {
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const ext = (action: string) => ({ 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk });
    const base = `/${gvPath(r)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
    const op = (action: string, parameters: object[]) => ({ operationId: `${action}${r.kind}`, parameters, responses: { '200': { description: 'OK' } }, ...ext(action) });
    paths[base] = {
      get: op('list', LIST_PARAMS),
      post: op('post', WRITE_PARAMS),
      ...(r.verbs.includes('deletecollection') ? { delete: op('deletecollection', LIST_PARAMS) } : {}),
    };
    paths[`${base}/{name}`] = {
      get: op('get', []),
      put: op('put', WRITE_PARAMS),
      patch: op('patch', [...WRITE_PARAMS, param('force', 'Force is going to "force" Apply requests.', 'boolean')]),
      delete: op('delete', [param('dryRun', 'When present, indicates that modifications should not be persisted.'), param('gracePeriodSeconds', 'The duration in seconds before the object should be deleted.', 'integer'), param('propagationPolicy', 'Whether and how garbage collection will be performed.')]),
    };
    for (const [sub, { verbs, kind }] of Object.entries(r.subresources)) {
      const subOp = (action: string, parameters: object[]) => ({ ...op(action, parameters), ...(kind ? { 'x-kubernetes-group-version-kind': kind } : {}) });
      paths[`${base}/{name}/${sub}`] = {
        ...(verbs.includes('get') ? { get: subOp('get', []) } : {}),
        ...(verbs.includes('create') ? { post: subOp('post', WRITE_PARAMS) } : {}),
        ...(verbs.includes('update') ? { put: subOp('put', WRITE_PARAMS) } : {}),
        ...(verbs.includes('patch') ? { patch: subOp('patch', WRITE_PARAMS) } : {}),
      };
    }
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: `v1.${release.minor}.0` }, paths, components: {} };
}

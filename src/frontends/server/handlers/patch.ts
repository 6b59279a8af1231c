import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../../apimachinery/object';
import type { ScalableResource } from '../../../apiserver/scale';
import type { PatchType } from '../../../apiserver/patch';
import { badRequest, invalid, unprocessable, type StatusError } from '../../../apimachinery/errors';
import { decodeJson, mediaTypeOf } from '../body';
import { groupVersionString } from '../../../apiserver/resources';
import { duplicateFields } from '../../../apiserver/strict-decoding';
import { fieldValidationOf, validateFields } from '../field-validation';
import { unsupportedMediaType } from '../status';
import { admit, dryRunOf, fieldManagerOf, query, served, unwrap, writeResult, type RequestScope } from './scope';

/** The patch types of handlers/patch.go, by Content-Type. */
const PATCH_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};
const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * handlers/patch.go PatchResource → ApiServer.patch: JSON Patch, JSON merge patch, or strategic
 * merge patch (pods and the other built-in kinds), applied to the freshest stored object; or
 * server-side apply (applyPatcher → ApiServer.apply), which needs a fieldManager and may be forced.
 */
export function patchResource(scope: RequestScope, subresource?: 'status'): Promise<void> {
  return patch(scope, subresource, async (type, body, dryRun) => {
    const { code, object } = await admit(scope, () =>
      scope.api.patch(scope.client, scope.resource.storage, scope.info.namespace, scope.info.name, type, body, {
        subresource,
        dryRun,
        fieldManager: fieldManagerOf(scope),
      }),
    );
    writeResult(scope, code, served(scope, object as KubeObject));
  });
}

/** ScaleREST.Patch: a patch of a scalable resource's Scale (an apply goes to the resource, as before). */
export function patchScale(scope: RequestScope): Promise<void> {
  return patch(scope, undefined, async (type, body, dryRun) => {
    const { code, object } = unwrap(
      scope.api.scale(
        scope.client,
        scope.resource.storage as ScalableResource,
        scope.info.namespace,
        scope.info.name,
        { patch: type, body },
        { dryRun },
      ),
    );
    writeResult(scope, code, object);
  });
}

/** The checks every patch makes before it is applied, then the REST storage's own write. */
async function patch(
  scope: RequestScope,
  subresource: 'status' | undefined,
  write: (type: PatchType, body: unknown, dryRun: boolean) => Promise<void>,
): Promise<void> {
  const contentType = mediaTypeOf(scope.req.headers['content-type']);
  const force = query(scope, 'force');
  if (contentType === APPLY_PATCH) return applyResource(scope, force, subresource);
  const type = PATCH_TYPES[contentType];
  // Custom resources have no Go types to carry patch strategies: no strategic merge patch (customresource_handler.go supportedTypes).
  if (scope.resource.custom && type === 'strategic')
    throw unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', APPLY_PATCH]);
  if (!type)
    throw unsupportedMediaType([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      APPLY_PATCH,
    ]);
  // metav1 validation ValidatePatchOptions: force belongs to apply alone.
  if (force !== undefined)
    throw unprocessable(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  const raw = await scope.body();
  const body = decodeJson(raw);
  const directive = fieldValidationOf(query(scope, 'fieldValidation'), 'PatchOptions');
  refuseMalformedPatch(type, body, directive);
  // A merge or strategic patch names fields as the object does (a JSON Patch's operations are not walked).
  const duplicates = directive === 'Ignore' ? undefined : duplicateFields(raw.toString('utf8'));
  if (type !== 'json') {
    validateFields(
      scope.resource,
      body,
      directive,
      scope.res,
      (detail) => patchInvalid(type === 'strategic' ? goValue(body) : JSON.stringify(body), detail),
      { minor: scope.api.options.release.minor, duplicates },
    );
  }
  return write(type, body, dryRunOf(scope));
}

/**
 * applyPatcher: the body is YAML (or JSON) of the endpoint's group, version and kind
 * (versionCheckManager), named as the URL names it (patch.go checkName); `fieldManager` is
 * required (ValidatePatchOptions). 201 when the apply created the object.
 */
async function applyResource(
  scope: RequestScope,
  force: string | undefined,
  subresource: 'status' | undefined,
): Promise<void> {
  const fieldManager = query(scope, 'fieldManager');
  if (fieldManager === undefined || fieldManager === '')
    throw unprocessable(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  fieldManagerOf(scope);
  let body: unknown;
  try {
    body = parseYaml((await scope.body()).toString('utf8'));
  } catch (e) {
    throw badRequest(`error decoding YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest(
      `error decoding YAML: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into an object`,
    );
  const r = scope.resource;
  const obj = body as KubeObject;
  const gv = groupVersionString(r.group, r.version);
  if (obj.apiVersion !== gv || obj.kind !== r.kind)
    throw badRequest(`invalid object type: ${gvkString(obj.apiVersion, obj.kind)}`);
  const meta = (obj.metadata ??= {});
  if (meta.name !== undefined && meta.name !== scope.info.name)
    throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${scope.info.name})`);
  if (meta.namespace !== undefined && meta.namespace !== (scope.info.namespace ?? ''))
    throw badRequest(
      `the namespace of the object (${meta.namespace}) does not match the namespace on the URL (${scope.info.namespace ?? ''})`,
    );
  const stored = r.fromServed ? r.fromServed(obj) : obj;
  const { code, object } = unwrap(
    scope.api.apply(scope.client, r.storage, scope.info.namespace, scope.info.name, stored as never, {
      fieldManager,
      force: force === 'true',
      subresource,
      dryRun: dryRunOf(scope),
    }),
  );
  writeResult(scope, code, served(scope, object as KubeObject));
}

/**
 * R241 — a patch body of the wrong shape is a 400 before anything is patched (handlers/patch.go
 * applyJSPatch and strategicPatchObject):
 * - a JSON Patch that is not a list: with Strict or Warn the strict decode into `[]jsonPatchOp`
 *   fails (`error decoding patch: json: cannot unmarshal object into Go value of type
 *   []handlers.jsonPatchOp`), with Ignore jsonpatch.DecodePatch does (`… of type jsonpatch.Patch`);
 * - a merge patch that is not an object: with Strict or Warn the strict decode into a map fails
 *   for a string, number or list (`error decoding patch: json: cannot unmarshal string into Go
 *   value of type map[string]interface {}`); `null` (and, with Ignore, any non-object but a
 *   list) is evanphx/json-patch MergePatch's ErrBadJSONPatch, `Invalid JSON Patch`. (With Ignore
 *   a list replaces the whole object, which then fails to decode: a 422, left to the decoder.)
 * - a strategic merge patch that is not an object: kjson's decode into a map fails
 *   (`json: cannot unmarshal array into Go value of type map[string]interface {}`); `null`
 *   decodes as an empty patch.
 */
function refuseMalformedPatch(type: PatchType, body: unknown, directive: string): void {
  const kind = jsonKind(body);
  if (type === 'json') {
    if (kind === 'array') return;
    throw badRequest(
      directive === 'Ignore'
        ? `json: cannot unmarshal ${kind} into Go value of type jsonpatch.Patch`
        : `error decoding patch: json: cannot unmarshal ${kind} into Go value of type []handlers.jsonPatchOp`,
    );
  }
  if (kind === 'object') return;
  if (type === 'merge') {
    if (body === null || (directive === 'Ignore' && kind !== 'array')) throw badRequest('Invalid JSON Patch');
    if (directive !== 'Ignore')
      throw badRequest(
        `error decoding patch: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
      );
    return;
  }
  if (body !== null) throw badRequest(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
}

/** The JSON kind encoding/json names in "cannot unmarshal X into …". */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * errors.NewInvalid with an empty kind on the field `patch`, its value the patch as Go prints it
 * (`%+v` of the strategic patch's map; for a merge patch upstream prints the patched object, here
 * the patch).
 */
function patchInvalid(value: string, detail: string): StatusError {
  return invalid('', '', [{ field: 'patch', type: 'Invalid', value, detail }]);
}

/** Go's %+v of a decoded JSON value: `map[spec:map[foo:1]]`, `[a b]`, strings bare. */
function goValue(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const m = v as Record<string, unknown>;
    return `map[${Object.keys(m)
      .sort()
      .map((k) => `${k}:${goValue(m[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** schema.GroupVersionKind.String: `/v1, Kind=Pod`, `apps/v1, Kind=ReplicaSet`. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const [group, version] = av.includes('/') ? av.split('/') : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

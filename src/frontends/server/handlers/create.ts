import { badRequest } from '../../../apimachinery/errors';
import type { KubeObject } from '../../../apimachinery/object';
import type { Pod } from '../../../apimachinery/types';
import { decodeObjectBody, mediaTypeOf, namespaceMismatch, unrecognizedKind } from '../body';
import { duplicateFields } from '../../../apiserver/strict-decoding';
import { checkBehaviourAnnotations } from '../behaviours';
import { groupVersionString } from '../../../apiserver/resources';
import { fieldValidationOf, validateFields } from '../field-validation';
import {
  admit,
  dryRunOf,
  fieldManagerOf,
  query,
  refuseProtobufBody,
  served,
  writeResult,
  type RequestScope,
} from './scope';

/**
 * Decodes a create or update body into the stored form: a JSON or YAML object of this
 * resource's kind (an absent apiVersion/kind defaults to the endpoint's, as the decoder's
 * defaultGVK), whose namespace, if given, is the request's (and, if not, becomes it).
 */
export async function decodeResourceBody(scope: RequestScope): Promise<KubeObject> {
  refuseProtobufBody(scope);
  const raw = await scope.body();
  const obj = decodeObjectBody(raw, scope.req.headers['content-type']) as Partial<KubeObject> & Record<string, unknown>;
  const r = scope.resource;
  const gv = groupVersionString(r.group, r.version);
  if ((obj.kind !== undefined && obj.kind !== r.kind) || (obj.apiVersion !== undefined && obj.apiVersion !== gv)) {
    throw unrecognizedKind(r.kind, obj.kind, obj.apiVersion);
  }
  if (obj.metadata === undefined || obj.metadata === null || typeof obj.metadata !== 'object') obj.metadata = {};
  const metadata = obj.metadata as KubeObject['metadata'];
  if (
    r.namespaced &&
    metadata.namespace !== undefined &&
    metadata.namespace !== '' &&
    metadata.namespace !== scope.info.namespace
  )
    throw namespaceMismatch();
  // rest.EnsureObjectNamespaceMatchesRequestNamespace: a body without a namespace takes the request's
  // (client-go's typed clients, e.g. Helm's release storage, PUT objects without one).
  if (r.namespaced && !metadata.namespace && scope.info.namespace !== undefined)
    metadata.namespace = scope.info.namespace;
  if (!r.namespaced && metadata.namespace) throw namespaceMismatch();
  const typed = { ...obj, apiVersion: gv, kind: r.kind } as KubeObject;
  // A strict decoding error is a decode error: transformDecodeError prefixes what could not be decoded into what.
  const cannotBeHandled = (detail: string) =>
    badRequest(`${r.kind} in version ${JSON.stringify(r.version)} cannot be handled as a ${r.kind}: ${detail}`);
  const directive = fieldValidationOf(
    query(scope, 'fieldValidation'),
    scope.info.verb === 'create' ? 'CreateOptions' : 'UpdateOptions',
  );
  // Keys written twice: only a JSON body's (a YAML body with one is a YAML error already).
  const json = (mediaTypeOf(scope.req.headers['content-type']) || 'application/json') === 'application/json';
  const duplicates = json && directive !== 'Ignore' ? duplicateFields(raw.toString('utf8')) : undefined;
  validateFields(r, typed, directive, scope.res, cannotBeHandled, {
    minor: scope.api.options.release.minor,
    duplicates,
  });
  return r.fromServed ? r.fromServed(typed) : typed;
}

/** handlers/create.go createHandler → ApiServer.create: 201 with the created object. */
export async function createResource(scope: RequestScope): Promise<void> {
  const obj = await decodeResourceBody(scope);
  if (scope.resource.storage === 'pods') checkBehaviourAnnotations(obj as Pod);
  const dryRun = dryRunOf(scope);
  const { code, object } = await admit(scope, () =>
    scope.api.create(scope.client, scope.resource.storage, scope.info.namespace, obj as never, {
      dryRun,
      fieldManager: fieldManagerOf(scope),
    }),
  );
  writeResult(scope, code, served(scope, object as KubeObject));
}

import type { OpenApiSchema } from '../../apiserver/managedfields/schema';
import { definitionsForRelease } from '../../apiserver/strict-decoding';
import type { Release } from '../../foundation/release';
import type { ApiServer } from '../../apiserver/apiserver';
import { customResources, SERVED_RESOURCES, type ServedResource } from '../../apiserver/resources';
import { computeETag } from './openapi-http';

/**
 * R110 — OpenAPI v3 and v2 of the served kinds (staging/src/k8s.io/kube-openapi handler3 and handler;
 * the kubectl side is k8s.io/kubectl/pkg/explain/v2 and client-go openapi3.Root):
 *
 * - `/openapi/v3` lists one document per group/version (`serverRelativeURL` with a hash);
 * - `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}` describe the served paths and
 *   their operations, each tagged with `x-kubernetes-group-version-kind` and listing its query
 *   parameters, and under `components.schemas` the schema of every kind served there and of what
 *   it uses (src/apiserver/schemas.ts), references wrapped in `allOf` as upstream's v3 documents
 *   do. `kubectl explain` reads the kind's schema from there; `kubectl create/apply -f` learns
 *   that the server validates fields itself (the PATCH operation takes `fieldValidation`), so it
 *   sends `fieldValidation=Strict` instead of validating client-side, and computes strategic
 *   merge patches from the schemas' patch strategies;
 * - `/openapi/v2` is the Swagger 2.0 document of every served path and definition, as JSON
 *   (kubectl releases before 1.27 read it for explain and for client-side validation); its
 *   protobuf form, gnostic's openapi_v2.Document that client-go's OpenAPISchema asks for, is
 *   encoded from it in openapi-v2-protobuf.ts (R100).
 */
export function openApiDocument(path: string, release: Release, api?: ApiServer): object | undefined {
  const custom = api && api.customResources.size > 0 ? customResources(api) : [];
  // The built-in documents only change with the release, those with custom resources with their
  // CRDs too: each is built once per state (the aggregator's OpenAPI controller rebuilds on a CRD change).
  const key = `${release.minor} ${custom.length ? `${api!.customResources.version} ` : ''}${path}`;
  if (!built.has(key)) {
    if (built.size > 256) built.clear();
    built.set(key, buildDocument(path, release, custom));
  }
  return built.get(key);
}

const built = new Map<string, object | undefined>();

function buildDocument(path: string, release: Release, custom: readonly ServedResource[]): object | undefined {
  if (path === '/openapi/v3') return openApiRoot(release, custom);
  if (path === '/openapi/v2') return swaggerDocument(release, custom);
  const gv = path.replace(/^\/openapi\/v3\//, '');
  if (gv === path) return undefined;
  const resources = SERVED_RESOURCES.filter((r) => gvPath(r) === gv);
  if (resources.length > 0) return groupVersionDocument(resources, release);
  const crs = custom.filter((r) => gvPath(r) === gv);
  return crs.length > 0 ? customGroupVersionDocument(crs, release) : undefined;
}

/**
 * OpenAPI v3 of a custom resource group/version (apiextensions-apiserver
 * pkg/controller/openapi/builder): the paths as for a built-in kind, and the kind's schema named
 * after its reversed group (`com.example.v1.Database`), the CRD version's openAPIV3Schema with
 * apiVersion, kind and metadata (a reference to ObjectMeta) added, tagged with its
 * x-kubernetes-group-version-kind, for `kubectl explain` to find.
 */
function customGroupVersionDocument(resources: readonly ServedResource[], release: Release): object {
  const doc = groupVersionDocument(resources, release) as { components: { schemas: Record<string, OpenApiSchema> } };
  const schemas: Record<string, OpenApiSchema> = {
    ...v3Schemas([], release.minor, ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']),
    ...PATCH_SCHEMAS,
  };
  for (const r of resources) {
    const given = (r.custom?.version.schema ?? { type: 'object' }) as OpenApiSchema;
    schemas[customKindName(r)] = customKindSchema(r, given, {
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
      default: {},
      description: "Standard object's metadata.",
    } as OpenApiSchema);
  }
  return { ...doc, components: { schemas } };
}

/** A custom resource kind's schema name: after its reversed group (`com.example.v1.Database`). */
function customKindName(r: ServedResource): string {
  return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.kind}`;
}

/** The kind's schema as the builder publishes it: the CRD version's, with apiVersion, kind and metadata added, tagged with its group-version-kind. */
function customKindSchema(r: ServedResource, given: OpenApiSchema, metadata: OpenApiSchema): OpenApiSchema {
  return {
    ...given,
    type: 'object',
    properties: {
      apiVersion: {
        type: 'string',
        description: 'The versioned schema of this object (group/version), as the API server names it.',
      },
      kind: { type: 'string', description: 'The REST resource this object represents, in CamelCase.' },
      metadata,
      ...(given.properties ?? {}),
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.kind }],
  } as OpenApiSchema;
}

function gvPath(r: ServedResource): string {
  return r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
}

function openApiRoot(release: Release, custom: readonly ServedResource[]): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of new Set([...SERVED_RESOURCES, ...custom].map(gvPath))) {
    // The document's ETag (R322): a client caches the hashed URL for good.
    const hash = computeETag(JSON.stringify(buildDocument(`/openapi/v3/${gv}`, release, custom)));
    paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
  }
  return { paths };
}

const param = (name: string, description: string, type = 'string') => ({
  name,
  in: 'query',
  description,
  schema: { type, uniqueItems: true },
});
const WRITE_PARAMS = [
  param('dryRun', 'When present, indicates that modifications should not be persisted.'),
  param('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  param(
    'fieldValidation',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: Ignore, Warn (default), Strict.',
  ),
];
const LIST_PARAMS = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
].map((n) =>
  param(
    n,
    `See metav1.ListOptions ${n}.`,
    n === 'limit' || n === 'timeoutSeconds'
      ? 'integer'
      : n === 'watch' || n === 'allowWatchBookmarks' || n === 'sendInitialEvents'
        ? 'boolean'
        : 'string',
  ),
);

/** The schema every PATCH body refers to (apimachinery meta/v1 Patch), in every group/version's components. */
const PATCH_SCHEMA = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
const PATCH_SCHEMAS: Record<string, OpenApiSchema> = {
  [PATCH_SCHEMA]: {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  } as OpenApiSchema,
};

/**
 * R323 — a PATCH operation's request body: the patch types the endpoint installer lists for it
 * (endpoints/installer.go `supportedTypes`), strategic merge patch only for a built-in kind (the
 * CRD handler cannot apply one). kubectl apply looks here, for the object's group-version-kind,
 * to decide whether it may compute a strategic merge patch from this OpenAPI v3 document
 * (kubectl/pkg/cmd/apply/patcher.go `gvkSupportsPatchOpenAPIV3`); without a request body it
 * downloaded `/openapi/v2` as well to compute the same patch from there.
 */
function patchRequestBody(r: ServedResource): object {
  const types = [
    'application/apply-patch+yaml',
    'application/json-patch+json',
    'application/merge-patch+json',
    ...(r.custom ? [] : ['application/strategic-merge-patch+json']),
  ];
  const content = Object.fromEntries(
    types.map((t) => [t, { schema: { $ref: `#/components/schemas/${PATCH_SCHEMA}` } }]),
  );
  return { content, required: true };
}

function groupVersionDocument(resources: readonly ServedResource[], release: Release): object {
  const paths: Record<string, object> = {};
  for (const r of resources) {
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const ext = (action: string) => ({ 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk });
    const base = `/${gvPath(r)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
    const op = (action: string, parameters: object[]) => ({
      operationId: `${action}${r.kind}`,
      parameters,
      responses: { '200': { description: 'OK' } },
      ...ext(action),
    });
    paths[base] = {
      get: op('list', LIST_PARAMS),
      post: op('post', WRITE_PARAMS),
      ...(r.verbs.includes('deletecollection') ? { delete: op('deletecollection', LIST_PARAMS) } : {}),
    };
    paths[`${base}/{name}`] = {
      get: op('get', []),
      put: op('put', WRITE_PARAMS),
      patch: {
        ...op('patch', [...WRITE_PARAMS, param('force', 'Force is going to "force" Apply requests.', 'boolean')]),
        requestBody: patchRequestBody(r),
      },
      delete: op('delete', [
        param('dryRun', 'When present, indicates that modifications should not be persisted.'),
        param('gracePeriodSeconds', 'The duration in seconds before the object should be deleted.', 'integer'),
        param('propagationPolicy', 'Whether and how garbage collection will be performed.'),
      ]),
    };
    for (const [sub, { verbs, kind }] of Object.entries(r.subresources)) {
      const subOp = (action: string, parameters: object[]) => ({
        ...op(action, parameters),
        ...(kind ? { 'x-kubernetes-group-version-kind': kind } : {}),
      });
      paths[`${base}/{name}/${sub}`] = {
        ...(verbs.includes('get') ? { get: subOp('get', []) } : {}),
        ...(verbs.includes('create') ? { post: subOp('post', WRITE_PARAMS) } : {}),
        ...(verbs.includes('update') ? { put: subOp('put', WRITE_PARAMS) } : {}),
        ...(verbs.includes('patch')
          ? { patch: { ...subOp('patch', WRITE_PARAMS), requestBody: patchRequestBody(r) } }
          : {}),
      };
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: `v1.${release.minor}.0` },
    paths,
    components: {
      schemas: {
        ...v3Schemas(resources, release.minor),
        ...PATCH_SCHEMAS,
      },
    },
  };
}

/** The definition names a kind's schema uses, itself first (a walk of its references). */
function reachable(roots: readonly string[], minor: number): string[] {
  const defs = definitionsForRelease(minor);
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !defs[name]) return;
    seen.add(name);
    const walk = (s: OpenApiSchema | boolean | undefined): void => {
      if (!s || typeof s !== 'object') return;
      if (s.$ref) visit(s.$ref.slice(s.$ref.lastIndexOf('/') + 1));
      for (const p of Object.values(s.properties ?? {})) walk(p);
      walk(s.items);
      walk(s.additionalProperties);
    };
    walk(defs[name]);
  };
  roots.forEach(visit);
  return [...seen].sort();
}

/** The definition of a served kind, found by its group-version-kind extension. */
function kindDefinition(r: ServedResource, minor: number): string | undefined {
  const defs = definitionsForRelease(minor);
  return Object.keys(defs).find((name) =>
    (defs[name]['x-kubernetes-group-version-kind'] ?? []).some(
      (g) => g.group === r.group && g.version === r.version && g.kind === r.kind,
    ),
  );
}

/** v3: `#/components/schemas/…` references, each wrapped in allOf (with `default: {}` for a struct). */
function v3Schemas(
  resources: readonly ServedResource[],
  minor: number,
  extraRoots: readonly string[] = [],
): Record<string, OpenApiSchema> {
  const defs = definitionsForRelease(minor);
  const out: Record<string, OpenApiSchema> = {};
  const convert = (s: OpenApiSchema): OpenApiSchema => {
    if (s.$ref) {
      const { $ref, ...rest } = s;
      return { ...rest, allOf: [{ $ref: $ref.replace('#/definitions/', '#/components/schemas/') }], default: {} };
    }
    const c: Record<string, unknown> = { ...s };
    if (s.properties) c.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, convert(v)]));
    if (s.items) c.items = convert(s.items);
    if (s.additionalProperties && typeof s.additionalProperties === 'object')
      c.additionalProperties = convert(s.additionalProperties);
    return c as OpenApiSchema;
  };
  const roots = [
    ...resources.map((r) => kindDefinition(r, minor)).filter((n): n is string => n !== undefined),
    ...extraRoots,
  ];
  for (const name of reachable(roots, minor)) out[name] = convert(defs[name]);
  return out;
}

/**
 * /openapi/v2: Swagger 2.0 with every served path and every definition, custom resources included
 * (the apiextensions OpenAPI controller merges each served CRD version into it, so kubectl before
 * 1.27, which reads v2, can explain them).
 */
function swaggerDocument(release: Release, custom: readonly ServedResource[]): object {
  const paths: Record<string, object> = {};
  for (const gv of new Set([...SERVED_RESOURCES, ...custom].map(gvPath))) {
    const doc = groupVersionDocument(
      [...SERVED_RESOURCES, ...custom].filter((r) => gvPath(r) === gv),
      release,
    ) as {
      paths: Record<string, Record<string, { parameters: { schema?: { type: string } }[]; requestBody?: object }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      paths[path] = Object.fromEntries(
        // Swagger 2.0 has no requestBody (R323 is v3's): v2 is as before.
        Object.entries(ops).map(([verb, { requestBody: _v3Only, ...op }]) => [
          verb,
          {
            ...op,
            parameters: op.parameters.map(({ schema, ...p }) => ({
              ...p,
              type: schema?.type ?? 'string',
              uniqueItems: true,
            })),
          },
        ]),
      );
    }
  }
  const defs = definitionsForRelease(release.minor);
  const roots = SERVED_RESOURCES.map((r) => kindDefinition(r, release.minor)).filter(
    (n): n is string => n !== undefined,
  );
  const definitions: Record<string, OpenApiSchema> = Object.fromEntries(
    reachable(roots, release.minor).map((n) => [n, defs[n]]),
  );
  for (const r of custom) {
    const given = toOpenApiV2((r.custom?.version.schema ?? { type: 'object' }) as OpenApiSchema);
    definitions[customKindName(r)] = customKindSchema(r, given, {
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      description: "Standard object's metadata.",
    } as OpenApiSchema);
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: `v1.${release.minor}.0` }, paths, definitions };
}

/**
 * A CRD schema as the v2 document carries it (apiextensions controller/openapi/v2
 * ToStructuralOpenAPIV2, then handler.PruneDefaults): no allOf/oneOf/anyOf/not; a nullable node
 * loses its type, items and properties (and its parent's `required` of it); a node preserving
 * unknown fields loses items and properties, and its type when an object; an array without items
 * loses its type; no defaults.
 */
function toOpenApiV2(schema: OpenApiSchema): OpenApiSchema {
  const visit = (node: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...node };
    for (const k of ['allOf', 'oneOf', 'anyOf', 'not', 'default']) delete out[k];
    const properties = out.properties as Record<string, Record<string, unknown>> | undefined;
    if (properties) {
      out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, visit(v)]));
      const nullable = Object.keys(properties).filter((k) => properties[k].nullable === true);
      if (Array.isArray(out.required) && nullable.length > 0) {
        const required = (out.required as string[]).filter((k) => !nullable.includes(k));
        if (required.length > 0) out.required = required;
        else delete out.required;
      }
    }
    if (out.items && typeof out.items === 'object') out.items = visit(out.items as Record<string, unknown>);
    const additional = out.additionalProperties;
    if (additional && typeof additional === 'object') {
      out.additionalProperties = visit(additional as Record<string, unknown>);
      if ((additional as Record<string, unknown>).nullable === true) delete out.required;
    }
    if (out.nullable === true) {
      delete out.type;
      delete out.items;
      delete out.properties;
    }
    delete out.nullable;
    if (out['x-kubernetes-preserve-unknown-fields'] === true) {
      delete out.items;
      delete out.properties;
      if (out.type === 'object') delete out.type;
    }
    if (out.type === 'array' && out.items === undefined) delete out.type;
    return out;
  };
  return visit(schema as Record<string, unknown>) as OpenApiSchema;
}

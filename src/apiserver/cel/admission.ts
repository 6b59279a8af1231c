import type { AdmissionRequest } from '../webhook/caller';
import { celEnvironment, type CelVariableDecl } from './environment';
import { CelAuthorizer, CelResourceCheck } from './library/authz';
import { toCel } from './value';

/**
 * The variables of Kubernetes' admission CEL expressions (webhook matchConditions,
 * ValidatingAdmissionPolicy), after staging/src/k8s.io/apiserver/pkg/admission/plugin/cel:
 * compile.go createEnvForOpts declares `object` and `oldObject` (dyn), `request` (typed after
 * BuildRequestType), `namespaceObject` (typed after BuildNamespaceType), and with the options
 * `params` (dyn) and `authorizer` (library.AuthorizerType).
 */

const GVK = { group: 'string', version: 'string', kind: 'string' };
const GVR = { group: 'string', version: 'string', resource: 'string' };

/** BuildRequestType: the AdmissionRequest without uid, object and oldObject. */
const REQUEST_TYPE = {
  kind: GVK,
  resource: GVR,
  subResource: 'string',
  requestKind: GVK,
  requestResource: GVR,
  requestSubResource: 'string',
  name: 'string',
  namespace: 'string',
  operation: 'string',
  userInfo: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' },
  dryRun: 'bool',
  options: 'dyn',
};

export interface AdmissionVariableOptions {
  /** Whether the release declares `namespaceObject` (1.28 on, KEP-3488's namespace variable). */
  readonly namespaceObject: boolean;
  readonly params?: boolean;
  readonly authorizer?: boolean;
  /** ValidatingAdmissionPolicy's `variables` (composition.go): its declared names. */
  readonly variables?: readonly string[];
  /** The types the variables are declared with (typedVariables); a name not here is dyn. */
  readonly variableTypes?: Readonly<Record<string, string>>;
}

/** The declarations of createEnvForOpts. namespaceObject is dyn here (its value is a trimmed Namespace, or null). */
export function admissionVariables(opts: AdmissionVariableOptions): CelVariableDecl[] {
  const decls: CelVariableDecl[] = [
    { name: 'object', type: 'dyn' },
    { name: 'oldObject', type: 'dyn' },
    ...(opts.namespaceObject ? [{ name: 'namespaceObject', type: 'dyn' }] : []),
    { name: 'request', type: REQUEST_TYPE },
  ];
  if (opts.params) decls.push({ name: 'params', type: 'dyn' });
  if (opts.authorizer) decls.push({ name: 'authorizer', type: 'kubernetes.authorization.Authorizer' });
  if (opts.variables !== undefined)
    decls.push({
      name: 'variables',
      type: Object.fromEntries(opts.variables.map((v) => [v, opts.variableTypes?.[v] ?? 'dyn'])),
    });
  return decls;
}

/** The checked type of an expression (cel-js spelling), or undefined when it does not compile. */
function checkedType(env: ReturnType<typeof celEnvironment>, expression: string): string | undefined {
  try {
    const checked = env.parse(expression).check();
    return checked.valid ? (checked.type ?? 'dyn') : undefined;
  } catch {
    return undefined;
  }
}

/** convertCelTypeToDeclType: the types a variable keeps (cel-js spelling); anything else is dyn. */
const DECL_TYPES = new Set(['bool', 'bytes', 'double', 'duration', 'int', 'null', 'string', 'timestamp', 'uint']);

function declType(celType: string): string {
  if (DECL_TYPES.has(celType)) return celType;
  const list = /^list<(.*)>$/.exec(celType);
  if (list) return `list<${declType(list[1])}>`;
  const map = /^map<([^,<>]+), (.*)>$/.exec(celType);
  if (map) return `map<${declType(map[1])}, ${declType(map[2])}>`;
  return 'dyn';
}

/**
 * The declarations of a policy's expressions with its variables typed as composition.go
 * CompileAndStoreVariable declares them: from 1.29 (k8s.io/apiserver v0.29) each variable has the
 * type its expression compiled to (convertCelTypeToDeclType: a primitive, or a list or map of
 * them; otherwise dyn), compiled in order, each seeing the ones before it typed; in 1.28 every
 * variable is dyn. So `{"team": variables.team, "x": "y"}` is one map type where `team` is a string.
 */
export function typedVariables(
  minor: number,
  opts: Omit<AdmissionVariableOptions, 'variables' | 'variableTypes'>,
  variables: readonly { readonly name: string; readonly expression: string }[],
): CelVariableDecl[] {
  const names = variables.map((v) => v.name);
  const types: Record<string, string> = {};
  if (minor >= 29)
    for (const v of variables) {
      const env = celEnvironment(minor, admissionVariables({ ...opts, variables: names, variableTypes: types }));
      const checked = checkedType(env, v.expression);
      if (checked !== undefined) types[v.name] = declType(checked);
    }
  return admissionVariables({ ...opts, variables: names, variableTypes: types });
}

/**
 * condition.go CreateAdmissionRequest: the request as CEL sees it, every field present (an unset
 * string is '', as a typed object's field reads in cel-go).
 */
export function celRequest(r: AdmissionRequest, groups: readonly string[] = []): Record<string, unknown> {
  return {
    kind: r.kind,
    resource: r.resource,
    subResource: r.subResource ?? '',
    requestKind: r.requestKind ?? r.kind,
    requestResource: r.requestResource ?? r.resource,
    requestSubResource: r.requestSubResource ?? '',
    name: r.name ?? '',
    namespace: r.namespace ?? '',
    operation: r.operation,
    userInfo: {
      username: r.userInfo?.username ?? '',
      uid: '',
      groups: [...(r.userInfo?.groups ?? groups)],
      extra: new Map(),
    },
    dryRun: r.dryRun ?? false,
    options: toCel(r.options ?? null),
  };
}

/** condition.go CreateNamespaceObject: the namespace's metadata (no managedFields or ownerReferences), spec and status. */
export function celNamespaceObject(
  ns: { metadata: Record<string, unknown>; spec?: unknown; status?: unknown } | undefined,
): unknown {
  if (ns === undefined) return null;
  const keep = [
    'name',
    'generateName',
    'namespace',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'labels',
    'annotations',
    'finalizers',
  ];
  const metadata = Object.fromEntries(keep.filter((k) => ns.metadata[k] !== undefined).map((k) => [k, ns.metadata[k]]));
  return toCel({ metadata, spec: ns.spec ?? {}, status: ns.status ?? {} });
}

/** The activation of activation.go newActivation: object, oldObject (null when absent), request, namespaceObject, the authorizer. */
export function admissionActivation(input: {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: AdmissionRequest;
  readonly namespaceObject?: unknown;
  readonly params?: unknown;
  readonly variables?: unknown;
}): Record<string, unknown> {
  const request = celRequest(input.request);
  const resource = input.request.resource;
  const requestResource = new CelResourceCheck({
    group: resource.group,
    resource: resource.resource,
    subresource: input.request.subResource ?? '',
    namespace: input.request.namespace ?? '',
    name: input.request.name ?? '',
  });
  return {
    object: toCel(input.object ?? null),
    oldObject: toCel(input.oldObject ?? null),
    request,
    namespaceObject: input.namespaceObject ?? null,
    params: toCel(input.params ?? null),
    authorizer: new CelAuthorizer(input.request.userInfo?.username ?? '', requestResource),
    ...(input.variables !== undefined ? { variables: input.variables } : {}),
  };
}

/**
 * What a request is about, read from its method and path the way kube-apiserver's
 * RequestInfoFactory.NewRequestInfo does (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go):
 *
 *   /api/v1/namespaces/{ns}/{resource}/{name}/{subresource}
 *   /apis/{group}/{version}/{resource}/{name}            (cluster-scoped)
 *   /api/v1/watch/namespaces/{ns}/{resource}             (the legacy watch prefix)
 *
 * The verb is get or list for GET (by whether a name is given), watch for `watch=true` or the
 * /watch/ prefix, create (POST), update (PUT), patch (PATCH), delete or deletecollection (DELETE).
 */
export interface RequestInfo {
  /** Whether the path is a resource path at all (discovery and /version are not). */
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly verb: string;
  /** "api" or "apis". */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace?: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path segments after the group/version (for discovery and errors). */
  readonly parts: readonly string[];
}

const METHOD_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** `path` is the request's path as sent (not URL-normalised: `..` stays a name, for validation to reject). */
export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const base = {
    path,
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [] as string[],
  };
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  const nonResource = { ...base, isResourceRequest: false, verb: method.toLowerCase() };
  if (segments.length === 0 || (segments[0] !== 'api' && segments[0] !== 'apis')) return nonResource;
  let parts = segments.map(decodeSegment);
  const apiPrefix = parts[0];
  parts = parts.slice(1);
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (parts.length === 0) return { ...nonResource, apiPrefix };
    apiGroup = parts[0];
    parts = parts.slice(1);
  }
  if (parts.length === 0) return { ...nonResource, apiPrefix, apiGroup };
  const apiVersion = parts[0];
  parts = parts.slice(1);
  if (parts.length === 0) return { ...nonResource, apiPrefix, apiGroup, apiVersion };

  let verb = METHOD_VERBS[method] ?? method.toLowerCase();
  if (parts[0] === 'watch') {
    // The deprecated /watch/ prefix: only GET makes it a watch.
    if (verb === 'get') verb = 'watch';
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1];
      // /namespaces/{ns} alone is the namespace object itself; /namespaces/{ns}/status|finalize its subresources.
      if (parts.length > 2 && parts[2] !== 'status' && parts[2] !== 'finalize') parts = parts.slice(2);
    }
  }
  const resource = parts[0] ?? '';
  const name = parts[1] ?? '';
  const subresource = parts[2] ?? '';
  if (namespace !== undefined && resource === 'namespaces') {
    // /api/v1/namespaces/{name}[/status]: the namespace is the object, not a scope.
    namespace = undefined;
  }
  if (verb === 'get' && name === '') verb = 'list';
  if (verb === 'delete' && name === '') verb = 'deletecollection';
  // A list becomes a watch with watch=true (or watch=1); a GET of one object stays a GET.
  const watchParam = query.get('watch');
  if (verb === 'list' && watchParam !== null && isTrue(watchParam)) verb = 'watch';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts,
  };
}

/** strconv.ParseBool as the watch parameter is decoded. */
function isTrue(v: string): boolean {
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

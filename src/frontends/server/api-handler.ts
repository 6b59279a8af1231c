import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ClientIdentity } from '../../apiserver/apiserver';
import { badRequest, StatusError } from '../../apimachinery/errors';
import type { Cluster } from '../../cluster/cluster';
import { ApiActivity } from './activity';
import { DEFAULT_MAX_REQUEST_BODY_BYTES, readBody } from './body';
import {
  aggregatedDiscovery,
  AGGREGATED_DISCOVERY,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from './discovery';
import { createResource } from './handlers/create';
import { deleteCollection, deleteResource } from './handlers/delete';
import { getResource } from './handlers/get';
import { listResource } from './handlers/list';
import { patchResource } from './handlers/patch';
import { writeObject, type RequestScope } from './handlers/scope';
import { updateResource } from './handlers/update';
import { watchResource } from './handlers/watch';
import { encode, negotiate } from './negotiation';
import { openApiDocument } from './openapi';
import { writeOpenApiDocument } from './openapi-http';
import { requestInfo, type RequestInfo } from './request-info';
import { findResource } from '../../apiserver/resources';
import { createReview, findReview } from './handlers/reviews';
import { followBehaviourAnnotations } from './behaviours';
import { SUBRESOURCE_HANDLERS } from './handlers/subresources';
import { internalError, methodNotSupported, pathNotFound } from './status';
import { versionInfo } from './version';
import { HttpsWebhookCaller } from './webhook-client';
import { NO_WEBHOOK_CALLER } from '../../apiserver/webhook/caller';

export interface ApiHandlerOptions {
  /** The largest request body accepted (kube-apiserver's --max-request-bytes default: 3 MiB). */
  maxRequestBodyBytes: number;
  /** Who sent a request, from its User-Agent by default (`kubectl/v1.33.9 (…)` → kubectl). */
  identify: (req: IncomingMessage) => ClientIdentity;
}

/** What createApiHandler gives the server that hosts it. */
export interface ApiHandler {
  /** The `node:http` request listener serving the Kubernetes API. */
  readonly listener: RequestListener;
  /** Requests in flight and open watches, with events when they change (for `--clock jump`). */
  readonly activity: ApiActivity;
}

type VerbHandler = (scope: RequestScope) => void | Promise<void>;

/** One module per verb, as upstream's endpoints/handlers. */
const VERB_HANDLERS: Readonly<Record<string, VerbHandler>> = {
  get: getResource,
  list: listResource,
  watch: watchResource,
  create: createResource,
  update: updateResource,
  patch: patchResource,
  delete: deleteResource,
  deletecollection: deleteCollection,
};

/**
 * The Kubernetes HTTP API in front of a simulated cluster: kube-apiserver v1.33's answers to
 * version, health, discovery, OpenAPI and resource requests, each of which goes through the
 * same ApiServer request methods and watches the scenarios use, so served requests appear on
 * the timeline like scenario ones (the caller named after its User-Agent).
 *
 * Every request runs the simulation's work synchronously: after the apiserver call, the
 * cluster runs everything due at the current virtual instant (watch deliveries, controllers
 * and kubelets reacting) before the request counts as ended. Virtual time itself is the host's
 * to move (clock modes); watches stream events as the clock produces them.
 *
 * ```ts
 * const { listener, activity } = createApiHandler(cluster);
 * http.createServer(listener).listen(0, '127.0.0.1');
 * activity.on('idle', () => …); // no request in flight: a jumping clock may move on
 * ```
 */
/**
 * For a GET of one namespaced object by name (what a polling client repeats): which client process
 * sent it and the path, so that separate kubectl commands never add up. The process is kubectl's
 * Kubectl-Session header (random per invocation), else the connection (other clients keep theirs).
 * Undefined for any other request.
 */
function objectGetPath(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' || !req.url) return undefined;
  const [path, query = ''] = req.url.split('?');
  if (/(^|&)watch=(true|1)(&|$)/.test(query)) return undefined;
  if (!/^\/apis?(\/[^/]+){1,2}\/namespaces\/[^/]+\/[^/]+\/[^/]+$/.test(path ?? '')) return undefined;
  const session = req.headers['kubectl-session'];
  return `${typeof session === 'string' ? session : `${req.socket.remoteAddress}:${req.socket.remotePort}`} ${path}`;
}

export function createApiHandler(cluster: Cluster, options: Partial<ApiHandlerOptions> = {}): ApiHandler {
  const opts: ApiHandlerOptions = {
    maxRequestBodyBytes: DEFAULT_MAX_REQUEST_BODY_BYTES,
    identify: identifyByUserAgent,
    ...options,
  };
  const activity = new ApiActivity();
  cluster.apiserver.ensureSystemNamespaces();
  // Admission webhooks are real HTTPS servers here (webhook-client.ts), unless the cluster's are
  // modelled (a scenario run with the real kubectl): its caller answers at once, and the
  // requests' calls around it then have nothing to wait for.
  const webhooks = new HttpsWebhookCaller();
  if (cluster.apiserver.webhookCaller === NO_WEBHOOK_CALLER) cluster.apiserver.webhookCaller = webhooks;
  followBehaviourAnnotations(cluster);
  // A served API keeps managedFields on every write, as kube-apiserver does.
  cluster.apiserver.trackManagedFields();

  const listener: RequestListener = (req, res) => {
    activity.requestStarted(objectGetPath(req));
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      activity.requestEnded();
    };
    res.on('close', end);
    serve(cluster, opts, activity, webhooks, req, res)
      .catch((e: unknown) => writeError(res, e))
      .finally(() => {
        // Zero-delay work the request caused (watch deliveries, reactions) runs before it counts as ended.
        cluster.flush();
        end();
      });
  };
  return { listener, activity };
}

async function serve(
  cluster: Cluster,
  opts: ApiHandlerOptions,
  activity: ApiActivity,
  webhooks: HttpsWebhookCaller,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const info = requestInfo(req.method ?? 'GET', (req.url ?? '/').split('?')[0], url.searchParams);
  if (!info.isResourceRequest) return serveNonResource(cluster, req, res, url, info);

  const review = findReview(info.apiGroup, info.apiVersion, info.resource);
  if (review) {
    if (info.name !== '' || info.namespace !== undefined) throw pathNotFound();
    if (info.verb !== 'create') throw methodNotSupported(review.group, review.resource, info.verb);
    return createReview(
      review,
      req,
      res,
      await readBody(req, opts.maxRequestBodyBytes),
      cluster.apiserver.options.release,
    );
  }
  const resource = findResource(info.apiGroup, info.apiVersion, info.resource, cluster.apiserver);
  if (!resource) throw pathNotFound();
  if (
    resource.namespaced !== (info.namespace !== undefined) &&
    !(resource.namespaced && (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection'))
  ) {
    throw pathNotFound();
  }
  let handler: VerbHandler | undefined;
  if (info.subresource !== '') {
    const subresource = resource.subresources[info.subresource];
    if (!subresource || info.parts.length > 3) throw pathNotFound();
    // The route its declared REST storage installs for the verb (endpoints/installer.go).
    handler = subresource.verbs.includes(info.verb) ? SUBRESOURCE_HANDLERS[subresource.rest][info.verb] : undefined;
    if (!handler) throw methodNotSupported(resource.group, `${resource.resource}/${info.subresource}`, info.verb);
  } else {
    handler = resource.verbs.includes(info.verb) ? VERB_HANDLERS[info.verb] : undefined;
    if (!handler) throw methodNotSupported(resource.group, resource.resource, info.verb);
  }
  if (info.name !== '') validatePathSegmentName(info.name, 'resource');
  if (info.namespace !== undefined) validatePathSegmentName(info.namespace, 'namespace');

  let body: Promise<Buffer> | undefined;
  const scope: RequestScope = {
    cluster,
    // A served client's own view when a perturbation names its User-Agent (src/cluster/perturbation/).
    api: cluster.perturbations.apiFor({ kind: 'client', userAgent: userAgentProduct(req) }),
    req,
    res,
    url,
    info,
    resource,
    client: opts.identify(req),
    body: () => (body ??= readBody(req, opts.maxRequestBodyBytes)),
    webhooks,
    watchOpened: () => activity.watchOpened(),
  };
  await handler(scope);
}

function serveNonResource(
  cluster: Cluster,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  info: RequestInfo,
): void {
  const path = info.path.replace(/\/+$/, '') || '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') throw pathNotFound();
  const json = (obj: unknown) => writeObject(res, 200, { type: 'application/json' }, obj);
  if (path === '/version') return json(versionInfo(cluster.apiserver.options.release));
  if (path === '/healthz' || path === '/livez' || path === '/readyz') return writeHealth(res, path, url);
  if (path === '/api' || path === '/apis') {
    const media = negotiate(req.headers.accept, AGGREGATED_DISCOVERY);
    if (media.as)
      return writeObject(res, 200, media, aggregatedDiscovery(media.as.version, path === '/api', cluster.apiserver));
    return writeObject(
      res,
      200,
      media,
      path === '/api' ? apiVersions(req.headers.host ?? '127.0.0.1') : apiGroupList(cluster.apiserver),
    );
  }
  if (info.apiPrefix === 'apis' && info.apiVersion === '' && info.apiGroup !== '') {
    const group = apiGroup(info.apiGroup, cluster.apiserver);
    if (group) return json(group);
  }
  if (info.apiVersion !== '') {
    const list = apiResourceList(info.apiGroup, info.apiVersion, cluster.apiserver);
    if (list) return json(list);
  }
  const doc = openApiDocument(path, cluster.apiserver.options.release, cluster.apiserver);
  if (doc) return writeOpenApiDocument(req, res, url, path, doc);
  throw pathNotFound();
}

/** /healthz, /livez, /readyz: `ok`, or with ?verbose the checks that passed (healthz.handleRootHealth). */
function writeHealth(res: ServerResponse, path: string, url: URL): void {
  const verbose = url.searchParams.has('verbose');
  const body = verbose ? `[+]ping ok\n[+]etcd ok\n${path.slice(1)} check passed\n` : 'ok';
  res.writeHead(200, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * path.IsValidPathSegmentName as handlers' scope.Namer checks names and namespaces from the URL:
 * a 400 `invalid resource name "..": [may not be '..']`.
 */
function validatePathSegmentName(name: string, what: 'resource' | 'namespace'): void {
  const errs: string[] = [];
  if (name === '.' || name === '..') errs.push(`may not be '${name}'`);
  else {
    if (name.includes('/')) errs.push("may not contain '/'");
    if (name.includes('%')) errs.push("may not contain '%'");
  }
  if (errs.length > 0) throw badRequest(`invalid ${what} name ${JSON.stringify(name)}: [${errs.join(', ')}]`);
}

/** A failure as kube-apiserver writes it: the Status in JSON with its code (a watch already streaming just ends). */
function writeError(res: ServerResponse, e: unknown): void {
  const err = e instanceof StatusError ? e : internalError(e);
  if (res.headersSent) {
    res.end();
    return;
  }
  const { body, contentType } = encode({ type: 'application/json' }, err.status);
  res.writeHead(err.code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The product token of the User-Agent (`kubectl/v1.33.9 (linux/amd64) …` → `kubectl`). */
export function userAgentProduct(req: IncomingMessage): string {
  return (req.headers['user-agent'] ?? '').split(/[\s/]/)[0] || 'unknown';
}

/** The caller's identity from its User-Agent: `kubectl/v1.33.9 (linux/amd64) kubernetes/…` is kubectl; any other client is a user named after its product token. */
export function identifyByUserAgent(req: IncomingMessage): ClientIdentity {
  const product = userAgentProduct(req);
  if (product === 'kubectl' || product.startsWith('kubectl-')) return { name: 'kubectl', component: 'kubectl' };
  return { name: product, component: 'user' };
}

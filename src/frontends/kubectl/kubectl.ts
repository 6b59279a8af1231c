import type { ApiServer } from '../../apiserver/apiserver';
import { serve } from '../../apiserver/request-runner';
import { validateWatchListOptions } from '../../apiserver/watch-list-options';
import type { ListOptions } from '../../apiserver/list-options';
import type { KubeObject } from '../../apimachinery/object';
import type { Cluster } from '../../cluster/cluster';
import { KUBECTL } from '../../cluster/cluster';
import type { Release } from '../../foundation/release';
import { runDrain } from './drain';
import { isDrainLine, parseKubectlDrain } from './drain-command';
import {
  CLUSTER_SCOPED,
  confirmationPrompt,
  confirms,
  KubectlError,
  parseKubectlDelete,
  pathSegmentError,
  printedLine,
  waitTimeoutMessage,
  type KubectlDeleteCommand,
  type KubectlResource,
} from './delete-command';
import { append } from '../../foundation/widest';
import { isWorkloadCommand, runWorkloadCommand } from './workload-commands';

/** One HTTP request as kubectl sends it: what a server listening on the wire would see. */
export interface KubectlRequest {
  method: 'GET' | 'DELETE' | 'POST' | 'PATCH';
  path: string;
  /** The query string as client-go encodes it (url.Values.Encode: keys sorted, QueryEscape'd), without '?'. */
  query: string;
  /** The request body, byte for byte (encoding/json adds a newline). */
  body?: string;
}

/** What a kubectl invocation printed and how it ended. */
export interface KubectlResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The apiserver request id of the last DELETE it sent ("the last request"), if it sent one. */
  requestId?: number;
  /** Why a wait did not end, when it did not (what still blocks). */
  blockers?: string[];
  /**
   * The requests it sent, in order. Discovery is not among them: this kubectl knows its two
   * resources, where the real one asks /api and /apis (and caches the answer). The watch's
   * `timeoutSeconds` is left out: client-go's reflector draws it at random from 5–10 minutes.
   */
  requests: KubectlRequest[];
}

/** What kubectl is told besides its command line. */
export interface KubectlOptions {
  /** The kubectl release modelled (by default the cluster's). */
  release: Release;
  /** What kubectl finds on its standard input (the answer to `--interactive`); none when undefined. */
  stdin?: string;
}

/** When no --timeout is given, the simulation stops waiting after one virtual hour. */
export const DEFAULT_WAIT_LIMIT_MS = 60 * 60_000;

const SOURCE = 'staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go';
const WAIT_SOURCE = 'staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go IsDeleted';

/** Go's url.QueryEscape: everything but letters, digits and -_.~ is %XX; a space is '+'. */
function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Go's url.Values.Encode: keys in sorted order. */
export function encodeQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${queryEscape(k)}=${queryEscape(params[k] as string)}`)
    .join('&');
}

const API_PREFIX: Record<KubectlResource, string> = {
  pods: '/api/v1',
  replicasets: '/apis/apps/v1',
  namespaces: '/api/v1',
};

type ErrorStatus = { reason?: string; message?: string };

/**
 * kubectl's dynamic client against the simulated apiserver: each call is recorded as the HTTP
 * request client-go would send, then served by the apiserver directly. As over HTTP (the served
 * API runs what a request set off at that instant before answering), the cluster's zero-delay
 * reactions run before kubectl's next request.
 */
class RecordingClient {
  readonly requests: KubectlRequest[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly resource: KubectlResource,
    /** Undefined for a cluster-scoped resource. */
    private readonly namespace: string | undefined,
  ) {}

  private path(name?: string): string {
    const scope = this.namespace === undefined ? '' : `/namespaces/${this.namespace}`;
    return `${API_PREFIX[this.resource]}${scope}/${this.resource}${name === undefined ? '' : `/${name}`}`;
  }

  /** Sends one request; `seen` runs when kubectl has the answer, before the instant's reactions run. */
  private send<T>(request: KubectlRequest, serve: (api: ApiServer) => T, seen: (response: T) => void = () => {}): T {
    this.requests.push(request);
    const response = serve(this.cluster.apiserver);
    seen(response);
    this.cluster.flush();
    return response;
  }

  delete(name: string, body: KubectlDeleteCommand['body']) {
    const request: KubectlRequest = {
      method: 'DELETE',
      path: this.path(name),
      query: '',
      body: `${JSON.stringify(body)}\n`,
    };
    return this.send(request, (api) => api.delete(KUBECTL, this.resource, this.namespace, name, body));
  }

  get(name: string, seen?: (response: ReturnType<ApiServer['get']>) => void) {
    return this.send(
      { method: 'GET', path: this.path(name), query: '' },
      (api) => api.get(this.resource, this.namespace, name),
      seen,
    );
  }

  list(query: ListOptions & Record<string, string>, seen?: (response: ReturnType<ApiServer['listPage']>) => void) {
    return this.send(
      { method: 'GET', path: this.path(), query: encodeQuery(query) },
      (api) => api.listPage(this.resource, this.namespace, query),
      seen,
    );
  }

  watch(
    query: Record<string, string>,
    matches: (o: KubeObject) => boolean,
    handler: Parameters<ApiServer['watch']>[3],
    seen?: () => void,
  ) {
    const request: KubectlRequest = {
      method: 'GET',
      path: this.path(),
      query: encodeQuery({ ...query, watch: 'true' }),
    };
    return this.send(
      request,
      (api) => api.watch(this.resource, this.namespace, { resourceVersion: query.resourceVersion, matches }, handler),
      seen,
    );
  }

  /**
   * A streaming list (client-go reflector.go watchList: a watch with sendInitialEvents=true and
   * resourceVersionMatch=NotOlderThan): the server's current state as initial events, then the
   * live watch. A server whose WatchList gate is off refuses it with 422 (R318), as over HTTP.
   */
  streamingList(
    query: Record<string, string>,
    matches: (o: KubeObject) => boolean,
    handler: Parameters<ApiServer['watch']>[3],
    seen?: (response: ReturnType<ApiServer['watch']>) => void,
  ) {
    const request: KubectlRequest = {
      method: 'GET',
      path: this.path(),
      query: encodeQuery({ ...query, sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', watch: 'true' }),
    };
    return this.send(
      request,
      (api) => {
        const refused = serve(undefined, () => {
          validateWatchListOptions(
            { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' },
            api.options.release,
          );
          return { code: 200, object: undefined };
        });
        if (!refused.ok) return refused;
        return api.watch(this.resource, this.namespace, { sendInitialEvents: true, matches }, handler);
      },
      seen,
    );
  }
}

/** cmdutil.StandardErrorMessage for an error Status from the server. */
function serverError(status: ErrorStatus): string {
  return `Error from server (${status.reason}): ${status.message}`;
}

/**
 * Runs one `kubectl delete …` line against the cluster as kubectl of `options.release` would (the
 * real v1.36 and v1.33 are the judges): the DELETE of each object with the body kubectl builds, its
 * output, and — unless --wait=false — the wait until each object (that uid) is gone: GET, then a
 * streaming list or LIST and WATCH by release (V73), on the virtual clock, one object after the
 * other. Throws UnsupportedKubectlError for lines the simulation does not model.
 */
export function runKubectl(
  cluster: Cluster,
  line: string,
  options: KubectlOptions = { release: cluster.release },
): KubectlResult {
  if (isDrainLine(line)) return runDrainLine(cluster, line, options.release);
  if (isWorkloadCommand(line)) return runWorkloadCommand(cluster, line);
  cluster.timeline.record('kubectl', line.replace(/^\s*kubectl\s+/, ''), `${SOURCE} RunDelete`, { actor: 'kubectl' });
  let cmd: KubectlDeleteCommand;
  try {
    cmd = parseKubectlDelete(line, options.release);
  } catch (e) {
    if (e instanceof KubectlError)
      return { exitCode: 1, stdout: '', stderr: [...e.warnings, e.message].join('\n'), requests: [] };
    throw e;
  }
  const client = new RecordingClient(
    cluster,
    cmd.resource,
    CLUSTER_SCOPED.has(cmd.resource) ? undefined : cmd.namespace,
  );
  // stdout as kubectl writes it: lines, and the confirmation question without a newline.
  let stdout = '';
  const print = (line: string) => void (stdout += `${line}\n`);
  const stderr = [...cmd.warnings];
  let requestId: number | undefined;
  const end = (exitCode: number, blockers?: string[]): KubectlResult => ({
    exitCode,
    stdout: stdout.replace(/\n$/, ''),
    stderr: stderr.join('\n'),
    ...(requestId !== undefined && { requestId }),
    ...(blockers && { blockers }),
    requests: client.requests,
  });

  // The builder's visit: the names given (no request: the builder does not fetch them), or what a
  // LIST with the selector finds.
  const visit = (): string[] | KubectlResult => {
    if (cmd.selector === undefined) return cmd.names;
    const nsError = pathSegmentError(cmd);
    if (nsError) return (stderr.push(`error: ${nsError}`), end(1));
    const list = client.list(cmd.selector === '' ? {} : { labelSelector: cmd.selector });
    if (!list.ok) return (stderr.push(serverError(list.status)), end(1));
    return list.object.items.map((o) => o.metadata.name as string);
  };

  // V13 — RunDelete with --interactive: a preview visit lists what will go; nothing is deleted
  // unless the answer confirms (confirmation), and then only objects the preview listed.
  let previewed: Set<string> | undefined;
  if (cmd.interactive) {
    const preview = visit();
    if (!Array.isArray(preview)) return preview;
    if (preview.length === 0) return (print('No resources found'), end(0));
    stdout += confirmationPrompt(cmd, preview, options.release);
    if (!confirms(options.stdin, options.release)) return (print('deletion is cancelled'), end(0));
    previewed = new Set(preview);
  }
  const visited = visit();
  if (!Array.isArray(visited)) return visited;
  const names = previewed ? visited.filter((name) => previewed.has(name)) : visited;

  // DeleteResult: DELETE each object in turn (a client dry run only prints). Errors are collected
  // (the builder continues on error) and end the command before any wait; a NotFound that
  // --ignore-not-found drops leaves the object in the list to wait for (its GET finds it gone).
  if (names.length === 0) return (print('No resources found'), end(0));
  const errors: string[] = [];
  const deleted: { name: string; uid?: string }[] = [];
  for (const name of names) {
    if (cmd.clientDryRun) {
      print(printedLine(cmd, name));
      continue;
    }
    const segmentError = pathSegmentError(cmd, name);
    if (segmentError) {
      errors.push(`error: ${segmentError}`);
      continue;
    }
    const res = client.delete(name, cmd.body);
    requestId = res.requestId;
    if (res.ok) {
      print(printedLine(cmd, name));
      deleted.push({ name, uid: (res.object as { metadata: { uid?: string } }).metadata.uid });
    } else if (res.code === 404 && cmd.ignoreNotFound) {
      deleted.push({ name });
    } else {
      errors.push(serverError(res.status));
    }
  }
  if (errors.length > 0) return (append(stderr, errors), end(1));
  if (!cmd.wait) return end(0);

  // cmd/wait RunWait: one deadline for all objects (watchtools.ContextWithOptionalTimeout logs a
  // negative timeout and drops it; IsDeleted then gives up on the first object still there).
  const timeoutMs = cmd.timeoutMs ?? DEFAULT_WAIT_LIMIT_MS;
  if (timeoutMs < 0) stderr.push('"Timeout for context shall not be negative"');
  const deadline = cluster.clock.now() + timeoutMs;
  for (const { name, uid } of deleted) {
    if (waitForDeletion(cluster, client, cmd, options.release, name, uid, deadline, timeoutMs < 0)) continue;
    const message =
      cmd.timeoutMs !== undefined
        ? waitTimeoutMessage(cmd, name)
        : `kubectl was still waiting for ${cmd.resource}/${name} to be deleted after one virtual hour (no --timeout given)`;
    stderr.push(message);
    return end(1, cluster.blockers());
  }
  return end(0);
}

/** `kubectl drain|cordon|uncordon …` (src/frontends/kubectl/drain.ts). */
function runDrainLine(cluster: Cluster, line: string, release: Release): KubectlResult {
  cluster.timeline.record(
    'kubectl',
    line.replace(/^\s*kubectl\s+/, ''),
    'staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go RunDrain',
    { actor: 'kubectl' },
  );
  try {
    return runDrain(cluster, parseKubectlDrain(line), release);
  } catch (e) {
    if (e instanceof KubectlError)
      return { exitCode: 1, stdout: '', stderr: [...e.warnings, e.message].join('\n'), requests: [] };
    throw e;
  }
}

/**
 * wait/delete.go IsDeleted for one object: GET (404, or another uid, is gone); then an informer
 * on that name (watchtools.UntilWithSync), whose reflector first fills its store and then
 * watches until a DELETED event, or the deadline. "is gone" is recorded when the answer that
 * shows it reaches kubectl. Returns whether the object is gone.
 *
 * How the store is filled depends on kubectl's release (V73): up to v1.34 a LIST from the watch
 * cache (gone if it is empty), then a WATCH from the list's resourceVersion; from v1.35, with
 * client-go's WatchListClient on by default, a streaming list first (reflector.go watchList:
 * gone unless its initial events hold the object with that uid), and only where the server
 * refuses it (its WatchList gate off: v1.33, or before v1.32) the LIST and WATCH.
 */
function waitForDeletion(
  cluster: Cluster,
  client: RecordingClient,
  cmd: KubectlDeleteCommand,
  release: Release,
  name: string,
  uid: string | undefined,
  deadline: number,
  outOfTime: boolean,
): boolean {
  let gone = false;
  const seeGone = () => {
    gone = true;
    cluster.timeline.record('kubectl', `${cmd.resource}/${name} is gone`, WAIT_SOURCE, { actor: 'kubectl' });
  };
  const got = client.get(name, (r) => {
    if (!r.ok || (uid !== undefined && r.object.metadata.uid !== uid)) seeGone();
  });
  if (gone) return true;
  if (outOfTime || !got.ok) return false;
  const fieldSelector = `metadata.name=${name}`;
  const byName = (o: KubeObject) => o.metadata.name === name;
  const onEvent = (e: { type: string }) => {
    if (e.type === 'DELETED' && !gone) seeGone();
  };
  const waiting = () =>
    cluster.timeline.record('kubectl', `waiting for ${cmd.resource}/${name} to be deleted`, WAIT_SOURCE, {
      actor: 'kubectl',
    });
  let w: ReturnType<RecordingClient['watch']> | undefined;
  // client-go features WatchListClient: β off v1.30–v1.34, β on from v1.35 (known_features.go);
  // kubectl wait/delete.go wraps its ListWatch in cache.ToListWatcherWithWatchListSemantics from v1.35.
  if (release.has('KubectlWatchListClient')) {
    const stream = client.streamingList({ allowWatchBookmarks: 'true', fieldSelector }, byName, onEvent, (r) => {
      if (!r.ok) return;
      waiting();
      // The informer's precondition on the synced store: the object (that uid) is not in it.
      const there = r.object.initialEvents?.events.some(
        (e) => uid === undefined || (e.object as KubeObject).metadata.uid === uid,
      );
      if (!there) seeGone();
    });
    // Refused (reflector ListAndWatch: any watchList error falls back to the regular list).
    if (stream.ok) w = stream;
  }
  if (!w) {
    const list = client.list({ fieldSelector, limit: '500', resourceVersion: '0' }, (r) => {
      if (r.ok && r.object.items.length === 0) seeGone();
    });
    if (gone || !list.ok) return gone;
    w = client.watch(
      { allowWatchBookmarks: 'true', fieldSelector, resourceVersion: list.object.resourceVersion },
      byName,
      onEvent,
      waiting,
    );
  }
  cluster.runUntil(() => gone, deadline);
  if (w.ok) w.object.stop();
  return gone;
}

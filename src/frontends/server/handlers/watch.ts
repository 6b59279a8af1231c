import { badRequest, StatusError } from '../../../apimachinery/errors';
import { validateWatchListOptions } from '../../../apiserver/watch-list-options';
import { parseListOptions, selectionMatches } from '../../../apiserver/list-options';
import type { KubeObject } from '../../../apimachinery/object';
import type { WatchEvent } from '../../../apiserver/watch';
import { contentTypeOf } from '../negotiation';
import { encodedObject, encodedProtobuf } from '../caching-object';
import { encodeProtobuf, hasProtobuf, PROTOBUF, PROTOBUF_WATCH, protobufWatchFrame } from '../protobuf';
import { groupVersionString } from '../../../apiserver/resources';
import type { WatchStream } from '../activity';
import { toTable } from '../table';
import { negotiateFor, query, served, type RequestScope } from './scope';

/** The conversions a watch may ask for: server-side printing of each event's object. */
const WATCH_CONVERSIONS = [{ kind: 'Table', group: 'meta.k8s.io', versions: ['v1'] }] as const;

const EVENT_END = Buffer.from('}\n');

/**
 * R72 — handlers/watch.go serveWatch: a chunked stream of `{"type":…,"object":…}` JSON lines, one per
 * change, in revision order, as the virtual clock delivers them (or, for a client asking for
 * protobuf, length-prefixed WatchEvent messages, R77).
 *
 * - No resourceVersion (or "0"): first an ADDED event for each object that exists now.
 * - resourceVersion N: every change after N; N older than the last compaction gives one ERROR
 *   event carrying a 410 Expired Status in a 200 response (the watch cache's error watcher),
 *   after which the stream ends.
 * - `timeoutSeconds` is measured in wall time, as upstream measures it: it is the server's
 *   connection management, not cluster behaviour, and on the virtual clock a `--clock jump`
 *   server would jump straight to every watch's deadline. Without it the stream stays open
 *   until the client goes away (upstream ends it after a random 30–60 min).
 * - `allowWatchBookmarks` is accepted; no BOOKMARK is sent (clients may not rely on any).
 * - `sendInitialEvents` (streaming lists, R318): see watchListOptions; where the release's WatchList
 *   gate is on, `sendInitialEvents=true` sends the current state as ADDED events in key order, then a
 *   BOOKMARK annotated `k8s.io/initial-events-end: "true"` at that resourceVersion, then the live
 *   watch; where it is off it is refused with kube-apiserver's 422, and clients fall back to LIST.
 * - A client that disconnects releases its watch at once.
 */
export function watchResource(scope: RequestScope): void {
  const media = negotiateFor(scope, WATCH_CONVERSIONS);
  const protobuf =
    media.type === PROTOBUF &&
    hasProtobuf(groupVersionString(scope.resource.group, scope.resource.version), scope.resource.kind);
  const storage = scope.resource.storage;
  const opts = parseListOptions(
    storage,
    { metadata: {} },
    {
      labelSelector: query(scope, 'labelSelector'),
      fieldSelector: scope.info.name ? `metadata.name=${scope.info.name}` : query(scope, 'fieldSelector'),
    },
  );
  const sendInitialEvents = watchListOptions(scope);
  const timeout = query(scope, 'timeoutSeconds');
  if (timeout !== undefined && !/^\d+$/.test(timeout))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(timeout)}: invalid syntax`);
  const resourceVersion = query(scope, 'resourceVersion') || undefined;
  if (resourceVersion !== undefined && !/^\d+$/.test(resourceVersion))
    throw badRequest(
      `invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(resourceVersion)}: invalid syntax`,
    );

  const res = scope.res;
  let first = true;
  // Events reach the stream only from the clock (after this handler returned), so the headers go first.
  const start = () => {
    res.writeHead(200, {
      'Content-Type': protobuf ? PROTOBUF_WATCH : media.type === PROTOBUF ? 'application/json' : contentTypeOf(media),
      'Transfer-Encoding': 'chunked',
    });
    res.flushHeaders();
  };
  const send = (type: string, object: unknown) =>
    protobuf
      ? res.write(protobufWatchFrame(type, encodeProtobuf(object as Record<string, unknown>)!))
      : res.write(`${JSON.stringify({ type, object })}\n`);
  // A watch of one object by name waits for nothing more once that object's DELETED went out.
  const byName = opts.fields?.requiresExactMatch('metadata.name') !== undefined;
  let stream: WatchStream | undefined;
  const sendStored = (type: string, obj: KubeObject) => {
    if (type === 'DELETED' && byName) stream?.sawDeletion();
    if (media.as?.kind === 'Table') return send(type, eventTable(obj));
    if (protobuf) return res.write(protobufWatchFrame(type, encodedProtobuf(scope.resource, obj)));
    // The same bytes as send(type, served(scope, obj)), the object's JSON encoded once for every watcher and LIST.
    res.write(
      Buffer.concat([
        Buffer.from(`{"type":${JSON.stringify(type)},"object":`),
        encodedObject(scope.resource, obj),
        EVENT_END,
      ]),
    );
  };
  const eventTable = (obj: KubeObject): unknown => {
    // Only the first event's table carries the column definitions (handlers/watch.go: NoHeaders after the first).
    const table = toTable(storage, [obj], {
      now: scope.cluster.clock.now(),
      release: scope.api.options.release,
      noHeaders: !first,
      includeObject: query(scope, 'includeObject'),
      served: (o) => served(scope, o),
    });
    first = false;
    return table;
  };
  const nodeName = opts.fields?.requiresExactMatch('spec.nodeName');
  const r = scope.api.watch(
    storage,
    scope.info.namespace,
    {
      resourceVersion,
      initialState: sendInitialEvents === undefined,
      sendInitialEvents,
      nodeName: storage === 'pods' ? nodeName : undefined,
      matches: (o) => selectionMatches(storage, opts, o as KubeObject),
    },
    (e: WatchEvent) => sendStored(e.type, e.object as KubeObject),
  );
  if (!r.ok) {
    if (r.status.reason !== 'Expired') throw new StatusError({ ...r.status, code: r.code });
    start();
    send('ERROR', r.status);
    res.end();
    return;
  }
  start();
  const watch = r.object;
  if (watch.initialEvents) {
    // cacher.Watch with SendInitialEvents: the state at the revision, then (when the client allows
    // bookmarks) the initial-events-end BOOKMARK (cacher setInitialEventsEndBookmarkIfRequested,
    // cache_watcher.go sendWatchCacheEvent → storage.AnnotateInitialEventsEndBookmark). Written
    // now, within the request: the client's list is not a wait, and time does not move under it.
    for (const e of watch.initialEvents.events) sendStored(e.type, e.object as KubeObject);
    if (TRUE.includes(query(scope, 'allowWatchBookmarks') ?? ''))
      send('BOOKMARK', initialEventsEnd(scope, watch.initialEvents.revision));
  }
  const opened = (stream = scope.watchOpened());
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    if (timer) clearTimeout(timer);
    if (!watch.isStopped) {
      watch.stop();
      opened.close();
    }
  };
  res.on('close', finish);
  if (timeout !== undefined) {
    timer = setTimeout(() => {
      finish();
      res.end();
    }, Number(timeout) * 1000);
  }
}

/**
 * The streaming-list options of a watch, decoded from the query and checked as kube-apiserver
 * checks them (validateWatchListOptions). Returns sendInitialEvents (undefined when not given).
 */
function watchListOptions(scope: RequestScope): boolean | undefined {
  const raw = query(scope, 'sendInitialEvents');
  const sendInitialEvents = raw === undefined ? undefined : parseBool(raw);
  validateWatchListOptions(
    {
      sendInitialEvents,
      resourceVersionMatch: query(scope, 'resourceVersionMatch'),
      continue: query(scope, 'continue'),
    },
    scope.api.options.release,
  );
  return sendInitialEvents;
}

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];

/** A query boolean as Go's strconv.ParseBool reads it (the query parameter conversion). */
function parseBool(text: string): boolean {
  if (TRUE.includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw badRequest(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/**
 * The initial-events-end bookmark: an empty object of the watched kind carrying only the
 * resourceVersion the initial state is at and the annotation `k8s.io/initial-events-end: "true"`
 * (cacher.go setInitialEventsEndBookmarkIfRequested; storage.AnnotateInitialEventsEndBookmark).
 */
function initialEventsEnd(scope: RequestScope, revision: number): Record<string, unknown> {
  return {
    kind: scope.resource.kind,
    apiVersion: groupVersionString(scope.resource.group, scope.resource.version),
    metadata: { resourceVersion: String(revision), annotations: { 'k8s.io/initial-events-end': 'true' } },
  };
}

import { badRequest, invalid, StatusError } from '../../../apimachinery/errors';
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
 * - `sendInitialEvents` (streaming lists) is refused with the 422 kube-apiserver gives when its
 *   WatchList feature is off, so clients fall back to LIST then WATCH.
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
  if (query(scope, 'sendInitialEvents') !== undefined) {
    // internalversion/validation ValidateListOptions with the WatchList feature disabled.
    throw invalid('ListOptions.meta.k8s.io', '', [
      {
        field: 'sendInitialEvents',
        type: 'Forbidden',
        detail: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      },
    ]);
  }
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
      initialState: true,
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

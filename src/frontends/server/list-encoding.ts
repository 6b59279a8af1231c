import type { ServerResponse } from 'node:http';

/** The size of the writes a list body is streamed in. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Writes a JSON list whose items are already encoded (caching-object.ts): the bytes of
 * JSON.stringify({ ...list, items }) with `items` the objects `items` encode, without ever
 * building that text as one string. The body goes out in CHUNK_BYTES writes that wait for the
 * connection to drain, as kube-apiserver v1.33 streams the JSON of a LIST item by item instead of
 * buffering it whole (runtime/serializer/json/collections.go streamEncodeCollections, KEP-5116
 * StreamingCollectionEncodingToJSON). The length is known up front, so the answer keeps its
 * Content-Length. Resolves once the body is written or the client went away.
 *
 * `list` holds the list's fields before `items` (kind, apiVersion, metadata), in their order; a
 * Table's rows are written so too (`field` "rows", after its columnDefinitions).
 */
export function writeJsonList(
  res: ServerResponse,
  code: number,
  contentType: string,
  list: object,
  items: readonly Buffer[],
  field: 'items' | 'rows' = 'items',
): Promise<void> {
  const empty = JSON.stringify({ ...list, [field]: [] });
  // `{…,"items":[` and `]}` around the items, joined by commas.
  const head = Buffer.from(empty.slice(0, -2));
  const tail = Buffer.from(empty.slice(-2));
  let length = head.length + tail.length + Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': length });
  return streamParts(res, head, items, tail);
}

const COMMA = 0x2c;

async function streamParts(res: ServerResponse, head: Buffer, items: readonly Buffer[], tail: Buffer): Promise<void> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  // Part -1 is the head, part items.length the tail; every item after the first follows a comma.
  for (let i = -1; i <= items.length; i++) {
    const part = i < 0 ? head : i === items.length ? tail : items[i];
    const comma = i > 0 && i < items.length;
    const need = part.length + (comma ? 1 : 0);
    if (used + need > chunk.length) {
      if (used > 0) {
        const written = flush(res, chunk.subarray(0, used));
        if (written !== true && !(await written)) return;
      }
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
      used = 0;
    }
    if (comma) chunk[used++] = COMMA;
    used += part.copy(chunk, used);
  }
  res.end(chunk.subarray(0, used));
}

/** Writes one chunk; when the connection's buffer is full, waits for it to drain. False: the client is gone. */
function flush(res: ServerResponse, chunk: Buffer): Promise<boolean> | boolean {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  return new Promise((resolve) => {
    const settle = (ok: boolean) => () => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(ok);
    };
    const drained = settle(true);
    const closed = settle(false);
    res.on('drain', drained);
    res.on('close', closed);
  });
}

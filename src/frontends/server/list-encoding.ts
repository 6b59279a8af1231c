import type { ServerResponse } from 'node:http';

/** The size of the writes a list body is streamed in. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * A JSON list item: its encoded bytes, or parts written one after the other (a Table row: its
 * cells as text, then its object's cached encoding).
 */
export type JsonItem = Uint8Array | readonly (Uint8Array | string)[];

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
  items: readonly JsonItem[],
  field: 'items' | 'rows' = 'items',
): Promise<void> {
  const empty = JSON.stringify({ ...list, [field]: [] });
  // `{…,"items":[` and `]}` around the items, joined by commas.
  const head = Buffer.from(empty.slice(0, -2));
  const tail = Buffer.from(empty.slice(-2));
  let length = head.length + tail.length + Math.max(0, items.length - 1);
  for (const item of items) length += itemLength(item);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': length });
  return streamJson(new BodyWriter(res), head, items, tail);
}

function itemLength(item: JsonItem): number {
  if (item instanceof Uint8Array) return item.length;
  let length = 0;
  for (const part of item) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  return length;
}

const COMMA = 0x2c;

async function streamJson(w: BodyWriter, head: Buffer, items: readonly JsonItem[], tail: Buffer): Promise<void> {
  w.bytes(head);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) w.byte(COMMA);
    const item = items[i];
    if (item instanceof Uint8Array) w.bytes(item);
    else for (const part of item) typeof part === 'string' ? w.text(part) : w.bytes(part);
    if (w.mustWait() && !(await w.drained())) return;
  }
  w.bytes(tail);
  w.end();
}

/**
 * Writes a protobuf `<Kind>List` body: `head` (magic, envelope and list metadata, protobuf.ts
 * protobufListFrame), each item's cached message as a length-delimited field 2, then `tail`;
 * `length` is the whole body's. Streamed in chunks as JSON lists are: building one buffer of the
 * whole body (20 MB for 10 000 pods) cost a fresh allocation, its page faults and a full-heap
 * collection for the external memory on every LIST.
 */
export function writeProtobufList(
  res: ServerResponse,
  contentType: string,
  frame: { head: Uint8Array; tail: Uint8Array; length: number },
  items: readonly Uint8Array[],
): Promise<void> {
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': frame.length });
  return streamProtobuf(new BodyWriter(res), frame, items);
}

const ITEMS_TAG = (2 << 3) | 2;

async function streamProtobuf(
  w: BodyWriter,
  frame: { head: Uint8Array; tail: Uint8Array },
  items: readonly Uint8Array[],
): Promise<void> {
  w.bytes(frame.head);
  for (let i = 0; i < items.length; i++) {
    w.byte(ITEMS_TAG);
    w.varint(items[i].length);
    w.bytes(items[i]);
    if (w.mustWait() && !(await w.drained())) return;
  }
  w.bytes(frame.tail);
  w.end();
}

/**
 * Chunks no write holds any more, for the next body: a LIST of 10 000 pods writes ≈ 500 of them,
 * and allocating each anew made the garbage collector the largest cost of the LIST.
 */
const freeChunks: Buffer[] = [];
/** At most this many are kept (1 MB); a chunk beyond it goes to the garbage collector. */
const FREE_CHUNKS_KEPT = 16;

/**
 * How much a body may have queued on its connection before it waits for the connection to drain:
 * a few chunks, so that one turn of the event loop hands the kernel more than one chunk.
 */
const QUEUED_BYTES = 4 * CHUNK_BYTES;

/** Fills chunks with a body's bytes and writes each when full; a chunk goes back to the free ones once written. */
class BodyWriter {
  private chunk: Buffer;
  private used = 0;

  constructor(private readonly res: ServerResponse) {
    this.chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
  }

  byte(b: number): void {
    if (this.used === CHUNK_BYTES) this.flush();
    this.chunk[this.used++] = b;
  }

  /** A varint (at most 5 bytes: lengths below 2³²). */
  varint(n: number): void {
    if (this.used + 5 > CHUNK_BYTES) this.flush();
    let v = n;
    while (v > 127) {
      this.chunk[this.used++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.chunk[this.used++] = v;
  }

  bytes(b: Uint8Array): void {
    let from = 0;
    while (from < b.length) {
      if (this.used === CHUNK_BYTES) this.flush();
      const n = Math.min(b.length - from, CHUNK_BYTES - this.used);
      this.chunk.set(from === 0 && n === b.length ? b : b.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
    }
  }

  /** A string as UTF-8. */
  text(s: string): void {
    // At most 3 bytes per UTF-16 unit: then it surely fits, and Buffer.write never splits a character.
    if (s.length * 3 <= CHUNK_BYTES - this.used) this.used += this.chunk.write(s, this.used);
    else this.bytes(Buffer.from(s));
  }

  /** Whether the connection has enough queued that the body should wait for it to drain. */
  mustWait(): boolean {
    return this.res.destroyed || this.res.writableLength > QUEUED_BYTES;
  }

  /** Resolves true once the connection drained, false if the client went away. */
  drained(): Promise<boolean> {
    const res = this.res;
    if (res.destroyed) return Promise.resolve(false);
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

  /** Writes the last chunk and ends the response. */
  end(): void {
    const chunk = this.chunk;
    this.res.end(chunk.subarray(0, this.used), () => release(chunk));
  }

  private flush(): void {
    const chunk = this.chunk;
    // The connection holds the bytes until the kernel took them: only then may the chunk be reused.
    if (!this.res.destroyed) this.res.write(chunk.subarray(0, this.used), (e) => (e ? undefined : release(chunk)));
    this.chunk = freeChunks.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
    this.used = 0;
  }
}

function release(chunk: Buffer): void {
  if (freeChunks.length < FREE_CHUNKS_KEPT) freeChunks.push(chunk);
}

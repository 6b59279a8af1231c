/**
 * Fixtures of the HTTP API tests: a cluster with one node and pods behind a real HTTP server on
 * 127.0.0.1 (port 0), plain requests with kubectl's User-Agent, and a watch-stream reader.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { Cluster, USER, type ClusterOptions } from '../../cluster/cluster';
import type { Pod } from '../../apimachinery/types';
import { createApiHandler, type ApiHandler, type ApiHandlerOptions } from './api-handler';

export const KUBECTL_UA = 'kubectl/v1.33.9 (linux/amd64) kubernetes/test';

export interface TestServer {
  cluster: Cluster;
  handler: ApiHandler;
  base: string;
  close(): Promise<void>;
}

/** A cluster with node "node-1" and the given pods (running for a minute), served over HTTP. */
export async function startServer(
  pods: string[] = ['web'],
  options: Partial<ApiHandlerOptions> = {},
  clusterOptions: Partial<ClusterOptions> = {},
): Promise<TestServer> {
  const cluster = new Cluster(clusterOptions);
  cluster.addNode('node-1');
  for (const name of pods) {
    cluster.apiserver.create(USER, 'pods', 'default', podManifest(name));
  }
  cluster.advance(60_000);
  const handler = createApiHandler(cluster, options);
  // The system namespaces the handler bootstraps get their default ServiceAccounts (R246) now,
  // not during the first request of a test.
  cluster.flush();
  const server = http.createServer(handler.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    cluster,
    handler,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function podManifest(name: string, labels: Record<string, string> = { app: name }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
  };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
  /** The body as received (a protobuf answer is not UTF-8 text). */
  bytes: Buffer;
}

/**
 * One request with kubectl's User-Agent; the body is sent as given (string) or as JSON. The
 * path goes out as written (node:http, not fetch, which would resolve `..` segments).
 */
export function request(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers = {
    'User-Agent': KUBECTL_UA,
    ...(body !== undefined
      ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }
      : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = http.request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, bytes });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An open watch stream: the events received so far, and a way to close it. */
export interface WatchStream {
  readonly status: number;
  readonly events: { type: string; object: any }[];
  /** Resolves once `n` events have arrived (or rejects after `ms` wall milliseconds). */
  until(n: number, ms?: number): Promise<void>;
  readonly ended: Promise<void>;
  close(): void;
}

export function openWatch(base: string, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: { 'User-Agent': KUBECTL_UA, ...headers } }, (res) => {
      const events: { type: string; object: any }[] = [];
      let buffer = '';
      const waiters: (() => void)[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
        for (const w of waiters.splice(0)) w();
      });
      const ended = new Promise<void>((r) => res.on('end', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        events,
        ended,
        until(n, ms = 2000) {
          return new Promise<void>((ok, fail) => {
            const deadline = setTimeout(
              () =>
                fail(
                  new Error(
                    `watch got ${events.length} events, expected ${n}: ${JSON.stringify(events.map((e) => e.type))}`,
                  ),
                ),
              ms,
            );
            const check = () => {
              if (events.length >= n) {
                clearTimeout(deadline);
                ok();
              } else waiters.push(check);
            };
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
  });
}

/** A digest of everything in etcd and its history: equal before and after means nothing changed. */
export function stateHash(cluster: Cluster): string {
  return createHash('sha256').update(JSON.stringify(cluster.apiserver.etcd.fullHistory())).digest('hex');
}

/** Lets the event loop deliver what the server wrote. */
export function tick(ms = 20): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` until it holds (a server-side effect of a client action), failing after `ms` wall milliseconds. */
export async function eventually(check: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`still not true after ${ms} ms: ${what}`);
    await tick(5);
  }
}

import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { parseClockMode } from './clock-driver';
import type { Pod } from '../apiserver/types';
import { CLOCK_PATH, serve } from './serve';

/**
 * A long `serve` session in miniature, for the soak test and `npm run bench`: rounds of creating
 * and deleting pods (scheduled, started and stopped by the kubelets, so every component that
 * keeps something per pod takes part) and Leases through the HTTP API on the loopback address,
 * the virtual clock moved on past the Events' hour after each round (ROUND).
 * After each round it measures the heap (after a full GC) and what the session keeps: etcd's
 * history, the timeline's events, the request records.
 */
/**
 * The virtual time between rounds: past the hour an Event lives (--event-ttl) and several etcd
 * compaction intervals, so that what a round leaves behind (its pods' Events, the kubelets'
 * records of their containers) is gone by the next measurement unless something retains it.
 */
const ROUND = '65m';

export interface SoakRound {
  readonly objects: number;
  /** The pods that reached phase Running on a kubelet so far (each pod of the soak should). */
  readonly podsRan: number;
  readonly heapBytes: number;
  readonly history: number;
  readonly timelineEvents: number;
}

export interface SoakResult {
  readonly rounds: readonly SoakRound[];
  /** HTTP requests per second over the whole run (creates and deletes). */
  readonly requestsPerSecond: number;
}

/** A full garbage collection (the flag is set at run time: tests and the bench do not start node with --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export async function soak(options: { rounds: number; perRound: number; concurrency?: number }): Promise<SoakResult> {
  const served = await serve({ port: 0, clock: parseClockMode('jump'), reportDir: mkdtempSync(join(tmpdir(), 'soak-')) });
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 8 });
  const call = (method: string, path: string, body?: object) =>
    new Promise<void>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = request(`${served.url}${path}`, { method, agent, headers: text ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } : {} }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode! < 300 ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(text);
    });
  const inBatches = async (n: number, fn: (i: number) => Promise<void>) => {
    const width = options.concurrency ?? 8;
    for (let i = 0; i < n; i += width) await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => fn(i + k)));
  };
  const rounds: SoakRound[] = [];
  let requests = 0;
  let podsRan = 0;
  served.cluster.apiserver.etcd.subscribe((e) => {
    const phase = (o: unknown) => (o as Pod | undefined)?.status?.phase;
    if (e.type === 'PUT' && e.key.startsWith('/registry/pods/') && phase(e.value) === 'Running' && phase(e.prev) !== 'Running') podsRan += 1;
  });
  const start = process.hrtime.bigint();
  try {
    for (let r = 0; r < options.rounds; r++) {
      const pods = Math.ceil(options.perRound / 2);
      const leases = options.perRound - pods;
      await inBatches(pods, (i) => call('POST', '/api/v1/namespaces/default/pods', { metadata: { name: `soak-${r}-${i}`, labels: { app: 'soak' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } }));
      await inBatches(leases, (i) => call('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: `soak-${r}-${i}` }, spec: { holderIdentity: 'soak' } }));
      await inBatches(pods, (i) => call('DELETE', `/api/v1/namespaces/default/pods/soak-${r}-${i}`));
      await inBatches(leases, (i) => call('DELETE', `/apis/coordination.k8s.io/v1/namespaces/default/leases/soak-${r}-${i}`));
      requests += 2 * options.perRound;
      await call('POST', `${CLOCK_PATH}?advance=${ROUND}`);
      collectGarbage();
      rounds.push({
        objects: (r + 1) * options.perRound,
        podsRan,
        heapBytes: process.memoryUsage().heapUsed,
        history: served.cluster.apiserver.etcd.fullHistory().length,
        timelineEvents: served.cluster.timeline.all().length,
      });
    }
  } finally {
    agent.destroy();
    await served.close();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { rounds, requestsPerSecond: requests / seconds };
}

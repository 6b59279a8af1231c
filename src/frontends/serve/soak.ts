import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { parseClockMode } from './clock-driver';
import type { Pod } from '../../apimachinery/types';
import { CLOCK_PATH, serve } from './serve';

/**
 * A long `serve` session in miniature, for the soak test and `npm run bench`: rounds of creating
 * and deleting pods (scheduled, started and stopped by the kubelets, so every component that
 * keeps something per pod takes part) and custom resources (of a CRD the soak creates first, so
 * their per-CRD store is what keeps them) through the HTTP API on the loopback address,
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

/** The soak's CustomResourceDefinition: namespaced Widgets with a schema (so each create is validated, pruned and defaulted). */
const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.soak.terminating.sim' },
  spec: {
    group: 'soak.terminating.sim',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer', minimum: 0 }, colour: { type: 'string', default: 'blue' } },
              },
            },
          },
        },
      },
    ],
  },
};
const WIDGETS_PATH = '/apis/soak.terminating.sim/v1/namespaces/default/widgets';

/** Waits (on the wall clock: the apiextensions controllers run on the virtual one, which jump mode moves) until the CRD is Established. */
async function established(call: (method: string, path: string) => Promise<string>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const crd = JSON.parse(
      await call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${WIDGETS.metadata.name}`),
    ) as { status?: { conditions?: { type: string; status: string }[] } };
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`CustomResourceDefinition ${WIDGETS.metadata.name} never became Established`);
}

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
  const served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'soak-')),
  });
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 8 });
  const call = (method: string, path: string, body?: object) =>
    new Promise<string>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${served.url}${path}`,
        {
          method,
          agent,
          headers: text ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } : {},
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            res.statusCode! < 300 ? resolve(text) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  const inBatches = async (n: number, fn: (i: number) => Promise<unknown>) => {
    const width = options.concurrency ?? 8;
    for (let i = 0; i < n; i += width)
      await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => fn(i + k)));
  };
  const rounds: SoakRound[] = [];
  let requests = 0;
  let podsRan = 0;
  served.cluster.apiserver.etcd.subscribe((e) => {
    const phase = (o: unknown) => (o as Pod | undefined)?.status?.phase;
    if (
      e.type === 'PUT' &&
      e.key.startsWith('/registry/pods/') &&
      phase(e.value) === 'Running' &&
      phase(e.prev) !== 'Running'
    )
      podsRan += 1;
  });
  const start = process.hrtime.bigint();
  try {
    await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', WIDGETS);
    await established(call);
    for (let r = 0; r < options.rounds; r++) {
      const pods = Math.ceil(options.perRound / 2);
      const widgets = options.perRound - pods;
      await inBatches(pods, (i) =>
        call('POST', '/api/v1/namespaces/default/pods', {
          metadata: { name: `soak-${r}-${i}`, labels: { app: 'soak' } },
          spec: { containers: [{ name: 'app', image: 'busybox' }] },
        }),
      );
      await inBatches(widgets, (i) =>
        call('POST', WIDGETS_PATH, {
          apiVersion: 'soak.terminating.sim/v1',
          kind: 'Widget',
          metadata: { name: `soak-${r}-${i}` },
          spec: { size: i },
        }),
      );
      await inBatches(pods, (i) => call('DELETE', `/api/v1/namespaces/default/pods/soak-${r}-${i}`));
      await inBatches(widgets, (i) => call('DELETE', `${WIDGETS_PATH}/soak-${r}-${i}`));
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

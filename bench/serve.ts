/**
 * The `serve` figures of `npm run bench` (issue 9), each the median of several runs, printed as
 * one JSON line for bench/run.ts:
 *
 * - readyMs: `node bin/terminating.js serve` from process start to "Ctrl-C stops." (the default
 *   cluster, loader included) — target < 1 s.
 * - listJsonMs / listProtobufMs / listTableMs: one LIST of 10 000 pods (100 nodes) over HTTP, as
 *   JSON, as protobuf (what client-go's typed clients ask for first) and as the server-side printed
 *   Table kubectl asks for — target < 200 ms each.
 * - kubectlDeleteMs: the real kubectl v1.36's `kubectl delete pod web` (30 s grace, SIGTERM
 *   ignored) against `serve --clock jump`, wall time of the kubectl process — target < 1 s.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { realKubectlPath, UnsupportedPlatformError } from '../src/frontends/kubectl/real-kubectl';
import { parseClockMode } from '../src/frontends/serve/clock-driver';
import { serve } from '../src/frontends/serve/serve';
import { benchSettingsOrExit } from './settings';

const ROOT = resolve(__dirname, '..');
const RUNS = benchSettingsOrExit({ BENCH_RUNS: process.env.BENCH_RUNS }, []).runs;
const PROTOBUF = 'application/vnd.kubernetes.protobuf,application/json';
const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** Wall time from spawning `terminating serve` to its ready line. */
function readyOnce(): Promise<number> {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/terminating.js'), 'serve', '--report-dir', mkdtempSync(join(tmpdir(), 'bench-serve-'))],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!out.includes('Ctrl-C stops.')) return;
      const took = ms(start);
      child.once('close', () => done(took));
      child.kill('SIGTERM');
    });
    child.once('error', fail);
  });
}

/** Wall time of one GET, the whole body read. */
function timedGet(url: string, accept: string): Promise<number> {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    httpRequest(url, { headers: { Accept: accept } }, (res) => {
      res.on('data', () => {});
      res.on('end', () =>
        res.statusCode === 200 ? done(ms(start)) : fail(new Error(`GET ${url}: ${res.statusCode}`)),
      );
    })
      .on('error', fail)
      .end();
  });
}

/** A manifest file of `pods` pods spread over `nodes` nodes. */
function manyPods(pods: number, nodes: number): string {
  const docs: string[] = [];
  for (let n = 0; n < nodes; n++) docs.push(`kind: Node\nmetadata: { name: node-${n} }\n`);
  for (let i = 0; i < pods; i++)
    docs.push(
      `kind: Pod\nmetadata: { name: pod-${i}, labels: { app: bench } }\nspec: { nodeName: node-${i % nodes}, containers: [{ name: app, image: nginx }] }\n`,
    );
  const file = join(mkdtempSync(join(tmpdir(), 'bench-serve-')), 'pods.yaml');
  writeFileSync(file, docs.join('---\n'));
  return file;
}

async function lists(): Promise<{ json: number; protobuf: number; table: number }> {
  const served = await serve({
    port: 0,
    manifests: manyPods(10_000, 100),
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'bench-serve-')),
  });
  try {
    const url = `${served.url}/api/v1/namespaces/default/pods`;
    // Warm-up: first-use compilation, and the first encoding of each object (cached after, as for JSON).
    await timedGet(url, 'application/json');
    await timedGet(url, PROTOBUF);
    const json: number[] = [];
    const protobuf: number[] = [];
    const table: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      json.push(await timedGet(url, 'application/json'));
      protobuf.push(await timedGet(url, PROTOBUF));
      table.push(await timedGet(url, TABLE));
    }
    return { json: median(json), protobuf: median(protobuf), table: median(table) };
  } finally {
    await served.close();
  }
}

/** The real kubectl deleting pod web (grace 30 s, ignores SIGTERM) of the default cluster, in jump mode. */
async function kubectlDelete(kubectl: string): Promise<number> {
  const served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'bench-serve-')),
  });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'bench-home-')),
    KUBECONFIG: served.kubeconfig,
  };
  const run = (args: string[]) =>
    new Promise<number>((done, fail) => {
      const start = process.hrtime.bigint();
      execFile(kubectl, args, { env }, (err, _out, stderr) =>
        err ? fail(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : done(ms(start)),
      );
    });
  try {
    await run(['get', 'pods']); // discovery is cached, as it is for anyone who used kubectl before
    const took = await run(['delete', 'pod', 'web']);
    if (served.cluster.clock.now() - served.t0 < 30_000)
      throw new Error('kubectl delete returned before the 30 s grace period had passed on the virtual clock');
    return took;
  } finally {
    await served.close();
  }
}

async function main(): Promise<void> {
  const ready: number[] = [];
  for (let i = 0; i < RUNS; i++) ready.push(await readyOnce());
  const list = await lists();
  let kubectlDeleteMs: number | string;
  try {
    const kubectl = await realKubectlPath();
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await kubectlDelete(kubectl));
    kubectlDeleteMs = median(runs);
  } catch (e) {
    // The pinned kubectl is a linux-amd64 binary: elsewhere this figure cannot be measured.
    if (!(e instanceof UnsupportedPlatformError)) throw e;
    kubectlDeleteMs = `not measured: ${e.message}`;
  }
  console.log(
    JSON.stringify({
      readyMs: median(ready),
      listJsonMs: list.json,
      listProtobufMs: list.protobuf,
      listTableMs: list.table,
      kubectlDeleteMs,
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

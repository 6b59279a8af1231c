import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import { ControllerProcess } from './controller-process';

/**
 * A controller program in plain node (no dependency): it watches the pods of namespace default
 * and, for each pod "ping" ADDED, runs `react` (a string of JavaScript that calls `done()` when
 * it has finished) and then creates the pod "pong".
 */
function pingPong(react: string): string {
  return `
const http = require('node:http');
const { readFileSync } = require('node:fs');
const server = /server: (\\S+)/.exec(readFileSync(process.env.KUBECONFIG, 'utf8'))[1];
const pods = server + '/api/v1/namespaces/default/pods';
function pong() {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pong' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  const req = http.request(pods, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => res.resume());
  req.end(body);
}
http.get(pods + '?watch=1', (res) => {
  let buffered = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\\n')) >= 0) {
      const event = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (event.type === 'ADDED' && event.object.metadata.name === 'ping') {
        const done = pong;
        ${react}
      }
    }
  });
});
`;
}

/** Runs pingPong(`react`) against a fresh cluster, creates the pod "ping", moves 10 s on; the creationTimestamps of "ping" and "pong". */
async function pingAndPong(react: string): Promise<{ ping?: string; pong?: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'controller-process-'));
  const file = path.join(dir, 'program.cjs');
  writeFileSync(file, pingPong(react));
  const cluster = new Cluster();
  const controller = await ControllerProcess.start(cluster, file, dir);
  try {
    cluster.apiserver.create(USER, 'pods', 'default', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ping' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    await controller.advance(10_000);
    const created = (name: string) => {
      const r = cluster.apiserver.get('pods', 'default', name);
      return r.ok ? r.object.metadata.creationTimestamp : undefined;
    };
    return { ping: created('ping'), pong: created('pong') };
  } finally {
    await controller.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("ControllerProcess: a scenario's own controller program (issue 33 item 5)", () => {
  it('a program that exits before it watches anything fails the step, naming it, its exit and what it printed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'controller-process-'));
    try {
      const program = path.join(dir, 'crash.mjs');
      writeFileSync(program, "console.error('no KUBECONFIG? ' + Boolean(process.env.KUBECONFIG)); process.exit(3);\n");
      const error = await ControllerProcess.start(new Cluster(), program, dir).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).to.equal(`the controller ${program} exited with code 3:\nno KUBECONFIG? true`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Each of these reacts later (wall time) than the 250 ms quiet period that used to hand time over:
  // its reaction must still land at the instant it reacts to, on an idle and on a loaded machine.
  it('a program that reacts on a timer (400 ms of wall time) is waited for: its reaction lands at the same instant', async () => {
    const r = await pingAndPong('setTimeout(done, 400);');
    expect(r.ping).to.equal('2025-01-01T00:00:00Z');
    expect(r.pong, 'pong created').to.equal(r.ping);
  });

  it('a program that reacts after 300 ms of computation in a worker thread (its main thread asleep) is waited for', async () => {
    const r = await pingAndPong(`
        const { Worker } = require('node:worker_threads');
        const worker = new Worker('const end = Date.now() + 300; while (Date.now() < end); require("node:worker_threads").parentPort.postMessage(1);', { eval: true });
        worker.once('message', () => { worker.terminate(); done(); });`);
    expect(r.pong, 'pong created').to.equal(r.ping);
  });

  it('a program that reacts after 300 ms of computation on its main thread is waited for', async () => {
    const r = await pingAndPong('const end = Date.now() + 300; while (Date.now() < end); done();');
    expect(r.pong, 'pong created').to.equal(r.ping);
  });
});

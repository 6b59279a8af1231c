// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { explainDump } from '../explain/explain';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { readDumpFiles } from '../../planning/restore/dump';
import { request } from '../server/testing';
import { parseClockMode } from './clock-driver';
import { CLOCK_PATH, serve, type ServedCluster } from './serve';

const DUMP = resolve(__dirname, '../../../examples/stuck/finalizer-running.yaml');
const running: ServedCluster[] = [];
after(() => Promise.all(running.map((s) => s.close())));

/** The words of a command as a POSIX shell splits them (single quotes only, as explain prints them). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

describe('X1 X9 X10 a served cluster resumed from a dump behaves as explain said (the real kubectl v1.36)', () => {
  it('get pod shows Terminating; after the grace the finalizer still holds it; the finalizer patch explain printed releases it', async () => {
    const [explained] = explainDump(readDumpFiles([DUMP])).explanation.pods;
    expect(explained.causes.map((c) => c.cause)).to.deep.equal(['finalizer']);
    const patch = shellWords(explained.causes[0].remedies[0].command);
    expect(patch.slice(0, 2)).to.deep.equal(['kubectl', 'patch']);

    const served = await serve({
      port: 0,
      manifests: DUMP,
      clock: parseClockMode('jump'),
      reportDir: mkdtempSync(join(tmpdir(), 'stuck-kubectl-')),
    });
    running.push(served);
    const binary = await realKubectlPath();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: mkdtempSync(join(tmpdir(), 'stuck-home-')),
      KUBECONFIG: served.kubeconfig,
    };
    const kubectl = (args: string[]) =>
      new Promise<{ code: number; out: string }>((done) => {
        execFile(binary, args, { env, timeout: 30_000 }, (error, stdout, stderr) =>
          done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
      });

    expect(new Date(served.cluster.clock.now()).toISOString()).to.equal('2025-06-03T09:30:30.000Z');
    const before = await kubectl(['get', 'pod', 'cart-6d8f9b7c5-h4jzp', '-n', 'shop']);
    expect(before.out).to.match(/^cart-6d8f9b7c5-h4jzp\s+1\/1\s+Terminating\s+0\s+84m\n$/m);

    // Past the grace period and well beyond: the kubelet is done (phase Failed), the finalizer is not.
    await request(served.url, 'POST', `${CLOCK_PATH}?advance=10m`);
    // What the server holds, read from its apiserver (each kubectl get would cost a kubectl start-up).
    const stored = () => served.cluster.apiserver.get('pods', 'shop', 'cart-6d8f9b7c5-h4jzp');
    const held = stored();
    if (!held.ok) throw new Error(held.status.message);
    expect([
      held.object.metadata.deletionGracePeriodSeconds,
      held.object.metadata.finalizers,
      held.object.status?.phase,
    ]).to.deep.equal([0, ['shop.example.com/release-reservations'], 'Failed']);

    const released = await kubectl(patch.slice(1));
    expect(released).to.deep.equal({ code: 0, out: 'pod/cart-6d8f9b7c5-h4jzp patched\n' });
    expect(stored()).to.include({ ok: false, code: 404 });
  });
});

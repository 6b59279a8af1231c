// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode, SERVE_HEADROOM_MS } from './clock-driver';
import { parseServeArgs } from './command';
import { serve, type ServedCluster } from './serve';

/**
 * R94 — a clock real tools can read: `serve` starts virtual time SERVE_HEADROOM_MS (10 minutes)
 * before the wall-clock time it starts (parseServeArgs reads it), and a jump never takes it past
 * the wall clock, so `kubectl describe`, which computes ages from timestamps against the wall
 * clock, prints sane ones — never `<invalid>` — instead of the distance to the scenarios' fixed
 * 2025 epoch. The work a request sets off at its own instant (the kubelet's kill after a DELETE)
 * has run before the next request is answered.
 */
let served: ServedCluster | undefined;
after(() => served?.close());

function run(kubectl: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    ),
  );
}

describe('R94 serve starts virtual time behind the wall clock and keeps it there, so client-side ages are sane (the real kubectl v1.36)', () => {
  it('kubectl delete --wait=false, then describe pod: the container is being killed (Killing), the start time and the ages lie in the past', async () => {
    const options = parseServeArgs(['--clock', 'jump']);
    if (options === 'help') throw new Error('unexpected help');
    const wallStart = Date.now();
    served = await serve({
      ...options,
      port: 0,
      clock: parseClockMode('jump'),
      reportDir: mkdtempSync(join(tmpdir(), 'clock-test-')),
    });
    expect(wallStart - served.t0).to.be.within(SERVE_HEADROOM_MS - 5_000, SERVE_HEADROOM_MS + 5_000);
    const kubectl = await realKubectlPath();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: mkdtempSync(join(tmpdir(), 'clock-home-')),
      KUBECONFIG: served.kubeconfig,
    };
    await run(kubectl, env, 'delete', 'pod', 'web', '--wait=false');
    const described = await run(kubectl, env, 'describe', 'pod', 'web');
    expect(described).to.match(/^Status:\s+Terminating/m);
    const started = Date.parse(/^Start Time:\s+(.+)$/m.exec(described)![1]);
    // The pods were created at the start of the one-minute warm-up before serving began.
    expect(wallStart - started).to.be.within(SERVE_HEADROOM_MS + 55_000, SERVE_HEADROOM_MS + 65_000);
    expect(described).to.not.include('<invalid>');
    // The Killing event of the same instant as the DELETE: there before describe asked, 10 minutes old by the wall clock.
    expect(described).to.match(/^\s+Normal\s+Killing\s+(9m5\d+s|10m)\s/m);
    const events = await run(kubectl, env, 'events');
    expect(events).to.include('Killing');
    expect(events).to.not.include('<invalid>');
  });
});

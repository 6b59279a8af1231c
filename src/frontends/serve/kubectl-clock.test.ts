// It spawns the real kubectl against a served cluster: this file runs in a process of its own (scripts/unit-tests.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { parseServeArgs } from './command';
import { serve, type ServedCluster } from './serve';

/**
 * R94 — a clock real tools can read: `serve` starts virtual time at the wall-clock time it starts
 * (parseServeArgs reads it), so `kubectl describe`, which computes ages from timestamps against
 * the wall clock, prints sane ones instead of the distance to the scenarios' fixed 2025 epoch.
 */
let served: ServedCluster | undefined;
after(() => served?.close());

function run(kubectl: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))));
}

describe('R94 serve starts virtual time at the wall clock, so client-side ages are sane (the real kubectl v1.33)', () => {
  it('kubectl describe pod: the start time is now, the Killing event is seconds old', async () => {
    const options = parseServeArgs(['--clock', 'jump']);
    if (options === 'help') throw new Error('unexpected help');
    const wallStart = Date.now();
    served = await serve({ ...options, port: 0, clock: parseClockMode('jump'), reportDir: mkdtempSync(join(tmpdir(), 'clock-test-')) });
    expect(Math.abs(served.t0 - wallStart)).to.be.below(5_000);
    const kubectl = await realKubectlPath();
    const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'clock-home-')), KUBECONFIG: served.kubeconfig };
    await run(kubectl, env, 'delete', 'pod', 'web', '--wait=false');
    const described = await run(kubectl, env, 'describe', 'pod', 'web');
    const started = Date.parse(/^Start Time:\s+(.+)$/m.exec(described)![1]);
    // The pods were created at the start of the one-minute warm-up before serving began.
    expect(wallStart - started).to.be.within(55_000, 65_000);
    const killing = /^\s+Normal\s+Killing\s+(\d+)s\s/m.exec(described);
    expect(killing, described).to.not.equal(null);
    expect(Number(killing![1])).to.be.below(60);
  });
});

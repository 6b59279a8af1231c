// It spawns the real kubectl against served clusters: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';
import { Release } from '../../foundation/release';

/**
 * R110/R240 with the real kubectl v1.36: a manifest using a field k8s.io/api added in v1.35/v1.36
 * (PodSpec.schedulingGroup, CSIDriverSpec.serviceAccountTokenInSecrets) is accepted by a 1.36
 * server and refused by a 1.34 one with the strict decoder's unknown-field error. R320: the 1.36
 * server drops schedulingGroup on write while its gate, GenericWorkload, is off (its default), and
 * keeps it where the gate is turned on.
 */
/** The manifests below are written here when the file loads; the servers' report directories too. */
const dir = mkdtempSync(join(tmpdir(), 'release-fields-'));
let kubectl: string;
const servers = new Map<string, ServedCluster>();

before(async () => {
  kubectl = await realKubectlPath();
  // Each in a directory of its own: the kubeconfig is written there.
  for (const release of ['v1.36', 'v1.34', 'v1.36+GenericWorkload'])
    servers.set(
      release,
      await serve({
        port: 0,
        clock: parseClockMode('fast=60'),
        reportDir: mkdtempSync(join(dir, `${release}-`)),
        release: Release.parse(release.split('+')[0], release.includes('+') ? { GenericWorkload: true } : {}),
      }),
    );
});
after(() => {
  for (const s of servers.values()) s.close();
});

/**
 * One HOME for the file: kubectl keeps its discovery and OpenAPI cache per server address, and
 * the three servers run side by side for the whole file (distinct ports), so each release's cache
 * stays its own while kubectl reuses it from one run to the next.
 */
const home = mkdtempSync(join(tmpdir(), 'release-fields-home-'));

function run(release: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: servers.get(release)!.kubeconfig };
  return new Promise((resolve) => {
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function manifest(name: string, body: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

const POD = manifest('pod', {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'grouped' },
  spec: { schedulingGroup: { podGroupName: 'training' }, containers: [{ name: 'app', image: 'nginx' }] },
});
const DRIVER = manifest('driver', {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name: 'disk.example.com' },
  spec: { serviceAccountTokenInSecrets: true },
});

describe('R110/R240 a field new in 1.35/1.36 with the real kubectl v1.36: accepted by 1.36, unknown to 1.34', () => {
  it('PodSpec.schedulingGroup (1.36): kubectl apply --dry-run=server succeeds on 1.36', async () => {
    const applied = await run('v1.36', 'apply', '--dry-run=server', '-f', POD);
    expect(applied.stderr).to.equal('');
    expect(applied.stdout).to.include('pod/grouped created (server dry run)');
  });

  it('PodSpec.schedulingGroup on 1.34: strict decoding error: unknown field "spec.schedulingGroup"', async () => {
    const applied = await run('v1.34', 'apply', '--dry-run=server', '-f', POD);
    expect(applied.code).to.not.equal(0);
    expect(applied.stderr).to.include(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.schedulingGroup"',
    );
  });

  it('CSIDriverSpec.serviceAccountTokenInSecrets (1.35): created on 1.36, unknown on 1.34', async () => {
    const created = await run('v1.36', 'create', '-f', DRIVER);
    expect(created.stderr).to.equal('');
    expect(created.stdout).to.include('csidriver.storage.k8s.io/disk.example.com created');
    // What was stored, read from the apiserver (a kubectl get of it would cost a kubectl start-up).
    const driver = servers.get('v1.36')!.cluster.apiserver.get('csidrivers', undefined, 'disk.example.com');
    expect(driver.ok && driver.object.spec).to.deep.include({ serviceAccountTokenInSecrets: true });
    const refused = await run('v1.34', 'create', '-f', DRIVER);
    expect(refused.stderr).to.include('strict decoding error: unknown field "spec.serviceAccountTokenInSecrets"');
  });

  it('kubectl explain pod.spec.schedulingGroup describes it on 1.36 from types.go', async () => {
    const explained = await run('v1.36', 'explain', 'pod.spec.schedulingGroup');
    expect(explained.stdout).to.include('podGroupName');
    expect(explained.stdout).to.match(/SchedulingGroup provides a reference/);
  });

  it('R320 kubectl apply on 1.36: schedulingGroup is dropped while GenericWorkload is off, kept when it is on', async () => {
    const applied = await run('v1.36', 'apply', '-f', POD);
    expect(applied.stdout).to.include('pod/grouped created');
    // What each server stored, read from its apiserver: dropping the field is the server's doing.
    const stored = (release: string) => {
      const pod = servers.get(release)!.cluster.apiserver.get('pods', 'default', 'grouped');
      if (!pod.ok) throw new Error(pod.status.message);
      return pod.object.spec;
    };
    expect(stored('v1.36')).to.not.have.property('schedulingGroup');
    expect((await run('v1.36+GenericWorkload', 'apply', '-f', POD)).stdout).to.include('pod/grouped created');
    expect(stored('v1.36+GenericWorkload')).to.deep.include({ schedulingGroup: { podGroupName: 'training' } });
  });
});

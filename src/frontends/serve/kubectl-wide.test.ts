// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * Addresses and versions as the real kubectl v1.36 prints them from the served default cluster:
 * each pod's IP comes from its node's pod CIDR (the node IPAM controller's /24, host-local IPAM
 * from .2), each node shows the kubelet's version and its InternalIP.
 */
let served: ServedCluster;
before(async () => {
  served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'wide-test-')),
  });
});
after(() => served?.close());

/** One HOME for the file: kubectl's discovery cache (per server address) is reused from one run to the next. */
const home = mkdtempSync(join(tmpdir(), 'wide-home-'));

async function kubectl(...args: string[]): Promise<string> {
  const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: served.kubeconfig };
  const path = await realKubectlPath();
  return new Promise((resolve, reject) =>
    execFile(path, args, { env, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** A table's rows as objects by column name (kubectl's columns are separated by two or more spaces). */
function table(text: string): Record<string, string>[] {
  const [header, ...rows] = text
    .trim()
    .split('\n')
    .map((l) => l.split(/\s{2,}/));
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

describe('kubectl get -o wide (the real kubectl v1.36) against the served cluster (K59, K60)', () => {
  // One get of both kinds: kubectl prints the pods' table, a blank line, then the nodes' (each
  // name qualified by its kind, as with any get of several kinds); each test reads its own table.
  let pods: Record<string, string>[];
  let nodes: Record<string, string>[];
  before(async () => {
    const tables = (await kubectl('get', 'pods,nodes', '-o', 'wide')).split('\n\n');
    expect(tables).to.have.length(2);
    [pods, nodes] = tables.map(table);
  });

  it("shows each pod an IP of its node's pod CIDR", () => {
    for (const r of pods) expect(r.NAME).to.match(/^pod\//);
    const byName = Object.fromEntries(pods.map((r) => [r.NAME.replace(/^pod\//, ''), r]));
    expect(byName.web).to.include({ IP: '10.244.0.2', NODE: 'node-1' });
    for (const r of pods)
      expect(r.IP, r.NAME).to.match(r.NODE === 'node-1' ? /^10\.244\.0\.\d+$/ : /^10\.244\.1\.\d+$/);
    expect(new Set(pods.map((r) => r.IP)).size, 'no address twice').to.equal(pods.length);
  });

  it("shows each node's kubelet version and InternalIP", () => {
    expect(nodes.map((r) => [r.NAME, r.VERSION, r['INTERNAL-IP'], r['CONTAINER-RUNTIME']])).to.deep.equal([
      ['node/node-1', 'v1.36.0', '10.0.0.1', 'containerd://2.0.3'],
      ['node/node-2', 'v1.36.0', '10.0.0.2', 'containerd://2.0.3'],
    ]);
  });
});

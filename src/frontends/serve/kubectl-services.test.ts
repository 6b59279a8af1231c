// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { USER } from '../../cluster/cluster';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * Services, EndpointSlices and Endpoints with the real kubectl v1.36 (server-side printing of
 * printService, printEndpointSlice, printEndpoints; kubectl describe's service describer), and
 * `kubectl get endpointslices -w` seeing a deleted pod's endpoint turn ready=false,
 * terminating=true before it leaves the slice.
 */
const MANIFEST = `apiVersion: v1
kind: Node
metadata: { name: node-1 }
---
apiVersion: v1
kind: Pod
metadata: { name: web-1, labels: { app: web } }
spec: { nodeName: node-1, containers: [{ name: app, image: nginx:1.27 }] }
---
apiVersion: v1
kind: Pod
metadata:
  name: web-2
  labels: { app: web }
  annotations: { terminating.sim/sigterm.app: exit after 5s }
spec: { nodeName: node-1, containers: [{ name: app, image: nginx:1.27 }] }
---
apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
`;

let served: ServedCluster;
let env: NodeJS.ProcessEnv;
let kubectl: string;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-services-'));
  writeFileSync(join(dir, 'cluster.yaml'), MANIFEST);
  served = await serve({
    port: 0,
    manifests: join(dir, 'cluster.yaml'),
    clock: parseClockMode('jump'),
    reportDir: dir,
  });
  kubectl = await realKubectlPath();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'kubectl-services-home-')),
    KUBECONFIG: served.kubeconfig,
  };
});
after(() => served.close());

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('N17 Services, EndpointSlices and Endpoints with the real kubectl v1.36', () => {
  it('kubectl get svc,endpointslices,endpoints prints the server-side tables (the ClusterIP of N2); describe svc names the selector, IP and endpoints', async () => {
    const slice = served.cluster.apiserver.list('endpointslices', 'default');
    const name = slice.ok ? slice.object.items[0].metadata.name! : '?';
    const got = await run(['get', 'svc,endpointslices,endpoints']);
    expect(got.code, got.stderr).to.equal(0);
    const lines = got.stdout.split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(lines[0]).to.deep.equal(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    expect(lines[1]).to.deep.equal(['service/web', 'ClusterIP', '10.96.1.1', '<none>', '80/TCP', '60s']);
    expect(got.stdout).to.include('ADDRESSTYPE');
    expect(lines.find((l) => l[0] === `endpointslice.discovery.k8s.io/${name}`)).to.deep.equal([
      `endpointslice.discovery.k8s.io/${name}`,
      'IPv4',
      '8080',
      '10.244.0.2,10.244.0.3',
      '60s',
    ]);
    expect(lines.find((l) => l[0] === 'endpoints/web')).to.deep.equal([
      'endpoints/web',
      '10.244.0.2:8080,10.244.0.3:8080',
      '60s',
    ]);
    const described = await run(['describe', 'svc', 'web']);
    expect(described.code, described.stderr).to.equal(0);
    expect(described.stdout).to.match(/Selector:\s+app=web/);
    expect(described.stdout).to.match(/IP:\s+10\.96\.1\.1/);
    expect(described.stdout).to.match(/Endpoints:\s+10\.244\.0\.2:8080,10\.244\.0\.3:8080/);
  });

  it('kubectl get endpointslices -w sees the deleted pod turn ready=false terminating=true, then leave', async () => {
    const watch = spawn(
      kubectl,
      [
        'get',
        'endpointslices',
        '-w',
        '-o',
        'custom-columns=NAME:.metadata.name,READY:.endpoints[*].conditions.ready,TERMINATING:.endpoints[*].conditions.terminating',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    watch.stdout.setEncoding('utf8');
    const seen = new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`kubectl get -w printed only:\n${out}`)), 30_000);
      watch.stdout.on('data', (d: string) => {
        out += d;
        const rows = out.trim().split('\n');
        if (rows.length === 2) served.cluster.apiserver.delete(USER, 'pods', 'default', 'web-2');
        if (
          rows.some((r) => /\strue\s*$/.test(r) === false && /true,false\s+false,true/.test(r)) &&
          rows.some((r) => /\strue\s+false\s*$/.test(r))
        ) {
          clearTimeout(timer);
          done();
        }
      });
    });
    try {
      await seen;
    } finally {
      watch.kill();
    }
    const rows = out
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    expect(rows[0]).to.deep.equal(['NAME', 'READY', 'TERMINATING']);
    expect(rows[1].slice(1)).to.deep.equal(['true,true', 'false,false']);
    expect(rows.map((r) => r.slice(1).join(' '))).to.include.members(['true,false false,true', 'true false']);
  });
});

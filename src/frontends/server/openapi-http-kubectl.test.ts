// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { Deployment } from '../../apimachinery/types';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { kubeconfig } from '../serve/kubeconfig';
import { runKubectl } from '../serve/kubectl-testing';
import { startServer, type TestServer } from './testing';

/** What reached the server: the OpenAPI requests, with the validator a client sent and the answer's code. */
interface Seen {
  path: string;
  ifNoneMatch?: string;
  status: number;
}

/**
 * R322 with the real kubectl v1.36: its disk HTTP cache (`~/.kube/cache/http`) keeps the
 * group/version document by its hashed URL, so a second `kubectl explain` in the same HOME asks
 * only for the `/openapi/v3` root, revalidated with If-None-Match and answered 304. R323: the
 * PATCH operations list their patch types, so `kubectl apply` of a changed object computes its
 * strategic merge patch from the v3 document and downloads no `/openapi/v2`.
 */
describe('R322/R323 the real kubectl reuses the OpenAPI documents it cached, and needs v3 alone', () => {
  let server: TestServer;
  let outer: http.Server;
  const seen: Seen[] = [];
  let run: (...args: string[]) => ReturnType<typeof runKubectl>;
  let home: string;

  before(async () => {
    server = await startServer([]);
    outer = http.createServer((req, res) => {
      if (req.url?.startsWith('/openapi/')) {
        const entry: Seen = { path: req.url.replace(/[?&]timeout=[^&]*/, ''), status: 0 };
        if (req.headers['if-none-match']) entry.ifNoneMatch = String(req.headers['if-none-match']);
        seen.push(entry);
        res.once('finish', () => (entry.status = res.statusCode));
      }
      server.handler.listener(req, res);
    });
    await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
    home = mkdtempSync(join(tmpdir(), 'openapi-cache-'));
    const config = join(home, 'kubeconfig');
    writeFileSync(config, kubeconfig(`http://127.0.0.1:${(outer.address() as AddressInfo).port}`));
    const binary = await realKubectlPath();
    run = (...args) => runKubectl(binary, { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: config }, args);
  });
  after(async () => {
    outer.closeAllConnections();
    await new Promise<void>((resolve) => outer.close(() => resolve()));
    await server.close();
  });

  it('R322 a second explain downloads no document: the root is a 304, the hashed group/version comes from the cache', async () => {
    const first = await run('explain', 'deployments.spec.replicas');
    expect(first.stdout, first.stderr).to.include('FIELD: replicas <integer>');
    const hashed = seen.find((s) => s.path.startsWith('/openapi/v3/apis/apps/v1?hash='));
    expect(hashed, JSON.stringify(seen)).to.include({ status: 200 });
    const root = seen.find((s) => s.path === '/openapi/v3');
    expect(root?.status).to.equal(200);
    seen.length = 0;
    const second = await run('explain', 'deployments.spec.replicas');
    expect(second.stdout).to.equal(first.stdout);
    expect(seen, JSON.stringify(seen)).to.have.length(1);
    expect(seen[0]).to.deep.include({ path: '/openapi/v3', status: 304 });
    expect(seen[0].ifNoneMatch).to.match(/^"[0-9A-F]{128}"$/);
  });

  it('R323 apply of a changed Deployment patches it strategically from OpenAPI v3 alone, never asking for /openapi/v2', async () => {
    const manifest = (value: string, second: string) =>
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [
                { name: 'app', image: 'nginx', env: [{ name: 'A', value }] },
                { name: second, image: 'busybox' },
              ],
            },
          },
        },
      });
    const file = join(home, 'web.json');
    writeFileSync(file, manifest('1', 'side'));
    expect((await run('apply', '-f', file)).stdout).to.equal('deployment.apps/web created\n');
    seen.length = 0;
    writeFileSync(file, manifest('2', 'other'));
    const applied = await run('apply', '-f', file);
    expect(applied.stdout, applied.stderr).to.equal('deployment.apps/web configured\n');
    expect(seen.map((s) => s.path.split('?')[0])).to.not.include('/openapi/v2');
    // The patch was the strategic one: containers merged by name, env by name.
    const got = server.cluster.apiserver.get('deployments', 'default', 'web');
    if (!got.ok) throw new Error(got.status.message);
    const containers = (got.object as Deployment).spec?.template.spec?.containers ?? [];
    expect(containers.map((c) => [c.name, c.env])).to.deep.equal([
      ['app', [{ name: 'A', value: '2' }]],
      ['other', undefined],
    ]);
  });
});

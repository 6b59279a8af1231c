// It spawns the real kubectl against a served cluster: this file runs in a process of its own (scripts/unit-tests.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
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
 * only for the `/openapi/v3` root, revalidated with If-None-Match and answered 304.
 */
describe('R322 the real kubectl reuses the OpenAPI documents it cached', () => {
  let server: TestServer;
  let outer: http.Server;
  const seen: Seen[] = [];
  let run: (...args: string[]) => ReturnType<typeof runKubectl>;

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
    const home = mkdtempSync(join(tmpdir(), 'openapi-cache-'));
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
});

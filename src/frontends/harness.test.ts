import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startCluster, StartClusterError } from './harness';
import { SUPPORTED_MINORS } from '../foundation/release';

/** One request to the served API; resolves with the status code and the parsed body. */
function http(url: string, method = 'GET', body?: unknown): Promise<{ code: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, { method, headers: text ? { 'Content-Type': 'application/json' } : {} }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body: JSON.parse(data) }));
    });
    req.once('error', reject);
    req.end(text);
  });
}

describe('startCluster (the harness for controller tests)', () => {
  it('serves the cluster with a kubeconfig; its clock moves only when the test moves it', async () => {
    const c = await startCluster({ nodes: 2 });
    try {
      assert.match(readFileSync(c.kubeconfig, 'utf8'), new RegExp(`server: ${c.url}`));
      const nodes = await http(`${c.url}/api/v1/nodes`);
      assert.deepEqual(
        nodes.body.items.map((n: any) => n.metadata.name),
        ['node-1', 'node-2'],
      );
      const created = await http(`${c.url}/api/v1/namespaces/default/pods`, 'POST', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', annotations: { 'terminating.sim/sigterm.app': 'ignore' } },
        spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 10, containers: [{ name: 'app', image: 'nginx' }] },
      });
      assert.equal(created.code, 201);
      const t0 = c.now().getTime();
      await http(`${c.url}/api/v1/namespaces/default/pods/web`, 'DELETE');
      assert.equal(c.now().getTime(), t0, 'no request moves the clock');
      assert.equal((await c.advance('9s')).getTime(), t0 + 9000);
      assert.equal((await http(`${c.url}/api/v1/namespaces/default/pods/web`)).code, 200);
      await c.advance(3000); // SIGKILL at 10s, then SyncTerminatedPod at the next relist and the kubelet's final DELETE
      assert.equal((await http(`${c.url}/api/v1/namespaces/default/pods/web`)).code, 404);
      assert.deepEqual(await c.settle(), { settled: true, blockers: [] });
      const dir = mkdtempSync(join(tmpdir(), 'harness-'));
      const files = c.report(dir);
      assert.match(readFileSync(files.text, 'utf8'), /clock advanced by 9s/);
    } finally {
      await c.stop();
    }
    assert.equal(existsSync(c.kubeconfig), false, 'stop() removes the kubeconfig');
    await c.stop(); // a second stop does nothing
    await assert.rejects(c.advance('1s'), /advance: the cluster was stopped/);
  });

  it('models every release of the release table, the default one unless asked', async () => {
    const c = await startCluster({ kubernetes: `1.${SUPPORTED_MINORS[0]}`, nodes: ['a.example', 'b'] });
    try {
      assert.equal(c.kubernetes, `v1.${SUPPORTED_MINORS[0]}`);
    } finally {
      await c.stop();
    }
  });

  it('refuses bad options with one message naming what to write instead', async () => {
    await assert.rejects(
      startCluster({ kubernetes: '1.99' }),
      (e) =>
        e instanceof StartClusterError &&
        /^kubernetes: Kubernetes "1\.99" is not supported: the simulation models releases v1\.26 to v1\.\d+$/.test(
          e.message,
        ),
    );
    await assert.rejects(startCluster({ nodes: ['Node_1'] }), {
      message: /^nodes: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of/,
    });
    await assert.rejects(startCluster({ nodes: ['n', 'n'] }), { message: 'nodes: node "n" is listed twice' });
    await assert.rejects(startCluster({ nodes: 1.5 }), { message: /^nodes: 1\.5 is not a number of nodes/ });
    const c = await startCluster();
    try {
      await assert.rejects(c.advance('soon'), (e) => e instanceof StartClusterError && /^advance: /.test(e.message));
      await assert.rejects(c.advance(-1), { message: /^advance: -1 is not a duration/ });
    } finally {
      await c.stop();
    }
  });
});

// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { Node } from '../../apimachinery/types';
import { USER } from '../../cluster/cluster';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { kubeconfig } from '../serve/kubeconfig';
import { request, startServer, type TestServer } from './testing';

/**
 * R321 — `nodes/status` (pkg/registry/core/node: StatusREST): served with get, patch and update;
 * a write through it changes the status only, one through the node itself the spec only; a node
 * created with a status keeps it. In process, over HTTP, and with the real kubectl v1.36's
 * `--subresource=status`.
 */
describe('nodes/status (R321)', () => {
  let server: TestServer;
  before(async () => (server = await startServer([])));
  after(() => server.close());

  const node = () => {
    const got = server.cluster.apiserver.get('nodes', undefined, 'node-1');
    if (!got.ok) throw new Error(got.status.message);
    return got.object as Node;
  };
  const condition = (n: Node, type: string) => n.status?.conditions?.find((c) => c.type === type);

  it('discovery lists nodes/status with get, patch and update', async () => {
    const r = await request(server.base, 'GET', '/api/v1');
    const status = (r.json.resources as { name: string; verbs: string[] }[]).find((x) => x.name === 'nodes/status');
    expect(status?.verbs).to.deep.equal(['get', 'patch', 'update']);
  });

  it('GET nodes/status answers the node', async () => {
    const r = await request(server.base, 'GET', '/api/v1/nodes/node-1/status');
    expect(r.status, r.text).to.equal(200);
    expect(r.json.metadata.name).to.equal('node-1');
    expect(r.json.status.conditions.map((c: { type: string }) => c.type)).to.include('Ready');
  });

  it('a PATCH of nodes/status changes the status and leaves the spec as stored', async () => {
    const r = await request(server.base, 'PATCH', '/api/v1/nodes/node-1/status', {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: {
        spec: { unschedulable: true },
        status: { capacity: { 'example.com/widgets': '3' } },
      },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.status.capacity['example.com/widgets']).to.equal('3');
    expect(node().status?.capacity?.['example.com/widgets']).to.equal('3');
    expect(node().spec?.unschedulable, 'spec through status is reset').to.equal(undefined);
  });

  it('a PATCH of the node changes the spec and leaves the status as stored', async () => {
    const before = condition(node(), 'Ready');
    const r = await request(server.base, 'PATCH', '/api/v1/nodes/node-1', {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: {
        spec: { unschedulable: true },
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Patched' }] },
      },
    });
    expect(r.status, r.text).to.equal(200);
    expect(node().spec?.unschedulable).to.equal(true);
    expect(condition(node(), 'Ready'), 'status through the node is reset').to.deep.equal(before);
    server.cluster.apiserver.patch(USER, 'nodes', undefined, 'node-1', 'merge', { spec: { unschedulable: null } });
  });

  it('R346: a Node has no metadata.generation, registered or cordoned (node/strategy.go sets none)', async () => {
    expect(node().metadata.generation, 'as registered').to.equal(undefined);
    const r = await request(server.base, 'PATCH', '/api/v1/nodes/node-1', {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { spec: { unschedulable: true } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.metadata, 'after a spec change').to.not.have.property('generation');
    server.cluster.apiserver.patch(USER, 'nodes', undefined, 'node-1', 'merge', { spec: { unschedulable: null } });
  });

  it('a PUT of nodes/status with a changed spec keeps the stored spec', async () => {
    const current = node();
    const body = {
      ...current,
      spec: { ...current.spec, unschedulable: true },
      status: { ...current.status, capacity: { ...current.status?.capacity, 'example.com/gadgets': '1' } },
    };
    const r = await request(server.base, 'PUT', '/api/v1/nodes/node-1/status', { body });
    expect(r.status, r.text).to.equal(200);
    expect(node().status?.capacity?.['example.com/gadgets']).to.equal('1');
    expect(node().spec?.unschedulable).to.equal(undefined);
  });

  it('a node created with a status keeps it', () => {
    const r = server.cluster.apiserver.create(USER, 'nodes', undefined, {
      metadata: { name: 'node-9' },
      status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
    } as Node);
    expect(r.ok && r.object.status?.conditions?.[0]?.status).to.equal('Unknown');
    server.cluster.apiserver.delete(USER, 'nodes', undefined, 'node-9', {});
  });

  it('the real kubectl v1.36 patches a node status with --subresource=status', async () => {
    const home = mkdtempSync(join(tmpdir(), 'node-status-'));
    const config = join(home, 'kubeconfig');
    writeFileSync(config, kubeconfig(server.base));
    const binary = await realKubectlPath();
    const patch = JSON.stringify({
      spec: { unschedulable: true },
      status: { capacity: { 'example.com/things': '7' } },
    });
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        binary,
        ['patch', 'node', 'node-1', '--subresource=status', '--type=merge', '-p', patch],
        { env: { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: config }, timeout: 30_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    expect(stdout).to.equal('node/node-1 patched\n');
    expect(node().status?.capacity?.['example.com/things']).to.equal('7');
    expect(node().spec?.unschedulable).to.equal(undefined);
  });
});

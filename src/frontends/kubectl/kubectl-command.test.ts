// It spawns `terminating kubectl`: this file runs in a process of its own (scripts/unit-tests.ts).
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { kubeconfig } from '../serve/kubeconfig';
import { startServer, type TestServer } from '../server/testing';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'bin', 'terminating.js');

/** `node bin/terminating.js ARGS…` with this environment, in `cwd`; killed if it runs past the bound. */
function terminating(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

describe('terminating kubectl: the pinned kubectl against the served cluster', () => {
  let server: TestServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startServer(['web', 'api']);
    dir = mkdtempSync(path.join(tmpdir(), 'terminating-kubectl-command-'));
    writeFileSync(path.join(dir, 'kubeconfig'), kubeconfig(server.base));
    env = { KUBECONFIG: path.join(dir, 'kubeconfig'), HOME: dir };
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the arguments through and prints what kubectl prints', async () => {
    const got = await terminating(['kubectl', 'get', 'pods', '-o', 'name'], env);
    expect(got).to.deep.include({ code: 0, stdout: 'pod/api\npod/web\n' });
  });

  it("passes kubectl's exit code and errors through", async () => {
    const got = await terminating(['kubectl', 'get', 'pod', 'nope'], env);
    expect(got).to.deep.include({ code: 1, stderr: 'Error from server (NotFound): pods "nope" not found\n' });
  });

  it('deletes through the served API', async () => {
    const got = await terminating(['kubectl', 'delete', 'pod', 'api', '--wait=false'], env);
    expect(got).to.deep.include({ code: 0, stdout: 'pod "api" deleted from default namespace\n' });
    expect(
      server.cluster.apiserver.get('pods', 'default', 'api').ok &&
        server.cluster.apiserver.get('pods', 'default', 'api'),
    ).to.have.nested.property('object.metadata.deletionTimestamp');
  });

  it('without KUBECONFIG uses the one serve writes, and says so when there is none', async () => {
    const got = await terminating(['kubectl', 'get', 'pods'], { HOME: dir }, dir);
    expect(got).to.deep.include({
      code: 1,
      stderr:
        'terminating kubectl: no served cluster: reports/serve/kubeconfig does not exist; start one with `npx terminating serve` (or set KUBECONFIG)\n',
    });
  });
});

// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { ServedCluster } from './serve';
import { type ServedKubectl, serveWithRealKubectl } from './kubectl-testing';

/**
 * Secrets, ConfigMaps and ServiceAccounts with the real kubectl v1.36 against `terminating serve`:
 * `kubectl create secret generic` and `create configmap` go through client-go's typed client, whose
 * bodies are protobuf (R77); `get` prints the server's Table (printSecret, printConfigMap,
 * printServiceAccount); `describe` reads them back through the typed client, in protobuf;
 * `delete` removes them at once.
 */
let served: ServedCluster;
let run: ServedKubectl['run'];

before(async () => {
  ({ served, run } = await serveWithRealKubectl({ prefix: 'config-objects' }));
});
after(() => served.close());

describe('R90 R91 R92 Secrets, ConfigMaps and ServiceAccounts with the real kubectl v1.36', () => {
  it('create (protobuf bodies), get (Table columns), describe, delete', async () => {
    const created = await run(
      'create',
      'secret',
      'generic',
      'db',
      '--from-literal=user=admin',
      '--from-literal=password=s3cr3t',
    );
    expect(created, created.stderr).to.include({ code: 0, stdout: 'secret/db created\n' });
    expect((await run('create', 'configmap', 'settings', '--from-literal=mode=fast')).stdout).to.equal(
      'configmap/settings created\n',
    );
    expect((await run('create', 'serviceaccount', 'robot')).stdout).to.equal('serviceaccount/robot created\n');

    const secret = served.cluster.apiserver.get('secrets', 'default', 'db');
    expect(secret.ok && secret.object).to.deep.include({
      type: 'Opaque',
      data: { password: 'czNjcjN0', user: 'YWRtaW4=' },
    });
    expect(secret.ok && secret.object.metadata.generation).to.equal(undefined);

    const got = await run('get', 'secrets,configmaps,serviceaccounts', '--no-headers');
    const rows = got.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/).slice(0, -1));
    // The namespace's own ServiceAccount "default" (the serviceaccounts controller, R246) is listed too.
    expect(rows).to.deep.equal([
      ['secret/db', 'Opaque', '2'],
      ['configmap/settings', '1'],
      ['serviceaccount/default', '0'],
      ['serviceaccount/robot', '0'],
    ]);

    // One describe of both: kubectl prints each object's description in turn, a blank line
    // between (describe.go Run), each from its own typed client's answer.
    const described = await run('describe', 'secret/db', 'configmap/settings');
    const [secretDescribed, configMapDescribed, ...more] = described.stdout.split(/\n\n(?=Name:)/);
    expect(more, described.stdout).to.deep.equal([]);
    expect(secretDescribed).to.match(/^Name:\s+db$/m);
    expect(secretDescribed).to.match(/^Type:\s+Opaque$/m);
    expect(secretDescribed).to.match(/^password:\s+6 bytes$/m);
    expect(configMapDescribed).to.match(/^Name:\s+settings$/m);
    expect(configMapDescribed).to.match(/^mode:\n----\nfast\n/m);

    const deleted = await run('delete', 'secret/db', 'configmap/settings', 'serviceaccount/robot');
    expect(deleted.stdout).to.equal(
      // kubectl v1.34+ names the namespace (kubernetes#126619).
      'secret "db" deleted from default namespace\nconfigmap "settings" deleted from default namespace\nserviceaccount "robot" deleted from default namespace\n',
    );
    expect(served.cluster.apiserver.get('secrets', 'default', 'db')).to.include({ ok: false, code: 404 });
  });

  it('R77 R93 create namespace (a protobuf body), then describe it (a protobuf answer): Active, with its name label', async () => {
    expect((await run('create', 'namespace', 'team-a')).stdout).to.equal('namespace/team-a created\n');
    const described = await run('describe', 'namespace', 'team-a');
    expect(described.stdout).to.match(/^Labels:\s+kubernetes.io\/metadata.name=team-a$/m);
    expect(described.stdout).to.match(/^Status:\s+Active$/m);
  });

  it('R96 R97 auth can-i (a protobuf SelfSubjectAccessReview) says yes, auth whoami names the user, logs says why there are none', async () => {
    expect(await run('auth', 'can-i', 'delete', 'pods')).to.include({ code: 0, stdout: 'yes\n' });
    expect((await run('auth', 'whoami')).stdout).to.match(/^Username\s+terminating$/m);
    const logs = await run('logs', 'web');
    expect(logs.code).to.equal(1);
    expect(logs.stderr).to.equal(
      'Error from server (BadRequest): container "app" in pod "web" has no logs: the simulated containers run no processes (terminating models their lifecycle only)\n',
    );
  });
});

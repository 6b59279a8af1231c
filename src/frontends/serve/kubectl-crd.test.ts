// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * A CustomResourceDefinition's lifecycle with the real kubectl v1.36 against `terminating serve`:
 * `apply -f` of the CRD (its resources are in discovery once it is Established), create, get (the
 * Table with its printer columns), a merge patch and `delete` of a custom resource held by a
 * finalizer until a patch removes it, a server-side apply and a delete that waits on a watch, and
 * `explain` reading the CRD's schema from OpenAPI v3.
 */
let served: ServedCluster;
let env: NodeJS.ProcessEnv;
let kubectl: string;
let dir: string;
before(async () => {
  served = await serve({ port: 0, clock: parseClockMode('jump'), reportDir: mkdtempSync(join(tmpdir(), 'crd-test-')) });
  kubectl = await realKubectlPath();
  dir = mkdtempSync(join(tmpdir(), 'crd-home-'));
  env = { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: served.kubeconfig };
});
after(() => served.close());

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('A6 CustomResourceDefinitions with the real kubectl v1.36', () => {
  it('A6 apply the CRD; create, get, patch and delete a custom resource held by a finalizer; explain its schema', async () => {
    const applied = await run(
      'apply',
      '-f',
      join(__dirname, '..', '..', '..', 'features', 'custom-resources', 'database-crd.yaml'),
    );
    expect(applied, applied.stderr).to.include({
      code: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/databases.example.com created\n',
    });
    // Its status, read from the apiserver (a kubectl get of it would cost a kubectl start-up).
    const crd = served.cluster.apiserver.get('customresourcedefinitions', undefined, 'databases.example.com');
    expect(crd.ok && crd.object.status?.conditions?.find((c) => c.type === 'Established')?.status).to.equal('True');

    const manifest = join(dir, 'orders.yaml');
    writeFileSync(
      manifest,
      'apiVersion: example.com/v1\nkind: Database\nmetadata:\n  name: orders\n  finalizers: [example.com/backup]\nspec:\n  engine: postgres\n  replicas: 2\n',
    );
    const created = await run('create', '-f', manifest);
    expect(created, created.stderr).to.include({ code: 0, stdout: 'database.example.com/orders created\n' });

    const got = await run('get', 'databases');
    expect(got, got.stderr).to.include({ code: 0 });
    expect(got.stdout.split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'ENGINE', 'REPLICAS']);
    expect(got.stdout.split('\n')[1].split(/\s+/)).to.deep.equal(['orders', 'postgres', '2']);

    const patched = await run('patch', 'db', 'orders', '--type=merge', '-p', '{"spec":{"replicas":3}}');
    expect(patched, patched.stderr).to.include({ code: 0, stdout: 'database.example.com/orders patched\n' });
    const strategic = await run('patch', 'db', 'orders', '-p', '{"spec":{"replicas":4}}');
    expect(strategic.code).to.equal(1);
    expect(strategic.stderr).to.include(
      'application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Database: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );

    const deleting = await run('delete', 'database', 'orders', '--wait=false');
    // kubectl v1.34+ names the namespace (kubernetes#126619).
    expect(deleting.stdout).to.equal('database.example.com "orders" deleted from default namespace\n');
    const held = served.cluster.apiserver.get('databases.example.com', 'default', 'orders');
    expect(held.ok && held.object.metadata.deletionTimestamp).to.be.a('string');
    expect(held.ok && (held.object as { spec?: { replicas?: number } }).spec?.replicas).to.equal(3);
    const released = await run('patch', 'database', 'orders', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    expect(released, released.stderr).to.include({ code: 0 });
    expect(served.cluster.apiserver.get('databases.example.com', 'default', 'orders').code).to.equal(404);

    // Server-side apply creates one (its manager recorded), and a delete without a finalizer waits on a watch until it is gone.
    const reports = join(dir, 'reports.yaml');
    writeFileSync(
      reports,
      'apiVersion: example.com/v1\nkind: Database\nmetadata:\n  name: reports\nspec:\n  engine: mysql\n',
    );
    const ssa = await run('apply', '--server-side', '-f', reports);
    expect(ssa, ssa.stderr).to.include({ code: 0, stdout: 'database.example.com/reports serverside-applied\n' });
    const stored = served.cluster.apiserver.get('databases.example.com', 'default', 'reports');
    expect(stored.ok && stored.object.metadata.managedFields?.map((m) => `${m.manager} ${m.operation}`)).to.deep.equal([
      'kubectl Apply',
    ]);
    const waited = await run('delete', 'db', 'reports');
    expect(waited, waited.stderr).to.include({
      code: 0,
      stdout: 'database.example.com "reports" deleted from default namespace\n',
    });

    const explained = await run('explain', 'database.spec');
    expect(explained, explained.stderr).to.include({ code: 0 });
    expect(explained.stdout).to.match(/^KIND:\s+Database$/m);
    expect(explained.stdout).to.match(/^GROUP:\s+example.com$/m);
    expect(explained.stdout).to.include('What the database should be.');
    expect(explained.stdout).to.match(/engine\s+<string>\n\s+The database engine, postgres or mysql./);
  });
});

describe('A8 CEL validation rules of a CRD with the real kubectl v1.36 (R314 at CRD time, R315 on the custom resource, R316 ratcheting)', () => {
  it('A8 a rule that does not compile refuses the CRD; `kubectl apply` of a custom resource breaking a rule gets its message', async () => {
    const crd = (rule: string, replicasRules = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "${rule}"
              message: replicas must not exceed maxReplicas
            properties:
              replicas: {type: integer${replicasRules}}
              maxReplicas: {type: integer}
`;
    const file = join(dir, 'pools-crd.yaml');
    writeFileSync(file, crd('self.replicas <= self.maxReplica'));
    const refused = await run('apply', '-f', file);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include(
      'The CustomResourceDefinition "pools.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas <= self.maxReplica", Message:"replicas must not exceed maxReplicas"',
    );
    expect(refused.stderr).to.include("compilation failed: ERROR: <input>:1:23: undefined field 'maxReplica'");
    writeFileSync(file, crd('self.replicas <= self.maxReplicas'));
    const applied = await run('apply', '-f', file);
    expect(applied, applied.stderr).to.include({ code: 0 });

    const pool = join(dir, 'pool.yaml');
    writeFileSync(
      pool,
      'apiVersion: example.com/v1\nkind: Pool\nmetadata:\n  name: web\nspec:\n  replicas: 5\n  maxReplicas: 3\n',
    );
    const violating = await run('apply', '-f', pool);
    expect(violating.code).to.equal(1);
    expect(violating.stderr).to.equal(
      'The Pool "web" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas\n',
    );
    writeFileSync(
      pool,
      'apiVersion: example.com/v1\nkind: Pool\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  maxReplicas: 3\n',
    );
    const created = await run('apply', '-f', pool);
    expect(created, created.stderr).to.include({ code: 0, stdout: 'pool.example.com/web created\n' });

    // A stricter rule on replicas: an update that leaves replicas as it was ratchets it, with a warning (R316).
    writeFileSync(
      file,
      crd(
        'self.replicas <= self.maxReplicas',
        ', x-kubernetes-validations: [{rule: "self <= 1", message: at most one replica}]',
      ),
    );
    const tightened = await run('apply', '-f', file);
    expect(tightened, tightened.stderr).to.include({ code: 0 });
    const labelled = await run('label', 'pool', 'web', 'team=a');
    expect(labelled, labelled.stderr).to.include({
      code: 0,
      stdout: 'pool.example.com/web labeled\n',
      stderr: 'Warning: spec.replicas: Invalid value: "integer": at most one replica\n',
    });
  });
});

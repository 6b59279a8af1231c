// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { ManagedFieldsEntry } from 'kubernetes-types/meta/v1';
import { realKubectlPath } from '../kubectl/real-kubectl';
import type { Pod } from '../../apimachinery/types';
import { parseClockMode } from './clock-driver';
import { runBinary, type BinaryRun } from './run-binary';
import { serve, type ServedCluster } from './serve';

/**
 * Server-side apply, OpenAPI and field validation with the real kubectl v1.36 against `terminating
 * serve`: `kubectl explain` reads the OpenAPI v3 schemas; `kubectl apply --server-side` creates and
 * re-applies, a second manager conflicts (409 in upstream's words, which kubectl prints with its
 * advice) until it forces; client-side apply leaves an Update manager a server-side applier
 * conflicts with; `kubectl create` sends fieldValidation=Strict and is refused an unknown field,
 * `--validate=warn` prints the server's warnings.
 */
let served: ServedCluster;
let kubectlPath: string;
let home: string;
before(async () => {
  served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'apply-test-')),
  });
  kubectlPath = await realKubectlPath();
  home = mkdtempSync(join(tmpdir(), 'apply-home-'));
});
after(() => served.close());

function kubectl(args: string[], stdin = ''): Promise<BinaryRun> {
  return runBinary(
    kubectlPath,
    args,
    { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: served.kubeconfig },
    stdin,
    30_000,
  );
}

const manifest = (name: string, image: string, extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {app: ${name}}\nspec:\n  nodeName: node-1\n  containers:\n  - name: app\n    image: ${image}\n${extra}`;

function stored(name: string): Pod {
  const r = served.cluster.apiserver.get('pods', 'default', name);
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
}

const managers = (p: Pod) =>
  (p.metadata.managedFields ?? []).map(
    (e: ManagedFieldsEntry) => `${e.manager} ${e.operation}${e.subresource ? ` ${e.subresource}` : ''}`,
  );

describe('R110–R113 — kubectl explain, apply --server-side and field validation (real kubectl v1.36 against serve)', () => {
  it('R110 — explain pod.spec.terminationGracePeriodSeconds prints the field from the OpenAPI v3 schema', async () => {
    const r = await kubectl(['explain', 'pod.spec.terminationGracePeriodSeconds']);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(/^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: terminationGracePeriodSeconds <integer>\n/);
    expect(r.stdout).to.include('Defaults to 30 seconds.');
  });

  it('R110, R111 — the admission kinds have their schemas: explain validatingadmissionpolicy.spec.validations, and create refuses an unknown field of a binding', async () => {
    const r = await kubectl(['explain', 'validatingadmissionpolicy.spec.validations']);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(
      /^GROUP:\s+admissionregistration.k8s.io\nKIND:\s+ValidatingAdmissionPolicy\nVERSION:\s+v1\n\nFIELD: validations <\[\]Validation>\n/,
    );
    expect(r.stdout)
      .to.match(/\n {2}expression\t<string> -required-\n/)
      .and.match(/\n {2}messageExpression\t<string>\n/);
    const binding =
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  policyName: p\n  validationAction: [Deny]\n';
    const refused = await kubectl(['create', '-f', '-'], binding);
    expect(refused.stderr).to.equal(
      'Error from server (BadRequest): error when creating "STDIN": ValidatingAdmissionPolicyBinding in version "v1" cannot be handled as a ValidatingAdmissionPolicyBinding: strict decoding error: unknown field "spec.validationAction"\n',
    );
  });

  it('R112, R113 — apply --server-side creates, re-applies without a write, conflicts for another manager, and --force-conflicts takes the field', async () => {
    expect((await kubectl(['apply', '--server-side', '-f', '-'], manifest('ssa', 'nginx:1'))).stdout).to.equal(
      'pod/ssa serverside-applied\n',
    );
    const created = stored('ssa');
    expect(managers(created)).to.deep.equal(['kubectl Apply', 'kubelet Update status']);
    expect(created.metadata.managedFields![0].fieldsV1).to.deep.equal({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } }, 'f:nodeName': {} },
    });
    await kubectl(['apply', '--server-side', '-f', '-'], manifest('ssa', 'nginx:1'));
    expect(stored('ssa').metadata.resourceVersion, 'an apply that changes nothing writes nothing').to.equal(
      created.metadata.resourceVersion,
    );

    const conflict = await kubectl(
      ['apply', '--server-side', '--field-manager=other', '-f', '-'],
      manifest('ssa', 'nginx:2'),
    );
    expect(conflict.code).to.equal(1);
    expect(conflict.stderr.split('\n')[0]).to.equal(
      'error: Apply failed with 1 conflict: conflict with "kubectl": .spec.containers[name="app"].image',
    );
    expect(conflict.stderr).to.include('--force-conflicts');

    expect(
      (
        await kubectl(
          ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'],
          manifest('ssa', 'nginx:2'),
        )
      ).code,
    ).to.equal(0);
    const forced = stored('ssa');
    expect(forced.spec!.containers[0].image).to.equal('nginx:2');
    expect(managers(forced)).to.deep.equal(['kubectl Apply', 'other Apply', 'kubelet Update status']);
    expect(JSON.stringify(forced.metadata.managedFields![0].fieldsV1)).not.to.include('f:image');
  });

  it('R113 — client-side apply records kubectl-client-side-apply (Update), which a server-side applier of another value conflicts with, unless it is kubectl taking over its own last-applied fields', async () => {
    expect((await kubectl(['apply', '-f', '-'], manifest('csa', 'busybox:1'))).stdout).to.equal('pod/csa created\n');
    const r = await kubectl(
      ['apply', '--server-side', '--field-manager=mine', '-f', '-'],
      manifest('csa', 'busybox:2'),
    );
    expect(r.stderr.split('\n')[0]).to.equal(
      'error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.containers[name="app"].image',
    );
    // As `kubectl` itself, the fields of the last-applied annotation the object still holds are its to take.
    expect((await kubectl(['apply', '--server-side', '-f', '-'], manifest('csa', 'busybox:2'))).stdout).to.equal(
      'pod/csa serverside-applied\n',
    );
    const upgraded = stored('csa');
    expect(upgraded.spec!.containers[0].image).to.equal('busybox:2');
    expect(
      JSON.parse(upgraded.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']).spec.containers[0]
        .image,
    ).to.equal('busybox:2');
  });

  it('R111 — create sends fieldValidation=Strict: an unknown field is refused; --validate=warn creates and prints the warnings', async () => {
    const bad = manifest('unk', 'nginx', '    bogus: 1\n');
    const strict = await kubectl(['create', '-f', '-'], bad);
    expect(strict.stderr).to.equal(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"\n',
    );
    const warn = await kubectl(['create', '--validate=warn', '-f', '-'], bad);
    expect([warn.stdout, warn.stderr]).to.deep.equal([
      'pod/unk created\n',
      'Warning: unknown field "spec.containers[0].bogus"\n',
    ]);
    expect(stored('unk').spec!.containers[0]).not.to.have.property('bogus');
  });
});

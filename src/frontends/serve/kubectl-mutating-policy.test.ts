// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { type ServedKubectl, serveWithRealKubectl } from './kubectl-testing';
import type { ServedCluster } from './serve';

/**
 * R317 with the real kubectl v1.36 against `terminating serve --kubernetes 1.36`: `apply -f` of a
 * MutatingAdmissionPolicy and its binding (kubectl finds them in discovery), `get` lists them, and
 * a pod created afterwards (`kubectl run`) is stored mutated; a mutation that cannot apply fails
 * the create with the policy's message. On 1.35 the resource is not in discovery and kubectl says so.
 */
/** A MutatingAdmissionPolicy on pod CREATEs, `rest` of its spec after matchConstraints, and its binding, as YAML. */
const policyYaml = (name: string, rest: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: ${name}
spec:
  matchConstraints:
    resourceRules:
    - operations: [CREATE]
      apiGroups: [""]
      apiVersions: [v1]
      resources: [pods]
${rest}---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: ${name}
`;

const POLICY = policyYaml(
  'hold-pods',
  `  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/metadata/finalizers", value: ["example.com/hold"]}]'
`,
);

/** A policy whose ApplyConfiguration sets an atomic list (a container's args): refused when applied. */
const ATOMIC = policyYaml(
  'set-args',
  `  matchConditions:
  - name: only-batch
    expression: 'object.metadata.name.startsWith("batch")'
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{containers: [Object.spec.containers{name: object.spec.containers[0].name, args: ["x"]}]}}'
`,
);

let dir: string;
const servers: ServedCluster[] = [];
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'map-home-'));
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  writeFileSync(join(dir, 'atomic.yaml'), ATOMIC);
});
after(() => Promise.all(servers.map((s) => s.close())));

/** A served cluster of that release, in jump mode, and the real kubectl v1.36 for it. */
async function start(minor: number): Promise<ServedKubectl['run']> {
  const { served, run } = await serveWithRealKubectl({
    prefix: 'map-test',
    clock: 'jump',
    release: Release.of(minor),
    kubectlMinor: 36,
  });
  servers.push(served);
  return run;
}

describe('R317 MutatingAdmissionPolicy with the real kubectl v1.36', () => {
  it('1.36: apply -f creates the policy and its binding; get lists them', async () => {
    const run = await start(36);
    const applied = await run('apply', '-f', join(dir, 'policy.yaml'));
    expect(applied, applied.stderr).to.include({
      code: 0,
      stdout:
        'mutatingadmissionpolicy.admissionregistration.k8s.io/hold-pods created\n' +
        'mutatingadmissionpolicybinding.admissionregistration.k8s.io/hold-pods created\n',
    });
    // One get of both kinds: kubectl prints each kind's Table in turn, a blank line between,
    // every name qualified by its kind (what `-o name` prints), each table with its own columns.
    const got = await run('get', 'mutatingadmissionpolicies,mutatingadmissionpolicybindings');
    expect(got.code, got.stderr).to.equal(0);
    const [policies, bindings, ...more] = got.stdout.split('\n\n');
    expect(more, got.stdout).to.deep.equal([]);
    expect(policies).to.match(
      /^NAME\s+MUTATIONS\s+PARAMKIND\s+AGE\nmutatingadmissionpolicy\.admissionregistration\.k8s\.io\/hold-pods\s+1\s+<unset>\s+\S+$/,
    );
    expect(bindings).to.match(
      /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nmutatingadmissionpolicybinding\.admissionregistration\.k8s\.io\/hold-pods\s+hold-pods\s+<unset>\s+\S+\n$/,
    );
  });

  it('1.36: a pod created after the policy is stored with its finalizer; a mutation that cannot apply fails the create', async () => {
    const run = await start(36);
    const served = servers.at(-1)!;
    const applied = await run('apply', '-f', join(dir, 'policy.yaml'), '-f', join(dir, 'atomic.yaml'));
    expect(applied.code, applied.stderr).to.equal(0);
    const created = await run('run', 'guarded', '--image=nginx');
    expect(created, created.stderr).to.include({ code: 0, stdout: 'pod/guarded created\n' });
    // What was stored, read from the apiserver (a kubectl get of it would cost a kubectl start-up).
    const guarded = served.cluster.apiserver.get('pods', 'default', 'guarded');
    expect(guarded.ok && guarded.object.metadata.finalizers).to.deep.equal(['example.com/hold']);
    const refused = await run('run', 'batch-1', '--image=busybox');
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.equal(
      "The pods \"batch-1\" is invalid: : policy 'set-args' with binding 'set-args' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.containers[0].args\n",
    );
  });

  it('1.35: the kind is not served, kubectl apply fails finding it', async () => {
    const run = await start(35);
    const applied = await run('apply', '-f', join(dir, 'policy.yaml'));
    expect(applied.code).to.not.equal(0);
    expect(applied.stderr).to.contain('no matches for kind "MutatingAdmissionPolicy"');
  });
});

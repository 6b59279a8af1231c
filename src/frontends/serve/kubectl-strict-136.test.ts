// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { ServedCluster } from './serve';
import { type KubectlResult, type ServedKubectl, serveWithRealKubectl } from './kubectl-testing';
import { Release } from '../../foundation/release';

/**
 * R110/R240 for the kinds served only from v1.36 (kubectl-strict.test.ts holds the rest against a
 * v1.33 server, which does not serve these): MutatingAdmissionPolicy and its binding
 * (admissionregistration.k8s.io/v1, R317), whose schemas are built from k8s.io/api v0.36 types.go
 * (schemas.ts). The real kubectl v1.36 against `serve --kubernetes 1.36`: a typo deep in either is
 * refused by strict decoding and nothing is stored; `kubectl explain` describes both.
 */
let served: ServedCluster;
let run: ServedKubectl['run'];
let dir: string;

before(async () => {
  ({ served, run, dir } = await serveWithRealKubectl({
    prefix: 'strict136',
    release: Release.parse('v1.36'),
    kubectlMinor: 36,
  }));
});
after(() => served.close());

const MATCH = {
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
};

/** A manifest per kind with one misspelt field at depth, and the path the server names. */
const TYPOS = [
  {
    kind: 'MutatingAdmissionPolicy',
    spec: {
      matchConstraints: MATCH,
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expresion: '[]' } }],
    },
    field: 'spec.mutations[0].jsonPatch.expresion',
  },
  {
    kind: 'MutatingAdmissionPolicyBinding',
    spec: { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny', namespce: 'default' } },
    field: 'spec.paramRef.namespce',
  },
];

describe('R240 a typo in a kind served from v1.36 is refused by the real kubectl v1.36 against serve', () => {
  // Both typo files in ONE `kubectl apply -f DIR` and ONE `get`, as kubectl-strict.test.ts does:
  // a refused decoding is printed on a line of its own naming its file, alone or among others.
  let applied: KubectlResult;
  let got: KubectlResult;
  before(async () => {
    const typos = join(dir, 'typos');
    mkdirSync(typos);
    for (const t of TYPOS)
      writeFileSync(
        join(typos, `${t.kind}.json`),
        JSON.stringify({
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: t.kind,
          metadata: { name: 'typo' },
          spec: t.spec,
        }),
      );
    applied = await run('apply', '-f', typos);
    got = await run('get', ...TYPOS.map((t) => `${t.kind.toLowerCase()}/typo`), '--ignore-not-found', '-o', 'name');
  });

  for (const t of TYPOS) {
    it(`${t.kind}: unknown field "${t.field}"`, () => {
      expect(applied.code, applied.stdout).to.not.equal(0);
      expect(applied.stderr.split('\n')).to.include(
        `Error from server (BadRequest): error when creating "${join(dir, 'typos', `${t.kind}.json`)}": ` +
          `${t.kind} in version "v1" cannot be handled as a ${t.kind}: strict decoding error: unknown field "${t.field}"`,
      );
      expect(got.stdout, `${t.kind} "typo" must not be stored`).to.equal('');
      expect(got.stderr, 'both kinds are found').to.equal('');
    });
  }

  it('the same manifests without the typo are stored', async () => {
    const file = join(dir, 'valid.json');
    const items = [
      {
        kind: 'MutatingAdmissionPolicy',
        spec: {
          ...TYPOS[0].spec,
          mutations: [
            {
              patchType: 'JSONPatch',
              jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "y"}]' },
            },
          ],
        },
      },
      { kind: 'MutatingAdmissionPolicyBinding', spec: { policyName: 'ok' } },
    ].map((i) => ({ apiVersion: 'admissionregistration.k8s.io/v1', metadata: { name: 'ok' }, ...i }));
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const applied = await run('apply', '-f', file);
    expect(applied, applied.stderr).to.include({ code: 0 });
    expect(applied.stdout).to.include('mutatingadmissionpolicy.admissionregistration.k8s.io/ok created');
    expect(applied.stdout).to.include('mutatingadmissionpolicybinding.admissionregistration.k8s.io/ok created');
  });
});

describe('R110 kubectl explain describes the kinds served from v1.36', () => {
  for (const kind of ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']) {
    it(`explain ${kind}`, async () => {
      const explained = await run('explain', kind);
      expect(explained, explained.stderr).to.include({ code: 0 });
      expect(explained.stdout).to.match(/^DESCRIPTION:\n\s+MutatingAdmissionPolicy/m);
      expect(explained.stdout).to.match(/^ {2}metadata\t<ObjectMeta>\n\s+metadata is the standard object metadata/m);
      expect(explained.stdout).to.match(/^ {2}spec\t<MutatingAdmissionPolicy(Binding)?Spec>\n\s+\S/m);
    });
  }

  it('explain mutatingadmissionpolicies.spec.mutations describes the field and its own fields', async () => {
    const explained = await run('explain', 'mutatingadmissionpolicies.spec.mutations');
    expect(explained, explained.stderr).to.include({ code: 0 });
    expect(explained.stdout).to.include('FIELD: mutations <[]Mutation>');
    expect(explained.stdout).to.match(
      /^ {2}patchType\t<string> -required-\n\s+patchType indicates the patch strategy/m,
    );
    expect(explained.stdout).to.match(/^ {2}jsonPatch\t<JSONPatch>/m);
  });
});

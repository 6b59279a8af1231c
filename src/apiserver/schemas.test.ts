import { describe, it } from 'node:test';
import { expect } from 'chai';
import { definitionName } from './schemas';
import { definitionsForRelease } from './strict-decoding';
import { newSim, ok, USER } from './testing';
import type { ValidatingWebhookConfiguration } from '../apimachinery/types';

const webhook = (name: string) => ({
  name,
  clientConfig: { url: `https://${name}/validate` },
  rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
const configuration = (...hooks: string[]) =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'checks' },
    webhooks: hooks.map(webhook),
  }) as unknown as ValidatingWebhookConfiguration;

describe('R110 — the schemas of the admission kinds and of the CRD kind (schemas.ts)', () => {
  it('their models are named by their packages: admissionregistration/v1 and apiextensions-apiserver v1, each with its own ServiceReference', () => {
    expect(
      [
        'V1ValidatingAdmissionPolicy',
        'AdmissionregistrationV1ServiceReference',
        'V1MatchResources',
        'V1CustomResourceDefinition',
        'ApiextensionsV1ServiceReference',
        'V1JSONSchemaProps',
      ].map(definitionName),
    ).to.deep.equal([
      'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy',
      'io.k8s.api.admissionregistration.v1.ServiceReference',
      'io.k8s.api.admissionregistration.v1.MatchResources',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
    ]);
  });

  it("server-side apply merges a configuration's webhooks by name (+listType=map, +listMapKey=name): two managers each own one", () => {
    const { api } = newSim();
    api.trackManagedFields();
    ok(
      api.apply(USER, 'validatingwebhookconfigurations', undefined, 'checks', configuration('a.example.com'), {
        fieldManager: 'team-a',
      }),
    );
    const both = ok(
      api.apply(USER, 'validatingwebhookconfigurations', undefined, 'checks', configuration('b.example.com'), {
        fieldManager: 'team-b',
      }),
    );
    expect(both.webhooks!.map((h) => h.name)).to.deep.equal(['a.example.com', 'b.example.com']);
    const stored = ok(api.get('validatingwebhookconfigurations', undefined, 'checks'));
    const owned = (manager: string) =>
      Object.keys(
        (
          stored.metadata.managedFields!.find((e) => e.manager === manager)!.fieldsV1 as Record<
            string,
            Record<string, unknown>
          >
        )['f:webhooks'],
      );
    expect([owned('team-a'), owned('team-b')]).to.deep.equal([
      ['k:{"name":"a.example.com"}'],
      ['k:{"name":"b.example.com"}'],
    ]);
  });

  // MutatingAdmissionPolicy (v1 from 1.36) is newer than the client-node models (v1.34): its
  // definitions come from k8s.io/api v0.36 admissionregistration/v1 types.go (types-by-release.json).
  it('MutatingAdmissionPolicy and its binding: built from types.go, with descriptions, metadata and markers, in 1.36 only', () => {
    const defs = definitionsForRelease(36);
    const def = (name: string) => defs[`io.k8s.api.admissionregistration.v1.${name}`];
    for (const kind of ['MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']) {
      expect(def(kind).description).to.match(new RegExp(`^${kind} `));
      expect(Object.keys(def(kind).properties!)).to.deep.equal(['apiVersion', 'kind', 'metadata', 'spec']);
      expect(def(kind).properties!.metadata.$ref).to.equal(
        '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      );
      expect(def(kind).properties!.metadata.description).to.match(/^metadata is the standard object metadata/);
      expect(def(kind)['x-kubernetes-group-version-kind']).to.deep.equal([
        { group: 'admissionregistration.k8s.io', version: 'v1', kind },
      ]);
    }
    const spec = def('MutatingAdmissionPolicySpec').properties!;
    expect(spec.matchConditions).to.include({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    });
    expect(spec.mutations).to.include({ 'x-kubernetes-list-type': 'atomic' });
    expect(spec.matchConstraints.$ref).to.equal('#/definitions/io.k8s.api.admissionregistration.v1.MatchResources');
    expect(def('Mutation').required).to.deep.equal(['patchType']);
    expect(def('Mutation').description).to.match(/^Mutation specifies the CEL expression/);
    // Not served before 1.36: its spec is not a field there.
    expect(
      Object.keys(definitionsForRelease(35)['io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy'].properties!),
    ).to.not.include('spec');
  });
});

import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../../apimachinery/errors';
import { DEFAULT_RELEASE } from '../../foundation/release';
import { fieldValidationOf, unknownFields } from './field-validation';
import { openApiDocument } from './openapi';
import { findResource } from '../../apiserver/resources';
import { request, startServer, type TestServer } from './testing';
import { Cluster, USER } from '../../cluster/cluster';
import { databaseCRD } from '../../apiserver/apiextensions/testing';

type Doc = {
  components: {
    schemas: Record<
      string,
      { 'x-kubernetes-group-version-kind'?: unknown[]; properties?: Record<string, { allOf?: { $ref: string }[] }> }
    >;
  };
};

describe("R110 — OpenAPI documents with the served kinds' schemas (openapi.ts, schemas.ts)", () => {
  it('v3 api/v1 carries Pod with its group-version-kind, references wrapped in allOf, and what it uses', () => {
    const doc = openApiDocument('/openapi/v3/api/v1', DEFAULT_RELEASE) as Doc;
    const pod = doc.components.schemas['io.k8s.api.core.v1.Pod'];
    expect(pod['x-kubernetes-group-version-kind']).to.deep.equal([{ group: '', version: 'v1', kind: 'Pod' }]);
    expect(pod.properties!.spec.allOf).to.deep.equal([{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }]);
    expect(doc.components.schemas).to.have.property('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(doc.components.schemas).not.to.have.property('io.k8s.api.apps.v1.ReplicaSet');
  });

  it('v2 has every served definition with the list markers the Go types carry', () => {
    const doc = openApiDocument('/openapi/v2', DEFAULT_RELEASE) as {
      swagger: string;
      definitions: Record<string, { properties: Record<string, Record<string, unknown>> }>;
    };
    expect(doc.swagger).to.equal('2.0');
    expect(doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers).to.deep.include({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(Object.keys(doc.definitions)).to.include.members([
      'io.k8s.api.apps.v1.ReplicaSet',
      'io.k8s.api.coordination.v1.Lease',
      'io.k8s.api.events.v1.Event',
    ]);
  });

  it("v2 carries a served CRD version's schema in v2's form: no junctors or defaults, nullable and unknown-preserving nodes untyped, a nullable field no longer required", () => {
    const c = new Cluster({});
    c.apiserver.ensureSystemNamespaces();
    const crd = databaseCRD();
    const schema = crd.spec.versions[0].schema!.openAPIV3Schema as { properties: { spec: Record<string, unknown> } };
    schema.properties.spec = {
      type: 'object',
      required: ['engine', 'owner'],
      properties: {
        engine: { type: 'string', default: 'postgres', anyOf: [{ pattern: '^p' }, { pattern: '^m' }] },
        owner: { type: 'string', nullable: true },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
      },
    };
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, crd);
    c.flush();
    const doc = openApiDocument('/openapi/v2', DEFAULT_RELEASE, c.apiserver) as {
      paths: Record<string, unknown>;
      definitions: Record<string, { properties: Record<string, unknown>; 'x-kubernetes-group-version-kind': unknown }>;
    };
    const db = doc.definitions['com.example.v1.Database'];
    expect(db['x-kubernetes-group-version-kind']).to.deep.equal([
      { group: 'example.com', version: 'v1', kind: 'Database' },
    ]);
    expect(db.properties.metadata).to.deep.include({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    });
    expect(db.properties.spec).to.deep.equal({
      type: 'object',
      required: ['engine'],
      properties: { engine: { type: 'string' }, owner: {}, extra: { 'x-kubernetes-preserve-unknown-fields': true } },
    });
    expect(doc.paths).to.have.property('/apis/example.com/v1/namespaces/{namespace}/databases/{name}');
  });

  it("the admission kinds and the CRD kind have their schemas, with their Go types' list markers; a CRD schema's JSON-valued fields take any value", () => {
    const admission = openApiDocument('/openapi/v3/apis/admissionregistration.k8s.io/v1', DEFAULT_RELEASE) as Doc;
    const policy = admission.components.schemas['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy'];
    expect(policy['x-kubernetes-group-version-kind']).to.deep.equal([
      { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy' },
    ]);
    const v2 = openApiDocument('/openapi/v2', DEFAULT_RELEASE) as {
      definitions: Record<
        string,
        { properties: Record<string, Record<string, unknown>>; 'x-kubernetes-map-type'?: string }
      >;
    };
    const def = (name: string) => v2.definitions[`io.k8s.api.admissionregistration.v1.${name}`];
    expect(def('ValidatingWebhookConfiguration').properties.webhooks).to.deep.include({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(def('ValidatingAdmissionPolicyBindingSpec').properties.validationActions).to.deep.include({
      'x-kubernetes-list-type': 'set',
    });
    expect(def('MatchResources')['x-kubernetes-map-type']).to.equal('atomic');
    expect(
      v2.definitions['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec'].properties
        .versions,
    ).to.deep.include({ 'x-kubernetes-list-type': 'atomic' });

    const crds = findResource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
    const schema = {
      type: 'object',
      default: { any: ['thing'] },
      enum: [{ a: 1 }, 'b'],
      properties: { size: { type: 'integer', maximum: 3, bogus: true } },
    };
    expect(
      unknownFields(crds, { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }], nope: 1 } }),
    ).to.deep.equal(['spec.versions[0].schema.openAPIV3Schema.properties.size.bogus', 'spec.nope']);
    const bindings = findResource('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings')!;
    expect(unknownFields(bindings, { spec: { policyName: 'p', validationAction: ['Deny'] } })).to.deep.equal([
      'spec.validationAction',
    ]);
  });
});

describe('R323 — the PATCH operations of OpenAPI v3 list their patch types (openapi.ts)', () => {
  type Ops = {
    paths: Record<string, { patch?: { requestBody?: { content: Record<string, unknown>; required: boolean } } }>;
  };
  const patchTypes = (doc: Ops, path: string) => Object.keys(doc.paths[path].patch?.requestBody?.content ?? {}).sort();
  const ALL = [
    'application/apply-patch+yaml',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
  ];

  it('R323 a built-in kind and its subresources take strategic merge patches; v2 has no requestBody', () => {
    const doc = openApiDocument('/openapi/v3/apis/apps/v1', DEFAULT_RELEASE) as Ops & Doc;
    expect(patchTypes(doc, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}')).to.deep.equal(ALL);
    expect(patchTypes(doc, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status')).to.deep.equal(ALL);
    expect(patchTypes(doc, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale')).to.deep.equal(ALL);
    const body = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch?.requestBody;
    expect(body).to.deep.include({ required: true });
    expect(body?.content['application/merge-patch+json']).to.deep.equal({
      schema: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
    expect(doc.components.schemas).to.have.property('io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    const v2 = openApiDocument('/openapi/v2', DEFAULT_RELEASE) as Ops;
    expect(v2.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch).to.not.have.property(
      'requestBody',
    );
  });

  it('R323 a custom resource takes every patch type but the strategic merge patch', () => {
    const c = new Cluster();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.flush();
    const doc = openApiDocument('/openapi/v3/apis/example.com/v1', DEFAULT_RELEASE, c.apiserver) as Ops & Doc;
    expect(patchTypes(doc, '/apis/example.com/v1/namespaces/{namespace}/databases/{name}')).to.deep.equal(
      ALL.filter((t) => !t.includes('strategic')),
    );
    expect(doc.components.schemas).to.have.property('io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
  });
});

describe('R111 — server-side field validation (field-validation.ts)', () => {
  const pods = findResource('', 'v1', 'pods')!;
  it('unknown fields by their path; label and annotation keys and patch directives are not fields', () => {
    const body = {
      metadata: { labels: { anything: 'x' } },
      spec: { foo: 1, containers: [{ name: 'a', bar: 2 }], $setElementOrder: [] },
      status: { phase: 'Running' },
    };
    expect(unknownFields(pods, body)).to.deep.equal(['spec.foo', 'spec.containers[0].bar']);
  });

  it('Warn by default; another value is a 422 naming the supported ones', () => {
    expect(fieldValidationOf(undefined, 'CreateOptions')).to.equal('Warn');
    expect(fieldValidationOf('Strict', 'CreateOptions')).to.equal('Strict');
    const e = (() => {
      try {
        fieldValidationOf('strict', 'PatchOptions');
      } catch (err) {
        return err as StatusError;
      }
      return undefined;
    })();
    expect([e?.code, e?.status.message]).to.deep.equal([
      422,
      'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    ]);
  });
});

describe('R111 — field validation over HTTP (create, strategic patch)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());
  const PODS = '/api/v1/namespaces/default/pods';
  const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };

  it('a create under Strict is a 400; under Warn it goes on with a Warning header and without the field', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      spec: { bogus: true, containers: [{ name: 'app' }] },
    };
    const strict = await request(s.base, 'POST', `${PODS}?fieldValidation=Strict`, { body });
    expect([strict.status, strict.json.reason, strict.json.message]).to.deep.equal([
      400,
      'BadRequest',
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"',
    ]);
    const warn = await request(s.base, 'POST', PODS, { body });
    expect(warn.status).to.equal(201);
    expect(warn.headers.warning).to.equal('299 - "unknown field \\"spec.bogus\\""');
    expect(warn.json.spec).not.to.have.property('bogus');
  });

  it('a strategic merge patch under Strict is a 422 on the field "patch", the patch printed as Go prints its map', async () => {
    const r = await request(s.base, 'PATCH', `${PODS}/web?fieldValidation=Strict`, {
      body: { spec: { bogus: 1 } },
      headers: SMP,
    });
    expect([r.status, r.json.reason, r.json.message]).to.deep.equal([
      422,
      'Invalid',
      ' "" is invalid: patch: Invalid value: "map[spec:map[bogus:1]]": strict decoding error: unknown field "spec.bogus"',
    ]);
    const ignored = await request(s.base, 'PATCH', `${PODS}/web?fieldValidation=Ignore`, {
      body: { spec: { bogus: 1 } },
      headers: SMP,
    });
    expect([ignored.status, ignored.headers.warning]).to.deep.equal([200, undefined]);
  });
});

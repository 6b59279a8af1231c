import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Root } from 'protobufjs/light';
import { parse } from 'yaml';
import { DEFAULT_RELEASE } from '../../foundation/release';
import { openApiDocument } from './openapi';
import {
  acceptsOpenApiV2Protobuf,
  encodeOpenApiV2,
  OPENAPI_V2_PROTOBUF,
  openApiV2Protobuf,
} from './openapi-v2-protobuf';
import { request, startServer, type TestServer } from './testing';

/** The decoder a client has: protobufjs over the descriptors generated from gnostic-models' .proto. */
const root = Root.fromJSON(JSON.parse(readFileSync(join(__dirname, 'openapi-v2-descriptors.json'), 'utf8')));
const DOCUMENT = root.lookupType('openapi.v2.Document');

type Named<T> = { name: string; value: T };
type Any = { yaml: string };
type Schema = {
  _ref?: string;
  description?: string;
  format?: string;
  type?: { value: string[] };
  properties?: { additional_properties: Named<Schema>[] };
  vendor_extension?: Named<Any>[];
  additional_properties?: { schema?: Schema; boolean?: boolean };
  items?: { schema: Schema[] };
};
type Param = {
  parameter?: {
    non_body_parameter?: {
      query_parameter_sub_schema?: { name: string; in: string; type: string; unique_items?: boolean };
    };
  };
};
type Operation = { operation_id: string; parameters: Param[]; vendor_extension: Named<Any>[] };
type Doc = {
  swagger: string;
  info: { title: string; version: string };
  paths: { path: Named<Record<string, Operation>>[] };
  definitions: { additional_properties: Named<Schema>[] };
};

const decode = (bytes: Uint8Array) => DOCUMENT.toObject(DOCUMENT.decode(bytes), { defaults: false }) as Doc;
const extension = (exts: Named<Any>[] | undefined, name: string) =>
  parse(exts?.find((e) => e.name === name)?.value.yaml ?? 'null');

describe("R100 — /openapi/v2 as gnostic's openapi.v2.Document (openapi-v2-protobuf.ts)", () => {
  const json = openApiDocument('/openapi/v2', DEFAULT_RELEASE) as {
    paths: Record<string, unknown>;
    definitions: Record<string, { properties: Record<string, { description: string }> }>;
  };
  const doc = decode(openApiV2Protobuf(json));

  it("decodes to the JSON document's paths and definitions, named entries in the document's order", () => {
    expect([doc.swagger, doc.info.title, doc.info.version]).to.deep.equal([
      '2.0',
      'Kubernetes',
      `v1.${DEFAULT_RELEASE.minor}.0`,
    ]);
    expect(doc.paths.path.map((p) => p.name)).to.deep.equal(Object.keys(json.paths));
    expect(doc.definitions.additional_properties.map((d) => d.name)).to.deep.equal(Object.keys(json.definitions));
  });

  it("a pod's terminationGracePeriodSeconds keeps its description, type and format; Pod its group-version-kind as YAML", () => {
    const defs = new Map(doc.definitions.additional_properties.map((d) => [d.name, d.value]));
    const spec = new Map(
      defs.get('io.k8s.api.core.v1.PodSpec')!.properties!.additional_properties.map((p) => [p.name, p.value]),
    );
    const grace = spec.get('terminationGracePeriodSeconds')!;
    expect(grace.description)
      .to.equal(json.definitions['io.k8s.api.core.v1.PodSpec'].properties.terminationGracePeriodSeconds.description)
      .and.match(/^Optional duration in seconds/);
    expect([grace.type, grace.format]).to.deep.equal([{ value: ['integer'] }, 'int64']);
    const pod = defs.get('io.k8s.api.core.v1.Pod')!;
    expect(pod.vendor_extension!.find((e) => e.name === 'x-kubernetes-group-version-kind')!.value.yaml).to.equal(
      '- group: ""\n  version: v1\n  kind: Pod\n',
    );
    expect(extension(pod.vendor_extension, 'x-kubernetes-group-version-kind')).to.deep.equal([
      { group: '', version: 'v1', kind: 'Pod' },
    ]);
    // References and the markers apply's strategic merge patches read.
    const containers = spec.get('containers')!;
    expect(containers.items!.schema[0]._ref).to.equal('#/definitions/io.k8s.api.core.v1.Container');
    expect(extension(containers.vendor_extension, 'x-kubernetes-patch-merge-key')).to.equal('name');
    expect(extension(containers.vendor_extension, 'x-kubernetes-list-map-keys')).to.deep.equal(['name']);
    const labels = new Map(
      defs
        .get('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')!
        .properties!.additional_properties.map((p) => [p.name, p.value]),
    ).get('labels')!;
    expect(labels.additional_properties!.schema!.type).to.deep.equal({ value: ['string'] });
  });

  it("the pod PATCH operation carries its group-version-kind and the fieldValidation query parameter (kubectl's QueryParamVerifier)", () => {
    const ops = doc.paths.path.find((p) => p.name === '/api/v1/namespaces/{namespace}/pods/{name}')!.value;
    expect(Object.keys(ops)).to.have.members(['get', 'put', 'patch', 'delete']);
    expect(extension(ops.patch.vendor_extension, 'x-kubernetes-group-version-kind')).to.deep.equal({
      group: '',
      version: 'v1',
      kind: 'Pod',
    });
    const query = ops.patch.parameters.map((p) => p.parameter!.non_body_parameter!.query_parameter_sub_schema!);
    expect(query.find((q) => q.name === 'fieldValidation')).to.deep.include({
      name: 'fieldValidation',
      in: 'query',
      type: 'string',
      unique_items: true,
    });
  });

  it('follows the compiler on the rest of Swagger 2.0: $ref objects, body and path parameters, responses, booleans in oneofs, zero values left out', () => {
    const small = decode(
      encodeOpenApiV2({
        swagger: '2.0',
        info: { title: 't', version: '' },
        paths: {
          'x-note': { a: 1 },
          '/x/{name}': {
            parameters: [{ $ref: '#/parameters/name' }, { name: 'name', in: 'path', required: true, type: 'string' }],
            post: {
              parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/X' } }],
              responses: {
                '200': { description: 'OK', schema: { type: 'object' } },
                default: { $ref: '#/responses/e' },
              },
            },
          },
        },
        definitions: { X: { type: ['object', 'null'], additionalProperties: false, required: [], enum: ['a', 0] } },
      }),
    ) as unknown as Record<string, any>;
    expect(small.info).to.deep.equal({ title: 't' });
    expect(small.paths.vendor_extension).to.deep.equal([{ name: 'x-note', value: { yaml: 'a: 1\n' } }]);
    const item = small.paths.path[0].value;
    expect(item.parameters).to.deep.equal([
      { json_reference: { _ref: '#/parameters/name' } },
      {
        parameter: {
          non_body_parameter: {
            path_parameter_sub_schema: { name: 'name', in: 'path', required: true, type: 'string' },
          },
        },
      },
    ]);
    expect(item.post.parameters[0].parameter.body_parameter).to.deep.equal({
      name: 'body',
      in: 'body',
      required: true,
      schema: { _ref: '#/definitions/X' },
    });
    expect(item.post.responses.response_code).to.deep.equal([
      { name: '200', value: { response: { description: 'OK', schema: { schema: { type: { value: ['object'] } } } } } },
      { name: 'default', value: { json_reference: { _ref: '#/responses/e' } } },
    ]);
    expect(small.definitions.additional_properties[0].value).to.deep.equal({
      type: { value: ['object', 'null'] },
      additional_properties: { boolean: false },
      enum: [{ yaml: 'a\n' }, { yaml: '0\n' }],
    });
  });

  it('a key the compiler does not allow fails the encoding, naming where', () => {
    expect(() =>
      encodeOpenApiV2({
        swagger: '2.0',
        info: { title: 't', version: '1' },
        paths: {},
        definitions: { X: { properties: { a: { type: 'string', nullable: true } } } },
      }),
    ).to.throw('$root.definitions.X.properties.a: has invalid property: nullable');
    expect(() =>
      encodeOpenApiV2({
        swagger: '2.0',
        info: { title: 't', version: '1' },
        paths: { '/x': { get: { parameters: [{ name: 'q', in: 'cookie', type: 'string' }] } } },
      }),
    ).to.throw('$root.paths./x.get.parameters[0]: contains an invalid NonBodyParameter');
  });

  it('is encoded once per document', () => {
    expect(openApiV2Protobuf(json)).to.equal(openApiV2Protobuf(json));
  });

  it('negotiation: either protobuf subtype first asks for it; JSON, YAML and wildcards keep the JSON document', () => {
    expect(acceptsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).to.equal(true);
    expect(
      acceptsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2.v1.0+protobuf, application/json'),
    ).to.equal(true);
    expect(
      acceptsOpenApiV2Protobuf('application/json, application/com.github.proto-openapi.spec.v2.v1.0+protobuf'),
    ).to.equal(false);
    expect(
      acceptsOpenApiV2Protobuf('application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf'),
    ).to.equal(true);
    expect(acceptsOpenApiV2Protobuf('*/*')).to.equal(false);
    expect(acceptsOpenApiV2Protobuf(undefined)).to.equal(false);
  });
});

describe('R100 — /openapi/v2 over HTTP', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());

  it("client-go v0.26's Accept gets the protobuf document under the current Content-Type; JSON as before; anything else 406", async () => {
    const proto = await request(s.base, 'GET', '/openapi/v2', {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect([proto.status, proto.headers['content-type']]).to.deep.equal([200, OPENAPI_V2_PROTOBUF]);
    expect(proto.bytes.equals(openApiV2Protobuf(openApiDocument('/openapi/v2', DEFAULT_RELEASE)!))).to.equal(true);
    expect(decode(proto.bytes).swagger).to.equal('2.0');
    const json = await request(s.base, 'GET', '/openapi/v2', { headers: { Accept: 'application/json' } });
    expect([json.status, json.headers['content-type'], json.json.swagger]).to.deep.equal([
      200,
      'application/json',
      '2.0',
    ]);
    const other = await request(s.base, 'GET', '/openapi/v2', {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect([other.status, other.json.reason]).to.deep.equal([406, 'NotAcceptable']);
  });
});

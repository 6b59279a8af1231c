/**
 * R240 — the strict decoder of every built-in kind (strict-decoding.ts) and R241 — patch bodies of
 * the wrong shape, over HTTP as kube-apiserver answers them.
 */
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { startServer, request, type TestServer } from '../frontends/server/testing';
import { decodeProblems, definitionsForRelease, duplicateFields } from './strict-decoding';

const POD = { group: '', version: 'v1', kind: 'Pod' };
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };

describe('R240 strict decoding of the built-in kinds', () => {
  it('unknown fields at any depth, with their paths; maps (labels) take any key', () => {
    const pod = {
      metadata: { labels: { anything: 'x' } },
      spec: {
        terminationGracePeriodSecond: 10,
        containers: [{ name: 'app', lifecycle: { preStop: { slep: { seconds: 5 } } } }],
      },
    };
    expect(decodeProblems(POD, pod, 33).strict).to.deep.equal([
      'unknown field "spec.terminationGracePeriodSecond"',
      'unknown field "spec.containers[0].lifecycle.preStop.slep"',
    ]);
  });

  it('a wrong type, a fraction or an out-of-range number for an integer is the decoder’s error, naming the Go struct and field', () => {
    expect(decodeProblems(POD, { spec: { terminationGracePeriodSeconds: 12.5 } }, 33).typeError).to.equal(
      'json: cannot unmarshal number 12.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
    expect(decodeProblems(POD, { spec: { terminationGracePeriodSeconds: 1e20 } }, 33).typeError).to.equal(
      'json: cannot unmarshal number 100000000000000000000 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
    expect(decodeProblems(DEPLOYMENT, { spec: { replicas: 2 ** 31 } }, 33).typeError).to.equal(
      'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(decodeProblems(DEPLOYMENT, { spec: { replicas: 'two' } }, 33).typeError).to.equal(
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(decodeProblems(POD, { spec: { containers: { name: 'app' } } }, 33).typeError).to.equal(
      'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
    expect(
      decodeProblems(POD, { spec: { containers: [{ name: 'app', ports: [{ containerPort: '80' }] }] } }, 33).typeError,
    ).to.equal(
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
  });

  it('a quantity takes a number as well as a string; an int-or-string takes both', () => {
    expect(
      decodeProblems(
        POD,
        { spec: { containers: [{ name: 'app', resources: { limits: { cpu: 1, memory: '1Gi' } } }] } },
        33,
      ),
    ).to.deep.equal({ typeError: undefined, strict: [] });
    expect(
      decodeProblems(DEPLOYMENT, { spec: { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } } } }, 33),
    ).to.deep.equal({ typeError: undefined, strict: [] });
  });

  it('a field is known only from the release whose k8s.io/api declares it (PodSpec.hostnameOverride: v1.34; Lifecycle.stopSignal: v1.33)', () => {
    expect(decodeProblems(POD, { spec: { hostnameOverride: 'h' } }, 33).strict).to.deep.equal([
      'unknown field "spec.hostnameOverride"',
    ]);
    expect(decodeProblems(POD, { spec: { hostnameOverride: 'h' } }, 34).strict).to.deep.equal([]);
    expect(
      decodeProblems(POD, { spec: { containers: [{ name: 'a', lifecycle: { stopSignal: 'SIGUSR1' } }] } }, 32).strict,
    ).to.deep.equal(['unknown field "spec.containers[0].lifecycle.stopSignal"']);
    expect(Object.keys(definitionsForRelease(33)['io.k8s.api.core.v1.PodSpec'].properties ?? {})).to.not.include(
      'hostnameOverride',
    );
  });

  it('duplicateFields: the key paths a JSON text writes twice in one object, list items by index', () => {
    const text =
      '{"metadata":{"name":"a","name":"b"},"spec":{"replicas":1,"replicas":2,"template":{"spec":{"containers":[{"name":"x","image":"i","image":"j"}]}}}}';
    expect([...duplicateFields(text)]).to.deep.equal([
      'metadata.name',
      'spec.replicas',
      'spec.template.spec.containers[0].image',
    ]);
    expect([...duplicateFields('{"a": "x\\"y", "b": [1, 2, {"c": 1}]}')]).to.deep.equal([]);
    expect([...duplicateFields('not json')]).to.deep.equal([]);
  });
});

describe('R240 R241 over HTTP', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web'])));
  after(() => s.close());
  const PODS = '/api/v1/namespaces/default/pods';
  const MERGE = { 'Content-Type': 'application/merge-patch+json' };
  const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
  const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };

  it('duplicate fields under Strict are refused (400) with the unknown ones, in the order met; under Warn they are warnings', async () => {
    const body =
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dup"},"spec":{"replicas":1,"replicas":2,"replica":3,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}';
    const strict = await request(
      s.base,
      'POST',
      '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict',
      { body },
    );
    expect([strict.status, strict.json.message]).to.deep.equal([
      400,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "spec.replicas", unknown field "spec.replica"',
    ]);
    const warn = await request(s.base, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body });
    expect(warn.status).to.equal(201);
    expect(warn.headers.warning).to.equal(
      '299 - "duplicate field \\"spec.replicas\\"", 299 - "unknown field \\"spec.replica\\""',
    );
  });

  it('a type error is refused whatever fieldValidation says, before anything is stored', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'frac' },
      spec: { terminationGracePeriodSeconds: 12.5, containers: [{ name: 'app' }] },
    };
    const r = await request(s.base, 'POST', `${PODS}?fieldValidation=Ignore`, { body });
    expect([r.status, r.json.reason, r.json.message]).to.deep.equal([
      400,
      'BadRequest',
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 12.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    ]);
    expect((await request(s.base, 'GET', `${PODS}/frac`)).status).to.equal(404);
  });

  it('R241 a merge patch that is null, a string or a list is a 400; a JSON patch that is not a list is a 400; a strategic patch that is a list is a 400', async () => {
    const cases: [Record<string, string>, string, string, string][] = [
      [MERGE, '', 'null', 'Invalid JSON Patch'],
      [
        MERGE,
        '',
        '"str"',
        'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}',
      ],
      [
        MERGE,
        '',
        '[1]',
        'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
      [MERGE, '?fieldValidation=Ignore', '"str"', 'Invalid JSON Patch'],
      [
        JSON_PATCH,
        '',
        '{"op":"add"}',
        'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
      ],
      [
        JSON_PATCH,
        '?fieldValidation=Ignore',
        '{"op":"add"}',
        'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      ],
      [SMP, '', '[1]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ];
    const before = (await request(s.base, 'GET', `${PODS}/web`)).json.metadata.resourceVersion;
    for (const [headers, query, body, message] of cases) {
      const r = await request(s.base, 'PATCH', `${PODS}/web${query}`, { body, headers });
      expect([r.status, r.json.reason, r.json.message], `${headers['Content-Type']} ${body}`).to.deep.equal([
        400,
        'BadRequest',
        message,
      ]);
    }
    expect((await request(s.base, 'GET', `${PODS}/web`)).json.metadata.resourceVersion, 'nothing was written').to.equal(
      before,
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { base64ErrorOffset } from './secret-strategy';
import { failure, newSim, NS, ok, USER } from './testing';
import type { Secret } from '../apimachinery/types';

const secret = (name: string, fields: Partial<Secret> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  ...fields,
});

describe('R90 Secrets', () => {
  it("reports the byte Go's base64 decoder stops at (padding required, CR and LF skipped)", () => {
    expect(['', 'YWRtaW4=', 'YQ==', 'YWJj', 'YW\nJj', 'YWJj\r\n'].map(base64ErrorOffset)).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // An illegal character; a short last quantum; "=" too early; a lone "=" after two; data after the padding.
    expect(['ab$d', 'YWJjZA', 'Y===', 'YQ=', 'YQ==YQ==', 'YQ=x'].map(base64ErrorOffset)).to.deep.equal([
      2, 4, 1, 3, 4, 2,
    ]);
  });

  it('data must be base64 (400 from the decoder); stringData is written over data and dropped; the type defaults to Opaque; no generation', () => {
    const sim = newSim();
    const bad = failure(
      sim.api.create(USER, 'secrets', NS, secret('bad', { data: { key: 'not base64!' } })),
      400,
      'BadRequest',
    );
    expect(bad.message).to.equal(
      'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
    );
    const created = ok(
      sim.api.create(USER, 'secrets', NS, secret('s', { data: { a: 'YQ==', b: 'eA==' }, stringData: { b: 'bee' } })),
    );
    expect(created).to.deep.include({ type: 'Opaque', data: { a: 'YQ==', b: 'YmVl' } });
    expect(created).to.not.have.property('stringData');
    expect(created.metadata.generation).to.equal(undefined);
  });

  it('keys must be config keys; a type requires its keys', () => {
    const sim = newSim();
    const keys = failure(
      sim.api.create(USER, 'secrets', NS, secret('s', { data: { 'a b': 'YQ==', '..x': 'YQ==' } })),
      422,
      'Invalid',
    );
    expect(keys.message).to.equal(
      `Secret "s" is invalid: [data[..x]: Invalid value: "..x": must not start with '..', data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')]`,
    );
    const tls = failure(
      sim.api.create(USER, 'secrets', NS, secret('t', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'YQ==' } })),
      422,
      'Invalid',
    );
    expect(tls.message).to.equal('Secret "t" is invalid: data[tls.key]: Required value');
  });

  it('ValidateSecret by type: docker configs hold a JSON object, auth types their keys, tokens their annotation', () => {
    const sim = newSim();
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const refused = (name: string, fields: Partial<Secret>) =>
      failure(sim.api.create(USER, 'secrets', NS, secret(name, fields)), 422, 'Invalid').message;
    expect(refused('d1', { type: 'kubernetes.io/dockercfg', data: {} })).to.equal(
      'Secret "d1" is invalid: data[.dockercfg]: Required value',
    );
    expect(refused('d2', { type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64('{"r": ') } })).to.equal(
      'Secret "d2" is invalid: data[.dockercfg]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    );
    expect(
      refused('d3', { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': 'auths' } }),
    ).to.equal(
      `Secret "d3" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'a' looking for beginning of value`,
    );
    expect(
      refused('d4', { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('[]') } }),
    ).to.equal(
      'Secret "d4" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    ok(
      sim.api.create(
        USER,
        'secrets',
        NS,
        secret('d5', { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '{"auths":{}}' } }),
      ),
    );
    expect(refused('b1', { type: 'kubernetes.io/basic-auth', data: { user: 'YQ==' } })).to.equal(
      'Secret "b1" is invalid: [data[username]: Required value, data[password]: Required value]',
    );
    ok(sim.api.create(USER, 'secrets', NS, secret('b2', { type: 'kubernetes.io/basic-auth', data: { password: '' } })));
    expect(refused('s1', { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } })).to.equal(
      'Secret "s1" is invalid: data[ssh-privatekey]: Required value',
    );
    expect(refused('t1', { type: 'kubernetes.io/tls', data: {} })).to.equal(
      'Secret "t1" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]',
    );
    expect(refused('k1', { type: 'kubernetes.io/service-account-token' })).to.equal(
      'Secret "k1" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value',
    );
  });

  it('the type cannot change; an immutable Secret keeps its data and stays immutable', () => {
    const sim = newSim();
    const s = ok(
      sim.api.create(
        USER,
        'secrets',
        NS,
        secret('s', { type: 'example.com/token', data: { a: 'YQ==' }, immutable: true }),
      ),
    );
    const retyped = failure(sim.api.update(USER, 'secrets', NS, { ...s, type: 'Opaque' }), 422, 'Invalid');
    expect(retyped.message).to.equal('Secret "s" is invalid: type: Invalid value: "Opaque": field is immutable');
    const changed = failure(sim.api.update(USER, 'secrets', NS, { ...s, data: { a: 'Yg==' } }), 422, 'Invalid');
    expect(changed.message).to.equal(
      'Secret "s" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    const mutable = failure(sim.api.update(USER, 'secrets', NS, { ...s, immutable: false }), 422, 'Invalid');
    expect(mutable.message).to.equal(
      'Secret "s" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
    );
    const labelled = ok(
      sim.api.update(USER, 'secrets', NS, { ...s, metadata: { ...s.metadata, labels: { owner: 'helm' } } }),
    );
    expect(labelled.metadata.labels).to.deep.equal({ owner: 'helm' });
  });
});

/**
 * R249 — ValidateObjectMeta's owner references, for every kind, on create and update
 * (apimachinery/pkg/api/validation/objectmeta.go ValidateOwnerReferences); V67 — the details
 * without the field's name from 1.34.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Release } from '../foundation/release';
import { Timeline } from '../foundation/timeline/timeline';
import { ApiServer, DEFAULT_APISERVER_OPTIONS } from './apiserver';

const USER = { name: 'user', component: 'user' as const };
const OWNER = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'uid-1' };

function api(release?: Release): ApiServer {
  return new ApiServer(
    new Clock(),
    new Timeline(new Clock()),
    release ? { ...DEFAULT_APISERVER_OPTIONS, release } : undefined,
  );
}

function createConfigMap(ownerReferences: unknown[], release?: Release): string {
  const r = api(release).create(USER, 'configmaps', 'default', {
    metadata: { name: 'owned', ownerReferences },
  } as never);
  return r.ok ? '' : r.status.message;
}

describe('R249 owner references are validated for every kind', () => {
  it('a reference without a version, kind, name or uid; the details name the field up to v1.33 (V67)', () => {
    const bad = [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }];
    expect(createConfigMap(bad, Release.of(33))).to.equal(
      'ConfigMap "owned" is invalid: [metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty, metadata.ownerReferences.kind: Invalid value: "": kind must not be empty, metadata.ownerReferences.name: Invalid value: "": name must not be empty, metadata.ownerReferences.uid: Invalid value: "": uid must not be empty]',
    );
    expect(createConfigMap(bad)).to.equal(
      'ConfigMap "owned" is invalid: [metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty, metadata.ownerReferences.kind: Invalid value: "": must not be empty, metadata.ownerReferences.name: Invalid value: "": must not be empty, metadata.ownerReferences.uid: Invalid value: "": must not be empty]',
    );
    expect(createConfigMap([OWNER])).to.equal('');
  });

  it('an Event owns nothing; two controllers are one too many (the list printed %#v, then JSON: V64)', () => {
    expect(createConfigMap([{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }])).to.equal(
      'ConfigMap "owned" is invalid: metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    );
    const two = [
      { ...OWNER, controller: true },
      { ...OWNER, name: 'web-2', uid: 'uid-2', controller: true },
    ];
    expect(createConfigMap(two, Release.of(33))).to.equal(
      'ConfigMap "owned" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"web-1", UID:"uid-1", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"web-2", UID:"uid-2", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/web-1 and ReplicaSet/web-2',
    );
    expect(createConfigMap(two)).to.equal(
      'ConfigMap "owned" is invalid: metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"uid-1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-2","uid":"uid-2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/web-1 and ReplicaSet/web-2',
    );
  });

  it('an update is validated too (ValidateObjectMetaUpdate), for a pod as for any kind', () => {
    const server = api();
    const created = server.create(USER, 'pods', 'default', {
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    } as never);
    if (!created.ok) throw new Error(created.status.message);
    const next = structuredClone(created.object);
    next.metadata.ownerReferences = [{ ...OWNER, uid: '' }];
    const r = server.update(USER, 'pods', 'default', next);
    expect(r.ok ? '' : r.status.message).to.equal(
      'Pod "web" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import { schemaDefinitions } from '../schemas';
import { FieldSet, pathString } from './fieldpath';
import { FieldManager, type ManagerInfo } from './manager';
import { SmdSchema } from './schema';
import { toFieldSet } from './typed';

const fm = new FieldManager(schemaDefinitions());
const POD = fm.rootOf('v1', 'Pod');
const STATUS = FieldSet.of([{ field: 'status' }]);
const apply = (manager: string): ManagerInfo => ({ manager, operation: 'Apply', apiVersion: 'v1' });
const update = (manager: string, subresource?: string): ManagerInfo => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  ...(subresource ? { subresource } : {}),
});

const pod = (spec: object, metadata: object = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata }, spec }) as KubeObject;
const entries = (o: KubeObject) =>
  (o.metadata.managedFields ?? []).map((e) => ({
    manager: e.manager,
    operation: e.operation,
    fieldsV1: e.fieldsV1,
    ...(e.subresource ? { subresource: e.subresource } : {}),
  }));

function conflictOf(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no conflict');
}

describe('R115 — fieldpath: sets of field paths as fieldsV1 (structured-merge-diff fieldpath)', () => {
  it('round-trips fieldsV1, members before children, "." for a member with children, in PathElement order', () => {
    const json = {
      'f:a': {},
      'f:b': { '.': {}, 'f:c': {} },
      'k:{"name":"x","port":80}': { '.': {}, 'f:name': {} },
      'v:1': {},
      'v:"s"': {},
      'v:true': {},
      'i:0': {},
    };
    const set = FieldSet.fromFieldsV1(json);
    expect(JSON.stringify(set.toFieldsV1())).to.equal(JSON.stringify(json));
    const shuffled = FieldSet.fromFieldsV1({
      'i:0': {},
      'v:true': {},
      'f:b': { 'f:c': {}, '.': {} },
      'v:"s"': {},
      'k:{"name":"x","port":80}': { 'f:name': {}, '.': {} },
      'v:1': {},
      'f:a': {},
    });
    expect(JSON.stringify(shuffled.toFieldsV1())).to.equal(JSON.stringify(json));
  });

  it('paths print as Path.String: fields, keys with JSON values, set values, indices', () => {
    const set = FieldSet.fromFieldsV1({
      'f:spec': {
        'f:containers': { 'k:{"name":"app"}': { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } } },
      },
      'f:metadata': { 'f:finalizers': { 'v:"x"': {} } },
    });
    expect(set.paths().map(pathString)).to.deep.equal([
      '.metadata.finalizers[="x"]',
      '.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"]',
    ]);
  });

  it('difference keeps what is below a removed member; recursiveDifference drops it', () => {
    const a = FieldSet.fromFieldsV1({ 'f:status': { 'f:phase': {} }, 'f:spec': { 'f:x': {} } });
    const status = FieldSet.of([{ field: 'status' }]);
    expect(a.difference(status).toFieldsV1()).to.deep.equal(a.toFieldsV1());
    expect(a.recursiveDifference(status).toFieldsV1()).to.deep.equal({ 'f:spec': { 'f:x': {} } });
  });
});

describe('R115 — schema: list relationships as kube-openapi schemaconv derives them', () => {
  const rel = (items: object) => {
    const t = new SmdSchema({}).type({ type: 'array', items: {}, ...items });
    return t.kind === 'list' ? [t.relationship, t.keys] : t.kind;
  };
  it('x-kubernetes-list-type first; else a merge patch strategy (by its merge key, or as a set); else atomic', () => {
    expect(
      rel({
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['a', 'b'],
        'x-kubernetes-patch-merge-key': 'a',
        'x-kubernetes-patch-strategy': 'merge',
      }),
    ).to.deep.equal(['associative', ['a', 'b']]);
    expect(
      rel({ 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' }),
    ).to.deep.equal(['associative', ['name']]);
    expect(rel({ 'x-kubernetes-patch-strategy': 'merge' })).to.deep.equal(['set', []]);
    expect(rel({ 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-strategy': 'merge' })).to.deep.equal([
      'atomic',
      [],
    ]);
    expect(rel({})).to.deep.equal(['atomic', []]);
  });
});

describe('R115 — typed: field sets of an object with its schema (tofieldset.go)', () => {
  it('list-maps by their keys (a missing protocol takes its default TCP), sets by value, atomic lists whole, granular maps by entry', () => {
    const set = toFieldSet(fm.schema, POD, {
      metadata: { labels: { app: 'web' }, finalizers: ['a/b'] },
      spec: { containers: [{ name: 'app', args: ['x'], ports: [{ containerPort: 80 }] }], tolerations: [{ key: 'k' }] },
    });
    expect(set.toFieldsV1()).to.deep.equal({
      'f:metadata': { 'f:finalizers': { 'v:"a/b"': {} }, 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"app"}': {
            '.': {},
            'f:args': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          },
        },
        'f:tolerations': {},
      },
    });
  });
});

describe('R112, R113, R114 — managedFields of updates and applies (managedfields, merge/update.go)', () => {
  it('a create owns what it sets: list items and new maps get ".", the zero-valued spec and its containers do not', () => {
    const created = pod({ containers: [{ name: 'app', image: 'nginx' }] }, { labels: { app: 'web' } });
    fm.update(undefined, created, update('kubectl-create'), STATUS, '2025-01-01T00:00:00Z');
    expect(entries(created)).to.deep.equal([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    ]);
    expect(created.metadata.managedFields![0].time).to.equal('2025-01-01T00:00:00Z');
  });

  it('an update takes the fields it changes from their owner; the status subresource records its subresource', () => {
    const live = pod({ containers: [{ name: 'app', image: 'nginx' }] });
    fm.update(undefined, live, update('kubectl-create'), STATUS, 't0');
    const next = { ...pod({ containers: [{ name: 'app', image: 'nginx:2' }] }), metadata: live.metadata };
    fm.update(live, next, update('kubectl-edit'), STATUS, 't1');
    expect(entries(next)).to.deep.equal([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:name': {} } } } },
      },
      {
        manager: 'kubectl-edit',
        operation: 'Update',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { 'f:image': {} } } } },
      },
    ]);
    const withStatus = { ...next, status: { phase: 'Running' } } as KubeObject;
    fm.update(next, withStatus, update('kubelet', 'status'), FieldSet.of([{ field: 'spec' }]), 't2');
    expect(entries(withStatus).at(-1)).to.deep.equal({
      manager: 'kubelet',
      operation: 'Update',
      fieldsV1: { 'f:status': { 'f:phase': {} } },
      subresource: 'status',
    });
  });

  it('an apply owns exactly its configuration; a second manager setting another value conflicts (409), naming field and manager', () => {
    const first = fm.apply(
      undefined,
      pod({ containers: [{ name: 'app', image: 'a' }] }),
      apply('alice'),
      false,
      STATUS,
      't0',
    );
    expect(entries(first)).to.deep.equal([
      {
        manager: 'alice',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    ]);
    const err = conflictOf(() =>
      fm.apply(first, pod({ containers: [{ name: 'app', image: 'b' }] }), apply('bob'), false, STATUS, 't1'),
    );
    expect(err.status.code).to.equal(409);
    expect(err.status.reason).to.equal('Conflict');
    expect(err.status.message).to.equal(
      'Apply failed with 1 conflict: conflict with "alice": .spec.containers[name="app"].image',
    );
    expect(err.status.details?.causes).to.deep.equal([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.containers[name="app"].image' },
    ]);
    // The same value is no conflict: both own it.
    const shared = fm.apply(
      first,
      pod({ containers: [{ name: 'app', image: 'a' }] }),
      apply('bob'),
      false,
      STATUS,
      't1',
    );
    expect(entries(shared).map((e) => e.manager)).to.deep.equal(['alice', 'bob']);
  });

  it('several conflicts are grouped by manager, update managers printed with their apiVersion', () => {
    const live = pod({ containers: [{ name: 'app', image: 'a' }], nodeName: 'n1' });
    fm.update(undefined, live, update('kubectl-client-side-apply'), STATUS, 't0');
    const err = conflictOf(() =>
      fm.apply(
        live,
        pod({ containers: [{ name: 'app', image: 'b' }], nodeName: 'n2' }),
        apply('kubectl'),
        false,
        STATUS,
        't1',
      ),
    );
    expect(err.status.message).to.equal(
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using v1:\n- .spec.containers[name="app"].image\n- .spec.nodeName',
    );
  });

  it('force takes the conflicting fields over: the old owner keeps the rest', () => {
    const first = fm.apply(
      undefined,
      pod({ containers: [{ name: 'app', image: 'a' }] }),
      apply('alice'),
      false,
      STATUS,
      't0',
    );
    const forced = fm.apply(
      first,
      pod({ containers: [{ name: 'app', image: 'b' }] }),
      apply('bob'),
      true,
      STATUS,
      't1',
    );
    expect((forced as unknown as { spec: { containers: { image: string }[] } }).spec.containers[0].image).to.equal('b');
    expect(entries(forced)).to.deep.equal([
      {
        manager: 'alice',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:name': {} } } } },
      },
      {
        manager: 'bob',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    ]);
  });

  it('a field the applier stops applying is removed, unless another manager owns it too', () => {
    const cfg = (labels: object) => pod({ containers: [{ name: 'app' }] }, { labels });
    let live = fm.apply(undefined, cfg({ a: '1', b: '2' }), apply('alice'), false, STATUS, 't0');
    live = fm.apply(live, pod({}, { labels: { b: '2' } }), apply('bob'), false, STATUS, 't1');
    live = fm.apply(live, cfg({}), apply('alice'), false, STATUS, 't2');
    expect(live.metadata.labels).to.deep.equal({ b: '2' });
    expect((live as unknown as { spec: object }).spec).to.deep.equal({ containers: [{ name: 'app' }] });
  });

  it('an apply that changes nothing keeps the stored entries and their times (no write)', () => {
    const first = fm.apply(undefined, pod({ containers: [{ name: 'app' }] }), apply('alice'), false, STATUS, 't0');
    const again = fm.apply(first, pod({ containers: [{ name: 'app' }] }), apply('alice'), false, STATUS, 't9');
    expect(again.metadata.managedFields).to.equal(first.metadata.managedFields);
  });

  it("associative lists merge by key in the configuration's order, keeping the live object's own items where they stood", () => {
    const live = pod({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] });
    const merged = fm.apply(
      live,
      pod({ containers: [{ name: 'c', image: 'x' }, { name: 'a' }, { name: 'd' }] }),
      apply('alice'),
      true,
      STATUS,
      't0',
    );
    expect(
      (merged as unknown as { spec: { containers: { name: string }[] } }).spec.containers.map((c) => c.name),
    ).to.deep.equal(['b', 'c', 'a', 'd']);
  });

  it('managedFields in an applied configuration are refused (400)', () => {
    const err = conflictOf(() =>
      fm.apply(undefined, pod({}, { managedFields: [] }), apply('alice'), false, STATUS, 't0'),
    );
    expect([err.status.code, err.status.message]).to.deep.equal([400, 'metadata.managedFields must be nil']);
  });

  it('a configuration the schema refuses is a 500 naming it, as the type converter words it: an undeclared field, a missing key, a repeated key', () => {
    const refused = (spec: object) =>
      conflictOf(() => fm.apply(undefined, pod(spec), apply('alice'), false, STATUS, 't0')).status;
    expect(refused({ bogus: 1 })).to.deep.include({
      code: 500,
      reason: '',
      message:
        'failed to create typed patch object (default/web; /v1, Kind=Pod): .spec.bogus: field not declared in schema',
    });
    expect(refused({ containers: [{ image: 'x' }] }).message).to.equal(
      'failed to create typed patch object (default/web; /v1, Kind=Pod): .spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
    expect(refused({ containers: [{ name: 'a' }, { name: 'a' }] }).message).to.equal(
      'failed to create typed patch object (default/web; /v1, Kind=Pod): .spec.containers: duplicate entries for key [name="a"]',
    );
  });

  it('past ten update managers, the oldest are merged into "ancient-changes" (capManagersManager)', () => {
    let live = pod({ containers: [{ name: 'app' }] });
    for (let i = 0; i < 12; i++) {
      const next = {
        ...live,
        metadata: { ...live.metadata, labels: { ...live.metadata.labels, [`l${i}`]: 'x' } },
      } as KubeObject;
      fm.update(
        i === 0 ? undefined : live,
        next,
        update(`m${String(i).padStart(2, '0')}`),
        STATUS,
        `2025-01-01T00:00:${String(i).padStart(2, '0')}Z`,
      );
      live = next;
    }
    const names = entries(live).map((e) => e.manager);
    expect(names).to.deep.equal(['ancient-changes', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10', 'm11']);
    expect(entries(live)[0].fieldsV1).to.deep.equal({
      'f:metadata': { 'f:labels': { '.': {}, 'f:l0': {}, 'f:l1': {}, 'f:l2': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:name': {} } } },
    });
    expect(live.metadata.managedFields![0].time).to.equal('2025-01-01T00:00:02Z');
  });
});

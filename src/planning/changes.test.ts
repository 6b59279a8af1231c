import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ABSENT, checkChanges, fieldChanges, formatChangeTable, parseCell, valueAt, ANY } from './changes';

const T0 = Date.UTC(2025, 0, 1, 0, 1, 0);
const before = { metadata: { name: 'web', resourceVersion: '4', finalizers: ['a'] }, status: { phase: 'Running' } };
const after = {
  metadata: { name: 'web', resourceVersion: '5', finalizers: [], deletionTimestamp: '2025-01-01T00:01:30Z' },
  status: { phase: 'Running' },
};

describe('fieldChanges', () => {
  it('lists leaf changes, arrays as one value', () => {
    expect(fieldChanges(before, after)).to.deep.equal([
      { path: '/metadata/resourceVersion', from: '4', to: '5' },
      { path: '/metadata/finalizers', from: ['a'], to: [] },
      { path: '/metadata/deletionTimestamp', from: ABSENT, to: '2025-01-01T00:01:30Z' },
    ]);
  });
});

describe('cells and pointers', () => {
  it('reads <absent>, <any>, T+Ns and JSON', () => {
    expect(parseCell('<absent>', T0)).to.equal(ABSENT);
    expect(parseCell('<any>', T0)).to.equal(ANY);
    expect(parseCell('T+30s', T0)).to.equal('2025-01-01T00:01:30Z');
    expect(parseCell('30', T0)).to.equal(30);
    expect(parseCell('["a"]', T0)).to.deep.equal(['a']);
  });
  it('follows JSON Pointers into arrays and objects', () => {
    expect(valueAt(before, '/metadata/finalizers/0')).to.equal('a');
    expect(valueAt(before, '/metadata/missing')).to.equal(ABSENT);
  });
});

describe('checkChanges', () => {
  const rows = [
    { path: '/metadata/finalizers', from: '["a"]', to: '[]' },
    { path: '/metadata/deletionTimestamp', from: '<absent>', to: 'T+30s' },
  ];
  it('passes when every change is listed (resourceVersion left out)', () => {
    expect(checkChanges(before, after, rows, T0)).to.equal(undefined);
  });
  it('fails on a missing row and prints the actual changes as a table', () => {
    const msg = checkChanges(before, after, rows.slice(0, 1), T0)!;
    expect(msg).to.contain('/metadata/deletionTimestamp changed');
    expect(msg).to.contain(
      '/metadata/deletionTimestamp changed (<absent> → "2025-01-01T00:01:30Z" (T+30s)) but is not listed',
    );
    expect(msg).to.contain('| /metadata/deletionTimestamp | <absent> | T+30s |');
    expect(msg).to.contain('(T+0s is 2025-01-01T00:01:00Z)');
  });
  it('fails on a wrong value', () => {
    const msg = checkChanges(before, after, [rows[0], { ...rows[1], to: 'T+31s' }], T0)!;
    expect(msg).to.contain(
      'expected <absent> → "2025-01-01T00:01:31Z" (T+31s), but it went <absent> → "2025-01-01T00:01:30Z" (T+30s)',
    );
  });
  it('formats an empty change list', () => {
    expect(formatChangeTable([], T0)).to.contain('no field changed');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Rejection } from './filters';
import { findNodesThatPassFilters, numFeasibleNodesToFind } from './feasible-nodes';
import { NodeTree, zoneKey } from './node-tree';
import type { Node } from '../../apimachinery/types';

const REJECTED: Rejection = { plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reason: 'x' };
const names = (n: number) => Array.from({ length: n }, (_, i) => `n${i}`);

describe('numFeasibleNodesToFind (schedule_one.go, W65)', () => {
  it('all nodes under 100; then 50 % less a point per 125 nodes, at least 5 % and at least 100 nodes', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 1],
      [99, 99],
      [100, 100],
      [101, 100],
      [199, 100],
      [250, 120], // 48 %
      [500, 230], // 46 %
      [1000, 420], // 42 %
      [5000, 500], // 10 %
      [5624, 337], // 5624 / 125 = 44 → 6 %
      [10000, 500], // 5 % (50 - 80 < 5)
      [15000, 750],
    ];
    for (const [all, want] of cases) expect(numFeasibleNodesToFind(all), `${all} nodes`).to.equal(want);
  });
});

describe('findNodesThatPassFilters (schedule_one.go, W65)', () => {
  it('a cluster under 100 nodes: every node checked, the start stays where it was', () => {
    const r = findNodesThatPassFilters(names(7), 3, (n) => (n === 'n5' ? REJECTED : undefined));
    expect(r.feasible).to.deep.equal(['n3', 'n4', 'n6', 'n0', 'n1', 'n2']);
    expect(r.rejections).to.have.length(1);
    expect(r.nextStart).to.equal(3);
  });

  it('stops at the node that passes beyond the number wanted; rejected nodes before it count for the next start', () => {
    // 200 nodes: 100 wanted. Nodes n10–n19 are rejected.
    const rejectedSet = new Set(names(20).slice(10));
    const r = findNodesThatPassFilters(names(200), 0, (n) => (rejectedSet.has(n) ? REJECTED : undefined));
    expect(r.feasible).to.have.length(100);
    expect(r.feasible[0]).to.equal('n0');
    expect(r.feasible[99]).to.equal('n109');
    expect(r.rejections).to.have.length(10);
    expect(r.nextStart).to.equal(110);
    // From there on it wraps around.
    const next = findNodesThatPassFilters(names(200), 150, () => undefined);
    expect(next.feasible[49]).to.equal('n199');
    expect(next.feasible[50]).to.equal('n0');
    expect(next.nextStart).to.equal(50);
  });

  it('a pod that fits nowhere: every node rejected, the start unchanged', () => {
    const r = findNodesThatPassFilters(names(300), 42, () => REJECTED);
    expect(r.feasible).to.deep.equal([]);
    expect(r.rejections).to.have.length(300);
    expect(r.nextStart).to.equal(42);
  });
});

const node = (name: string, labels: Record<string, string> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
});

describe('NodeTree (backend/cache/node_tree.go, W65)', () => {
  it('lists the zones interleaved, each in the order its nodes came; no zone labels is one zone', () => {
    const t = new NodeTree();
    const z = (zone: string) => ({ 'topology.kubernetes.io/zone': zone });
    t.set(node('a1', z('a')));
    t.set(node('a2', z('a')));
    t.set(node('a3', z('a')));
    t.set(node('b1', z('b')));
    t.set(node('c1', { 'failure-domain.beta.kubernetes.io/zone': 'c' }));
    t.set(node('b2', z('b')));
    expect(t.list()).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    // An update that keeps the zone keeps the place; a zone change moves the node to its new zone's end.
    t.set(node('a1', { ...z('a'), other: 'x' }));
    expect(t.list()).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    t.set(node('a1', z('b')));
    expect(t.list()).to.deep.equal(['a2', 'b1', 'c1', 'a3', 'b2', 'a1']);
    // Removing the last node of a zone removes the zone; a new node of it comes last.
    t.remove('c1');
    t.set(node('c2', z('c')));
    expect(t.list()).to.deep.equal(['a2', 'b1', 'c2', 'a3', 'b2', 'a1']);
    expect(zoneKey(node('x'))).to.equal('');
    expect(zoneKey(node('x', { 'topology.kubernetes.io/region': 'r' }))).to.not.equal('');
  });
});

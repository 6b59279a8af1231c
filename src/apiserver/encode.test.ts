import { describe, it } from 'node:test';
import { expect } from 'chai';
import { encodeForStorage } from './encode';

describe('encodeForStorage', () => {
  const stored = encodeForStorage(
    {
      metadata: { name: 'web', resourceVersion: '5', finalizers: ['a'] },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    },
    undefined,
  ) as Record<string, any>;

  it("stores no undefined members and no empty metadata lists or maps, in the new object's key order, frozen below the object and its metadata (which etcd stamps and freezes)", () => {
    const enc = encodeForStorage(
      {
        status: { phase: undefined, reason: 'x' },
        metadata: { name: 'a', labels: {}, finalizers: [], uid: undefined, annotations: { k: 'v' } },
      },
      undefined,
    ) as Record<string, any>;
    expect(JSON.stringify(enc)).to.equal('{"status":{"reason":"x"},"metadata":{"name":"a","annotations":{"k":"v"}}}');
    expect(Object.isFrozen(enc.status) && Object.isFrozen(enc.metadata.annotations)).to.equal(true);
    expect(Object.isFrozen(enc) || Object.isFrozen(enc.metadata)).to.equal(false);
    // Empty collections are dropped only in the metadata.
    expect(JSON.stringify(encodeForStorage({ spec: { tolerations: [], nodeSelector: {} } }, undefined))).to.equal(
      '{"spec":{"tolerations":[],"nodeSelector":{}}}',
    );
  });

  it('an unchanged object (whatever its undefined members) comes back as the stored one itself (R53)', () => {
    const same = {
      metadata: { name: 'web', resourceVersion: '5', finalizers: ['a'], labels: {} },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], reason: undefined },
    };
    expect(encodeForStorage(same, stored)).to.equal(stored);
  });

  it('a change copies only the path to it; the rest is shared with the stored version', () => {
    const next = {
      metadata: { name: 'web', resourceVersion: '5', finalizers: ['a'] },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
    };
    const enc = encodeForStorage(next, stored) as Record<string, any>;
    expect(enc).to.not.equal(stored);
    expect(enc.metadata).to.equal(stored.metadata);
    expect(enc.spec).to.equal(stored.spec);
    expect(enc.status).to.not.equal(stored.status);
    expect(enc.status.conditions[0]).to.deep.equal({ type: 'Ready', status: 'False' });
  });

  it('a member removed, or one added after equal ones, makes a new object in the new key order', () => {
    const removed = encodeForStorage({ metadata: stored.metadata, spec: stored.spec }, stored);
    expect(JSON.stringify(removed)).to.equal(JSON.stringify({ metadata: stored.metadata, spec: stored.spec }));
    const added = encodeForStorage(
      { metadata: stored.metadata, spec: { nodeName: 'n1', hostname: 'h' }, status: stored.status },
      stored,
    ) as Record<string, any>;
    expect(Object.keys(added.spec)).to.deep.equal(['nodeName', 'hostname']);
    expect(added.metadata).to.equal(stored.metadata);
    expect(added.status).to.equal(stored.status);
  });

  it('items removed from a list: the items that moved up are the stored ones, what changed is encoded anew', () => {
    const ep = (n: number, ready = true) => ({
      addresses: [`10.0.0.${n}`],
      conditions: { ready, serving: true, terminating: !ready },
      targetRef: { kind: 'Pod', name: `pod-${n}`, uid: `u${n}` },
      hints: undefined,
    });
    const before = encodeForStorage(
      { metadata: { name: 's' }, endpoints: [1, 2, 3, 4, 5, 6].map((n) => ep(n)) },
      undefined,
    ) as {
      endpoints: unknown[];
    };
    // pod-2 and pod-5 gone, pod-4 no longer ready.
    const next = { metadata: { name: 's' }, endpoints: [ep(1), ep(3), ep(4, false), ep(6)] };
    const after = encodeForStorage(next, before) as { endpoints: unknown[] };
    expect(JSON.stringify(after)).to.equal(JSON.stringify(next));
    const stored = before.endpoints;
    expect(after.endpoints[0]).to.equal(stored[0]);
    expect(after.endpoints[1]).to.equal(stored[2]);
    expect(after.endpoints[2]).to.not.equal(stored[3]);
    expect(after.endpoints[3]).to.equal(stored[5]);
    expect(Object.isFrozen(after.endpoints) && Object.isFrozen(after.endpoints[2])).to.equal(true);
    // An item equal to a stored one further on than the items removed is encoded anew (nothing is reordered).
    const moved = encodeForStorage({ endpoints: [ep(6), ep(1)] }, { endpoints: stored.slice(0, 6) }) as {
      endpoints: unknown[];
    };
    expect(JSON.stringify(moved.endpoints)).to.equal(JSON.stringify([ep(6), ep(1)]));
    // A member fewer is not the stored item.
    const { targetRef: _, ...bare } = ep(3);
    const fewer = encodeForStorage({ endpoints: [ep(1), bare] }, { endpoints: stored.slice(0, 3) }) as {
      endpoints: unknown[];
    };
    expect(JSON.stringify(fewer.endpoints)).to.equal(JSON.stringify([ep(1), bare]));
  });
});

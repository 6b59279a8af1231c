import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Deployment, ReplicaSet } from '../../../apimachinery/types';
import {
  computeHash,
  equalIgnoreHash,
  fnv32a,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  safeEncodeString,
} from './deployment-util';

const deployment = (
  replicas: number,
  surge?: number | string,
  unavailable?: number | string,
  type = 'RollingUpdate',
): Deployment => ({
  metadata: { name: 'web' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {},
    strategy: {
      type,
      ...(type === 'RollingUpdate' ? { rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } : {}),
    },
  },
});
const rs = (replicas: number): ReplicaSet => ({
  metadata: { name: 'x' },
  spec: { replicas, selector: {}, template: {} },
});

describe('deployment_util.go (W8)', () => {
  it('W8 SafeEncodeString maps each character into bcdfghjklmnpqrstvwxz2456789; fnv32a is FNV-1a', () => {
    // '0' is 48, and 48 mod 27 is 21: '4'.
    expect(safeEncodeString('0123456789')).to.equal('456789bcdf');
    expect(fnv32a(new TextEncoder().encode(''))).to.equal(0x811c9dc5);
    expect(fnv32a(new TextEncoder().encode('a'))).to.equal(0xe40c292c);
  });

  it('W8 ComputeHash: the same template gives the same hash, a collisionCount another; the hash label is ignored when comparing', () => {
    const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
    expect(computeHash(t)).to.equal(computeHash(structuredClone(t)));
    expect(computeHash(t, 1)).to.not.equal(computeHash(t));
    expect(computeHash(t)).to.match(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(equalIgnoreHash({ ...t, metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } } }, t)).to.equal(
      true,
    );
  });

  it('W8 maxSurge rounds up, maxUnavailable down; both 0 would stall, so unavailable is 1; Recreate has neither', () => {
    expect([maxSurge(deployment(10)), maxUnavailable(deployment(10))]).to.deep.equal([0, 1]);
    expect([maxSurge(deployment(10, '25%', '25%')), maxUnavailable(deployment(10, '25%', '25%'))]).to.deep.equal([
      3, 2,
    ]);
    expect([maxSurge(deployment(3, 0, '10%')), maxUnavailable(deployment(3, 0, '10%'))]).to.deep.equal([0, 1]);
    expect([maxSurge(deployment(3, 0, 0, 'Recreate')), maxUnavailable(deployment(3, 0, 0, 'Recreate'))]).to.deep.equal([
      0, 0,
    ]);
  });

  it('W8 NewRSNewReplicas counts spec.replicas of all sets: room up to replicas + maxSurge, never above replicas', () => {
    const d = deployment(4, 1, 1);
    expect(newRSNewReplicas(d, [rs(4), undefined], undefined)).to.equal(1);
    expect(newRSNewReplicas(d, [rs(3), rs(1)], rs(1))).to.equal(2);
    expect(newRSNewReplicas(d, [rs(4), rs(1)], rs(1))).to.equal(1);
    expect(newRSNewReplicas(d, [rs(0), rs(3)], rs(3))).to.equal(4);
    expect(newRSNewReplicas(deployment(4, 0, 0, 'Recreate'), [rs(4)], undefined)).to.equal(4);
  });
});

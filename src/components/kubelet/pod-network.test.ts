import { describe, it } from 'node:test';
import { expect } from 'chai';
import { PodNetwork } from './pod-network';

describe('PodNetwork (host-local IPAM, K59)', () => {
  it('hands out the addresses after the gateway in turn, skips those in use, and reuses one only after the range wrapped', () => {
    const n = new PodNetwork();
    expect(n.allocate('a'), 'no range yet').to.equal(undefined);
    n.configure('10.244.1.0/24');
    expect([n.allocate('a'), n.allocate('b'), n.allocate('a')]).to.deep.equal([
      '10.244.1.2',
      '10.244.1.3',
      '10.244.1.2',
    ]);
    n.release('a');
    expect(n.allocate('c'), 'round robin: not the freed .2').to.equal('10.244.1.4');
  });
  it('wraps at the end of a small range and says when it is full', () => {
    const n = new PodNetwork();
    n.configure('10.0.0.0/29'); // .1 gateway, .2–.6 pods, .7 broadcast
    expect(['a', 'b', 'c', 'd', 'e'].map((s) => n.allocate(s))).to.deep.equal([
      '10.0.0.2',
      '10.0.0.3',
      '10.0.0.4',
      '10.0.0.5',
      '10.0.0.6',
    ]);
    expect(n.allocate('f')).to.equal(undefined);
    n.release('b');
    expect(n.allocate('f')).to.equal('10.0.0.3');
  });
  it('refuses a range that is not IPv4 CIDR', () => {
    expect(() => new PodNetwork().configure('fd00::/64')).to.throw(/not an IPv4 range/);
  });
});

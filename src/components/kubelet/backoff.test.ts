import { expect } from 'chai';
import { describe, it } from 'node:test';
import { Backoff } from './backoff';

describe('K54 flowcontrol Backoff (image_manager.go EnsureImageExists, kubelet.go backOffPeriod/MaxContainerBackOff)', () => {
  it('starts at 10 s and doubles up to 5 min', () => {
    const b = new Backoff();
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', i);
      seen.push(b.get('k'));
    }
    expect(seen).to.deep.equal([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  });

  it('IsInBackOffSinceUpdate: true strictly less than the back-off after the last failure', () => {
    const b = new Backoff();
    expect(b.isInBackOffSinceUpdate('k', 0)).to.equal(false);
    b.next('k', 1000);
    expect(b.isInBackOffSinceUpdate('k', 10_999)).to.equal(true);
    expect(b.isInBackOffSinceUpdate('k', 11_000)).to.equal(false);
    expect(b.isInBackOffSinceUpdate('other', 2000)).to.equal(false);
  });
});

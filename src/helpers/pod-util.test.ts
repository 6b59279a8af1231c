import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../apimachinery/object';
import type { Pod } from '../apimachinery/types';
import { Release } from '../foundation/release';
import { isPodAvailable } from './pod-util';

const NOW = Date.UTC(2025, 0, 1, 1, 0, 0);

/** A pod whose Ready condition turned True `readyFor` ms before NOW (no condition: undefined); times are whole seconds, as in metav1.Time. */
function pod(readyFor?: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    status: {
      conditions:
        readyFor === undefined ? [] : [{ type: 'Ready', status: 'True', lastTransitionTime: toTime(NOW - readyFor) }],
    },
  };
}

describe('IsPodAvailable (pkg/api/v1/pod/util.go)', () => {
  it('W6 a ready pod is available at once with minReadySeconds 0, a pod that is not ready never', () => {
    for (const minor of [33, 34]) {
      expect(isPodAvailable(pod(0), 0, NOW, Release.of(minor))).to.equal(true);
      expect(isPodAvailable(pod(), 0, NOW, Release.of(minor))).to.equal(false);
      expect(isPodAvailable(pod(60_000), 10, NOW, Release.of(minor))).to.equal(true);
      expect(isPodAvailable(pod(9_000), 10, NOW, Release.of(minor))).to.equal(false);
    }
  });

  it('W6 ready for exactly minReadySeconds: not yet available up to 1.33 (Before), available from 1.34 (#132122)', () => {
    expect(isPodAvailable(pod(10_000), 10, NOW, Release.of(33))).to.equal(false);
    expect(isPodAvailable(pod(11_000), 10, NOW, Release.of(33))).to.equal(true);
    expect(isPodAvailable(pod(10_000), 10, NOW, Release.of(34))).to.equal(true);
    expect(isPodAvailable(pod(9_000), 10, NOW, Release.of(34))).to.equal(false);
  });
});

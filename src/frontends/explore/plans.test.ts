import { describe, it } from 'node:test';
import { expect } from 'chai';
import { perturbationStep } from '../../cluster/perturbation/perturbation';
import { locateScenario, reproducingFeature } from './feature';
import type { Observation } from './observation';
import { delaysUpTo, pairPlans, reductions, singlePlans } from './plans';

const OBSERVED: Observation = {
  components: [
    {
      target: { kind: 'controller', name: 'endpointslice-controller' },
      resources: ['endpointslices', 'pods', 'services'],
    },
    { target: { kind: 'kubelet', node: 'node-1' }, resources: ['pods'] },
  ],
  changes: new Map([
    ['pods', [0, 1000]],
    ['endpointslices', [0]],
  ]),
  durationMs: 5000,
  timeline: '',
};

describe('explore plans, derived from the unperturbed run (issue 33)', () => {
  it('late plans for each watched kind that changed, each delay; slow requests of a controller, each delay; misses of its first instants until a relist; restarts of a controller just before and after each change', () => {
    const steps = singlePlans(OBSERVED, { delaysMs: [1000, 2000], depth: 1 }).map((p) =>
      p.map(perturbationStep).join(' + '),
    );
    expect(steps).to.deep.equal([
      'Given the endpointslice controller sees endpointslice changes 1s late',
      'Given the endpointslice controller sees endpointslice changes 2s late',
      'Given the endpointslice controller sees pod changes 1s late',
      'Given the endpointslice controller sees pod changes 2s late',
      'Given the kubelet on node "node-1" sees pod changes 1s late',
      'Given the kubelet on node "node-1" sees pod changes 2s late',
      'Given requests of the endpointslice controller take 1s',
      'Given requests of the endpointslice controller take 2s',
      'Given the endpointslice controller misses endpointslice changes from T+0s until a relist at T+1s',
      'Given the endpointslice controller misses endpointslice changes from T+0s until a relist at T+2s',
      'Given the endpointslice controller misses pod changes from T+0s until a relist at T+1s',
      'Given the endpointslice controller misses pod changes from T+0s until a relist at T+2s',
      'Given the endpointslice controller misses pod changes from T+1s until a relist at T+2s',
      'Given the endpointslice controller misses pod changes from T+1s until a relist at T+3s',
      'Given the kubelet on node "node-1" misses pod changes from T+0s until a relist at T+1s',
      'Given the kubelet on node "node-1" misses pod changes from T+0s until a relist at T+2s',
      'Given the kubelet on node "node-1" misses pod changes from T+1s until a relist at T+2s',
      'Given the kubelet on node "node-1" misses pod changes from T+1s until a relist at T+3s',
      'Given the endpointslice controller restarts at T+0.001s',
      'Given the endpointslice controller restarts at T+0.999s',
      'Given the endpointslice controller restarts at T+1.001s',
    ]);
  });

  it('--max-delay widens the delays by doublings; pairs join two different perturbations; a failing plan reduces to each part, then to shorter delays', () => {
    expect(delaysUpTo(undefined)).to.deep.equal([1000, 2000]);
    expect(delaysUpTo(10_000)).to.deep.equal([1000, 2000, 4000, 8000, 10_000]);
    const singles = singlePlans(OBSERVED, { delaysMs: [1000], depth: 2 });
    const pairs = pairPlans(singles);
    expect(
      pairs.every(([a, b]) => !(a.type === b.type && JSON.stringify(a.target) === JSON.stringify(b.target))),
    ).to.equal(true);
    expect(pairs.length).to.be.greaterThan(0);
    const reduced = reductions([singles[0][0], singles[2][0]]).map((p) => p.map(perturbationStep).join(' + '));
    expect(reduced.slice(0, 3)).to.deep.equal([
      'Given the endpointslice controller sees endpointslice changes 1s late',
      'Given the kubelet on node "node-1" sees pod changes 1s late',
      'Given the endpointslice controller sees endpointslice changes 0.5s late + Given the kubelet on node "node-1" sees pod changes 1s late',
    ]);
  });
});

const FEATURE = `@tagged
Feature: f
  Some words.

  Background:
    Given a node "node-1"

  Scenario: first
    Given a pod "a" running on node "node-1"
    When the user deletes pod "a"

  @slow
  Scenario: second
    Scenario words.
    When 1s passes
    Then pod "b" is gone
`;

describe('the feature explore writes', () => {
  it('a location names the scenario at or above its line; the reproducing feature keeps the header and that scenario, its perturbations first', () => {
    expect(locateScenario('f.feature', 10, FEATURE)).to.deep.equal({ file: 'f.feature', line: 8, name: 'first' });
    expect(() => locateScenario('f.feature', undefined, FEATURE)).to.throw(
      'f.feature has 2 scenarios: name one as FILE:LINE (scenarios at lines 8, 13)',
    );
    const loc = locateScenario('f.feature', 13, FEATURE);
    expect(
      reproducingFeature(
        loc,
        ['Given Kubernetes v1.35'],
        ['Given the job controller sees job changes 2s late'],
        'explore: note',
        FEATURE,
      ),
    ).to.equal(`@tagged
Feature: f
  Some words.

  Background:
    Given a node "node-1"

  @slow
  Scenario: second
    Scenario words.
    Given Kubernetes v1.35
    # explore: note
    Given the job controller sees job changes 2s late
    When 1s passes
    Then pod "b" is gone
`);
  });
});

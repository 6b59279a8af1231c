import { describe, it } from 'node:test';
import { expect } from 'chai';
import { strategicMergePatch, StrategicMergeError } from './strategic-merge';

/** Behaviours of apimachinery strategicpatch.StrategicMergePatch on pods, as kubectl patch relies on them. */
describe('R74 strategic merge patch', () => {
  const pod = {
    metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a/x'] },
    spec: {
      containers: [
        { name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 'envoy' },
      ],
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
    },
  };

  it('merges containers by name and leaves the others alone', () => {
    const out = strategicMergePatch(pod, { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } });
    expect(out.spec.containers).to.deep.equal([
      { name: 'app', image: 'nginx:2', env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 'envoy' },
    ]);
    expect(pod.spec.containers[0].image).to.equal('nginx');
  });

  it('merges conditions by type and nested env by name', () => {
    const out = strategicMergePatch(pod, {
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
      spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '2' }] }] },
    });
    expect(out.status.conditions).to.deep.equal([
      { type: 'Ready', status: 'False' },
      { type: 'PodScheduled', status: 'True' },
    ]);
    expect(out.spec.containers[0].env).to.deep.equal([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
  });

  it('finalizers merge as a set: an empty list changes nothing, null removes them, $deleteFromPrimitiveList removes one', () => {
    expect(strategicMergePatch(pod, { metadata: { finalizers: [] } }).metadata.finalizers).to.deep.equal(['a/x']);
    expect(strategicMergePatch(pod, { metadata: { finalizers: ['b/y', 'a/x'] } }).metadata.finalizers).to.deep.equal([
      'a/x',
      'b/y',
    ]);
    expect(strategicMergePatch(pod, { metadata: { finalizers: null } }).metadata).to.not.have.property('finalizers');
    expect(
      strategicMergePatch(pod, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a/x'] } }).metadata.finalizers,
    ).to.deep.equal([]);
  });

  it('$patch: delete removes a list element by key; $patch: replace replaces a map or a list', () => {
    expect(
      strategicMergePatch(pod, { spec: { containers: [{ name: 'side', $patch: 'delete' }] } }).spec.containers.map(
        (c) => c.name,
      ),
    ).to.deep.equal(['app']);
    expect(
      strategicMergePatch(pod, { metadata: { labels: { tier: 'x', $patch: 'replace' } } }).metadata.labels,
    ).to.deep.equal({ tier: 'x' });
    expect(
      strategicMergePatch(pod, { spec: { containers: [{ $patch: 'replace' }, { name: 'only' }] } }).spec.containers,
    ).to.deep.equal([{ name: 'only' }]);
  });

  it('$retainKeys keeps only the listed keys; $setElementOrder orders a merged list', () => {
    expect(strategicMergePatch({ v: { a: 1, b: 2 } }, { v: { $retainKeys: ['b'], b: 3 } })).to.deep.equal({
      v: { b: 3 },
    });
    const out = strategicMergePatch(pod, {
      spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'app' }] },
    });
    expect(out.spec.containers.map((c) => c.name)).to.deep.equal(['side', 'app']);
  });

  it('lists without a merge strategy are replaced (tolerations)', () => {
    expect(
      strategicMergePatch({ spec: { tolerations: [{ key: 'a' }] } }, { spec: { tolerations: [{ key: 'b' }] } }),
    ).to.deep.equal({ spec: { tolerations: [{ key: 'b' }] } });
  });

  it('an element without its merge key and a patch that is not an object are errors', () => {
    expect(() => strategicMergePatch(pod, { spec: { containers: [{ image: 'x' }] } })).to.throw(
      StrategicMergeError,
      'map: map[image:x] does not contain declared merge key: name',
    );
    expect(() => strategicMergePatch(pod, [])).to.throw(
      StrategicMergeError,
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});

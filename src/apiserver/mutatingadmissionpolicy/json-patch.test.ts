import { describe, it } from 'node:test';
import { expect } from 'chai';
import { applyJsonPatch, JsonPatchError, type PatchOperation } from './json-patch';

const op = (o: Partial<PatchOperation> & { op: string; path: string }): PatchOperation => ({ from: '', ...o });

/** The error text (or testFailed) of a patch that does not apply. */
function error(doc: unknown, ops: PatchOperation[]): { message: string; testFailed: boolean } {
  try {
    applyJsonPatch(doc, ops);
  } catch (e) {
    if (e instanceof JsonPatchError) return { message: e.message, testFailed: e.testFailed };
    throw e;
  }
  return expect.fail('the patch applied');
}

describe('R317 JSON Patch as a MutatingAdmissionPolicy applies it (evanphx/json-patch v4 Patch.Apply)', () => {
  const pod = {
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { containers: [{ name: 'a' }, { name: 'b' }] },
  };

  it('add, remove, replace, move, copy; the input is not changed', () => {
    const out = applyJsonPatch(pod, [
      op({ op: 'add', path: '/metadata/labels/team', value: 'x' }),
      op({ op: 'add', path: '/spec/containers/1', value: { name: 'mid' } }),
      op({ op: 'add', path: '/spec/containers/-', value: { name: 'end' } }),
      op({ op: 'remove', path: '/metadata/labels/app' }),
      op({ op: 'replace', path: '/spec/containers/0/name', value: 'first' }),
      op({ op: 'copy', from: '/metadata/name', path: '/metadata/labels/name' }),
      op({ op: 'move', from: '/metadata/labels/team', path: '/metadata/labels/owner' }),
    ]);
    expect(out).to.deep.equal({
      metadata: { name: 'web', labels: { name: 'web', owner: 'x' } },
      spec: { containers: [{ name: 'first' }, { name: 'mid' }, { name: 'b' }, { name: 'end' }] },
    });
    expect(pod.metadata.labels).to.deep.equal({ app: 'web' });
  });

  it('keys escaped as RFC 6901 (~1 for /, ~0 for ~); a negative index counts from the end', () => {
    const out = applyJsonPatch(pod, [
      op({ op: 'add', path: '/metadata/labels/example.com~1a~0b', value: 'v' }),
      op({ op: 'remove', path: '/spec/containers/-1' }),
    ]) as typeof pod;
    expect(out.metadata.labels).to.deep.equal({ app: 'web', 'example.com/a~b': 'v' });
    expect(out.spec.containers).to.deep.equal([{ name: 'a' }]);
  });

  it("v4's replace of a missing member sets it; add over a member overwrites it", () => {
    const out = applyJsonPatch(pod, [
      op({ op: 'replace', path: '/metadata/annotations', value: { a: 'b' } }),
      op({ op: 'add', path: '/metadata/name', value: 'other' }),
    ]) as { metadata: Record<string, unknown> };
    expect(out.metadata.annotations).to.deep.equal({ a: 'b' });
    expect(out.metadata.name).to.equal('other');
  });

  it('errors in the library words', () => {
    expect(error(pod, [op({ op: 'add', path: '/metadata/annotations/a', value: 'b' })]).message).to.equal(
      'add operation does not apply: doc is missing path: "/metadata/annotations/a": missing value',
    );
    expect(error(pod, [op({ op: 'remove', path: '/metadata/labels/nope' })]).message).to.equal(
      "error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value",
    );
    expect(error(pod, [op({ op: 'add', path: '/spec/containers/5', value: {} })]).message).to.equal(
      "error in add for path: '/spec/containers/5': Unable to access invalid index: 5: invalid index referenced",
    );
    expect(error(pod, [op({ op: 'replace', path: '/spec/containers/9', value: {} })]).message).to.equal(
      'replace operation does not apply: doc is missing key: /spec/containers/9: missing value',
    );
    expect(error(pod, [op({ op: 'move', from: '/nope/x', path: '/a' })]).message).to.equal(
      'move operation does not apply: doc is missing from path: /nope/x: missing value',
    );
    expect(error(pod, [op({ op: 'merge', path: '/a' })]).message).to.equal('Unexpected kind: merge');
  });

  it('a test that does not hold is ErrTestFailed (the patcher then leaves the object unchanged)', () => {
    expect(applyJsonPatch(pod, [op({ op: 'test', path: '/metadata/name', value: 'web' })])).to.deep.equal(pod);
    expect(error(pod, [op({ op: 'test', path: '/metadata/name', value: 'db' })])).to.deep.equal({
      message: 'testing value /metadata/name failed: test failed',
      testFailed: true,
    });
  });
});

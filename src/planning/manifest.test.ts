import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ManifestError, parseYaml } from './manifest';

/** The error parseYaml throws for `text`, as its class and message. */
function failure(text: string, what: string): string {
  try {
    parseYaml(text, what);
  } catch (e) {
    expect(e).to.be.instanceOf(ManifestError);
    return (e as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

describe('parseYaml, kept by text', () => {
  it('hands every use of one text its own value: what one caller changes, the next does not see', () => {
    const text = 'metadata:\n  labels: {app: web}\nspec:\n  containers: [{name: app}]\n';
    const first = parseYaml(text, 'the first') as { metadata: { labels: Record<string, string> }; spec: unknown };
    first.metadata.labels.app = 'changed';
    first.spec = 'replaced';
    expect(parseYaml(text, 'the second')).to.deep.equal({
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'app' }] },
    });
  });

  it('keeps what the parse made: an alias stays the anchor`s object, NaN and -0 stay, a Buffer stays a Buffer', () => {
    for (let use = 0; use < 2; use++) {
      const v = parseYaml('a: &x {b: 1}\nc: *x\nn: .nan\nz: -0\n', 'anchors') as Record<string, unknown>;
      expect(v.c).to.equal(v.a);
      expect(v.n).to.be.NaN;
      expect(Object.is(v.z, -0)).to.equal(true);
      const bin = parseYaml('b: !!binary aGVsbG8=\n', 'binary') as { b: unknown };
      expect(Buffer.isBuffer(bin.b), `use ${use}`).to.equal(true);
    }
  });

  it('refuses a malformed text again with the manifest each use names, at the same line and column', () => {
    const text = 'a: 1\na: 2\n';
    expect(failure(text, 'the manifest of pod "web"')).to.equal(
      'malformed YAML in the manifest of pod "web" at line 2, column 1: Map keys must be unique at line 2, column 1:',
    );
    expect(failure(text, 'the manifest of pod "db"')).to.equal(
      'malformed YAML in the manifest of pod "db" at line 2, column 1: Map keys must be unique at line 2, column 1:',
    );
  });
});

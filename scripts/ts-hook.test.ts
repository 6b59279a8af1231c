import { describe, it } from 'node:test';
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedPath } from './ts-hook';

describe('ts-hook', () => {
  it('compiles a .ts file once per text: the output is cached under a hash of the text', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'terminating-ts-hook-')), 'answer.ts');
    const first = 'export const answer: number = 41;\n';
    writeFileSync(file, first);
    expect(existsSync(cachedPath(first, file))).to.equal(false);
    expect(require(file).answer).to.equal(41);
    expect(readFileSync(cachedPath(first, file), 'utf8')).to.contain('answer = 41');

    const second = 'export const answer: number = 42;\n';
    writeFileSync(file, second);
    delete require.cache[file];
    expect(require(file).answer).to.equal(42);
    expect(cachedPath(second, file)).to.not.equal(cachedPath(first, file));
    expect(existsSync(cachedPath(second, file))).to.equal(true);
  });

  it('keeps the TypeScript lines in stack traces, from the cache too', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'terminating-ts-hook-')), 'throws.ts');
    const source = 'interface A {\n  a: number;\n}\nexport function f(): A {\n  throw new Error("here");\n}\n';
    writeFileSync(file, source);
    for (const _ of [1, 2]) {
      delete require.cache[file];
      const { f } = require(file) as { f: () => void };
      expect(() => f())
        .to.throw()
        .with.property('stack')
        .that.includes(`${file}:5:`);
    }
    expect(existsSync(cachedPath(source, file))).to.equal(true);
  });
});

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
});

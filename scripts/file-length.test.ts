import { describe, it } from 'node:test';
import { expect } from 'chai';
import { BEING_SPLIT, lineCount, longFiles, MAX_LINES } from './file-length';

describe('the file-length check (scripts/file-length.ts)', () => {
  it('counts lines as an editor numbers them', () => {
    expect(lineCount('')).to.equal(0);
    expect(lineCount('a\n')).to.equal(1);
    expect(lineCount('a\nb')).to.equal(2);
    expect(lineCount('a\nb\n')).to.equal(2);
  });

  it('fails on a file over the limit, naming it, its length and the limit', () => {
    const problems = longFiles([
      { file: 'src/short.ts', lines: MAX_LINES },
      { file: 'src/long.ts', lines: MAX_LINES + 1 },
    ]);
    expect(problems).to.deep.equal([
      `src/long.ts: ${MAX_LINES + 1} lines, over the limit of ${MAX_LINES}: split it along its concepts`,
    ]);
  });

  it('lets a file being split on a branch through, and only that file', () => {
    const files = [
      { file: 'src/a.ts', lines: 900 },
      { file: 'src/b.ts', lines: 900 },
    ];
    expect(longFiles(files, 800, [{ file: 'src/a.ts' }])).to.have.length(1);
    expect(longFiles(files, 800, [{ file: 'src/a.ts' }])[0]).to.match(/^src\/b\.ts: 900 lines/);
  });

  it('names a branch for every file it lets through', () => {
    for (const e of BEING_SPLIT) expect(e.branch).to.match(/\S/);
  });
});

import { describe, it } from 'node:test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import './ts-hook';

const CACHE = path.join(__dirname, '..', 'node_modules', '.cache', 'terminating-ts');

/** Requires a .ts file afresh (out of require's own cache). */
function load(file: string): { value: number } {
  delete require.cache[file];
  return require(file) as { value: number };
}

describe('scripts/ts-hook.js', () => {
  it('strips the types, and compiles a file again once its text changes (the disk cache is keyed by it)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ts-hook-'));
    try {
      const file = path.join(dir, 'value.ts');
      const before = new Set(readdirSync(CACHE));
      writeFileSync(file, 'export const value: number = 1;\n');
      expect(load(file).value).to.equal(1);
      expect(readdirSync(CACHE).filter((f) => !before.has(f)), 'one compiled file kept').to.have.length(1);
      writeFileSync(file, 'export const value: number = 2;\n');
      expect(load(file).value).to.equal(2);
      expect(load(file).value, 'from the cache').to.equal(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the TypeScript lines in stack traces', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ts-hook-'));
    try {
      const file = path.join(dir, 'throws.ts');
      writeFileSync(file, 'interface A {\n  a: number;\n}\nexport function f(): A {\n  throw new Error("here");\n}\n');
      const { f } = require(file) as { f: () => void };
      expect(() => f()).to.throw().with.property('stack').that.includes(`${file}:5:`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

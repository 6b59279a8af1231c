import { describe, it } from 'node:test';
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cycles, type Edge, importGraph, importsOf, isTestSupport, type Layer, violations } from './layers';

const LAYERS: Layer[] = [
  { dir: 'base', holds: 'b' },
  { dir: 'middle', holds: 'm', independentParts: true },
  { dir: 'top', holds: 't' },
];
const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });

describe('the import-boundary check (scripts/layers.ts)', () => {
  it('accepts imports downward and within a layer', () => {
    const files = ['src/base/a.ts', 'src/middle/x/b.ts', 'src/middle/x/c.ts', 'src/top/d.ts'];
    const edges = [
      edge('src/top/d.ts', 'src/middle/x/b.ts'),
      edge('src/middle/x/b.ts', 'src/middle/x/c.ts'),
      edge('src/middle/x/c.ts', 'src/base/a.ts'),
    ];
    expect(violations(files, edges, LAYERS, [])).to.deep.equal([]);
  });

  it('fails on an upward import, value or type-only, naming both files and both layers', () => {
    const files = ['src/base/a.ts', 'src/top/d.ts'];
    const problems = violations(files, [edge('src/base/a.ts', 'src/top/d.ts', true)], LAYERS, []);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^src\/base\/a\.ts → src\/top\/d\.ts: a type-only import upward, from base to top/);
    expect(violations(files, [edge('src/base/a.ts', 'src/top/d.ts')], LAYERS, [])[0]).to.contain('an import upward');
  });

  it('fails on an import between two parts of a layer of independent parts', () => {
    const problems = violations(
      ['src/middle/x/b.ts', 'src/middle/y/c.ts'],
      [edge('src/middle/x/b.ts', 'src/middle/y/c.ts')],
      LAYERS,
      [],
    );
    expect(problems).to.have.length(1);
    expect(problems[0]).to.contain('between two parts of middle (x and y)');
  });

  it('fails on a module outside the layers and on a cycle between top-level folders', () => {
    const files = ['src/loose.ts', 'src/base/a.ts', 'src/other/b.ts'];
    const problems = violations(
      files,
      [edge('src/base/a.ts', 'src/other/b.ts'), edge('src/other/b.ts', 'src/base/a.ts')],
      LAYERS,
      [],
    );
    expect(problems).to.include('the top-level folders of src/ form a cycle: base, other');
    expect(problems.some((p) => p.startsWith('src/loose.ts is in no layer'))).to.equal(true);
  });

  it('lets an allowed type-only import pass, but never a value import, and fails on a stale allowance', () => {
    const allowed = [{ from: 'src/base/a.ts', to: 'src/top/d.ts' }];
    expect(
      violations(['src/base/a.ts', 'src/top/d.ts'], [edge('src/base/a.ts', 'src/top/d.ts', true)], LAYERS, allowed),
    ).to.deep.equal([]);
    const value = violations(
      ['src/base/a.ts', 'src/top/d.ts'],
      [edge('src/base/a.ts', 'src/top/d.ts')],
      LAYERS,
      allowed,
    );
    expect(value.filter((p) => p.includes('an import upward'))).to.have.length(1);
    expect(violations(['src/base/a.ts'], [], LAYERS, allowed)[0]).to.contain('no longer exists');
  });

  it('reads every kind of import as tsc does, type-only ones marked', () => {
    const code = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import { type E, f } from './e';",
      "export { g } from './g';",
      "export type { H } from './h';",
      "const i = require('./i');",
      "const j = import('./j');",
      "let k: import('./k').K;",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(importsOf('x.ts', code)).to.deep.equal([
      { specifier: './a', typeOnly: false },
      { specifier: './b', typeOnly: true },
      { specifier: './c', typeOnly: true },
      { specifier: './e', typeOnly: false },
      { specifier: './g', typeOnly: false },
      { specifier: './h', typeOnly: true },
      { specifier: './i', typeOnly: false },
      { specifier: './j', typeOnly: false },
      { specifier: './k', typeOnly: true },
    ]);
  });

  it('finds a planted upward import in a tree on disk, and leaves test files out', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'layers-'));
    try {
      mkdirSync(path.join(root, 'src/foundation'), { recursive: true });
      mkdirSync(path.join(root, 'src/apiserver'), { recursive: true });
      writeFileSync(
        path.join(root, 'src/apiserver/store.ts'),
        "import { Clock } from '../foundation/clock';\nexport const store = Clock;\n",
      );
      writeFileSync(
        path.join(root, 'src/foundation/clock.ts'),
        "import type { store } from '../apiserver/store';\nexport class Clock {}\n",
      );
      writeFileSync(path.join(root, 'src/foundation/clock.test.ts'), "import { store } from '../apiserver/store';\n");
      const { files, edges } = importGraph(root);
      expect(files).to.deep.equal(['src/apiserver/store.ts', 'src/foundation/clock.ts']);
      const problems = violations(files, edges, undefined, []);
      expect(problems[0]).to.match(
        /^src\/foundation\/clock\.ts → src\/apiserver\/store\.ts: a type-only import upward, from foundation to apiserver/,
      );
      expect(problems).to.include('the top-level folders of src/ form a cycle: apiserver, foundation');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('knows test support from the code it tests', () => {
    expect(
      ['a.test.ts', 'src/x/testing.ts', 'src/x/workload-testing.ts', 'src/x/testing-tools.ts'].map(isTestSupport),
    ).to.deep.equal([true, true, true, false]);
  });

  it('finds each cycle once, and none in a chain', () => {
    const arcs = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(['a', 'b', 'c', 'd'], arcs)).to.deep.equal([['a', 'b', 'c']]);
    expect(cycles(['a', 'b'], new Map([['a', new Set(['b'])]]))).to.deep.equal([]);
  });
});

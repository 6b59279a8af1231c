import { describe, it } from 'node:test';
import { expect } from 'chai';
import {
  describeSummary,
  fileOf,
  summariseCpuProfile,
  summariseHeapProfile,
  type CpuProfile,
  type HeapProfile,
} from './profile-summary';

const ROOT = '/work/project';

describe('profile summaries (BENCH_PROFILE=1 npm run bench)', () => {
  it('names a call frame by its project file, its package, node itself or V8', () => {
    expect(fileOf('/work/project/src/apiserver/etcd.ts', 'put', ROOT)).to.equal('src/apiserver/etcd.ts');
    expect(fileOf('file:///work/project/src/foundation/clock.ts', 'tick', ROOT)).to.equal('src/foundation/clock.ts');
    expect(fileOf('/work/project/node_modules/yaml/dist/stringify/stringify.js', 'stringify', ROOT)).to.equal(
      'node_modules/yaml',
    );
    expect(fileOf('/work/project/node_modules/@cucumber/cucumber/lib/runtime/index.js', 'run', ROOT)).to.equal(
      'node_modules/@cucumber/cucumber',
    );
    expect(fileOf('node:internal/modules/cjs/loader', 'Module._load', ROOT)).to.equal('node:internal');
    expect(fileOf('', '(garbage collector)', ROOT)).to.equal('(garbage collector)');
    expect(fileOf('', 'writeUtf8String', ROOT)).to.equal('(writeUtf8String)');
    expect(fileOf('', '', ROOT)).to.equal('(native)');
  });

  it('sums the main thread’s self time by file, idle time left out, largest first', () => {
    const frame = (url: string, functionName = 'f') => ({ functionName, url });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('', '(root)') },
        { id: 2, callFrame: frame('/work/project/src/a.ts') },
        { id: 3, callFrame: frame('/work/project/src/b.ts') },
        { id: 4, callFrame: frame('', '(garbage collector)') },
        { id: 5, callFrame: frame('', '(idle)') },
        { id: 6, callFrame: frame('/work/project/src/a.ts', 'g') },
      ],
      samples: [2, 3, 4, 5, 6, 2],
      timeDeltas: [1000, 2000, 3000, 50_000, 1000, 1000],
    };
    const s = summariseCpuProfile(profile, ROOT);
    expect(s.total).to.equal(8);
    expect(s.top.map((t) => [t.file, t.amount])).to.deep.equal([
      ['(garbage collector)', 3],
      ['src/a.ts', 3],
      ['src/b.ts', 2],
    ]);
    expect(describeSummary(s, 2)).to.equal('GC 38 %, src/a.ts 38 %');
  });

  it('sums the bytes live at exit by the file that allocated them, over the whole call tree', () => {
    const node = (url: string, selfSize: number, children: HeapProfile['head'][] = []): HeapProfile['head'] => ({
      callFrame: { functionName: 'f', url },
      selfSize,
      children,
    });
    const MB = 1024 * 1024;
    const profile: HeapProfile = {
      head: node('', 0, [
        node('/work/project/src/apiserver/etcd.ts', 3 * MB, [
          node('/work/project/src/apiserver/encode.ts', 2 * MB),
          node('/work/project/src/apiserver/etcd.ts', MB),
        ]),
        node('node:internal/x', MB),
      ]),
    };
    const s = summariseHeapProfile(profile, ROOT, 2);
    expect(s.total).to.equal(7);
    expect(s.top).to.deep.equal([
      { file: 'src/apiserver/etcd.ts', amount: 4, share: 4 / 7 },
      { file: 'src/apiserver/encode.ts', amount: 2, share: 2 / 7 },
    ]);
  });
});

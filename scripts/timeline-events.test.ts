import { describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { allEventSites, callArguments, eventSites, placeholder, renderEventSites } from './timeline-events';

const ROOT = path.resolve(__dirname, '..');

describe('the timeline events, read from the code', () => {
  it('splits a call into its arguments, templates with nested expressions and strings included', () => {
    const code =
      "x.record('runtime', `exited ${c.name} code=${f(a, `b${1}`)} ${s.podRef}`, `${CRI} exit`, { actor: n })";
    expect(callArguments(code, code.indexOf('('))).to.deep.equal([
      "'runtime'",
      '`exited ${c.name} code=${f(a, `b${1}`)} ${s.podRef}`',
      '`${CRI} exit`',
      '{ actor: n }',
    ]);
  });
  it('names run-time values by what the code calls them', () => {
    expect([
      placeholder('s.podRef'),
      placeholder('this.nodeName'),
      placeholder('gracePeriod'),
      placeholder('a ? b : c'),
    ]).to.deep.equal(['pods/NAME', 'NODE', 'GRACE_PERIOD', '…']);
  });
  it("finds record() calls and the apiserver's requests, with the file's constants in their sources", () => {
    const code = [
      "const CRI = 'CRI runtime';",
      'function f() {',
      "  this.timeline.record('runtime', `SIGTERM ${c.name} ${s.podRef}`, `${CRI} StopContainer`, { actor: this.nodeName });",
      '  const text = `DELETE pods/${name}`;',
      "  return this.mutate(client, 'DELETE', 'pods', ns, name, text, 'store.go Delete', () => run());",
      "  this.timeline.record('user', line.trim(), 'x.go F');",
      '}',
    ].join('\n');
    expect(eventSites('src/x.ts', code)).to.deep.equal([
      {
        component: 'runtime',
        text: 'SIGTERM CONTAINER pods/NAME',
        source: 'CRI runtime StopContainer',
        where: 'src/x.ts',
      },
      { component: 'user', text: '(built at run time)', source: 'x.go F', where: 'src/x.ts' },
      { component: 'apiserver', text: 'DELETE pods/NAME', source: 'store.go Delete', where: 'src/x.ts' },
    ]);
  });
  it('lists every record() call of src/, for every component that has one', () => {
    const sites = allEventSites(ROOT);
    const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    const components = new Set<string>();
    for (const f of files)
      for (const m of readFileSync(path.join(ROOT, 'src', f), 'utf8').matchAll(/\.record\(\s*'(\w+)'/g))
        components.add(m[1]!);
    expect(new Set(sites.map((s) => s.component))).to.include.all.keys([...components]);
    const table = renderEventSites(sites);
    for (const text of [
      '`node NAME cannot reach the apiserver`',
      '`force delete pods/NAME: WHY`',
      '`taint eviction pods/NAME: deleting due to NoExecute taint`',
      '`watch resumed from rv=',
      '`SIGTERM or SIGKILL CONTAINER pods/NAME`',
      '`delete NAME: WHY`',
    ])
      expect(table).to.include(text);
  });
});

// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs the documents' Gherkin through cucumber's API.
/**
 * Every snippet of README.md and docs/ can be pasted (scripts/doc-snippets.ts says how each kind is
 * run): the Gherkin blocks run green with the project's steps, the shell blocks marked `run` run
 * with bash, and every command block says who runs it.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { realKubectlPath } from '../src/frontends/kubectl/real-kubectl';
import { runCucumber } from './cucumber-in-process';
import { brokenLinks, documents, markingError, ROOT, snippets, type Snippet } from './doc-snippets';

const all: Snippet[] = documents().flatMap(snippets);
const scratch = mkdtempSync(join(tmpdir(), 'doc-snippets-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** bash with `npx terminating` being this clone's bin (a user's npx finds the installed package's). */
const PRELUDE = `set -euo pipefail
npx() { if [ "$1" = terminating ]; then shift; node ${JSON.stringify(join(ROOT, 'bin', 'terminating.js'))} "$@"; else command npx "$@"; fi; }
`;

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** Starts `terminating serve` with the block's own options; resolves with the server and its kubeconfig. */
async function serve(args: string[], dir: string): Promise<{ server: ChildProcess; kubeconfig: string }> {
  const server = spawn(process.execPath, [join(ROOT, 'bin', 'terminating.js'), 'serve', ...args, '--report-dir', dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops.')) resolve();
    });
    server.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    server.once('close', (code) =>
      reject(new Error(`terminating serve ${args.join(' ')} exited with ${code}:\n${out}`)),
    );
  });
  return { server, kubeconfig: join(dir, 'kubeconfig') };
}

describe('the snippets of README.md and docs/ (scripts/doc-snippets.ts)', () => {
  it('every command block says who runs it, and every Gherkin block is tagged', () => {
    assert.ok(all.length > 10, `found only ${all.length} blocks`);
    assert.deepEqual(all.map(markingError).filter(Boolean), []);
  });

  it('every relative link leads to a file, and every #anchor to one of its headings', () => {
    assert.deepEqual(documents().concat(['docs/steps.md']).flatMap(brokenLinks), []);
  });

  it('keeps "not run" rare: each is justified, and they are fewer than a third of the blocks', () => {
    const runnable = all.filter((s) => s.marker !== undefined || s.lang === 'gherkin');
    const notRun = runnable.filter((s) => s.marker?.startsWith('not run'));
    assert.ok(notRun.length * 3 < runnable.length, `not run: ${notRun.map((s) => `${s.file}:${s.line}`).join(', ')}`);
  });

  it("every Gherkin block runs green as a feature with the project's steps", async () => {
    const gherkin = all.filter((s) => s.lang === 'gherkin' && s.marker === undefined);
    assert.ok(gherkin.length >= 5);
    // A folder beside features/ (and outside what the profiles run), so a path in a step
    // (`the objects in "../examples/…"`) resolves as it does from a feature in features/.
    const dir = mkdtempSync(join(ROOT, '.doc-snippets-'));
    try {
      // A block repeated word for word (README's first scenario is also docs/scenarios.md's) runs once: a run is
      // deterministic, so the same text gives the same result wherever it is pasted; a failure names every place.
      const texts = new Map<string, Snippet[]>();
      for (const s of gherkin) texts.set(s.text, [...(texts.get(s.text) ?? []), s]);
      for (const [i, [text, places]] of [...texts].entries()) {
        const path = join(dir, `${i}-${places[0].file.replace(/[/.]/g, '_')}-${places[0].line}.feature`);
        writeFileSync(path, `${text}\n`);
        const r = await runCucumber({ paths: [path] });
        assert.ok(
          r.success && !/undefined|skipped/.test(r.output.split('\n').slice(-4).join('\n')),
          `${places.map((s) => `${s.file}:${s.line}`).join(', ')} does not run green:\n${r.output}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const s of all.filter((b) => b.marker === 'run')) {
    it(`${s.file}:${s.line} runs`, async () => {
      const cwd = mkdtempSync(join(scratch, 'run-'));
      const r = await bash(`${PRELUDE}cd ${JSON.stringify(ROOT)}\n${s.text}`, cwd, {});
      assert.equal(r.code, 0, `${s.file}:${s.line} exited with ${r.code}:\n${r.out}`);
    });
  }

  for (const s of all.filter((b) => b.marker === 'run against serve')) {
    it(`${s.file}:${s.line} runs against a served cluster`, async () => {
      const lines = s.text.split('\n');
      const start = lines.findIndex((l) => /^npx terminating serve\b/.test(l));
      const args = start < 0 ? [] : lines[start].replace(/#.*$/, '').trim().split(/\s+/).slice(3);
      const dir = mkdtempSync(join(scratch, 'serve-'));
      const { server, kubeconfig } = await serve(args, dir);
      try {
        const kubectl = await realKubectlPath();
        const script = `${PRELUDE}kubectl() { ${JSON.stringify(kubectl)} "$@"; }\ncd ${JSON.stringify(ROOT)}\n${lines.filter((_, i) => i !== start).join('\n')}`;
        const r = await bash(script, dir, { KUBECONFIG: kubeconfig });
        assert.equal(r.code, 0, `${s.file}:${s.line} exited with ${r.code}:\n${r.out}`);
      } finally {
        const closed = new Promise((done) => server.once('close', done));
        server.kill('SIGTERM');
        await closed;
      }
    });
  }
});

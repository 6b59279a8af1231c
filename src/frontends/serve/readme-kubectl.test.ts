import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');
/** A generous bound for starting node processes on a busy machine (not a sleep: the test goes on once ready). */
const START_MS = 60_000;
/** The virtual time the README's session starts at, as it says. */
const README_START = '2025-01-01T00:01:00Z';

/**
 * The README's "The first served session" section, run as written: its `sh` block starts the server,
 * its `console` block is a list of `$ command` lines, each followed by the output it must print.
 * `npx terminating` is the package's bin, bin/terminating.js (checked against package.json), run
 * here with node directly; the server writes into a temporary directory instead of reports/serve
 * (`--report-dir`), and the kubeconfig exported is the one it prints.
 */
function section(): { start: string; session: { command: string; output: string[] }[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf('## The first served session');
  const text = readme.slice(from, readme.indexOf('\n## ', from + 1));
  const block = (lang: string) => {
    const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
    if (!m) throw new Error(`README "The first served session" has no \`\`\`${lang} block`);
    return m[1].trimEnd().split('\n');
  };
  const session: { command: string; output: string[] }[] = [];
  for (const line of block('console')) {
    if (line.startsWith('$ ')) session.push({ command: line.slice(2), output: [] });
    else session.at(-1)!.output.push(line);
  }
  return { start: block('sh')[0].replace(/\s+#.*$/, ''), session };
}

function bin(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawn(process.execPath, [join(ROOT, 'bin/terminating.js'), ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function words(command: string, prefix: string): string[] {
  expect(command.startsWith(prefix), `README command "${command}" should start with "${prefix}"`).to.equal(true);
  return command.slice(prefix.length).trim().split(/\s+/);
}

describe('README "The first served session" (run as written)', () => {
  it('npx terminating is bin/terminating.js', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin).to.deep.equal({
      terminating: 'bin/terminating.js',
    });
  });

  it('serve, then the real kubectl: web goes Terminating, vanishes once someone waits, and every output is as shown', async () => {
    const { start, session } = section();
    const dir = mkdtempSync(join(tmpdir(), 'readme-kubectl-'));
    // --start pins virtual time to the README's (serve starts it at the wall-clock time otherwise).
    const server = bin([...words(start, 'npx terminating'), '--report-dir', dir, '--start', README_START]);
    const exited = new Promise<number | null>((done) => server.once('close', (code) => done(code)));
    try {
      let out = '';
      server.stdout.setEncoding('utf8');
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`serve was not ready after ${START_MS} ms:\n${out}`)), START_MS);
        server.stdout.on('data', (d: string) => {
          out += d;
          if (out.includes('Ctrl-C stops.')) {
            clearTimeout(timer);
            ready();
          }
        });
      });
      const printed = /^ {2}export KUBECONFIG=(.*)$/m.exec(out)![1];
      expect(printed).to.equal(join(dir, 'kubeconfig'));
      const [exportLine, ...commands] = session;
      // With the default --report-dir, serve prints exactly the README's line.
      expect(exportLine.command).to.equal('export KUBECONFIG=$PWD/reports/serve/kubeconfig');
      const env = { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: printed };

      for (const { command, output } of commands) {
        const child = bin(words(command, 'npx terminating'), env);
        let got = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (got += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (got += d));
        await new Promise<void>((done) => child.once('close', () => done()));
        expect(got.trimEnd().split('\n'), `output of \`${command}\``).to.deep.equal(output);
      }
      server.kill('SIGINT');
      expect(await exited).to.equal(0);
      expect(existsSync(join(dir, 'index.html'))).to.equal(true);
      expect(readFileSync(join(dir, 'timeline.txt'), 'utf8')).to.match(
        /T\+31s\s+apiserver\s+DELETE pods\/web gracePeriodSeconds=0/,
      );
    } finally {
      server.kill('SIGKILL');
    }
  });
});

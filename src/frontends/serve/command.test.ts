import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { openWatch, request } from '../server/testing';
import { Release } from '../../foundation/release';
import { parseServeArgs } from './command';

const BIN = resolve(__dirname, '../../../bin/terminating.js');
/** A generous bound for starting a node process on a busy machine (not a sleep: the test goes on as soon as it is ready). */
const START_MS = 60_000;

/** Runs bin/terminating.js to its end: [exit code, stderr]. */
function run(args: string[]): Promise<[number | null, string]> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('close', (code) => done([code, err]));
  });
}

describe('terminating serve (the command)', () => {
  it('R94 reads its flags', () => {
    // Virtual time starts from the wall-clock time the command runs, in whole seconds (the clock read once, here).
    const now = () => Date.UTC(2026, 5, 1, 12, 0, 0, 750);
    // 10 minutes before it (SERVE_HEADROOM_MS): a jumping clock has that much room before it meets the wall clock.
    expect(parseServeArgs([], now)).to.deep.equal({
      port: 0,
      manifests: undefined,
      clock: { kind: 'jump', quietMs: 50 },
      release: undefined,
      reportDir: 'reports/serve',
      kubeconfig: undefined,
      start: Date.UTC(2026, 5, 1, 11, 50, 0),
    });
    expect(
      parseServeArgs(
        [
          '--port',
          '8080',
          '--clock',
          'fast=10',
          '--manifests',
          'c.yaml',
          '--kubernetes',
          '1.30',
          '--report-dir',
          'r',
          '--kubeconfig',
          'k',
          '--start',
          '2025-06-01T10:00:00+02:00',
        ],
        now,
      ),
    ).to.deep.equal({
      port: 8080,
      manifests: 'c.yaml',
      clock: { kind: 'fast', factor: 10 },
      release: Release.of(30),
      reportDir: 'r',
      kubeconfig: 'k',
      start: Date.UTC(2025, 5, 1, 8, 0, 0),
    });
    expect(parseServeArgs(['--help'])).to.equal('help');
  });

  it('bad flags: one line saying what is wrong', () => {
    expect(() => parseServeArgs(['--port', 'http'])).to.throw(
      'invalid --port "http": expected a TCP port number 0-65535 (0: any free port)',
    );
    expect(() => parseServeArgs(['--port', '70000'])).to.throw('invalid --port "70000"');
    expect(() => parseServeArgs(['--colck', 'jump'])).to.throw(
      "Unknown option '--colck' (see terminating serve --help)",
    );
    expect(() => parseServeArgs(['--port'])).to.throw(
      "Option '--port <value>' argument missing (see terminating serve --help)",
    );
    expect(() => parseServeArgs(['--kubernetes', '1.25'])).to.throw(
      'invalid --kubernetes: Kubernetes "1.25" is not supported: the simulation models releases',
    );
    expect(() => parseServeArgs(['--start', 'yesterday'])).to.throw(
      'invalid --start "yesterday": expected an RFC 3339 time such as 2025-06-01T12:00:00Z',
    );
    expect(() => parseServeArgs(['extra'])).to.throw("Unexpected argument 'extra' (see terminating serve --help)");
  });

  it('bin/terminating.js: a bad flag exits 2, a bad manifest file exits 1, each with one line on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-cmd-'));
    writeFileSync(join(dir, 'bad.yaml'), 'kind: Deployment\nmetadata: { name: x }\n');
    const [bad, manifest, unknown] = await Promise.all([
      run(['serve', '--clock', 'slow']),
      run(['serve', '--manifests', join(dir, 'bad.yaml')]),
      run(['srve']),
    ]);
    expect(bad).to.deep.equal([
      2,
      'terminating serve: invalid --clock "slow": expected jump, jump=QUIET (e.g. jump=200ms), realtime, manual, or fast=N (N times wall time, N > 0, e.g. fast=10)\n',
    ]);
    expect(manifest).to.deep.equal([
      1,
      `terminating serve: ${join(dir, 'bad.yaml')}: document 1, line 1: unknown kind "Deployment": a manifest file holds Nodes, Pods, ReplicaSets and Services (or a List of them)\n`,
    ]);
    expect(unknown).to.deep.equal([
      2,
      'terminating srve: unknown command "srve" (commands: init, test, serve, kubectl, explain, explore)\n',
    ]);
  });

  it('bin/terminating.js serve: prints the kubeconfig to use, serves until SIGTERM, then closes its watches and writes the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-cmd-'));
    const child = spawn(process.execPath, [BIN, 'serve', '--report-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`serve did not get ready in ${START_MS} ms; stdout so far:\n${out}`)),
          START_MS,
        );
        child.stdout.on('data', (d: string) => {
          out += d;
          if (out.includes('Ctrl-C stops.')) {
            clearTimeout(timer);
            ready();
          }
        });
      });
      expect(out).to.contain(`  export KUBECONFIG=${join(dir, 'kubeconfig')}\n`);
      const url = /at (http:\/\/127\.0\.0\.1:\d+),/.exec(out)![1];
      expect((await request(url, 'GET', '/version')).status).to.equal(200);
      const watch = await openWatch(url, '/api/v1/namespaces/default/pods?watch=true');
      child.kill('SIGTERM');
      await watch.ended;
      expect(await exited).to.equal(0);
      expect(out)
        .to.contain('SIGTERM: stopping')
        .and.contain(`report written: ${join(dir, 'index.html')}`);
      expect(existsSync(join(dir, 'timeline.json'))).to.equal(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

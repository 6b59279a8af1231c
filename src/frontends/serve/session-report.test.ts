// It starts `terminating serve` and stops it with SIGINT: this file runs in a process of its own (scripts/unit-tests.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { formatTimeline } from '../../foundation/timeline/text';
import { Timeline } from '../../foundation/timeline/timeline';

const ROOT = resolve(__dirname, '../../..');
const PODS = 300;

/**
 * R95 — big sessions end cleanly: the report of a session with hundreds of thousands of timeline
 * events is written without spreading them into one call (a `serve` session that deleted 10 000
 * pods has ≈ 340 000 events; `Math.max(...events.map(…))` overflowed the stack there).
 */
describe('R95 big sessions end cleanly', () => {
  it("500 000 timeline events: the text timeline (the report's timeline.txt) is written, its widest component measured without a spread", () => {
    // A cluster's timeline as Cluster builds it (new Timeline(clock), full recording), without
    // loading the whole simulation into this process for it.
    const clock = new Clock();
    const timeline = new Timeline(clock);
    for (let i = 0; i < 500_000; i++)
      timeline.record(
        i === 499_999 ? 'nodelifecycle' : 'user',
        `event ${i}`,
        'src/frontends/serve/session-report.test.ts',
      );
    const lines = formatTimeline(timeline.all(), clock.now()).split('\n');
    expect(lines).to.have.length(500_000);
    // The column is as wide as the one long component name, the last of half a million.
    expect(lines[0]).to.match(/^ {3}#1 {4}T\+0s {7}user {10}event 0 /);
    expect(lines[499_999]).to.match(/nodelifecycle event 499999 /);
  });

  // The session is sized to be a mass deletion through the API, not to overflow a spread: 2 000 pods
  // made ≈ 70 000 events, still short of the ≈ 125 000 arguments that overflow Node's default stack
  // (a spread planted back into formatTimeline let that session exit 0), so the spreads are the
  // 500 000-event test's to catch; this one checks that SIGINT writes a deletion's report and exits 0.
  it('SIGINT after a mass deletion through the API (300 pods) writes the report and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sigint-report-'));
    const docs: string[] = [];
    for (let n = 0; n < 20; n++) docs.push(`kind: Node\nmetadata: { name: node-${n} }\n`);
    for (let i = 0; i < PODS; i++)
      docs.push(
        `kind: Pod\nmetadata: { name: pod-${i} }\nspec: { nodeName: node-${i % 20}, containers: [{ name: app, image: nginx }] }\n`,
      );
    writeFileSync(join(dir, 'pods.yaml'), docs.join('---\n'));
    const server = spawn(
      process.execPath,
      [
        join(ROOT, 'bin/terminating.js'),
        'serve',
        '--manifests',
        join(dir, 'pods.yaml'),
        '--report-dir',
        dir,
        '--start',
        '2025-01-01T00:01:00Z',
        // Time moves only when the test says (the POST below): with the default jump clock it also
        // moved while the test waited for a core, so what the session held depended on wall time.
        '--clock',
        'manual',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((done) => server.once('close', (code) => done(code)));
    try {
      let out = '';
      let err = '';
      server.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      await new Promise<void>((ready) =>
        server.stdout.setEncoding('utf8').on('data', (d: string) => (out += d).includes('Ctrl-C stops.') && ready()),
      );
      const url = / at (http:\/\/127\.0\.0\.1:\d+),/.exec(out)![1];
      const call = (method: string, path: string) =>
        new Promise<number>((done, fail) =>
          request(`${url}${path}`, { method }, (res) => res.resume().on('end', () => done(res.statusCode ?? 0)))
            .on('error', fail)
            .end(),
        );
      expect(await call('DELETE', '/api/v1/namespaces/default/pods')).to.equal(200);
      expect(await call('POST', '/terminating/v1/clock?advance=2m')).to.equal(200);
      server.kill('SIGINT');
      expect(await exited, err).to.equal(0);
      const timeline = readFileSync(join(dir, 'timeline.txt'), 'utf8');
      expect(timeline).to.match(new RegExp(`DELETE pods/pod-${PODS - 1} `));
      expect(statSync(join(dir, 'index.html')).size).to.be.above(0);
    } finally {
      server.kill('SIGKILL');
    }
  });
});

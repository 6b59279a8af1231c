import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { QuietReader, type Quietness } from './program-quiet';

/** Reads as long as `until` says so, at most `limitMs` of wall time (a generous limit: only a broken reader reaches it). */
async function readUntil(
  reader: QuietReader,
  server: () => string,
  until: (q: Quietness) => boolean,
  limitMs = 20_000,
) {
  const since = performance.now();
  for (;;) {
    const q = reader.read(server());
    if (until(q) || performance.now() - since > limitMs) return q;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('program-quiet: whether a child program is quiet, read from /proc', {
  skip: process.platform !== 'linux',
}, () => {
  let server: Server;
  let port: number;
  const children: ChildProcess[] = [];
  const accepted: Socket[] = [];
  const run = (code: string) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  before(async () => {
    server = createServer({ pauseOnConnect: true }, (s) => accepted.push(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    for (const s of accepted) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a program asleep with no timer due soon is quiet; one that polls every 50 ms or computes never is', async () => {
    const asleep = new QuietReader(run('setInterval(() => {}, 60_000)').pid!, port);
    expect(
      await readUntil(
        asleep,
        () => '',
        (q) => q === 'quiet',
      ),
    ).to.equal('quiet');
    const polls = new QuietReader(run('setInterval(() => {}, 50)').pid!, port);
    const computes = new QuietReader(run('for (;;);').pid!, port);
    // However long one looks (a loaded machine only makes the looks fewer), neither is ever quiet.
    for (let i = 0; i < 20; i++) {
      expect(polls.read(''), 'polls').to.equal('busy');
      expect(computes.read(''), 'computes').to.equal('busy');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('bytes the program sent that the server has not read make it busy, though every thread of it sleeps', async () => {
    // The server's connections start paused (pauseOnConnect): what the program writes stays queued.
    const child = run(
      `require('node:net').connect(${port}, '127.0.0.1', function () { this.write('hello\\n'); setInterval(() => {}, 60_000); })`,
    );
    const reader = new QuietReader(child.pid!, port);
    const q = await readUntil(
      reader,
      () => '',
      (q) => q === 'quiet' || reader.busyBecause.startsWith('bytes'),
    );
    expect([q, reader.busyBecause]).to.deep.equal(['busy', 'bytes are queued on its connections to the server']);
    // The server reads them: quiet again.
    accepted[0].resume();
    await new Promise((resolve) => accepted[0].once('data', resolve));
    expect(
      await readUntil(
        reader,
        () => '6 bytes read',
        (q) => q === 'quiet',
      ),
    ).to.equal('quiet');
  });

  it('a process that cannot be read is unknown: the caller falls back to a quiet period', () => {
    expect(new QuietReader(2 ** 22 + 1, port).read('')).to.equal('unknown');
  });
});

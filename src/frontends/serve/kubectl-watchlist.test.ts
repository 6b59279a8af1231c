// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve } from './serve';

/**
 * R318 — the real kubectl v1.36 (client-go's WatchListClient on by default) waits for a deletion
 * with an informer whose reflector first asks for a streaming list. kube-apiserver 1.36 serves it
 * (WatchList on); 1.33 refuses it (WatchList off) and the reflector falls back to LIST then WATCH.
 * What the server saw is read from kubectl's own request log (-v=6: one line per response, with its
 * URL and status).
 */
async function deleteWeb(release: Release): Promise<{ stdout: string; requests: string[]; log: string }> {
  const served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'watchlist-test-')),
    release,
  });
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: mkdtempSync(join(tmpdir(), 'watchlist-home-')),
      KUBECONFIG: served.kubeconfig,
    };
    const path = await realKubectlPath();
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(path, ['delete', 'pod', 'web', '-v=6'], { env, timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
      ),
    );
    const requests = [...stderr.matchAll(/"Response" verb="(\w+)" url="http:\/\/[^/]+([^"]+)" status="(\d+)/g)].map(
      (m) => `${m[1]} ${m[2]} ${m[3]}`,
    );
    return { stdout, requests, log: stderr };
  } finally {
    await served.close();
  }
}

const STREAMING_LIST =
  'GET /api/v1/namespaces/default/pods?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dweb&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=';

describe('the real kubectl v1.36 and streaming lists (R318, V68)', () => {
  it('at 1.36 the server serves the streaming list: kubectl waits for the deletion on it, with no LIST', async () => {
    const { stdout, requests, log } = await deleteWeb(Release.of(36));
    expect(stdout).to.equal('pod "web" deleted from default namespace\n');
    const list = requests.filter((r) => r.startsWith(STREAMING_LIST));
    expect(list, requests.join('\n')).to.have.length.greaterThan(0);
    expect(list[0]).to.match(/&watch=true 200$/);
    expect(log).to.include('received the bookmark that marks the end of initial events stream');
    expect(
      requests.filter((r) => /pods\?.*fieldSelector=metadata.name%3Dweb/.test(r) && !r.includes('watch=true')),
      'no fallback LIST',
    ).to.deep.equal([]);
  });

  it('at 1.33 the server refuses it with 422 and kubectl falls back to LIST then WATCH', async () => {
    const { stdout, requests } = await deleteWeb(Release.of(33));
    expect(stdout).to.equal('pod "web" deleted from default namespace\n');
    expect(requests.find((r) => r.startsWith(STREAMING_LIST))).to.match(/ 422$/);
    expect(
      requests.some(
        (r) =>
          /^GET \/api\/v1\/namespaces\/default\/pods\?fieldSelector=metadata\.name%3Dweb.* 200$/.test(r) &&
          !r.includes('watch=true'),
      ),
      requests.join('\n'),
    ).to.equal(true);
  });
});

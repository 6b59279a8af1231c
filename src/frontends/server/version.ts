import type { Release } from '../../foundation/release';

/**
 * /version (version.Info of k8s.io/apimachinery/pkg/version) for the modelled release, at the
 * first patch of its minor. Since v1.33 kube-apiserver also reports its emulation and minimum
 * compatibility versions (compatibility versions, KEP-4330). The build fields name this
 * simulation rather than a real build.
 */
export function versionInfo(release: Release): object {
  const minor = release.minor;
  return {
    major: '1',
    minor: String(minor),
    ...(release.atLeast(33)
      ? {
          emulationMajor: '1',
          emulationMinor: String(minor),
          minCompatibilityMajor: '1',
          minCompatibilityMinor: String(minor - 1),
        }
      : {}),
    gitVersion: `v1.${minor}.0`,
    gitCommit: 'terminating-simulation',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

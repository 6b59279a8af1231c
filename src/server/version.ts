/** The modelled kube-apiserver release (v1.33); the patch level is the first of the minor. */
export const SERVED_MINOR = 33;

/**
 * /version (version.Info of k8s.io/apimachinery/pkg/version, with the emulation and
 * compatibility versions kube-apiserver reports since v1.33's compatibility-version work).
 * The build fields name this simulation rather than a real build.
 */
export function versionInfo(minor = SERVED_MINOR): object {
  return {
    major: '1',
    minor: String(minor),
    emulationMajor: '1',
    emulationMinor: String(minor),
    minCompatibilityMajor: '1',
    minCompatibilityMinor: String(minor - 1),
    gitVersion: `v1.${minor}.0`,
    gitCommit: 'terminating-simulation',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

// `import { startCluster } from 'terminating'`: the same module as index.cjs (one copy of the code).
import harness from './index.cjs';
export const { startCluster, StartClusterError } = harness;

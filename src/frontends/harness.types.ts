// Compiled by `npm run typecheck` only: index.d.ts (what users of the package see) agrees with src/frontends/harness.ts.
import type * as declared from '../../index';
import type * as harness from './harness';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Same<declared.StartClusterOptions, harness.StartClusterOptions>,
  Same<declared.SettleResult, harness.SettleResult>,
  Same<declared.TestCluster, harness.TestCluster>,
  Same<Parameters<typeof declared.startCluster>, Parameters<typeof harness.startCluster>>,
  Same<ReturnType<typeof declared.startCluster>, ReturnType<typeof harness.startCluster>>,
] = [true, true, true, true, true];
export default checks;

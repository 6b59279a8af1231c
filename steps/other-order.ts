/**
 * The suite's second process (started by steps/determinism.test.ts): the `ci` profile's scenarios
 * in another order (`--order ORDER`), with fresh module state, its JSON report written to REPORT;
 * then, with the same support code, the real-kubectl profile's scenarios with the real kubectl
 * (steps/real-kubectl.ts). What they gave goes to RESULT as JSON ({@link OtherOrderResult}); the
 * comparisons are the test's.
 *
 *   node --require ./scripts/ts-hook.js steps/other-order.ts ORDER REPORT RESULT
 *
 * As `cucumber-js -p ci --order ORDER --format json:REPORT` would run it: the ci profile's
 * configuration, support code and modules, its report files left out (the run in the test's
 * process writes reports/ at the same time) and summary on stdout.
 */
import { writeFileSync } from 'node:fs';
import type { IPickleOrder } from '@cucumber/cucumber/api';
import * as path from 'node:path';
import { runRealKubectl } from './real-kubectl';
import type { ScenarioOutcome } from './scenario-outcomes';

const ROOT = path.resolve(__dirname, '..');

export interface OtherOrderResult {
  /** Whether the ci profile's scenarios passed in the other order (the CLI's exit code 0). */
  success: boolean;
  /** The real-kubectl profile's scenarios with the real kubectl, by `uri:line`. */
  realKubectl: [string, ScenarioOutcome][];
}

async function main(order: string, report: string, result: string): Promise<void> {
  const api = await import('@cucumber/cucumber/api');
  const environment = { cwd: ROOT };
  const { runConfiguration } = await api.loadConfiguration(
    { profiles: ['ci'], provided: { order: order as IPickleOrder } },
    environment,
  );
  const support = await api.loadSupport(runConfiguration, environment);
  const { success } = await api.runCucumber(
    {
      ...runConfiguration,
      support,
      formats: { ...runConfiguration.formats, stdout: 'summary', files: { [report]: 'json' } },
    },
    environment,
  );
  const realKubectl = await runRealKubectl(api, support, environment);
  writeFileSync(result, JSON.stringify({ success, realKubectl: [...realKubectl] } satisfies OtherOrderResult));
}

if (require.main === module) {
  const [order, report, result] = process.argv.slice(2);
  main(order, report, result).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}

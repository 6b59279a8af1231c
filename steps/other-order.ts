/**
 * The suite's second process (started by steps/determinism.test.ts): the `ci` profile's scenarios
 * in another order (`--order ORDER`), with fresh module state; then, with the same support code,
 * the real-kubectl profile's scenarios with the real kubectl (steps/real-kubectl.ts). What each
 * scenario gave (steps/scenario-outcomes.ts: step results, error messages, attachments) goes to
 * RESULT as JSON ({@link OtherOrderResult}); the comparisons are the test's.
 *
 *   node --require ./scripts/ts-hook.js steps/other-order.ts ORDER RESULT
 *
 * As `cucumber-js -p ci --order ORDER` would run it: the ci profile's configuration, support code
 * and modules, its report files left out (the run in the test's process writes reports/ at the
 * same time) and summary on stdout. The outcomes are read from cucumber's messages as the run
 * goes, not from a JSON report: that report (cucumber's json formatter) cost this process ≈ 0.5 s
 * of CPU to build and write, and the test ≈ 1.3 s to read, parse and normalise it beside its own.
 */
import { writeFileSync } from 'node:fs';
import type { IPickleOrder } from '@cucumber/cucumber/api';
import * as path from 'node:path';
import { runRealKubectl } from './real-kubectl';
import { outcomeCollector, type ScenarioOutcome } from './scenario-outcomes';

const ROOT = path.resolve(__dirname, '..');

export interface OtherOrderResult {
  /** Whether the ci profile's scenarios passed in the other order (the CLI's exit code 0). */
  success: boolean;
  /** The ci profile's scenarios in the other order, by `uri:line`. */
  reordered: [string, ScenarioOutcome][];
  /** The real-kubectl profile's scenarios with the real kubectl, by `uri:line`. */
  realKubectl: [string, ScenarioOutcome][];
}

async function main(order: string, result: string): Promise<void> {
  const api = await import('@cucumber/cucumber/api');
  const environment = { cwd: ROOT };
  const { runConfiguration } = await api.loadConfiguration(
    { profiles: ['ci'], provided: { order: order as IPickleOrder } },
    environment,
  );
  const support = await api.loadSupport(runConfiguration, environment);
  const reordered = outcomeCollector();
  const { success } = await api.runCucumber(
    { ...runConfiguration, support, formats: { ...runConfiguration.formats, stdout: 'summary', files: {} } },
    environment,
    reordered.onMessage,
  );
  const realKubectl = await runRealKubectl(api, support, environment);
  writeFileSync(
    result,
    JSON.stringify({
      success,
      reordered: [...reordered.outcomes],
      realKubectl: [...realKubectl],
    } satisfies OtherOrderResult),
  );
}

if (require.main === module) {
  const [order, result] = process.argv.slice(2);
  main(order, result).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}

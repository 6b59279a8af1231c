// A cucumber plugin (cucumber.js `plugin`): a feature file with a Gherkin syntax error becomes a
// failing stand-in feature instead of stopping the whole run (scripts/gherkin-errors.ts). Cucumber
// loads plugins with import(), before the support code's TypeScript hook: this file registers it.
require('./ts-hook');
const { describeError, replaceUnparsable } = require('./gherkin-errors.ts');

module.exports = {
  type: 'plugin',
  coordinator({ on, environment, logger }) {
    on('paths:resolve', (paths) => {
      for (const e of replaceUnparsable(paths.sourcePaths, environment.cwd))
        logger.warn(
          `Gherkin syntax error: ${describeError(e)} (the file's scenarios do not run; it is reported as a failure)`,
        );
    });
  },
};

import { readFileSync } from 'node:fs';
import { Then } from '@cucumber/cucumber';
import { describeError, gherkinErrors } from '../../scripts/gherkin-errors';
import { ScenarioError } from '../support/world';

/**
 * The step of the stand-in feature that replaces a feature file cucumber cannot parse
 * (scripts/gherkin-errors.ts): it parses the file again and fails naming each syntax error's
 * line and what was expected there.
 */
Then('the feature file {string} is valid Gherkin', function (uri: string) {
  let text: string;
  try {
    text = readFileSync(uri, 'utf8');
  } catch (e) {
    throw new ScenarioError(`cannot read the feature file ${uri}: ${(e as Error).message}`);
  }
  const errors = gherkinErrors(uri, text);
  if (errors.length > 0)
    throw new ScenarioError(
      `${uri} is not valid Gherkin, so none of its scenarios ran:\n${errors.map((e) => `  ${describeError(e)}`).join('\n')}`,
    );
});

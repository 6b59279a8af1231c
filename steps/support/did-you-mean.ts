import { Before, supportCodeLibraryBuilder } from '@cucumber/cucumber';
import { undefinedStepsMessage, type KnownStep } from './nearest-steps';

let known: KnownStep[] | undefined;

/**
 * The step definitions cucumber registered, read from its support code builder (the exported
 * singleton the step files register through; `buildStepDefinitions` builds fresh copies of the
 * definitions with their expressions, leaving cucumber's own untouched).
 */
function registeredSteps(): KnownStep[] {
  known ??= supportCodeLibraryBuilder.buildStepDefinitions().stepDefinitions.map((d) => ({
    keyword: d.keyword,
    pattern: d.pattern,
    matches: (text: string) => d.expression.match(text) !== null,
  }));
  return known;
}

/**
 * Before a scenario runs: a step that no definition matches fails the scenario here, naming the
 * nearest existing phrases, instead of leaving only cucumber's snippet for a new definition (a
 * typo in a phrase is far likelier than a missing definition). Dry runs do not run hooks, so the
 * snippets profile still prints snippets.
 */
Before(function ({ pickle }) {
  const steps = registeredSteps();
  const missing = pickle.steps.map((s) => s.text).filter((text) => !isDefined(text, steps));
  if (missing.length > 0) throw new Error(undefinedStepsMessage(missing, steps));
});

/** Step texts already found to match a definition: scenarios repeat their Given steps a lot. */
const defined = new Set<string>();

function isDefined(text: string, steps: readonly KnownStep[]): boolean {
  if (defined.has(text)) return true;
  if (!steps.some((d) => d.matches(text))) return false;
  defined.add(text);
  return true;
}

import type { FeatureChild, GherkinDocument, PickleStep, RuleChild, Step } from '@cucumber/messages';

/** Where a step is in its feature file, and how it is written there. */
export interface StepLocation {
  readonly uri: string;
  readonly line: number;
  /** `Given`, `When`, `Then`, `And`, `But` or `*`, as written. */
  readonly keyword: string;
  /** The line of the doc string's opening delimiter (`"""`), when the step has one. */
  readonly docStringLine?: number;
}

/** The Gherkin step a pickle step comes from (a Background's, a Rule's, a scenario's). */
export function locate(doc: GherkinDocument, pickleStep: PickleStep): StepLocation | undefined {
  const step = findStep(doc.feature?.children ?? [], pickleStep.astNodeIds[0]);
  if (!step || doc.uri === undefined) return undefined;
  return {
    uri: doc.uri,
    line: step.location.line,
    keyword: step.keyword.trim(),
    docStringLine: step.docString?.location.line,
  };
}

function findStep(children: readonly (FeatureChild | RuleChild)[], id: string | undefined): Step | undefined {
  for (const child of children) {
    const parent = child.scenario ?? child.background;
    const step = parent?.steps.find((s) => s.id === id);
    if (step) return step;
    const inRule = 'rule' in child && child.rule ? findStep(child.rule.children, id) : undefined;
    if (inRule) return inRule;
  }
  return undefined;
}

/**
 * A bad-input case (steps/bad-input.test.ts): one bad scenario put beside a good one, and what its
 * failing step must say. The cases themselves live in the files beside this one, by domain.
 */
import * as path from 'node:path';
import { ROOT, type RunOutcome, type StepOutcome } from './runner';

// ---------------------------------------------------------------------------------------------
// The cases

export const GOOD_SCENARIO = `
  Scenario: a good scenario beside the bad one
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When the user deletes pod "web"
    And the cluster settles
    Then pod "web" is gone
`;

export interface FailingCase {
  name: string;
  /** The bad scenario's steps (indented by the template). */
  steps: string;
  /** The text of the step that must fail (after its keyword). */
  failingStep: string;
  /** Fragments its error message must contain: the bad value and what was expected. */
  says: (string | RegExp)[];
  /** Extra checks on the outcome. */
  check?: (failed: StepOutcome, run: RunOutcome) => void;
}

export interface PassingCase {
  name: string;
  steps: string;
  passes: true;
}

export type Case = FailingCase | PassingCase;

/** A gallery dump, by absolute path (the bad-input features live in a temporary directory). */
export const FINALIZER_DUMP = path.join(ROOT, 'examples/stuck/finalizer.yaml');

export const NODE_AND_POD = `Given a node "node-1"
And a pod "web" running on node "node-1"`;

export const docString = (text: string) => `"""\n${text}\n"""`;

export function manifestCase(name: string, manifest: string, says: (string | RegExp)[]): FailingCase {
  return {
    name,
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n${docString(manifest)}\nWhen the user deletes pod "web"`,
    failingStep: 'a pod "web" running on node "node-1" with:',
    says,
  };
}

/** A declaration step with a doc string, the one that must fail (strict input, R240/R242). */
export function declarationCase(
  name: string,
  declaration: string,
  manifest: string,
  says: (string | RegExp)[],
): FailingCase {
  return {
    name,
    steps: `${NODE_AND_POD}\nAnd ${declaration}\n${docString(manifest)}\nWhen the user deletes pod "web"`,
    failingStep: declaration,
    says,
  };
}

export const REFUSED = 'is refused as kube-apiserver refuses it';

export function featureText(c: Case): string {
  const steps = c.steps
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `Feature: bad input: ${c.name.replace(/\n/g, ' ')}\n${GOOD_SCENARIO}\n  Scenario: bad input\n${steps}\n`;
}

/** A line of a stack trace ("    at fn (/path/file.ts:1:2)"), or an absolute path into the core. */
export const STACK_LINE = /^\s*at .*(\(|\s)(\/|node:)\S*:\d+(:\d+)?\)?\s*$/m;

import { BeforeStep, setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { ManifestError } from '../../src/planning/manifest';
import { locate, type StepLocation } from './step-location';
import type { TerminatingWorld } from './world';

/**
 * What a scenario author sees when a step fails: the message, naming what and where in the
 * feature file, and no stack trace. A stack into src/ says nothing to someone who wrote a wrong
 * table row or YAML; it is kept only for what is a bug of the simulation (a TypeError, a
 * RangeError, a runaway loop…), where it is what a maintainer needs.
 */

/** Errors that mean the simulation itself broke: their stack stays. */
const CRASHES = new Set([
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'EvalError',
  'AggregateError',
  'RunawayLoopError',
  'AssertionError',
]);

BeforeStep(function (this: TerminatingWorld, { gherkinDocument, pickleStep }) {
  this.stepLocation = locate(gherkinDocument, pickleStep);
});

/** A parameter type's transformer whose refusal (a bad duration, an unknown release) is printed as its message alone. */
export function transformerForTheAuthor<T>(transform: (text: string) => T): (text: string) => T {
  return (text: string) => {
    try {
      return transform(text);
    } catch (e) {
      throw forTheAuthor(e, undefined);
    }
  };
}

/** A malformed doc string's line and column are the doc string's; this names the feature file's line instead. */
export function locateInFeature(message: string, where: StepLocation | undefined): string {
  if (!where?.docStringLine) return message;
  const file = where.uri;
  const shifted = message.replace(
    / at line (\d+), column (\d+)/,
    (_, line: string, col: string) =>
      ` at ${file}:${where.docStringLine! + Number(line)}, column ${col} (line ${line} of the doc string)`,
  );
  return shifted !== message ? shifted : `${message} (in the doc string at ${file}:${where.docStringLine + 1})`;
}

/** The error as the author should see it: a user's mistake loses its stack (only its message is printed). */
export function forTheAuthor(error: unknown, where: StepLocation | undefined): unknown {
  if (!(error instanceof Error) || CRASHES.has(error.name) || CRASHES.has(error.constructor.name)) return error;
  if (error instanceof ManifestError) error.message = locateInFeature(error.message, where);
  // No stack at all. cucumber's formatError hands the error to error-stack-parser, which refuses an
  // error without a stack at once (cucumber catches that), and assertion-error-formatter then prints
  // the message alone. A stack of the first line only, as this used to leave, sent the parser down
  // its Firefox/Safari path, which matches /((.*".+"[^@]*)?[^@]*)(?:@)/ against every line that has
  // a colon: on one long line full of quotes and without an `@` (a CRD's conditions as JSON, 700
  // characters) that regex backtracks for minutes (3 min of a 3.2 s cucumber run, measured).
  // steps/failure-format.test.ts runs every assertion's failure through cucumber's formatter.
  error.stack = undefined;
  return error;
}

setDefinitionFunctionWrapper(function (fn: (...args: unknown[]) => unknown) {
  return function (this: TerminatingWorld, ...args: unknown[]) {
    const fail = (e: unknown) => {
      throw forTheAuthor(e, this.stepLocation);
    };
    let result: unknown;
    try {
      result = fn.apply(this, args);
    } catch (e) {
      fail(e);
    }
    return result instanceof Promise ? result.catch(fail) : result;
  };
});

/**
 * The step definitions nearest to a step that matches none: what `did-you-mean.ts` suggests.
 * Pure, so that it can be tested without cucumber running.
 */
import { distance } from 'fastest-levenshtein';

/** What a step definition offers for matching and for showing. */
export interface KnownStep {
  keyword: string;
  /** The expression as written in the step file: `pod {string} is gone`, or a RegExp. */
  pattern: string | RegExp;
  matches(text: string): boolean;
}

/** How many suggestions an undefined step gets. */
const SUGGESTIONS = 3;

/**
 * A step's text with its values replaced by the parameter types that would read them, so that it
 * compares with expressions: `pod "web" is gon` → `pod {string} is gon`, `1m30s pass` →
 * `{duration} pass`, `` I run `kubectl …` `` → `I run {command}`.
 */
export function stepShape(text: string): string {
  return text
    .replace(/`[^`]*`/g, '{command}')
    .replace(/"[^"]*"|'[^']*'/g, '{string}')
    .replace(/(?<![\w{])-?\d[\w.]*/g, (v) =>
      /^\d[\d.]*(?:ms|h|m|s)/.test(v) ? '{duration}' : /^-?\d+$/.test(v) ? '{int}' : v,
    );
}

/** An expression as a step would read: optional text kept (`pass(es)` → `passes`), a RegExp's source. */
function expressionShape(pattern: string | RegExp): string {
  return typeof pattern === 'string' ? pattern.replace(/\(([^)]*)\)/g, '$1').replace(/\\/g, '') : pattern.source;
}

/** The known steps nearest to a text (edit distance of the shapes, relative to their length), nearest first. */
export function nearestSteps(text: string, known: readonly KnownStep[], count = SUGGESTIONS): KnownStep[] {
  const shape = stepShape(text);
  const scored = known.map((step) => {
    const other = expressionShape(step.pattern);
    return { step, score: distance(shape, other) / Math.max(shape.length, other.length) };
  });
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, count)
    .map((s) => s.step);
}

/** The message for the undefined steps of one scenario. */
export function undefinedStepsMessage(texts: readonly string[], known: readonly KnownStep[]): string {
  const parts = texts.map((text) => {
    const nearest = nearestSteps(text, known).map(
      (s) =>
        `    ${s.keyword === 'Unknown' ? '' : `${s.keyword} `}${typeof s.pattern === 'string' ? s.pattern : `/${s.pattern.source}/`}`,
    );
    return `the step \`${text}\` matches no step definition. Did you mean one of these?\n${nearest.join('\n')}`;
  });
  return `${parts.join('\n\n')}\n\nEvery step, with its parameters and table columns: docs/steps.md`;
}

import { readFileSync } from 'node:fs';

/**
 * The feature file `explore` works on, read as lines: which scenario a location names, and the
 * ready-to-run feature that reproduces a plan (its header and Background, then that scenario with
 * the plan's Given steps first).
 */
export interface ScenarioLocation {
  readonly file: string;
  /** The `Scenario:` line (1-based). */
  readonly line: number;
  readonly name: string;
}

const SCENARIO = /^\s*(Scenario|Example|Scenario Outline|Scenario Template):\s*(.*)$/;
const STEP = /^\s*(Given|When|Then|And|But|\*)\s/;
const HEADER_END = /^\s*(@|Scenario:|Scenario Outline:|Scenario Template:|Example:|Examples:|Rule:)/;

export class FeatureError extends Error {}

/** The scenario `FILE[:LINE]` names: the one at or above LINE, or the file's only scenario. */
export function locateScenario(
  file: string,
  line: number | undefined,
  text = readFileSync(file, 'utf8'),
): ScenarioLocation {
  const lines = text.split('\n');
  const scenarios = lines.flatMap((l, i) => {
    const m = SCENARIO.exec(l);
    return m
      ? [{ line: i + 1, name: m[2].trim(), outline: m[1].includes('Outline') || m[1].includes('Template') }]
      : [];
  });
  if (scenarios.length === 0) throw new FeatureError(`${file} has no scenario`);
  let found;
  if (line === undefined) {
    if (scenarios.length > 1)
      throw new FeatureError(
        `${file} has ${scenarios.length} scenarios: name one as FILE:LINE (scenarios at lines ${scenarios.map((s) => s.line).join(', ')})`,
      );
    found = scenarios[0];
  } else {
    if (line < 1 || line > lines.length) throw new FeatureError(`${file} has ${lines.length} lines: no line ${line}`);
    found = [...scenarios].reverse().find((s) => s.line <= line);
    if (!found) throw new FeatureError(`${file}:${line} is above the first scenario (line ${scenarios[0].line})`);
  }
  if (found.outline)
    throw new FeatureError(
      `${file}:${found.line} is a Scenario Outline: explore runs one scenario; copy the Examples row you mean into a Scenario`,
    );
  return { file, line: found.line, name: found.name };
}

/**
 * The feature that reproduces a plan: the file's header (Feature, its description, Background),
 * then the scenario at `loc` with `prelude` (the release explore ran) and `steps` (the
 * perturbations, after a comment saying so) inserted before its first step.
 */
export function reproducingFeature(
  loc: ScenarioLocation,
  prelude: readonly string[],
  steps: readonly string[],
  note: string,
  text = readFileSync(loc.file, 'utf8'),
): string {
  const lines = text.split('\n');
  // Tags above `Feature:` are the feature's own: the header ends at the first scenario (or tag, or Rule) after it.
  const featureLine = Math.max(
    0,
    lines.findIndex((l) => /^\s*Feature:/.test(l)),
  );
  const headerEnd = lines.findIndex((l, i) => i > featureLine && HEADER_END.test(l));
  const header = lines.slice(0, headerEnd < 0 ? lines.length : headerEnd);
  // The scenario's block: its tags above it, then up to the next scenario, tag line or Rule.
  let start = loc.line - 1;
  while (start > 0 && /^\s*@/.test(lines[start - 1])) start--;
  let end = loc.line;
  while (end < lines.length && !HEADER_END.test(lines[end])) end++;
  const block = lines.slice(start, end);
  const firstStep = block.findIndex((l, i) => i > loc.line - 1 - start && STEP.test(l));
  const indent = firstStep < 0 ? '    ' : /^\s*/.exec(block[firstStep])![0];
  const inserted = [...prelude.map((s) => `${indent}${s}`), `${indent}# ${note}`, ...steps.map((s) => `${indent}${s}`)];
  const at = firstStep < 0 ? block.length : firstStep;
  return [...header, ...block.slice(0, at), ...inserted, ...block.slice(at)].join('\n').replace(/\n*$/, '\n');
}

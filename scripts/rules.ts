/**
 * The rule catalogue in docs/rules/*.md and the rule ids the repository cites.
 *
 * A rule is a heading `### <ID> — <title>` (ids: R apiserver, K kubelet and controllers,
 * S timelines, C garbage collector, V release differences, X resumed objects and their explanation, D disruption budgets, N services and traffic) followed by its text, an `Upstream:`
 * line and a `Tests:` line naming, in backquotes, the test files and features that cover it.
 *
 *   node --require ./scripts/ts-hook.js scripts/rules.ts   lists what is wrong, exit 1 if anything is
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');
export const RULES_DIR = 'docs/rules';

/** A rule id as code, tests and features cite it: R12, K10, S9, C2, V3, X4, D2, N4, W5, A1. */
export const RULE_ID = /\b[ARKSCVXDNWP][0-9]+\b/g;

/** Where rule ids are cited (the rule files themselves define them). */
const CITING_DIRS = ['src', 'steps', 'features', 'scripts', 'bench'];
/** This checker and its test, whose sample ids cite nothing. */
const SELF = ['scripts/rules.ts', 'scripts/rules.test.ts'];

export interface Rule {
  id: string;
  title: string;
  /** The file that defines it, relative to the repository. */
  file: string;
  line: number;
  upstream?: string;
  /** The files of its `Tests:` line. */
  tests: string[];
}

/** A test file or a feature: what may appear on a `Tests:` line. */
export const isTestFile = (file: string): boolean => /\.test\.ts$|\.feature$/.test(file);

/** The rules of one rule file. */
export function parseRules(file: string, text: string): Rule[] {
  const rules: Rule[] = [];
  const lines = text.split(/\r?\n/);
  let current: Rule | undefined;
  lines.forEach((line, index) => {
    const heading = /^### ([ARKSCVXDNWP][0-9]+) — (.+)$/.exec(line);
    if (heading) {
      current = { id: heading[1], title: heading[2], file, line: index + 1, tests: [] };
      rules.push(current);
      return;
    }
    if (/^#{1,3} /.test(line)) current = undefined;
    if (!current) return;
    if (line.startsWith('Upstream:')) current.upstream = line.slice('Upstream:'.length).trim();
    if (line.startsWith('Tests:')) current.tests = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  });
  return rules;
}

function trackedFiles(dirs: readonly string[]): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...dirs], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\0').filter((f) => f !== '');
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

export function loadRules(): Rule[] {
  return trackedFiles([RULES_DIR])
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((f) => parseRules(f, read(f)));
}

/** Each rule id cited outside docs/rules, with the files that cite it. */
export function citedIds(): Map<string, string[]> {
  const cited = new Map<string, string[]>();
  for (const file of trackedFiles(CITING_DIRS)) {
    if (!/\.(ts|feature|js|md)$/.test(file) || SELF.includes(file)) continue;
    for (const id of new Set<string>(read(file).match(RULE_ID) ?? [])) cited.set(id, [...(cited.get(id) ?? []), file]);
  }
  return cited;
}

const naturalOrder = (a: string, b: string): number =>
  a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1));

/**
 * What is wrong with the rule catalogue: ids cited but not defined, ids defined twice, rules
 * without a test, and `Tests:` entries that are not test files, do not exist or do not name the rule.
 */
export function problems(
  rules: readonly Rule[],
  cited: ReadonlyMap<string, readonly string[]>,
  fileText: (file: string) => string | undefined,
): string[] {
  const found: string[] = [];
  const defined = new Map<string, Rule>();
  for (const rule of rules) {
    const twice = defined.get(rule.id);
    if (twice) found.push(`${rule.id} is defined twice: ${twice.file}:${twice.line} and ${rule.file}:${rule.line}`);
    defined.set(rule.id, rule);
  }
  for (const id of [...cited.keys()].sort(naturalOrder)) {
    if (!defined.has(id))
      found.push(`${id} is cited but defined in no file of ${RULES_DIR}/ (cited in ${cited.get(id)!.join(', ')})`);
  }
  for (const rule of rules) {
    const where = `${rule.id} (${rule.file}:${rule.line})`;
    if (!rule.upstream) found.push(`${where} has no "Upstream:" line`);
    if (rule.tests.length === 0) {
      const candidates = (cited.get(rule.id) ?? []).filter(isTestFile);
      found.push(
        `${where} names no test on its "Tests:" line${candidates.length > 0 ? ` (these name it: ${candidates.join(', ')})` : ' and no test or feature names it'}`,
      );
    }
    for (const test of rule.tests) {
      const text = fileText(test);
      if (!isTestFile(test)) found.push(`${where} lists ${test}, which is not a test file (*.test.ts) or a feature`);
      else if (text === undefined) found.push(`${where} lists ${test}, which does not exist`);
      else if (!(text.match(RULE_ID) ?? ([] as string[])).includes(rule.id))
        found.push(`${where} lists ${test}, which does not name ${rule.id}`);
    }
  }
  return found;
}

export function checkRepository(): string[] {
  return problems(loadRules(), citedIds(), (file) => {
    try {
      return read(file);
    } catch {
      return undefined;
    }
  });
}

if (require.main === module) {
  const found = checkRepository();
  for (const p of found) process.stderr.write(`${p}\n`);
  process.stdout.write(
    found.length === 0 ? `${loadRules().length} rules, all cited ids defined, every rule tested\n` : '',
  );
  process.exitCode = found.length === 0 ? 0 : 1;
}

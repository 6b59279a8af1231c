import { CelFunctionError, type CelLibrary } from './library';

/**
 * library.Regex (pkg/cel/library/regex.go): `s.find(re)` (the first match, '' for none) and
 * `s.findAll(re)` / `s.findAll(re, n)` (all matches, at most n when n ≥ 0). Upstream compiles
 * RE2; here JavaScript's RegExp, which agrees on the syntax expressions commonly use (classes,
 * anchors, quantifiers, groups); RE2's `(?i)` flag prefix is read as the `i` flag.
 */
export function compileRegex(pattern: string): RegExp {
  const flags = /^\(\?([imsU]+)\)/.exec(pattern);
  const source = flags ? pattern.slice(flags[0].length) : pattern;
  try {
    return new RegExp(source, `g${(flags?.[1] ?? '').replace(/[^ims]/g, '')}`);
  } catch (e) {
    throw new CelFunctionError(`error parsing regexp: ${(e as Error).message}`);
  }
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(compileRegex(pattern))) {
    if (limit >= 0n && BigInt(out.length) >= limit) break;
    out.push(m[0]);
  }
  return out;
}

export const REGEX: CelLibrary = {
  name: 'regex',
  introduced: 0,
  register(env) {
    env.registerFunction('string.find(string): string', (s: string, re: string) => findAll(s, re, 1n)[0] ?? '');
    env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re, -1n));
    env.registerFunction('string.findAll(string, int): list<string>', (s: string, re: string, n: bigint) =>
      findAll(s, re, n),
    );
  },
};

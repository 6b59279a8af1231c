import { CelFunctionError, registerNamespace, type CelLibrary } from './library';

/**
 * cel-go's ext.Strings as the base environment declares it (ext.StringsVersion(0) before 1.29,
 * version 2 from 1.29). The evaluator has most of it built in (indexOf, lastIndexOf, lowerAscii,
 * upperAscii, split, substring, trim, join); this adds what it lacks: `charAt` and `replace` (all
 * occurrences, or at most n).
 */
const codePoints = (s: string) => [...s];

function quote(s: string): string {
  const escaped = codePoints(s)
    .map((c) => {
      switch (c) {
        case '\\':
          return '\\\\';
        case '"':
          return '\\"';
        case '\n':
          return '\\n';
        case '\r':
          return '\\r';
        case '\t':
          return '\\t';
        case '\b':
          return '\\b';
        case '\f':
          return '\\f';
        case '\v':
          return '\\v';
        case '\x07':
          return '\\a';
        default:
          return c;
      }
    })
    .join('');
  return `"${escaped}"`;
}

export const STRINGS: CelLibrary = {
  name: 'strings',
  introduced: 0,
  register(env) {
    env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const cps = codePoints(s);
      if (i < 0n || i > BigInt(cps.length)) throw new CelFunctionError(`index out of range: ${i}`);
      return cps[Number(i)] ?? '';
    });
    env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) =>
      s.split(from).join(to),
    );
    env.registerFunction(
      'string.replace(string, string, int): string',
      (s: string, from: string, to: string, n: bigint) => {
        if (n < 0n) return s.split(from).join(to);
        const parts = s.split(from);
        const k = Math.min(Number(n), parts.length - 1);
        return parts.slice(0, k + 1).join(to) + (parts.length > k + 1 ? from + parts.slice(k + 1).join(from) : '');
      },
    );
  },
};

/** ext.StringsVersion(2), in the base environment from 1.29: adds `strings.quote` to the above. */
export const STRINGS_V2: CelLibrary = {
  name: 'strings v2',
  introduced: 29,
  register(env) {
    registerNamespace(env, 'strings');
    env.registerFunction('strings.quote(string): string', (_ns: unknown, s: string) => quote(s));
  },
};

/**
 * cel-go's ext.Sets (`sets.contains(a, b)`, `sets.equivalent(a, b)`, `sets.intersects(a, b)`), in
 * the base environment from 1.29.
 */
const has = (list: readonly unknown[], x: unknown) => list.some((y) => y === x);

export const SETS: CelLibrary = {
  name: 'sets',
  introduced: 29,
  register(env) {
    registerNamespace(env, 'sets');
    env.registerFunction('sets.contains(list<dyn>, list<dyn>): bool', (_ns: unknown, a: unknown[], b: unknown[]) =>
      b.every((x) => has(a, x)),
    );
    env.registerFunction(
      'sets.equivalent(list<dyn>, list<dyn>): bool',
      (_ns: unknown, a: unknown[], b: unknown[]) => b.every((x) => has(a, x)) && a.every((x) => has(b, x)),
    );
    env.registerFunction('sets.intersects(list<dyn>, list<dyn>): bool', (_ns: unknown, a: unknown[], b: unknown[]) =>
      b.some((x) => has(a, x)),
    );
  },
};

import { CelFunctionError, compareCel, type CelLibrary } from './library';

/**
 * library.Lists (pkg/cel/library/lists.go): `isSorted()`, `sum()`, `min()`, `max()`,
 * `indexOf(x)`, `lastIndexOf(x)` on lists; in the base environment since the CEL epoch.
 * Declared for lists of int, uint, double, string and bool, and for `list<dyn>` (an object's
 * lists are dynamically typed), with upstream's errors (`min called on empty list`).
 */
const ELEMENTS = ['int', 'double', 'string', 'bool', 'dyn'] as const;
const SUMMABLE = ['int', 'double', 'dyn'] as const;

const minMax = (name: 'min' | 'max', sign: number) => (list: readonly unknown[]) => {
  if (list.length === 0) throw new CelFunctionError(`${name} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) if (compareCel(v, best) * sign > 0) best = v;
  return best;
};

const equal = (a: unknown, b: unknown) =>
  a === b ||
  (typeof a === typeof b &&
    JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) ===
      JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));

export const LISTS: CelLibrary = {
  name: 'lists',
  introduced: 0,
  register(env) {
    for (const t of ELEMENTS) {
      env.registerFunction(`list<${t}>.isSorted(): bool`, (list: readonly unknown[]) =>
        list.every((v, i) => i === 0 || compareCel(list[i - 1], v) <= 0),
      );
      env.registerFunction(`list<${t}>.min(): ${t}`, minMax('min', -1));
      env.registerFunction(`list<${t}>.max(): ${t}`, minMax('max', 1));
      env.registerFunction(`list<${t}>.indexOf(${t}): int`, (list: readonly unknown[], x: unknown) =>
        BigInt(list.findIndex((v) => equal(v, x))),
      );
      env.registerFunction(`list<${t}>.lastIndexOf(${t}): int`, (list: readonly unknown[], x: unknown) => {
        for (let i = list.length - 1; i >= 0; i--) if (equal(list[i], x)) return BigInt(i);
        return -1n;
      });
    }
    for (const t of SUMMABLE) {
      env.registerFunction(`list<${t}>.sum(): ${t}`, (list: readonly unknown[]) => {
        if (list.length === 0) return t === 'double' ? 0 : 0n;
        return list.reduce((a, b) => {
          if (typeof a !== typeof b)
            throw new CelFunctionError(
              `no such overload: ${typeof a === 'bigint' ? 'int' : 'double'} + ${typeof b === 'bigint' ? 'int' : 'double'}`,
            );
          return (a as number) + (b as number);
        });
      });
    }
  },
};

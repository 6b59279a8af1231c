import type { Environment } from '@marcbachmann/cel-js';

/**
 * One of Kubernetes' CEL libraries (staging/src/k8s.io/apiserver/pkg/cel/library, and the cel-go
 * extensions the base environment adds), as the base environment versions it
 * (pkg/cel/environment/base.go baseOptsWithoutStrictCost: each option has the release it was
 * introduced in, and a few a release they were removed in).
 */
export interface CelLibrary {
  readonly name: string;
  /** The first minor release whose base environment has it (0: always, the CEL epoch). */
  readonly introduced: number;
  /** The first minor release whose base environment no longer has it. */
  readonly removed?: number;
  register(env: Environment): void;
}

/** `isURL(s)`, `isQuantity(s)`: does the parser take the text? */
export function parses(parse: (text: string) => unknown): (text: string) => boolean {
  return (text) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * A namespace of functions (`strings.quote`, `sets.contains`): the evaluator has no namespaced
 * functions, so the namespace is a constant of a type of its own, whose methods they are.
 */
export function registerNamespace(env: Environment, name: string): void {
  class Namespace {}
  // Named after the namespace: values are told apart by their constructor.
  Object.defineProperty(Namespace, 'name', { value: name });
  env.registerType(name, Namespace);
  env.registerConstant(name, name, new Namespace());
}

/** A CEL evaluation error raised by a library function (cel-go's types.NewErr): its text is the message. */
export class CelFunctionError extends Error {}

/** An ordering of two CEL values of one comparable type (int, uint, double, string, bool), as the lists library compares them. */
export function compareCel(a: unknown, b: unknown): number {
  const numeric = (v: unknown) => typeof v === 'bigint' || typeof v === 'number';
  if (numeric(a) && numeric(b)) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (typeof a !== typeof b || !['string', 'boolean'].includes(typeof a))
    throw new CelFunctionError(`no such overload: ${typeName(a)} < ${typeName(b)}`);
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}

/** The CEL type name of a runtime value, for error messages. */
export function typeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null_type';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

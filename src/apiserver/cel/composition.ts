import type { CompiledExpression } from './compile';
import { CelFunctionError } from './library/library';

/**
 * composition.go: `variables.NAME` is evaluated when an expression first reads it, once per
 * request; its error is the reading expression's (`composited variable "NAME" fails to evaluate: …`).
 */
export function lazyVariables(
  compiled: { readonly variables: readonly { readonly name: string; readonly program: CompiledExpression | string }[] },
  activation: Record<string, unknown>,
): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const { name, program } of compiled.variables) {
    let cached: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(vars, name, {
      enumerable: true,
      get() {
        if (cached === undefined) {
          if (typeof program === 'string')
            cached = { error: `composited variable ${JSON.stringify(name)} fails to compile: ${program}` };
          else {
            const r = program.evaluate(activation);
            cached =
              'error' in r
                ? { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${r.cause}` }
                : { value: r.value };
          }
        }
        if ('error' in cached) throw new CelFunctionError(cached.error);
        return cached.value;
      },
    });
  }
  return vars;
}

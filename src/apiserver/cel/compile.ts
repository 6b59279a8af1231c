import type { Environment } from '@marcbachmann/cel-js';
import { UNIMPLEMENTED } from './environment';

/**
 * Compiling and evaluating one CEL expression as Kubernetes' admission plugins do
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go CompileCELExpression,
 * activation.go Evaluate), with their error texts. Reusable by every CEL user of the apiserver
 * (webhook matchConditions, ValidatingAdmissionPolicy, CRD validation rules).
 */

/** apiservercel.Error: its type decides the field error (Invalid, or InternalError), its detail is the text. */
export interface CelError {
  readonly type: 'Invalid' | 'Internal';
  readonly detail: string;
}

/** A value, or the error: `error` as activation.go words it, `cause` the evaluator's own text. */
export type Evaluation = { readonly value: unknown } | { readonly error: string; readonly cause: string };

export interface CompiledExpression {
  readonly expression: string;
  /** The checked output type, in cel-go's spelling (`bool`, `string`, `list(int)`, `dyn`). */
  readonly outputType: string;
  /** activation.go Evaluate: the value, or `expression '…' resulted in error: …`. */
  evaluate(activation: Readonly<Record<string, unknown>>): Evaluation;
}

/** An error of the evaluator: its kind, text and position. */
export interface LibError {
  readonly name?: string;
  readonly code?: string;
  readonly summary?: string;
  readonly message?: string;
  readonly range?: { start: number };
}

/** cel-go's spelling of a type name: `list(int)`, `map(string, dyn)`. */
function celGoType(t: string): string {
  // cel-go names the type of `null` null_type (auditAnnotations' valueExpression may return it).
  if (t === 'null') return 'null_type';
  return t.replace(/</g, '(').replace(/>/g, ')');
}

const OPERATORS: Readonly<Record<string, string>> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  in: '@in',
};

const declaredNames = new WeakMap<Environment, ReadonlySet<string>>();

/** The function names an environment declares (built-in and registered), to tell an undeclared function from a wrong call. */
function declared(env: Environment): ReadonlySet<string> {
  let names = declaredNames.get(env);
  if (names === undefined) {
    names = new Set(env.getDefinitions().functions.map((f) => f.name));
    declaredNames.set(env, names);
  }
  return names;
}

/** The checker's message in cel-go's words where they differ (undefined field, undeclared reference, operator overloads). */
function checkerMessage(env: Environment, e: LibError): string {
  const summary = e.summary ?? e.message ?? String(e);
  if (e.name === 'ParseError') return `Syntax error: ${summary}`;
  // A mixed aggregate literal: cel-go's homogeneousAggregateLiteralValidator (checker joinTypes
  // before 1.29) says only `expected type 'int' but found 'string'`.
  if (e.code?.startsWith('heterogeneous_'))
    return summary.replace(/^[^,]*, (?=expected type )/, '').replace(/'([^']*)'/g, (_, t) => `'${celGoType(t)}'`);
  let m = /^No such key: (.*)$/.exec(summary);
  if (m && e.code === 'no_such_key') return `undefined field '${m[1]}'`;
  m = /^Unknown variable: (.*)$/.exec(summary);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(summary);
  if (m && OPERATORS[m[2]])
    return `found no matching overload for '${OPERATORS[m[2]]}' applied to '(${celGoType(m[1])}, ${celGoType(m[3])})'`;
  m = /^found no matching overload for '(?:[\w.<>, ]+\.)?(\w+)\((.*)\)'$/.exec(summary);
  if (m && UNIMPLEMENTED[m[1]] !== undefined) {
    return `undeclared reference to '${m[1]}' (in container ''): ${m[1]} is ${UNIMPLEMENTED[m[1]]} of Kubernetes' CEL environment, which this simulation does not implement`;
  }
  if (m && !declared(env).has(m[1])) return `undeclared reference to '${m[1]}' (in container '')`;
  return summary;
}

/** cel-go's issues.String(): `ERROR: <input>:LINE:COL: MESSAGE`, the line, and a caret under the column. */
export function issue(env: Environment, expression: string, e: LibError): string {
  const at = Math.max(0, Math.min(e.range?.start ?? 0, expression.length));
  const before = expression.slice(0, at);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = at - lineStart;
  const text = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${checkerMessage(env, e)}\n | ${text}\n | ${'.'.repeat(col)}^`;
}

/** An evaluation error in cel-go's words (`no such key: x`, `division by zero`, a library function's error). */
function evaluationMessage(e: unknown): string {
  const err = e as LibError;
  const summary = err.summary ?? err.message ?? String(e);
  return summary.replace(/^No such key: /, 'no such key: ');
}

/**
 * CompileCELExpression: parse and check the expression in the environment; its output type must
 * be one of returnTypes (`dyn` accepts any): `compilation failed: ERROR: …`, `must evaluate to
 * bool but got string`.
 */
export function compileExpression(
  env: Environment,
  expression: string,
  returnTypes: readonly string[],
  /** The text as written, when `expression` was rewritten from it: errors point into it, each position mapped back. */
  source?: { readonly text: string; position(at: number): number },
): { program: CompiledExpression } | { error: CelError } {
  const report = (e: LibError) =>
    source === undefined
      ? issue(env, expression, e)
      : issue(env, source.text, {
          name: e.name,
          code: e.code,
          summary: e.summary,
          message: e.message,
          range: { start: source.position(e.range?.start ?? 0) },
        });
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(expression);
  } catch (e) {
    return { error: { type: 'Invalid', detail: `compilation failed: ${report(e as LibError)}` } };
  }
  const checked = parsed.check();
  if (!checked.valid)
    return {
      error: { type: 'Invalid', detail: `compilation failed: ${report(checked.error as LibError)}` },
    };
  const outputType = celGoType(checked.type ?? 'dyn');
  if (!returnTypes.some((t) => t === outputType || t === 'dyn')) {
    const reason =
      returnTypes.length === 1
        ? `must evaluate to ${returnTypes[0]} but got ${outputType}`
        : `must evaluate to one of [${returnTypes.join(' ')}] but got ${outputType}`;
    return { error: { type: 'Invalid', detail: reason } };
  }
  return {
    program: {
      expression,
      outputType,
      evaluate(activation) {
        try {
          return { value: parsed(activation as Record<string, unknown>) };
        } catch (e) {
          const cause = evaluationMessage(e);
          return { error: `expression '${expression}' resulted in error: ${cause}`, cause };
        }
      },
    },
  };
}

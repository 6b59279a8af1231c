import type { Environment } from '@marcbachmann/cel-js';
import { type CelError, type CompiledExpression, compileExpression, issue } from './compile';
import { celEnvironment, type CelVariableDecl } from './environment';
import { CelFunctionError, registerNamespace } from './library/library';

/**
 * The patch types of a MutatingAdmissionPolicy's expressions (staging/src/k8s.io/apiserver/pkg/cel/mutation:
 * typeresolver.go DynamicTypeResolver, jsonpatch.go JSONPatchType, dynamic/objects.go ObjectType;
 * plugin/cel/compile.go `hasPatchTypes`, which also adds library.JSONPatch's `jsonpatch.escapeKey`).
 *
 * `Object{spec: Object.spec{…}}` and `JSONPatch{op: "add", …}` are CEL message constructions,
 * which the evaluator (@marcbachmann/cel-js 8) cannot parse. Before compiling, each construction
 * is rewritten into a call of a function the environment declares: `Object.spec{a: x}` becomes
 * `__object("Object.spec", {"a": dyn(x)})` and `JSONPatch{op: x}` becomes `__jsonpatch({"op": dyn(x)})`
 * (each field value `dyn`, as the dynamic Object type declares every field; the map literal is
 * then homogeneous). Its values are CelObject and CelJSONPatch, of the CEL types `Object` and
 * `JSONPatch`. The rewrite keeps, for each character it writes, where in the expression it comes
 * from, so compile errors point into the expression as written.
 */

/** A value of `Object` or `Object.<field>…` (dynamic.ObjectVal): its type name and fields. */
export class CelObject {
  constructor(
    readonly typeName: string,
    readonly fields: Readonly<Record<string, unknown>>,
  ) {}
}

/** A JSONPatch operation (mutation.JSONPatchVal): op, path, from, and the value when set. */
export class CelJSONPatch {
  constructor(
    readonly op: string,
    readonly path: string,
    readonly from: string,
    readonly value: unknown,
    readonly hasValue: boolean,
  ) {}
}

/** Go's %T of a CEL value's Go form, for JSONPatchType.Val's errors. */
function goType(v: unknown): string {
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'structpb.NullValue';
  if (Array.isArray(v)) return '[]ref.Val';
  if (v instanceof CelObject) return '*dynamic.ObjectVal';
  return 'map[ref.Val]ref.Val';
}

/** JSONPatchType.Val: op, path and from must be strings; value is any value; no other field. */
function jsonPatch(fields: Readonly<Record<string, unknown>>): CelJSONPatch {
  const strings: Record<string, string> = { op: '', path: '', from: '' };
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'value') continue;
    if (!(name in strings)) throw new CelFunctionError(`unexpected JSONPatchType field: ${name}`);
    if (typeof value !== 'string')
      throw new CelFunctionError(`unexpected type ${goType(value)} for JSONPatchType '${name}' field`);
    strings[name] = value;
  }
  return new CelJSONPatch(strings.op, strings.path, strings.from, fields.value, 'value' in fields);
}

/** library.JSONPatch's escapeKey: `~` as `~0`, `/` as `~1` (RFC 6901). */
export function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function registerPatchTypes(env: Environment): void {
  env.registerType('Object', CelObject);
  env.registerType('JSONPatch', CelJSONPatch);
  env.registerFunction(
    '__object(string, map<string, dyn>): Object',
    (typeName: string, fields: Record<string, unknown>) => new CelObject(typeName, fields),
  );
  env.registerFunction('__jsonpatch(map<string, dyn>): JSONPatch', (fields: Record<string, unknown>) =>
    jsonPatch(fields),
  );
  registerNamespace(env, 'jsonpatch');
  env.registerFunction('jsonpatch.escapeKey(string): string', (_ns: unknown, key: string) => escapeKey(key));
}

const environments = new Map<string, Environment>();

/** The environment of a mutation's expression: the admission variables and the patch types (HasPatchTypes). */
export function patchTypesEnvironment(minor: number, variables: readonly CelVariableDecl[]): Environment {
  const key = `${minor}\0${JSON.stringify(variables)}`;
  let env = environments.get(key);
  if (env === undefined) {
    env = celEnvironment(minor, variables).clone();
    registerPatchTypes(env);
    environments.set(key, env);
  }
  return env;
}

/** A construction the rewrite refuses, with where it starts: the checker's error in cel-go's words. */
export class ConstructionError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

interface Token {
  readonly kind: 'ident' | 'string' | 'space' | 'punct' | 'other';
  readonly text: string;
  readonly at: number;
}

/** The CEL lexer's view, as far as the rewrite needs it: strings (any quoting and prefix), comments, identifiers. */
function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const start = i;
    const c = src[i];
    const prefix = /^[rRbB]{1,2}(?=["'])/.exec(src.slice(i))?.[0] ?? '';
    const q = src[i + prefix.length];
    if (q === '"' || q === "'") {
      const raw = /[rR]/.test(prefix);
      const triple = src.startsWith(q.repeat(3), i + prefix.length);
      const close = triple ? q.repeat(3) : q;
      i += prefix.length + close.length;
      while (i < src.length && !src.startsWith(close, i)) i += !raw && src[i] === '\\' ? 2 : 1;
      i = Math.min(src.length, i + close.length);
      tokens.push({ kind: 'string', text: src.slice(start, i), at: start });
    } else if (/\s/.test(c) || src.startsWith('//', i)) {
      if (c === '/') while (i < src.length && src[i] !== '\n') i++;
      else while (i < src.length && /\s/.test(src[i])) i++;
      tokens.push({ kind: 'space', text: src.slice(start, i), at: start });
    } else if (/[_a-zA-Z]/.test(c)) {
      while (i < src.length && /[_a-zA-Z0-9]/.test(src[i])) i++;
      tokens.push({ kind: 'ident', text: src.slice(start, i), at: start });
    } else if (/[0-9]/.test(c)) {
      while (i < src.length && /[0-9a-zA-Z_.]/.test(src[i])) i++;
      tokens.push({ kind: 'other', text: src.slice(start, i), at: start });
    } else {
      tokens.push({ kind: 'punct', text: c, at: start });
      i++;
    }
  }
  return tokens;
}

const KEYWORDS = new Set(['in', 'true', 'false', 'null']);
const CLOSING: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/**
 * Rewrites the message constructions of an expression (see the module comment). Throws a
 * ConstructionError for a type other than Object, Object.… and JSONPatch (cel-go's checker:
 * `undeclared reference`), a JSONPatch field it does not declare (`undefined field`), and an
 * optional field initializer (`?field:`), which the rewrite does not model.
 */
export function rewriteConstructions(expression: string): string {
  return rewriteMapped(expression).text;
}

/** A rewritten expression, and for each of its characters the offset in the expression as written it comes from. */
interface Rewritten {
  readonly text: string;
  readonly origin: readonly number[];
}

/** A piece of the rewritten text: copied from `at` (verbatim), or written for the construction that starts at `at`. */
type Piece = { readonly text: string; readonly at: number; readonly verbatim: boolean };

function rewriteMapped(expression: string): Rewritten {
  const tokens = tokenize(expression);
  let i = 0;
  const significant = (from: number, step: 1 | -1): Token | undefined => {
    for (let j = from; j >= 0 && j < tokens.length; j += step) if (tokens[j].kind !== 'space') return tokens[j];
    return undefined;
  };
  const skipSpace = () => {
    while (i < tokens.length && tokens[i].kind === 'space') i++;
  };
  const verbatim = (t: Token): Piece => ({ text: t.text, at: t.at, verbatim: true });
  /** Copies tokens until one of `stops` at this depth (not consumed), rewriting constructions and groups. */
  const copyUntil = (stops: readonly string[]): Piece[] => {
    const out: Piece[] = [];
    while (i < tokens.length) {
      const t = tokens[i];
      if (t.kind === 'punct' && stops.includes(t.text)) return out;
      if (t.kind === 'punct' && CLOSING[t.text] !== undefined) {
        i++;
        const inner = copyUntil([CLOSING[t.text]]);
        out.push(verbatim(t), ...inner);
        if (i < tokens.length) out.push(verbatim(tokens[i++]));
        continue;
      }
      const name = t.kind === 'ident' && !KEYWORDS.has(t.text) ? qualifiedName() : undefined;
      if (name !== undefined) {
        out.push(...construction(name, t.at));
        continue;
      }
      out.push(verbatim(t));
      i++;
    }
    return out;
  };
  /** At an identifier: the qualified name of a construction (`A.b.c` then `{`), consumed up to the brace; else undefined. */
  const qualifiedName = (): string | undefined => {
    if (significant(i - 1, -1)?.text === '.') return undefined;
    const parts = [tokens[i].text];
    let j = i + 1;
    for (;;) {
      let k = j;
      while (k < tokens.length && tokens[k].kind === 'space') k++;
      if (tokens[k]?.text === '.') {
        let m = k + 1;
        while (m < tokens.length && tokens[m].kind === 'space') m++;
        if (tokens[m]?.kind !== 'ident') return undefined;
        parts.push(tokens[m].text);
        j = m + 1;
        continue;
      }
      if (tokens[k]?.text !== '{') return undefined;
      i = k + 1;
      return parts.join('.');
    }
  };
  const construction = (name: string, at: number): Piece[] => {
    const isPatch = name === 'JSONPatch';
    if (!isPatch && name !== 'Object' && !name.startsWith('Object.'))
      throw new ConstructionError(`undeclared reference to '${name}' (in container '')`, at);
    const written = (text: string, from = at): Piece => ({ text, at: from, verbatim: false });
    const out: Piece[] = [written(isPatch ? '__jsonpatch({' : `__object(${JSON.stringify(name)}, {`)];
    let first = true;
    for (;;) {
      skipSpace();
      if (i >= tokens.length) break;
      if (tokens[i].text === '}') {
        i++;
        break;
      }
      if (tokens[i].text === '?')
        throw new ConstructionError(
          'optional field initializers (?field: …) are not supported by this simulation',
          tokens[i].at,
        );
      const field = tokens[i];
      if (field.kind !== 'ident') throw new ConstructionError(`Syntax error: unexpected '${field.text}'`, field.at);
      if (isPatch && !['op', 'path', 'from', 'value'].includes(field.text))
        throw new ConstructionError(`undefined field '${field.text}'`, field.at);
      i++;
      skipSpace();
      if (tokens[i]?.text !== ':')
        throw new ConstructionError(`Syntax error: missing ':' after '${field.text}'`, tokens[i]?.at ?? field.at);
      i++;
      skipSpace();
      const value = copyUntil([',', '}']);
      out.push(
        written(`${first ? '' : ', '}${JSON.stringify(field.text)}: dyn(`, field.at),
        ...value,
        written(')', field.at),
      );
      first = false;
      if (tokens[i]?.text === ',') i++;
    }
    out.push(written('})'));
    return out;
  };
  const pieces = copyUntil([]);
  let text = '';
  const origin: number[] = [];
  for (const p of pieces) {
    text += p.text;
    for (let k = 0; k < p.text.length; k++) origin.push(p.verbatim ? p.at + k : p.at);
  }
  return { text, origin };
}

/**
 * ObjectVal's native form (ConvertToNative to map[string]any, convertField): fields as JSON, nested
 * Objects as maps, lists and maps as they are; ints as numbers.
 */
export function objectToJson(v: unknown): unknown {
  if (v instanceof CelObject) return Object.fromEntries(Object.entries(v.fields).map(([k, f]) => [k, objectToJson(f)]));
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(objectToJson);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, f]) => [String(k), objectToJson(f)]));
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, f]) => [k, objectToJson(f)]));
  return v;
}

/**
 * ObjectVal.CheckTypeNamesMatchFieldPathNames: an Object under field f of `Object.a` must be
 * `Object.a.f`; lists and maps between are transparent. The mismatches, one per line.
 */
export function typeNameMismatches(v: CelObject): string[] {
  const errors: string[] = [];
  const walk = (value: unknown, path: readonly string[]): void => {
    if (value instanceof CelObject) {
      const expected = path.join('.');
      if (value.typeName !== expected)
        errors.push(
          `unexpected type name ${JSON.stringify(value.typeName)}, expected ${JSON.stringify(expected)}, which matches field name path from root Object type`,
        );
      for (const [k, f] of Object.entries(value.fields)) walk(f, [...path, k]);
    } else if (Array.isArray(value)) for (const e of value) walk(e, path);
    else if (value instanceof Map) for (const e of value.values()) walk(e, path);
    else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      for (const e of Object.values(value)) walk(e, path);
  };
  walk(v, [v.typeName]);
  return errors;
}

/**
 * CompileMutatingEvaluator (plugin/cel/compile.go) of a mutation's expression: rewritten, then
 * compiled in the patch-types environment; its output type must be `returnType` (`Object` for
 * an ApplyConfiguration, `list(JSONPatch)` for a JSONPatch). Errors and evaluation errors name the
 * expression as written.
 */
export function compileMutationExpression(
  env: Environment,
  expression: string,
  returnType: 'Object' | 'list(JSONPatch)',
): { program: CompiledExpression } | { error: CelError } {
  let rewritten: Rewritten;
  try {
    rewritten = rewriteMapped(expression);
  } catch (e) {
    if (!(e instanceof ConstructionError)) throw e;
    const detail = issue(env, expression, { summary: e.message, range: { start: e.at } });
    return { error: { type: 'Invalid', detail: `compilation failed: ${detail}` } };
  }
  // Errors point into the expression as written: each position of the rewritten text maps back.
  const r = compileExpression(env, rewritten.text, [returnType], {
    text: expression,
    position: (at) => rewritten.origin[Math.min(at, rewritten.origin.length - 1)] ?? 0,
  });
  if ('error' in r) return r;
  const program = r.program;
  return {
    program: {
      expression,
      outputType: program.outputType,
      evaluate(activation) {
        const v = program.evaluate(activation);
        return 'error' in v ? { error: `expression '${expression}' resulted in error: ${v.cause}`, cause: v.cause } : v;
      },
    },
  };
}

/**
 * CEL validation rules of a CRD schema (`x-kubernetes-validations`), after
 * staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel: compilation.go (each rule
 * compiled in the release's environment with `self`, and `oldSelf` for transition rules, typed from
 * the node's structural schema by ./cel-types.ts), validation.go (every rule of every node present
 * evaluated on create and update) and the CRD-time checks of pkg/apis/apiextensions/validation/
 * validation.go ValidateCustomResourceDefinitionOpenAPISchema (R314–R316).
 * Not modelled: cost estimates and runtime cost budgets (a rule runs to its end; upstream refuses a
 * CRD whose estimated cost is too high and stops a validation that runs out of budget), the
 * environment of stored expressions (an unchanged rule compiles as a new one), rules inside allOf,
 * and the list semantics of map and set lists compared on their own (in order here) or joined with `+`.
 */
import { type FieldError, describeFieldError } from '../../../apimachinery/errors';
import type { Release } from '../../../foundation/release';
import { type CompiledExpression, compileExpression, issue } from '../../cel/compile';
import { celEnvironment } from '../../cel/environment';
import { type CelNode, celNode, celValue, jsonDeepEqual, registerCelTypes } from './cel-types';
import { goBadValue, goQuote } from './go-print';
import {
  type JSONSchemaProps,
  type ValidationRule,
  additionalPropertiesSchema,
  isJSONObject,
  itemsSchema,
} from './types';

/** One rule compiled (CompilationResult): the program, or the error; messageExpression likewise. */
interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: CompiledExpression;
  readonly error?: string;
  readonly message?: CompiledExpression;
  readonly messageError?: string;
  readonly usesOldSelf: boolean;
  /** The fieldPath normalised (ValidFieldPath), when it is valid. */
  readonly fieldPath?: string;
}

/** The rule as the release knows it: messageExpression from 1.27, reason and fieldPath from 1.28 (older apiservers drop them), optionalOldSelf with CRDValidationRatcheting. */
function ruleOf(rule: ValidationRule, release: Release): ValidationRule {
  const r: ValidationRule = { rule: rule.rule, ...(rule.message !== undefined ? { message: rule.message } : {}) };
  if (release.atLeast(27) && rule.messageExpression !== undefined) r.messageExpression = rule.messageExpression;
  if (release.atLeast(28) && rule.reason !== undefined) r.reason = rule.reason;
  if (release.atLeast(28) && rule.fieldPath !== undefined) r.fieldPath = rule.fieldPath;
  // optionalOldSelf (1.29 on) is dropped while CRDValidationRatcheting is off (customresourcedefinition/strategy.go dropDisabledFields).
  if (release.atLeast(29) && release.enabled('CRDValidationRatcheting') && rule.optionalOldSelf !== undefined)
    r.optionalOldSelf = rule.optionalOldSelf;
  return r;
}

/** Whether the expression refers to oldSelf (the checked expression's reference map). */
function refersTo(ast: unknown, name: string): boolean {
  if (Array.isArray(ast)) return ast.some((a) => refersTo(a, name));
  if (ast === null || typeof ast !== 'object') return false;
  const node = ast as { op?: string; args?: unknown };
  if (node.op === 'id') return node.args === name;
  return refersTo(node.args, name);
}

/** The fields of each object type of a node, by type name. */
function objectFields(node: CelNode, out = new Map<string, ReadonlySet<string>>()): Map<string, ReadonlySet<string>> {
  if (node.kind === 'list' || node.kind === 'map') objectFields(node.elem, out);
  if (node.kind === 'object') {
    out.set(node.type, new Set(node.fields.keys()));
    for (const f of node.fields.values()) objectFields(f.node, out);
  }
  return out;
}

interface AstNode {
  readonly op: string;
  readonly args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
}

/**
 * cel-go's checker refuses `has(x.f)` when x is an object type without field f (`undefined field
 * 'f'`); the evaluator here answers false. The operand is checked on its own (one reading a
 * comprehension's variable cannot be, and is let through).
 */
function undeclaredHas(
  env: ReturnType<typeof celEnvironment>,
  expression: string,
  ast: unknown,
  fields: ReadonlyMap<string, ReadonlySet<string>>,
): string | undefined {
  if (Array.isArray(ast)) {
    for (const a of ast) {
      const found = undeclaredHas(env, expression, a, fields);
      if (found) return found;
    }
    return undefined;
  }
  if (ast === null || typeof ast !== 'object') return undefined;
  const node = ast as AstNode;
  if (node.op === 'call' && Array.isArray(node.args) && node.args[0] === 'has') {
    const select = (node.args[1] as AstNode[] | undefined)?.[0];
    if (select?.op === '.' && Array.isArray(select.args)) {
      const [operand, field] = select.args as [AstNode, string];
      const checked = env.check(expression.slice(operand.start, operand.end));
      const declared = checked.valid && checked.type ? fields.get(checked.type) : undefined;
      if (declared && !declared.has(field))
        return `compilation failed: ${issue(env, expression, { summary: `No such key: ${field}`, code: 'no_such_key', range: { start: select.pos } })}`;
    }
  }
  return undeclaredHas(env, expression, node.args, fields);
}

/** compilation.go Compile of one node's rules: `self` of the node's type, `oldSelf` the same (optional with optionalOldSelf). */
function compileRules(
  schema: JSONSchemaProps,
  isResourceRoot: boolean,
  release: Release,
): { rules: CompiledRule[]; node?: CelNode } {
  const rules = (schema['x-kubernetes-validations'] ?? []).map((r) => ruleOf(r, release));
  const node = celNode(schema, isResourceRoot, 'selfType0');
  if (node === undefined)
    return {
      rules: rules.map((rule) => ({
        rule,
        error: 'failed to convert to declType for CEL validation rules',
        usesOldSelf: false,
      })),
    };
  const envs = new Map<boolean, ReturnType<typeof celEnvironment>>();
  const envFor = (optional: boolean) => {
    let env = envs.get(optional);
    if (env === undefined) {
      env = celEnvironment(release.minor, []).clone();
      registerCelTypes(env, node);
      env.registerVariable('self', node.type);
      env.registerVariable('oldSelf', optional ? `optional<${node.type}>` : node.type);
      envs.set(optional, env);
    }
    return env;
  };
  const fields = objectFields(node);
  const compiled = rules.map((rule): CompiledRule => {
    if (rule.rule.trim() === '') return { rule, usesOldSelf: false };
    const env = envFor(rule.optionalOldSelf === true);
    const checked = compileExpression(env, rule.rule, ['dyn']);
    if ('error' in checked) return { rule, error: checked.error.detail, usesOldSelf: false };
    const { ast } = env.parse(rule.rule);
    const undeclared = undeclaredHas(env, rule.rule, ast, fields);
    if (undeclared) return { rule, error: undeclared, usesOldSelf: false };
    if (checked.program.outputType !== 'bool')
      return { rule, error: 'cel expression must evaluate to a bool', usesOldSelf: false };
    const usesOldSelf = refersTo(ast, 'oldSelf');
    const fieldPath = rule.fieldPath ? validFieldPath(rule.fieldPath, schema) : undefined;
    const result = {
      rule,
      program: checked.program,
      usesOldSelf,
      ...(typeof fieldPath === 'string' ? { fieldPath } : {}),
    };
    if (!rule.messageExpression) return result;
    const message = compileExpression(env, rule.messageExpression, ['dyn']);
    if ('error' in message) return { ...result, messageError: `messageExpression ${message.error.detail}` };
    const undeclaredInMessage = undeclaredHas(
      env,
      rule.messageExpression,
      env.parse(rule.messageExpression).ast,
      fields,
    );
    if (undeclaredInMessage) return { ...result, messageError: `messageExpression ${undeclaredInMessage}` };
    if (message.program.outputType !== 'string')
      return { ...result, messageError: 'messageExpression must evaluate to a string' };
    return { ...result, message: message.program };
  });
  // The values of self and oldSelf are made with the node whose types the environment registered.
  return { rules: compiled, node };
}

const SINGLE_QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

/**
 * validation.go ValidFieldPath: a JSON path of `.name` and `['name']` steps through the schema's
 * properties (or a map's keys), normalised to a field path (`spec.x`, `spec.m[key]`), or an error.
 */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps): string | { error: string } {
  const tokens = jsonPath.match(/'(?:[^'\\]|\\.)*'|[.[\]]|[^.[\]']+|'/g) ?? [];
  let path: string | undefined;
  let s: JSONSchemaProps | undefined = schema;
  const step = (name: string): string | undefined => {
    if (s?.properties !== undefined) {
      if (!Object.prototype.hasOwnProperty.call(s.properties, name)) return 'does not refer to a valid field';
      s = s.properties[name];
      path = path === undefined ? name : `${path}.${name}`;
    } else if (s?.additionalProperties !== undefined) {
      s = additionalPropertiesSchema(s);
      path = `${path ?? ''}[${name}]`;
    } else return 'does not refer to a valid field';
    return undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else if (tok === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        return { error: `expected single quoted string but got ${quoted}` };
      let bad: string | undefined;
      const name = quoted.slice(1, -1).replace(/\\./g, (m) => SINGLE_QUOTE_ESCAPES[m[1]] ?? ((bad ??= m), ''));
      if (bad !== undefined) return { error: `invalid string literal: invalid escape char ${bad}` };
      const err = step(name);
      if (err) return { error: err };
      if (tokens[++i] === undefined) return { error: 'unexpected end of JSON path' };
      if (tokens[i] !== ']') return { error: `expected ] but got ${tokens[i]}` };
    } else return { error: `expected [ or . but got: ${tok}` };
  }
  return path ?? '';
}

/** %#v of the internal apiextensions.ValidationRule (pointer fields print as nil or an address, elided here). */
function goRule(rule: ValidationRule, release: Release): string {
  const ptr = (t: string, set: boolean) => `(*${t})(${set ? '0xc000…' : 'nil'})`;
  const fields = [`Rule:${goQuote(rule.rule)}`, `Message:${goQuote(rule.message ?? '')}`];
  if (release.atLeast(27)) fields.push(`MessageExpression:${goQuote(rule.messageExpression ?? '')}`);
  if (release.atLeast(28))
    fields.push(
      `Reason:${ptr('apiextensions.FieldValueErrorReason', rule.reason !== undefined)}`,
      `FieldPath:${goQuote(rule.fieldPath ?? '')}`,
    );
  if (release.atLeast(29)) fields.push(`OptionalOldSelf:${ptr('bool', rule.optionalOldSelf !== undefined)}`);
  return `apiextensions.ValidationRule{${fields.join(', ')}}`;
}

/**
 * The CRD-time CEL checks of a schema whose structure is valid (ValidateCustomResourceDefinitionOpenAPISchema's
 * CELErrors): each rule compiles, its messageExpression compiles to a string, oldSelf only where old
 * values correlate (below a map list, never below another list or an unknown map type),
 * optionalOldSelf only with oldSelf; a fieldPath must be a valid path. Children before the node, as upstream recurses.
 */
export function celSchemaErrors(
  schema: JSONSchemaProps,
  path: string,
  release: Release,
  schemaErrorFields: readonly string[],
): FieldError[] {
  const blocked = (p: string) => schemaErrorFields.some((f) => f === p || f.startsWith(`${p}.`));
  return nodeErrors(schema, path, release, true, undefined, blocked);
}

function nodeErrors(
  s: JSONSchemaProps,
  p: string,
  release: Release,
  isResourceRoot: boolean,
  uncorrelatable: string | undefined,
  blocked: (p: string) => boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const additional = additionalPropertiesSchema(s);
  if (additional)
    errs.push(
      ...nodeErrors(
        additional,
        `${p}.additionalProperties`,
        release,
        !!additional['x-kubernetes-embedded-resource'],
        uncorrelatable,
        blocked,
      ),
    );
  const mapCorrelatable =
    s['x-kubernetes-map-type'] === undefined || ['granular', 'atomic'].includes(s['x-kubernetes-map-type']);
  for (const k of Object.keys(s.properties ?? {}).sort()) {
    const prop = s.properties![k];
    errs.push(
      ...nodeErrors(
        prop,
        `${p}.properties[${k}]`,
        release,
        !!prop['x-kubernetes-embedded-resource'],
        uncorrelatable ?? (mapCorrelatable ? undefined : p),
        blocked,
      ),
    );
  }
  const items = itemsSchema(s);
  if (items)
    errs.push(
      ...nodeErrors(
        items,
        `${p}.items`,
        release,
        !!items['x-kubernetes-embedded-resource'],
        uncorrelatable ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : p),
        blocked,
      ),
    );
  // A node with a schema error at it or below it is not compiled: its types may not convert.
  if ((s['x-kubernetes-validations'] ?? []).length === 0 || blocked(p)) return errs;
  compileRules(s, isResourceRoot, release).rules.forEach((cr, i) => {
    const at = `${p}.x-kubernetes-validations[${i}]`;
    const printed = goRule(cr.rule, release);
    if (cr.error)
      errs.push({ field: `${at}.rule`, type: 'Invalid', value: cr.rule, printedValue: printed, detail: cr.error });
    if (cr.messageError)
      errs.push({
        field: `${at}.messageExpression`,
        type: 'Invalid',
        value: cr.rule,
        printedValue: printed,
        detail: cr.messageError,
      });
    if (cr.usesOldSelf) {
      if (uncorrelatable !== undefined)
        errs.push(
          invalidAt(
            `${at}.rule`,
            cr.rule.rule,
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
          ),
        );
    } else if (cr.program && cr.rule.optionalOldSelf !== undefined) {
      errs.push(
        invalidAt(`${at}.optionalOldSelf`, cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'),
      );
    }
  });
  return errs;
}

const invalidAt = (field: string, value: unknown, detail: string): FieldError => ({
  field,
  type: 'Invalid',
  value,
  printedValue: goBadValue(value),
  detail,
});

/** A node of the validator (validation.go Validator): its compiled rules and the children that hold rules. */
interface Validator {
  readonly schema: JSONSchemaProps;
  readonly rules: readonly CompiledRule[];
  /** The CEL view of the node, for the values of self and oldSelf. */
  readonly node?: CelNode;
  readonly properties: ReadonlyMap<string, Validator>;
  readonly items?: Validator;
  readonly additional?: Validator;
}

function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations'] ?? []).length > 0) return true;
  return (
    hasRules(itemsSchema(s)) ||
    hasRules(additionalPropertiesSchema(s)) ||
    Object.values(s.properties ?? {}).some(hasRules)
  );
}

/** NewValidator: the validator of a schema, or undefined when no node of it has rules. */
function buildValidator(s: JSONSchemaProps, isResourceRoot: boolean, release: Release): Validator | undefined {
  if (!hasRules(s)) return undefined;
  const properties = new Map<string, Validator>();
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    const v = buildValidator(prop, !!prop['x-kubernetes-embedded-resource'], release);
    if (v) properties.set(k, v);
  }
  const items = itemsSchema(s);
  const additional = additionalPropertiesSchema(s);
  const { rules, node } =
    (s['x-kubernetes-validations'] ?? []).length > 0
      ? compileRules(s, isResourceRoot, release)
      : { rules: [], node: undefined };
  return {
    schema: s,
    rules,
    node,
    properties,
    items: items && buildValidator(items, !!items['x-kubernetes-embedded-resource'], release),
    additional: additional && buildValidator(additional, !!additional['x-kubernetes-embedded-resource'], release),
  };
}

/** Validators are compiled once per schema and release (the strategy keeps its schema object). */
const validators = new WeakMap<JSONSchemaProps, Map<Release, Validator | undefined>>();

function validatorFor(schema: JSONSchemaProps, release: Release): Validator | undefined {
  let byRelease = validators.get(schema);
  if (!byRelease) validators.set(schema, (byRelease = new Map()));
  if (!byRelease.has(release)) byRelease.set(release, buildValidator(schema, true, release));
  return byRelease.get(release);
}

const withRules = new WeakMap<JSONSchemaProps, boolean>();

/** Whether a schema has any x-kubernetes-validations (then the strategy asks for them); remembered per schema. */
export function hasCelRules(schema: JSONSchemaProps): boolean {
  let has = withRules.get(schema);
  if (has === undefined) withRules.set(schema, (has = hasRules(schema)));
  return has;
}

/**
 * Ratcheting (ratchetingOptions): the old value correlated with this node (by field, by key in map
 * lists), or, where none correlates, whether the nearest correlated ancestor is unchanged.
 */
interface Ratchet {
  readonly old?: { readonly value: unknown };
  readonly parentUnchanged: boolean;
}
const NO_RATCHET: Ratchet = { parentUnchanged: false };

const shouldRatchet = (r: Ratchet, value: unknown): boolean =>
  r.old ? jsonDeepEqual(value, r.old.value) : r.parentUnchanged;

function ratchetKey(r: Ratchet, value: unknown, key: string, atRoot: boolean): Ratchet {
  if (!r.old) return r;
  // apiVersion and kind cannot ratchet: old and new are converted to the same version.
  if (atRoot && (key === 'apiVersion' || key === 'kind')) return NO_RATCHET;
  const parentUnchanged = jsonDeepEqual(value, r.old.value);
  const old = r.old.value;
  return isJSONObject(old) && Object.prototype.hasOwnProperty.call(old, key)
    ? { old: { value: old[key] }, parentUnchanged }
    : { parentUnchanged };
}

/** maplist.go makeMapList: the old item with the same map keys, in an x-kubernetes-list-type map. */
function correlatedItem(schema: JSONSchemaProps, oldList: unknown, item: unknown): { value: unknown } | undefined {
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(oldList) || !isJSONObject(item)) return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const found = oldList.find((o) => isJSONObject(o) && keys.every((k) => jsonDeepEqual(o[k], item[k])));
  return found === undefined ? undefined : { value: found };
}

const child = (path: string | undefined, name: string) => (path === undefined ? name : `${path}.${name}`);

interface Context {
  readonly release: Release;
  readonly errs: FieldError[];
  readonly warn?: (warning: string) => void;
}

/** validation.go validate: the node's rules, then its children (nulls are not validated). */
function validateNode(
  v: Validator,
  path: string | undefined,
  obj: unknown,
  old: unknown,
  r: Ratchet,
  ctx: Context,
): void {
  if (obj === null || obj === undefined) return;
  if (v.rules.length > 0) validateExpressions(v, path, obj, old === null ? undefined : old, r, ctx);
  if (Array.isArray(obj) && v.items) {
    const oldList = Array.isArray(old) ? old : undefined;
    obj.forEach((item, i) => {
      const oldItem = correlatedItem(v.schema, oldList, item);
      const next: Ratchet = !r.old ? r : { old: oldItem, parentUnchanged: jsonDeepEqual(obj, r.old.value) };
      validateNode(v.items!, `${path ?? ''}[${i}]`, item, oldItem?.value, next, ctx);
    });
  } else if (isJSONObject(obj)) {
    const oldMap = isJSONObject(old) ? old : undefined;
    const mapType = v.schema['x-kubernetes-map-type'];
    const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic';
    const keys = Object.keys(obj).sort();
    if (v.additional)
      for (const k of keys)
        validateNode(
          v.additional,
          `${path ?? ''}[${k}]`,
          obj[k],
          correlatable ? oldMap?.[k] : undefined,
          ratchetKey(r, obj, k, path === undefined),
          ctx,
        );
    for (const k of keys) {
      const sub = v.properties.get(k);
      if (sub)
        validateNode(
          sub,
          child(path, k),
          obj[k],
          correlatable ? oldMap?.[k] : undefined,
          ratchetKey(r, obj, k, path === undefined),
          ctx,
        );
    }
  }
}

function ruleErrorString(rule: ValidationRule): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

/** ruleMessageOrDefault: the message (trimmed from 1.27, with messageExpression), or `failed rule: <rule>`. */
function ruleMessage(rule: ValidationRule, release: Release): string {
  if (!rule.message) return `failed rule: ${ruleErrorString(rule)}`;
  return release.atLeast(27) ? rule.message.trim() : rule.message;
}

/** fieldErrorForReason: the rule's reason is the error's type (Invalid unless it says otherwise). */
function reasonError(field: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return { field, type: 'Forbidden', detail };
    case 'FieldValueRequired':
      return { field, type: 'Required value', detail };
    case 'FieldValueDuplicate':
      return { field, type: 'Duplicate value', value: type, printedValue: goQuote(type), detail: '' };
    default:
      return { field, type: 'Invalid', value: type, printedValue: goQuote(type), detail };
  }
}

/** evalMessageExpression: its trimmed one-line string, or undefined (the rule's message is used then). */
function evalMessage(program: CompiledExpression, activation: Record<string, unknown>): string | undefined {
  const result = program.evaluate(activation);
  if ('error' in result || typeof result.value !== 'string') return undefined;
  const text = result.value.trim();
  return text === '' || text.includes('\n') || text.length > 5 * 1024 ? undefined : text;
}

/**
 * An evaluation error in cel-go's words where the evaluator's differ: an index past a list's end
 * (values.go unstructuredList.Get: `index out of bounds: 3`), a modulus by zero.
 */
function goCause(cause: string): string {
  const m = /^no such key: index out of bounds, index (-?\d+) >= size \d+$/.exec(cause);
  if (m) return `index out of bounds: ${m[1]}`;
  return cause === 'modulo by zero' ? 'modulus by zero' : cause;
}

/** validateExpressions: each rule of one node against its value (and old value, for transition rules). */
function validateExpressions(
  v: Validator,
  path: string | undefined,
  obj: unknown,
  old: unknown,
  r: Ratchet,
  ctx: Context,
): void {
  const fldPath = path ?? '<nil>';
  const type = v.schema.type ?? '';
  const self = celValue(obj, v.node!);
  const oldSelf = old === undefined ? undefined : celValue(old, v.node!);
  const ratcheting = ctx.release.enabled('CRDValidationRatcheting');
  // CEL rules ratchet from 1.29 (the gate's α of 1.28 covered only the OpenAPI validation).
  const celRatcheting = ratcheting && ctx.release.atLeast(29);
  const optional = celOptional();
  for (const cr of v.rules) {
    const rule = cr.rule;
    if (cr.error) {
      ctx.errs.push({
        field: fldPath,
        type: 'Invalid',
        value: type,
        printedValue: goQuote(type),
        detail: `rule compile error: ${cr.error}`,
      });
      continue;
    }
    if (!cr.program) continue;
    const optionalOldSelf = rule.optionalOldSelf === true;
    // Transition rules run only when there is an old value, unless oldSelf is optional.
    if (cr.usesOldSelf && old === undefined && !(optionalOldSelf && ratcheting)) continue;
    const activation = {
      self,
      oldSelf: optionalOldSelf ? (oldSelf === undefined ? optional.none() : optional.of(oldSelf)) : oldSelf,
    };
    const result = cr.program.evaluate(activation);
    const invalid = (detail: string): FieldError => ({
      field: fldPath,
      type: 'Invalid',
      value: type,
      printedValue: goQuote(type),
      detail,
    });
    if ('error' in result) {
      const cause = goCause(result.cause);
      if (cause.startsWith('no such overload'))
        ctx.errs.push(
          invalid(
            `'${cause}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
          ),
        );
      else ctx.errs.push(invalid(`${cause} evaluating rule: ${ruleErrorString(rule)}`));
      continue;
    }
    if (result.value === true) continue;
    const at = cr.fieldPath ? child(path, cr.fieldPath) : fldPath;
    const message = (cr.message && evalMessage(cr.message, activation)) || ruleMessage(rule, ctx.release);
    const error = reasonError(at, type, message, rule.reason);
    // A rule that does not read oldSelf and fails on an unchanged value is ratcheted: its error becomes a warning.
    if (celRatcheting && !cr.usesOldSelf && shouldRatchet(r, obj)) ctx.warn?.(describeFieldError(error));
    else ctx.errs.push(error);
  }
}

/** cel-js's Optional, loaded with the evaluator. */
function celOptional(): { none(): unknown; of(v: unknown): unknown } {
  return (require('@marcbachmann/cel-js') as { Optional: { none(): unknown; of(v: unknown): unknown } }).Optional;
}

/**
 * Validator.Validate of a custom resource: the errors of every rule of every node present, with
 * `old` on update (transition rules, ratcheting where the release has CRDValidationRatcheting: the
 * ratcheted errors go to `warn`, as warning.AddWarning sends them to the client).
 */
export function validateCel(
  schema: JSONSchemaProps,
  obj: unknown,
  old: unknown,
  release: Release,
  warn?: (warning: string) => void,
): FieldError[] {
  const v = validatorFor(schema, release);
  if (!v) return [];
  const ctx: Context = { release, errs: [], warn };
  const ratchet: Ratchet =
    old !== undefined && release.enabled('CRDValidationRatcheting')
      ? { old: { value: old }, parentUnchanged: false }
      : NO_RATCHET;
  validateNode(v, undefined, obj, old, ratchet, ctx);
  return ctx.errs;
}

/**
 * R70 — label and field selectors as a LIST or WATCH gives them (`labelSelector=app=web,tier!=db`,
 * `fieldSelector=spec.nodeName=node-1`), parsed the way apimachinery does:
 * staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Lexer, Parser, NewRequirement) and
 * pkg/fields/selector.go (ParseSelector). A selector that does not parse throws SelectorError
 * with upstream's message; the handlers answer it as a 400 BadRequest (handlers/get.go ListResource).
 */

import type { Release } from '../foundation/release';

/** A selector that does not parse: the message is apimachinery's. */
export class SelectorError extends Error {
  override readonly name = 'SelectorError';
}

type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>> | undefined;

/** A parsed label selector: every requirement must hold (labels.internalSelector.Matches). */
export class LabelSelector {
  constructor(readonly requirements: readonly LabelRequirement[]) {}

  get empty(): boolean {
    return this.requirements.length === 0;
  }

  matches(labels: Labels): boolean {
    return this.requirements.every((r) => requirementMatches(r, labels ?? {}));
  }
}

/** A metav1.LabelSelector as objects carry it (matchLabels, matchExpressions). */
export interface LabelSelectorSpec {
  matchLabels?: Readonly<Record<string, string>>;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

const EXPRESSION_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: every matchLabels pair and matchExpression must hold; an empty
 * selector selects everything. An operator it does not know throws SelectorError with
 * apimachinery's message (callers that skip invalid selectors catch it, as upstream's do).
 */
export function labelSelectorAsSelector(spec: LabelSelectorSpec): LabelSelector {
  const requirements: LabelRequirement[] = Object.keys(spec.matchLabels ?? {}).map((key) => ({
    key,
    operator: '=' as const,
    values: [spec.matchLabels![key]],
  }));
  for (const e of spec.matchExpressions ?? []) {
    const operator = EXPRESSION_OPERATORS[e.operator];
    if (!operator) throw new SelectorError(`"${e.operator}" is not a valid label selector operator`);
    requirements.push({ key: e.key, operator, values: e.values ?? [] });
  }
  return new LabelSelector(requirements);
}

/** labels.Requirement.Matches. */
function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === 'gt' ? n > bound : n < bound;
    }
  }
}

// ---- the label selector lexer (selector.go Lexer) ----

type Token = 'id' | 'end' | 'error' | ')' | ',' | '!' | '==' | '=' | '>' | 'in' | '<' | '!=' | 'notin' | '(';

const LITERAL_TOKENS: Readonly<Record<string, Token>> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string) => '=!(),><'.includes(ch);

function lex(s: string): { tok: Token; lit: string }[] {
  const items: { tok: Token; lit: string }[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: 'end', lit: '' });
      return items;
    }
    if (isSpecial(s[pos])) {
      // scanSpecialSymbol: the longest run of special characters that still forms an operator.
      let buffer = '';
      let last: { tok: Token; lit: string } | undefined;
      while (pos < s.length && isSpecial(s[pos])) {
        buffer += s[pos];
        const tok = LITERAL_TOKENS[buffer];
        if (tok) {
          last = { tok, lit: buffer };
          pos++;
        } else if (last) break;
        else pos++;
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    let buffer = '';
    while (pos < s.length && !isSpecial(s[pos]) && !isWhitespace(s[pos])) buffer += s[pos++];
    items.push({ tok: LITERAL_TOKENS[buffer] ?? 'id', lit: buffer });
  }
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

/** labels.Parse: `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a)`, `key>1`, `key<1`, comma-separated. */
export function parseLabelSelector(selector: string): LabelSelector {
  const items = lex(selector);
  let position = 0;
  // In a value position, `in` and `notin` are plain identifiers (Parser.lookahead/consume with Values).
  const look = (values: boolean) => {
    const it = items[position];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id' as Token, lit: it.lit } : it;
  };
  const consume = (values: boolean) => {
    const it = look(values);
    position++;
    return it;
  };

  const parseRequirement = (): LabelRequirement => {
    let operator: LabelOperator | undefined;
    let { tok, lit } = consume(true);
    if (tok === '!') {
      operator = '!';
      ({ tok, lit } = consume(true));
    }
    if (tok !== 'id') throw new Error(`found '${lit}', expected: identifier`);
    const key = lit;
    const keyErrors = qualifiedNameErrors(key);
    if (keyErrors.length > 0) throw new Error(`<nil>: Invalid value: ${JSON.stringify(key)}: ${keyErrors.join('; ')}`);
    const next = look(true).tok;
    if (next === 'end' || next === ',') return newRequirement(key, operator ?? 'exists', []);
    const op = consume(false);
    let binary: LabelOperator;
    switch (op.tok) {
      case 'in':
        binary = 'in';
        break;
      case '=':
        binary = '=';
        break;
      case '==':
        binary = '==';
        break;
      case '>':
        binary = 'gt';
        break;
      case '<':
        binary = 'lt';
        break;
      case 'notin':
        binary = 'notin';
        break;
      case '!=':
        binary = '!=';
        break;
      default:
        throw new Error(`found '${op.lit}', expected: ${BINARY_OPERATORS}`);
    }
    const values = binary === 'in' || binary === 'notin' ? parseValues() : parseExactValue();
    return newRequirement(key, binary, values);
  };

  const parseValues = (): string[] => {
    const open = consume(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const first = look(true);
    if (first.tok === ')') {
      consume(true);
      return [''];
    }
    if (first.tok !== 'id' && first.tok !== ',')
      throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = consume(true);
      if (tok === 'id') {
        set.add(lit);
        const after = look(true);
        if (after.tok === ',') continue;
        if (after.tok === ')') break;
        throw new Error(`found '${after.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (set.size === 0) set.add('');
        const after = look(true).tok;
        if (after === ')') {
          set.add('');
          break;
        }
        if (after === ',') {
          consume(true);
          set.add('');
        }
      } else throw new Error(`found '${lit}', expected: ',', or identifier`);
    }
    if (consume(true).tok !== ')') throw new Error(`found '${first.lit}', expected: ')'`);
    return [...set].sort();
  };

  const parseExactValue = (): string[] => {
    const next = look(true).tok;
    if (next === 'end' || next === ',') return [''];
    const { tok, lit } = consume(true);
    if (tok === 'id') return [lit];
    throw new Error(`found '${lit}', expected: identifier`);
  };

  const requirements: LabelRequirement[] = [];
  try {
    for (;;) {
      const { tok, lit } = look(true);
      if (tok === 'end') break;
      if (tok !== 'id' && tok !== '!')
        throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(parseRequirement());
      } catch (e) {
        throw new SelectorError(`unable to parse requirement: ${(e as Error).message}`);
      }
      const sep = consume(true);
      if (sep.tok === 'end') break;
      if (sep.tok !== ',') throw new SelectorError(`found '${sep.lit}', expected: ',' or 'end of string'`);
      const after = look(true).tok;
      if (after !== 'id' && after !== '!')
        throw new SelectorError(`found '${look(true).lit}', expected: identifier after ','`);
    }
  } catch (e) {
    if (e instanceof SelectorError) throw e;
    throw new SelectorError((e as Error).message);
  }
  // parse sorts the requirements by key for a deterministic selector.
  return new LabelSelector(requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
}

/** labels.NewRequirement: operator arity and value validation. */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        throw new Error(`values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        throw new Error(
          `values: Invalid value: ${JSON.stringify(values)}: exact-match compatible operators must have exactly one value`,
        );
      break;
    case 'exists':
    case '!':
      break;
    case 'gt':
    case 'lt':
      if (!/^-?\d+$/.test(values[0] ?? ''))
        throw new Error(
          `values[0]: Invalid value: ${JSON.stringify(values[0] ?? '')}: for 'Gt', 'Lt' operators, the value must be an integer`,
        );
      return { key, operator, values };
  }
  for (const v of values) {
    const errs = labelValueErrors(v);
    if (errs.length > 0) throw new Error(`[${key}]: Invalid value: ${JSON.stringify(v)}: ${errs.join('; ')}`);
  }
  return { key, operator, values };
}

// ---- apimachinery/pkg/util/validation (IsQualifiedName, IsValidLabelValue) ----

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** validation.IsQualifiedName: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
/** validation.IsDNS1035Label's messages, joined as upstream's callers join them (","). */
export function dns1035(value: string): string | undefined {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) errs.push(DNS1035_MESSAGE);
  return errs.length ? errs.join(',') : undefined;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * validation.IsDNS1123Label's messages, one each (ValidateDNS1123Label makes each a field error).
 * From 1.27 a valid DNS subdomain that is no label (it has dots) says `must not contain dots`
 * (release.has('DnsLabelMustNotContainDots')).
 */
export function dns1123LabelErrors(value: string, release: Release): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (DNS1123_LABEL.test(value)) return errs;
  if (release.has('DnsLabelMustNotContainDots') && DNS1123_SUBDOMAIN.test(value)) errs.push('must not contain dots');
  else
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  return errs;
}

/** validation.IsDNS1123Subdomain's messages, one each. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) errs.push(DNS1123_SUBDOMAIN_MESSAGE);
  return errs;
}

/** validation.IsDNS1123Subdomain's messages, joined as dns1035's. */
export function dns1123Subdomain(value: string): string | undefined {
  const errs = dns1123SubdomainErrors(value);
  return errs.length ? errs.join(',') : undefined;
}

export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
    else if (!DNS1123_SUBDOMAIN.test(prefix)) {
      errs.push(`prefix part ${DNS1123_SUBDOMAIN_MESSAGE}`);
    }
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !QUALIFIED_NAME.test(name)) errs.push(QUALIFIED_NAME_MESSAGE);
  return errs;
}

/** validation.IsValidLabelValue: empty, or at most 63 characters of [-A-Za-z0-9_.] starting and ending alphanumeric. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

// ---- field selectors (fields/selector.go) ----

interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A parsed field selector: every term must hold against the object's selectable fields. */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  get empty(): boolean {
    return this.requirements.length === 0;
  }

  /** The value an exact `field=value` term requires, if any (fields.Selector.RequiresExactMatch). */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  matches(fields: Readonly<Record<string, string>>): boolean {
    return this.requirements.every((r) =>
      r.operator === '=' ? fields[r.field] === r.value : fields[r.field] !== r.value,
    );
  }
}

/**
 * fields.ParseSelector: comma-separated `field=value`, `field==value` or `field!=value` terms;
 * `\` escapes `,`, `=`, `!` and `\` in values.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(selector)) {
    if (term === '') continue;
    const [lhs, op, rhs] = splitTerm(term);
    if (lhs === undefined) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${term}'`);
    let value: string;
    try {
      value = unescapeValue(rhs);
    } catch (e) {
      throw new SelectorError((e as Error).message);
    }
    requirements.push({ field: lhs, operator: op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(requirements);
}

function splitTerms(s: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    if (escaped) escaped = false;
    else if (s[i] === '\\') escaped = true;
    else if (s[i] === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** fields.splitTerm: the first unescaped operator, trying `!=`, `==`, `=` at each position. */
function splitTerm(term: string): [string | undefined, string, string] {
  let escaped = false;
  for (let i = 0; i < term.length; i++) {
    if (escaped) {
      escaped = false;
      continue;
    }
    if (term[i] === '\\') {
      escaped = true;
      continue;
    }
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return [undefined, '', ''];
}

function unescapeValue(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      if (s[i] === ',' || s[i] === '=' || s[i] === '!')
        throw new Error(`invalid field selector: unescaped character in value: ${JSON.stringify(s)}`);
      out += s[i];
      continue;
    }
    const next = s[++i];
    if (next === undefined) throw new Error(`invalid field selector: invalid escape sequence: ${JSON.stringify(s)}`);
    if (!'\\,=!'.includes(next))
      throw new Error(`invalid field selector: invalid escape sequence: ${JSON.stringify(s)}`);
    out += next;
  }
  return out;
}

/**
 * A schema's `pattern` is a Go (RE2) regular expression (kube-openapi validate/rexp.go compiles it with
 * regexp.Compile, unanchored) (R302). JavaScript's RegExp reads most of that syntax alike; what it does
 * not is translated by one walk over the pattern:
 *   - flags anywhere: `(?i)` and `(?s)` apply to the rest of their group, `(?i:…)` to the group alone
 *     (case-insensitivity becomes letter classes, `[aA]`; dot-all makes `.` match a newline); `(?m)`
 *     turns on JavaScript's m flag for the whole pattern;
 *   - `\A` and `\z`, `\Q…\E`, `\pL` and `\p{Greek}`, `\x{263A}`, `(?P<name>…)`, POSIX classes
 *     `[[:alpha:]]`, and escapes of punctuation JavaScript's unicode mode refuses (`\-`, `\#`);
 *   - what RE2 refuses and JavaScript would accept (backreferences, lookaround) is refused, and the
 *     commonest syntax errors are worded as Go words them (missing closing ), unexpected ), missing
 *     closing ]).
 */

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Characters JavaScript's unicode mode lets be escaped outside a class. */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');

const cache = new Map<string, RegExp | Error>();

/** The RegExp of a Go pattern, or the error explaining why RE2 would not compile it. */
export function compileGoRegexp(pattern: string): RegExp | Error {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let compiled: RegExp | Error;
  try {
    const { source, multiline } = translate(pattern);
    compiled = new RegExp(source, multiline ? 'um' : 'u');
  } catch (err) {
    compiled =
      err instanceof GoSyntaxError
        ? new Error(`error parsing regexp: ${err.message}`)
        : new Error(`error parsing regexp: ${(err as Error).message}`);
  }
  cache.set(pattern, compiled);
  return compiled;
}

class GoSyntaxError extends Error {}

interface Flags {
  i: boolean;
  s: boolean;
}

const isLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase();

/** A literal character as JavaScript source, both cases when case-insensitive. */
function literal(c: string, flags: Flags, inClass: boolean): string {
  const text = /[\\^$.*+?()[\]{}|/]/.test(c) || (inClass && c === '-') ? `\\${c}` : c;
  if (!flags.i || !isLetter(c)) return text;
  const pair = `${c.toLowerCase()}${c.toUpperCase()}`;
  return inClass ? pair : `[${pair}]`;
}

/** \p{…}: one- and two-letter names are general categories, longer ones scripts. */
function unicodeClass(negated: boolean, name: string): string {
  const p = negated ? 'P' : 'p';
  return name.length <= 2 ? `\\${p}{${name}}` : `\\${p}{Script=${name}}`;
}

/** An escape at pattern[i] (the backslash); returns the JavaScript text and the index after it. */
function escape(pattern: string, i: number, flags: Flags, inClass: boolean): [string, number] {
  const c = pattern[i + 1];
  if (c === undefined) throw new GoSyntaxError(`trailing backslash at end of expression: \`\``);
  if (c === 'A' && !inClass) return ['^', i + 2];
  if (c === 'z' && !inClass) return ['$(?![\\s\\S])', i + 2];
  if (c === 'Q') {
    const end = pattern.indexOf('\\E', i + 2);
    const text = pattern.slice(i + 2, end < 0 ? undefined : end);
    return [[...text].map((ch) => literal(ch, flags, inClass)).join(''), end < 0 ? pattern.length : end + 2];
  }
  if (c === 'p' || c === 'P') {
    if (pattern[i + 2] === '{') {
      const end = pattern.indexOf('}', i + 3);
      if (end < 0) throw new GoSyntaxError(`invalid character class range: \`${pattern.slice(i)}\``);
      let name = pattern.slice(i + 3, end);
      let negated = c === 'P';
      if (name.startsWith('^')) [name, negated] = [name.slice(1), !negated];
      return [unicodeClass(negated, name), end + 1];
    }
    return [unicodeClass(c === 'P', pattern[i + 2] ?? ''), i + 3];
  }
  if (c === 'x' && pattern[i + 2] === '{') {
    const end = pattern.indexOf('}', i + 3);
    return [`\\u{${pattern.slice(i + 3, end)}}`, end + 1];
  }
  if (/[1-9]/.test(c)) throw new GoSyntaxError(`invalid escape sequence: \`\\${c}\``);
  if (/[A-Za-z0-9]/.test(c)) return [`\\${c}`, i + 2];
  // Punctuation: Go lets any be escaped; JavaScript's unicode mode only its syntax characters.
  if (SYNTAX.has(c) || (inClass && c === '-')) return [`\\${c}`, i + 2];
  return [c, i + 2];
}

/** A bracket class starting at pattern[i]; returns its JavaScript text and the index after it. */
function charClass(pattern: string, start: number, flags: Flags): [string, number] {
  let i = start + 1;
  let out = '[';
  if (pattern[i] === '^') {
    out += '^';
    i++;
  }
  let first = true;
  while (i < pattern.length && (pattern[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
    if (posix && POSIX[posix[2]] && !posix[1]) {
      out += POSIX[posix[2]];
      i += posix[0].length;
      continue;
    }
    if (pattern[i] === '\\') {
      const [text, next] = escape(pattern, i, flags, true);
      out += text;
      i = next;
      continue;
    }
    const c = pattern[i];
    // A letter range under (?i) adds the same range in the other case.
    if (
      flags.i &&
      pattern[i + 1] === '-' &&
      pattern[i + 2] !== undefined &&
      pattern[i + 2] !== ']' &&
      isLetter(c) &&
      isLetter(pattern[i + 2])
    ) {
      const to = pattern[i + 2];
      out += `${c}-${to}${c.toLowerCase() === c ? `${c.toUpperCase()}-${to.toUpperCase()}` : `${c.toLowerCase()}-${to.toLowerCase()}`}`;
      i += 3;
      continue;
    }
    out += c === '[' ? '\\[' : c === '-' ? '-' : literal(c, flags, true);
    i++;
  }
  if (i >= pattern.length) throw new GoSyntaxError(`missing closing ]: \`${pattern.slice(start)}\``);
  return [`${out}]`, i + 1];
}

function translate(pattern: string): { source: string; multiline: boolean } {
  const stack: Flags[] = [];
  let flags: Flags = { i: false, s: false };
  let multiline = false;
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const [text, next] = escape(pattern, i, flags, false);
      out += text;
      i = next;
    } else if (c === '[') {
      const [text, next] = charClass(pattern, i, flags);
      out += text;
      i = next;
    } else if (c === '(') {
      const group = /^\(\?([a-zA-Z-]*)([:)])/.exec(pattern.slice(i));
      if (pattern.startsWith('(?P<', i) || (pattern.startsWith('(?<', i) && !/^\(\?<[=!]/.test(pattern.slice(i)))) {
        const open = pattern.startsWith('(?P<', i) ? 4 : 3;
        const end = pattern.indexOf('>', i);
        stack.push(flags);
        flags = { ...flags };
        out += `(?<${pattern.slice(i + open, end)}>`;
        i = end + 1;
      } else if (group) {
        const next = { ...flags };
        let on = true;
        for (const f of group[1]) {
          if (f === '-') on = false;
          else if (f === 'i' || f === 's') next[f] = on;
          else if (f === 'm') multiline = multiline || on;
          else throw new GoSyntaxError(`invalid or unsupported Perl syntax: \`(?${f}\``);
        }
        if (group[2] === ')')
          flags = next; // (?i): the rest of the current group
        else {
          stack.push(flags);
          flags = next;
          out += '(?:';
        }
        i += group[0].length;
      } else if (pattern.startsWith('(?', i)) {
        throw new GoSyntaxError(`invalid or unsupported Perl syntax: \`${pattern.slice(i, i + 3)}\``);
      } else {
        stack.push(flags);
        flags = { ...flags };
        out += '(';
        i++;
      }
    } else if (c === ')') {
      if (stack.length === 0) throw new GoSyntaxError(`unexpected ): \`${pattern}\``);
      flags = stack.pop()!;
      out += ')';
      i++;
    } else if (c === '.' && flags.s) {
      out += '[\\s\\S]';
      i++;
    } else if (isLetter(c) && flags.i) {
      out += literal(c, flags, false);
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (stack.length > 0) throw new GoSyntaxError(`missing closing ): \`${pattern}\``);
  return { source: out, multiline };
}

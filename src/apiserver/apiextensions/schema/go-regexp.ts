/**
 * A schema's `pattern` is a Go (RE2) regular expression (kube-openapi validate/rexp.go compiles it with
 * regexp.Compile, unanchored). JavaScript's RegExp reads most of that syntax alike; the differences a
 * schema meets are translated here: leading flag groups `(?i)`, `(?s)`, `(?m)`, the anchors `\A` and `\z`,
 * one-letter Unicode classes `\pL`, and POSIX classes `[[:alpha:]]`. What RE2 refuses (backreferences,
 * lookaround) JavaScript would accept, so those are refused here too, with RE2's wording (R302).
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

const cache = new Map<string, RegExp | Error>();

/** The RegExp of a Go pattern, or the error explaining why RE2 would not compile it. */
export function compileGoRegexp(pattern: string): RegExp | Error {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const compiled = translate(pattern);
  cache.set(pattern, compiled);
  return compiled;
}

function translate(pattern: string): RegExp | Error {
  let source = pattern;
  let flags = 'u';
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead) {
    if (lead[1].includes('U')) return new Error(`error parsing regexp: invalid or unsupported Perl syntax: \`(?U\``);
    for (const f of lead[1]) if (!flags.includes(f)) flags += f;
    source = source.slice(lead[0].length);
  }
  if (/\\[1-9]/.test(source)) return new Error(`error parsing regexp: invalid escape sequence: \`${/\\[1-9]/.exec(source)![0]}\``);
  if (/\(\?[=!<]/.test(source)) return new Error(`error parsing regexp: invalid or unsupported Perl syntax: \`${/\(\?[=!<]/.exec(source)![0]}\``);
  source = source
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, neg: string, name: string) => (POSIX[name] && !neg ? POSIX[name] : whole))
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\\([pP])([A-Za-z])/g, '\\$1{$2}');
  try {
    return new RegExp(source, flags);
  } catch {
    // Go accepts escapes of any punctuation, which the u flag refuses; without it the pattern may still read alike.
    try {
      return new RegExp(source, flags.replace('u', ''));
    } catch (err) {
      return new Error(`error parsing regexp: ${(err as Error).message}`);
    }
  }
}

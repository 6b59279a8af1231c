/**
 * What Go's `json.Unmarshal(data, &map[string]interface{}{})` answers, as its error text, or
 * undefined when it succeeds. encoding/json first scans the whole input (scanner.go checkValid: the
 * first byte the state machine refuses gives `invalid character 'c' <where>`, input that stops
 * mid-value `unexpected end of JSON input`), then decodes: a top-level value other than an object
 * or null is an UnmarshalTypeError (`json: cannot unmarshal array into Go value of type
 * map[string]interface {}`). ValidateSecret uses it on dockercfg and dockerconfigjson Secrets.
 */
export function goUnmarshalObjectError(bytes: Uint8Array): string | undefined {
  const syntax = goSyntaxError(bytes);
  if (syntax !== undefined) return syntax;
  const first = bytes.find((b) => !isSpace(b));
  const kind = first === undefined ? undefined : TOP_KIND[String.fromCharCode(first)];
  return kind === undefined
    ? undefined
    : `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

const TOP_KIND: Readonly<Record<string, string>> = {
  '[': 'array',
  '"': 'string',
  t: 'bool',
  f: 'bool',
  '-': 'number',
  ...Object.fromEntries([...'0123456789'].map((d) => [d, 'number'])),
};

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** scanner.go quoteChar: how an offending byte is printed (as a rune, strconv.Quote'd in single quotes). */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
    92: '\\\\',
  };
  if (named[c]) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0x9f) || c === 0xad) return `'\\u00${c.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/** scanner.go's state machine over the bytes: the first error it reports, if any. */
function goSyntaxError(b: Uint8Array): string | undefined {
  let i = 0;
  const bad = (where: string) => `invalid character ${quoteChar(b[i])} ${where}`;
  // Inside a literal, a number or an escape, the end of input is scanned as a space (scanner.eof
  // steps ' '), so it is reported as that character.
  const cur = () => (i < b.length ? b[i] : 0x20);
  const badAt = (where: string) => `invalid character ${quoteChar(cur())} ${where}`;
  const EOF = 'unexpected end of JSON input';
  const skip = () => {
    while (i < b.length && isSpace(b[i])) i++;
  };
  const literal = (word: string): string | undefined => {
    for (let k = 1; k < word.length; k++, i++) {
      if (cur() !== word.charCodeAt(k)) return badAt(`in literal ${word} (expecting '${word[k]}')`);
    }
    return undefined;
  };
  const digits = () => {
    while (i < b.length && isDigit(b[i])) i++;
  };
  const number = (): string | undefined => {
    if (b[i - 1] === 0x2d) {
      if (!isDigit(cur())) return badAt('in numeric literal');
      i++;
    }
    if (b[i - 1] !== 0x30) digits();
    if (i < b.length && b[i] === 0x2e) {
      i++;
      if (!isDigit(cur())) return badAt('after decimal point in numeric literal');
      digits();
    }
    if (i < b.length && (b[i] === 0x65 || b[i] === 0x45)) {
      i++;
      if (i < b.length && (b[i] === 0x2b || b[i] === 0x2d)) i++;
      if (!isDigit(cur())) return badAt('in exponent of numeric literal');
      digits();
    }
    return undefined;
  };
  const string = (): string | undefined => {
    for (;;) {
      if (i >= b.length) return EOF;
      const c = b[i];
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return bad('in string literal');
      i++;
      if (c !== 0x5c) continue;
      const e = String.fromCharCode(cur());
      if ('bfnrt\\/"'.includes(e)) {
        i++;
        continue;
      }
      if (e !== 'u') return badAt('in string escape code');
      i++;
      for (let k = 0; k < 4; k++, i++) {
        if (!isHex(cur())) return badAt('in \\u hexadecimal character escape');
      }
    }
  };
  const value = (): string | undefined => {
    skip();
    if (i >= b.length) return EOF;
    const c = String.fromCharCode(b[i]);
    if (c === '{') {
      i++;
      skip();
      if (i >= b.length) return EOF;
      if (b[i] === 0x7d) {
        i++;
        return undefined;
      }
      for (;;) {
        skip();
        if (i >= b.length) return EOF;
        if (b[i] !== 0x22) return bad('looking for beginning of object key string');
        i++;
        const key = string();
        if (key) return key;
        skip();
        if (i >= b.length) return EOF;
        if (b[i] !== 0x3a) return bad('after object key');
        i++;
        const v = value();
        if (v) return v;
        skip();
        if (i >= b.length) return EOF;
        if (b[i] === 0x7d) {
          i++;
          return undefined;
        }
        if (b[i] !== 0x2c) return bad('after object key:value pair');
        i++;
      }
    }
    if (c === '[') {
      i++;
      skip();
      if (i >= b.length) return EOF;
      if (b[i] === 0x5d) {
        i++;
        return undefined;
      }
      for (;;) {
        const v = value();
        if (v) return v;
        skip();
        if (i >= b.length) return EOF;
        if (b[i] === 0x5d) {
          i++;
          return undefined;
        }
        if (b[i] !== 0x2c) return bad('after array element');
        i++;
      }
    }
    i++;
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || isDigit(b[i - 1])) return number();
    i--;
    return bad('looking for beginning of value');
  };
  const err = value();
  if (err) return err;
  skip();
  return i < b.length ? bad('after top-level value') : undefined;
}

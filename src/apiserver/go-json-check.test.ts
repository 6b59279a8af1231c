import { describe, it } from 'node:test';
import { expect } from 'chai';
import { goUnmarshalObjectError } from './go-json-check';

const check = (text: string) => goUnmarshalObjectError(Buffer.from(text, 'latin1'));

describe("R90 Go's json.Unmarshal into a map, as ValidateSecret reports it", () => {
  it('accepts an object or null, surrounded by spaces', () => {
    for (const ok of ['{}', ' {"auths": {"r": {"auth": "x\\u00e9\\n"}}, "n": [1, -0.5e+3, true, null]} ', 'null'])
      expect(check(ok), ok).to.equal(undefined);
  });

  it('reports the first byte the scanner refuses, and where', () => {
    const cases: Record<string, string> = {
      '': 'unexpected end of JSON input',
      '{': 'unexpected end of JSON input',
      '{"a": "b': 'unexpected end of JSON input',
      abc: "invalid character 'a' looking for beginning of value",
      'not json': "invalid character 'o' in literal null (expecting 'u')",
      tru: "invalid character ' ' in literal true (expecting 'e')",
      '{"a":1,}': "invalid character '}' looking for beginning of object key string",
      '{a:1}': "invalid character 'a' looking for beginning of object key string",
      '{"a" 1}': "invalid character '1' after object key",
      '{"a":1 "b":2}': `invalid character '"' after object key:value pair`,
      '{"a":[1 2]}': "invalid character '2' after array element",
      '{} x': "invalid character 'x' after top-level value",
      '{"a":01}': "invalid character '1' after object key:value pair",
      '{"a":-x}': "invalid character 'x' in numeric literal",
      '{"a":1.}': "invalid character '}' after decimal point in numeric literal",
      '{"a":1e}': "invalid character '}' in exponent of numeric literal",
      '1.': "invalid character ' ' after decimal point in numeric literal",
      '{"a":"\\x"}': "invalid character 'x' in string escape code",
      '{"a":"\\u12g4"}': "invalid character 'g' in \\u hexadecimal character escape",
      '{"a":"\n"}': "invalid character '\\n' in string literal",
      "{'a':1}": "invalid character '\\'' looking for beginning of object key string",
      '\x01': "invalid character '\\x01' looking for beginning of value",
    };
    for (const [text, error] of Object.entries(cases)) expect(check(text), JSON.stringify(text)).to.equal(error);
  });

  it('a well-formed value other than an object cannot be decoded into the map', () => {
    expect(check('[1]')).to.equal('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(check(' "s"')).to.equal('json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(check('-1')).to.equal('json: cannot unmarshal number into Go value of type map[string]interface {}');
    expect(check('false')).to.equal('json: cannot unmarshal bool into Go value of type map[string]interface {}');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { goBadValue, goFloat, goNumber } from './go-print';

describe('Go printing (R301)', () => {
  it('R301 a float64 prints in its shortest form, with an exponent from 1e+06 and below 1e-04', () => {
    expect([
      goFloat(0.5),
      goFloat(123456.5),
      goFloat(1234567.5),
      goFloat(0.0001),
      goFloat(0.00001),
      goFloat(1e21),
    ]).to.deep.equal(['0.5', '123456.5', '1.2345675e+06', '0.0001', '1e-05', '1e+21']);
  });

  it('R301 an integral number is an int64 and prints plainly', () => {
    expect([goNumber(1000000), goNumber(-3)]).to.deep.equal(['1000000', '-3']);
  });

  it('R301 bad values: null, quoted strings, and %#v for maps and lists', () => {
    expect([goBadValue(null), goBadValue('a"b'), goBadValue(true)]).to.deep.equal(['null', '"a\\"b"', 'true']);
    expect(goBadValue({ b: [1, 'x', null], a: 1.5 })).to.equal(
      'map[string]interface {}{"a":1.5, "b":[]interface {}{1, "x", interface {}(nil)}}',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { formatQuantity, parseQuantity, QuantityError } from './quantity';

describe('memory quantities (apimachinery resource.Quantity)', () => {
  it('K71 parses binary and decimal suffixes and plain byte counts', () => {
    expect(parseQuantity('100Mi')).to.deep.equal({ bytes: 100 * 2 ** 20, format: 'BinarySI' });
    expect(parseQuantity('1G')).to.deep.equal({ bytes: 1e9, format: 'DecimalSI' });
    expect(parseQuantity('2048')).to.deep.equal({ bytes: 2048, format: 'DecimalSI' });
    expect(() => parseQuantity('10%')).to.throw(QuantityError, '"10%" is not a memory quantity');
    expect(() => parseQuantity('1.5Gi')).to.throw(QuantityError);
  });

  it('K71 prints as Quantity.String does: the largest exact suffix of the format', () => {
    expect(formatQuantity(300 * 2 ** 20)).to.equal('300Mi');
    expect(formatQuantity(2 ** 30)).to.equal('1Gi');
    expect(formatQuantity(1536 * 2 ** 10)).to.equal('1536Ki');
    expect(formatQuantity(1_000_000)).to.equal('1000000');
    expect(formatQuantity(1000)).to.equal('1k');
    expect(formatQuantity(0)).to.equal('0');
    expect(formatQuantity(1e9, 'DecimalSI')).to.equal('1G');
    expect(formatQuantity(-50 * 2 ** 20)).to.equal('-50Mi');
  });
});

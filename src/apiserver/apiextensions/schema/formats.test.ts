import { describe, it } from 'node:test';
import { expect } from 'chai';
import { formatCheck } from './formats';

const ok = (format: string, value: string): boolean => formatCheck(format)!(value);

describe('formatCheck (R302)', () => {
  it('R302 unsupported formats check nothing; names are looked up without dashes', () => {
    expect(formatCheck('int32')).to.equal(undefined);
    expect(formatCheck('date-time')).to.equal(formatCheck('datetime'));
  });

  it('R302 dates, times and durations', () => {
    expect([ok('date', '2024-02-29'), ok('date', '2023-02-29'), ok('date', '2024-13-01')]).to.deep.equal([
      true,
      false,
      false,
    ]);
    expect([
      ok('date-time', '2014-12-15T19:30:20.000Z'),
      ok('date-time', '2014-12-15T19:30:20+01:00'),
      ok('date-time', '2014-12-15 19:30:20Z'),
    ]).to.deep.equal([true, true, false]);
    expect([ok('duration', '1h30m'), ok('duration', '3 days'), ok('duration', 'soon')]).to.deep.equal([
      true,
      true,
      false,
    ]);
  });

  it('R302 addresses', () => {
    expect([
      ok('ipv4', '192.168.0.1'),
      ok('ipv4', '192.168.0.256'),
      ok('ipv6', '::1'),
      ok('ipv6', '2001:db8::ff00:42:8329'),
      ok('ipv6', '1::2::3'),
    ]).to.deep.equal([true, false, true, true, false]);
    expect([ok('cidr', '10.0.0.0/8'), ok('cidr', '10.0.0.0/33'), ok('cidr', 'fd00::/64')]).to.deep.equal([
      true,
      false,
      true,
    ]);
    expect([ok('mac', '00:1a:2b:3c:4d:5e'), ok('mac', '001a.2b3c.4d5e'), ok('mac', '00:1a')]).to.deep.equal([
      true,
      true,
      false,
    ]);
    expect([ok('hostname', 'example.com'), ok('hostname', '-bad-.com')]).to.deep.equal([true, false]);
    expect([ok('uri', 'https://example.com/x'), ok('uri', '/path'), ok('uri', 'example')]).to.deep.equal([
      true,
      true,
      false,
    ]);
    expect([ok('email', 'a@example.com'), ok('email', 'nobody')]).to.deep.equal([true, false]);
  });

  it('R302 identifiers and encodings', () => {
    expect([
      ok('uuid', '123e4567-e89b-12d3-a456-426614174000'),
      ok('uuid4', '123e4567-e89b-12d3-a456-426614174000'),
      ok('uuid4', '123e4567-e89b-42d3-a456-426614174000'),
    ]).to.deep.equal([true, false, true]);
    expect([
      ok('byte', 'aGVsbG8='),
      ok('byte', 'not base64!'),
      ok('bsonobjectid', '507f1f77bcf86cd799439011'),
    ]).to.deep.equal([true, false, true]);
    expect([
      ok('isbn10', '0321751043'),
      ok('isbn13', '978-0321751041'),
      ok('creditcard', '4111 1111 1111 1111'),
      ok('creditcard', '4111 1111 1111 1112'),
    ]).to.deep.equal([true, true, true, false]);
    expect([
      ok('hexcolor', '#FFF'),
      ok('rgbcolor', 'rgb(255,0,12)'),
      ok('ssn', '123-45-6789'),
      ok('password', ''),
    ]).to.deep.equal([true, true, true, true]);
  });
});

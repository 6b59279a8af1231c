import { describe, it } from 'node:test';
import { expect } from 'chai';
import { compileGoRegexp } from './go-regexp';

const matches = (pattern: string, s: string): boolean => (compileGoRegexp(pattern) as RegExp).test(s);
const error = (pattern: string): string => (compileGoRegexp(pattern) as Error).message;

describe('compileGoRegexp (R302)', () => {
  it('R302 flag groups apply where Go applies them: the rest of the group, or the group alone', () => {
    expect(matches('(?i)^abc$', 'ABC')).to.equal(true);
    expect(matches('^(?i)(abort|warn)?$', 'WARN')).to.equal(true);
    expect(matches('^((?i)sun|mon)day$', 'MONday')).to.equal(true);
    expect(matches('^((?i)sun|mon)day$', 'monDAY')).to.equal(false);
    expect(matches('^(?i:ab)c$', 'ABc')).to.equal(true);
    expect(matches('^(?i:ab)c$', 'ABC')).to.equal(false);
    expect(matches('(?i)^[a-c]+$', 'AbC')).to.equal(true);
    expect(matches('(?s)^a.b$', 'a\nb')).to.equal(true);
    expect(matches('^a.b$', 'a\nb')).to.equal(false);
  });

  it('R302 reads Go anchors, escapes, Unicode and POSIX classes, named groups', () => {
    expect(matches('\\Aab\\z', 'ab')).to.equal(true);
    expect(matches('\\Aab\\z', 'ab\n')).to.equal(false);
    expect(matches('^\\pL+$', 'héllo')).to.equal(true);
    expect(matches('^\\p{Greek}+$', 'αβγ')).to.equal(true);
    expect(matches('^[[:digit:]]+$', '123')).to.equal(true);
    expect(matches('^a\\-b\\#$', 'a-b#')).to.equal(true);
    expect(matches('^\\Qa.b\\E$', 'a.b')).to.equal(true);
    expect(matches('^\\Qa.b\\E$', 'axb')).to.equal(false);
    expect(matches('^\\Qa-b\\E$', 'a-b')).to.equal(true);
    expect(matches('^(?P<x>[0-9]+)$', '42')).to.equal(true);
    expect(matches('(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$', '10MiB')).to.equal(true);
  });

  it('R302 refuses what RE2 does not support, in Go words where it can', () => {
    expect(error('(a)\\1')).to.equal('error parsing regexp: invalid escape sequence: `\\1`');
    expect(error('a(?=b)')).to.equal('error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(error('(abc')).to.equal('error parsing regexp: missing closing ): `(abc`');
    expect(error('abc)')).to.equal('error parsing regexp: unexpected ): `abc)`');
    expect(error('[abc')).to.equal('error parsing regexp: missing closing ]: `[abc`');
  });
});

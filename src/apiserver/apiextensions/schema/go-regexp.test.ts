import { describe, it } from 'node:test';
import { expect } from 'chai';
import { compileGoRegexp } from './go-regexp';

const matches = (pattern: string, s: string): boolean => (compileGoRegexp(pattern) as RegExp).test(s);

describe('compileGoRegexp (R302)', () => {
  it('R302 reads Go flag groups, anchors, Unicode and POSIX classes', () => {
    expect(matches('(?i)^abc$', 'ABC')).to.equal(true);
    expect(matches('\\Aab\\z', 'ab')).to.equal(true);
    expect(matches('\\Aab\\z', 'ab\n')).to.equal(false);
    expect(matches('^\\pL+$', 'héllo')).to.equal(true);
    expect(matches('^[[:digit:]]+$', '123')).to.equal(true);
    expect(matches('^a\\-b$', 'a-b')).to.equal(true);
  });

  it('R302 refuses what RE2 does not support', () => {
    expect(compileGoRegexp('(a)\\1')).to.be.instanceOf(Error);
    expect(compileGoRegexp('a(?=b)')).to.be.instanceOf(Error);
  });
});

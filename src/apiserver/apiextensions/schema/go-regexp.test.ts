import { describe, it } from 'node:test';
import { expect } from 'chai';
import { compileGoRegexp } from './go-regexp';

/** [pattern, text, whether Go's regexp matches it]. */
type Case = [string, string, boolean];

function check(cases: Case[]): void {
  for (const [pattern, text, expected] of cases)
    expect((compileGoRegexp(pattern) as RegExp).test(text), `${pattern} on ${JSON.stringify(text)}`).to.equal(expected);
}

describe('compileGoRegexp (R302)', () => {
  it('R302 flag groups apply where Go applies them: the rest of the group, or the group alone', () => {
    check([
      ['(?i)^abc$', 'ABC', true],
      ['^(?i)(abort|warn)?$', 'WARN', true],
      ['^((?i)sun|mon)day$', 'MONday', true],
      ['^((?i)sun|mon)day$', 'monDAY', false],
      ['^(?i:ab)c$', 'ABc', true],
      ['^(?i:ab)c$', 'ABC', false],
      ['(?i)^[a-c]+$', 'AbC', true],
      ['(?s)^a.b$', 'a\nb', true],
      ['^a.b$', 'a\nb', false],
    ]);
  });

  it('R302 reads Go anchors, escapes, Unicode and POSIX classes, named groups', () => {
    check([
      ['\\Aab\\z', 'ab', true],
      ['\\Aab\\z', 'ab\n', false],
      ['^\\pL+$', 'héllo', true],
      ['^\\p{Greek}+$', 'αβγ', true],
      ['^[[:digit:]]+$', '123', true],
      ['^a\\-b\\#$', 'a-b#', true],
      ['^\\Qa.b\\E$', 'a.b', true],
      ['^\\Qa.b\\E$', 'axb', false],
      ['^\\Qa-b\\E$', 'a-b', true],
      ['^(?P<x>[0-9]+)$', '42', true],
      ['(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$', '10MiB', true],
    ]);
  });

  it('R302 refuses what RE2 does not support, in Go words where it can', () => {
    const refusals: [string, string][] = [
      ['(a)\\1', 'invalid escape sequence: `\\1`'],
      ['a(?=b)', 'invalid or unsupported Perl syntax: `(?=`'],
      ['(abc', 'missing closing ): `(abc`'],
      ['abc)', 'unexpected ): `abc)`'],
      ['[abc', 'missing closing ]: `[abc`'],
    ];
    for (const [pattern, message] of refusals)
      expect((compileGoRegexp(pattern) as Error).message).to.equal(`error parsing regexp: ${message}`);
  });
});

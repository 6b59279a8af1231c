import { describe, it } from 'node:test';
import { expect } from 'chai';
import { parseFieldSelector, parseLabelSelector, SelectorError } from './selectors';

/** Cases from apimachinery pkg/labels/selector_test.go and pkg/fields/selector_test.go, in this project's words. */
describe('R70 label selectors (labels.Parse)', () => {
  const matches = (selector: string, labels: Record<string, string>) => parseLabelSelector(selector).matches(labels);

  it('equality, inequality, set and existence requirements', () => {
    expect(matches('app=web', { app: 'web' })).to.equal(true);
    expect(matches('app==web', { app: 'db' })).to.equal(false);
    expect(matches('app!=web', {})).to.equal(true);
    expect(matches('app in (web, db)', { app: 'db' })).to.equal(true);
    expect(matches('app notin (web)', { app: 'web' })).to.equal(false);
    expect(matches('app', { app: '' })).to.equal(true);
    expect(matches('!app', { app: 'x' })).to.equal(false);
    expect(matches('app=web,tier', { app: 'web' })).to.equal(false);
    expect(matches('n>3', { n: '4' })).to.equal(true);
    expect(matches('n<3', { n: 'x' })).to.equal(false);
    expect(matches('x in (in)', { x: 'in' })).to.equal(true);
    expect(matches('', { any: 'thing' })).to.equal(true);
    expect(matches('app=', { app: '' })).to.equal(true);
  });

  it('requirements are sorted by key (a deterministic selector)', () => {
    expect(parseLabelSelector('b=1,a=2').requirements.map((r) => r.key)).to.deep.equal(['a', 'b']);
  });

  const errors: [string, string][] = [
    ['app web', "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt"],
    ['app=web,', "found '', expected: identifier after ','"],
    ['app in web', "unable to parse requirement: found 'web' expected: '('"],
    ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['=web', "found '=', expected: !, identifier, or 'end of string'"],
    ['app=web)', "found ')', expected: ',' or 'end of string'"],
    [
      'n>x',
      "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    ['app=a b', "found 'b', expected: ',' or 'end of string'"],
    [
      'app=-web',
      "unable to parse requirement: [app]: Invalid value: \"-web\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    [
      '-app=web',
      "unable to parse requirement: <nil>: Invalid value: \"-app\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ];
  for (const [selector, message] of errors) {
    it(`"${selector}" is rejected: ${message.slice(0, 60)}…`, () => {
      expect(() => parseLabelSelector(selector)).to.throw(SelectorError, message);
    });
  }
});

describe('field selectors (fields.ParseSelector)', () => {
  it('=, == and != terms, with escaped values', () => {
    const s = parseFieldSelector('spec.nodeName=node-1,status.phase!=Failed,metadata.name==a\\,b');
    expect(s.matches({ 'spec.nodeName': 'node-1', 'status.phase': 'Running', 'metadata.name': 'a,b' })).to.equal(true);
    expect(s.matches({ 'spec.nodeName': 'node-1', 'status.phase': 'Failed', 'metadata.name': 'a,b' })).to.equal(false);
    expect(s.requiresExactMatch('spec.nodeName')).to.equal('node-1');
    expect(s.requiresExactMatch('status.phase')).to.equal(undefined);
  });

  it('a term without an operator is rejected with upstream message', () => {
    expect(() => parseFieldSelector('spec.nodeName')).to.throw(
      SelectorError,
      "invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'",
    );
  });
});

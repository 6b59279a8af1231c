import { describe, it } from 'node:test';
import * as path from 'node:path';
import { expect } from 'chai';
import { CucumberExpression, ParameterTypeRegistry, RegularExpression } from '@cucumber/cucumber-expressions';

// The package beside this test, as package.json's "overrides" installs it.
const exec = require('regexp-match-indices') as (regexp: RegExp, string: string) => RegExpExecArray | null;

describe('regexp-match-indices on the native d flag', () => {
  it('is the module cucumber-expressions loads (package.json "overrides")', () => {
    const expressions = path.dirname(require.resolve('@cucumber/cucumber-expressions'));
    const loaded = require.resolve('regexp-match-indices', { paths: [expressions] });
    expect(loaded).to.equal(path.join(__dirname, 'index.js'));
  });

  it('gives the start and end of the match and of each group, nested or not', () => {
    const m = exec(/a pod "(\w+)" ((running|pending) on "(\w+)")?/, 'Given a pod "web" running on "n1"');
    expect(m?.indices?.map((i) => i && [...i])).to.deep.equal([
      [6, 33],
      [13, 16],
      [18, 33],
      [18, 25],
      [30, 32],
    ]);
    expect(exec(/x(y)?/, 'x')?.indices?.[1]).to.equal(undefined);
    expect(exec(/nothing/, 'something else')).to.equal(null);
  });

  it('moves a global regexp along as exec does, and takes one that has the d flag already', () => {
    const g = /o/g;
    expect(exec(g, 'foo')?.indices?.[0]).to.deep.equal([1, 2]);
    expect(g.lastIndex).to.equal(2);
    expect(exec(g, 'foo')?.indices?.[0]).to.deep.equal([2, 3]);
    expect(exec(/(b)/d, 'ab')?.indices?.[1]).to.deep.equal([1, 2]);
  });

  it('leaves the arguments cucumber matches where they were', () => {
    const registry = new ParameterTypeRegistry();
    const args = new CucumberExpression('a pod {string} with {int} containers', registry).match('a pod "web" with 3 containers');
    expect(args?.map((a) => [a.group.start, a.group.value, a.getValue(null)])).to.deep.equal([
      [6, '"web"', 'web'],
      [17, '3', 3],
    ]);
    const re = new RegularExpression(/^the pod "([^"]*)" is (\w+)(?: after (\d+)s)?$/, registry).match('the pod "web" is gone after 30s');
    expect(re?.map((a) => [a.group.start, a.group.value])).to.deep.equal([
      [9, 'web'],
      [17, 'gone'],
      [28, '30'],
    ]);
  });
});

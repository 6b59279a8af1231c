// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs a feature through cucumber's API.
import { after, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { runCucumber } from '../../scripts/cucumber-in-process';
import { nearestSteps, stepShape, undefinedStepsMessage, type KnownStep } from './nearest-steps';

const step = (keyword: string, pattern: string): KnownStep => ({ keyword, pattern, matches: () => false });
const KNOWN = [
  step('Then', 'pod {string} is gone'),
  step('Then', 'pod {string} exists'),
  step('Then', 'pod {string} has phase {string}'),
  step('When', '{duration} pass(es)'),
  step('When', 'I run {command}'),
  step('Given', 'container {string} of pod {string} ignores SIGTERM'),
];

describe('did you mean: the nearest step definitions', () => {
  it('reads a step as the expression that would match it', () => {
    expect(stepShape('pod "web" is gon')).to.equal('pod {string} is gon');
    expect(stepShape('container \'app\' of pod "web" ignores SIGTREM')).to.equal(
      'container {string} of pod {string} ignores SIGTREM',
    );
    expect(stepShape('1m30s passs')).to.equal('{duration} passs');
    expect(stepShape('the last request returns 409')).to.equal('the last request returns {int}');
    expect(stepShape('I runn `kubectl delete pod web --grace-period=0`')).to.equal('I runn {command}');
  });

  it('puts the definition a typo came from first', () => {
    expect(nearestSteps('pod "web" is gon', KNOWN)[0].pattern).to.equal('pod {string} is gone');
    expect(nearestSteps('1m30s passs', KNOWN)[0].pattern).to.equal('{duration} pass(es)');
    expect(nearestSteps('container "app" of pod "web" ignore SIGTERM', KNOWN)[0].pattern).to.equal(
      'container {string} of pod {string} ignores SIGTERM',
    );
    expect(nearestSteps('I execute `kubectl delete pod web`', KNOWN, 1)[0].pattern).to.equal('I run {command}');
    expect(nearestSteps('pod "web" is gon', KNOWN)).to.have.length(3);
  });

  it('names each undefined step with its suggestions and points to the catalogue', () => {
    const message = undefinedStepsMessage(['pod "web" is gon'], KNOWN);
    expect(message).to.match(
      /^the step `pod "web" is gon` matches no step definition\. Did you mean one of these\?\n {4}Then pod \{string\} is gone\n/,
    );
    expect(message).to.include('docs/steps.md');
  });
});

describe('did you mean: in a real cucumber run', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'did-you-mean-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a scenario with a misspelt step fails before its first step, naming the phrase it meant; the other scenario passes', async () => {
    const feature = path.join(dir, 'typo.feature');
    writeFileSync(
      feature,
      [
        'Feature: a typo',
        '  Scenario: misspelt',
        '    Given a node "node-1"',
        '    And a pod "web" running on node "node-1"',
        '    When I run `kubectl delete pod web`',
        '    Then pod "web" is gon',
        '  Scenario: spelt right, with a compound duration',
        '    Given a node "node-1"',
        '    And a pod "web" running on node "node-1"',
        '    When the user deletes pod "web"',
        '    And 1m30s pass',
        '    Then pod "web" is gone',
      ].join('\n'),
    );
    const r = await runCucumber({ paths: [feature] });
    const out = r.output;
    expect(r.success, out).to.equal(false);
    expect(out).to.include('the step `pod "web" is gon` matches no step definition. Did you mean one of these?\n');
    expect(out).to.match(/Did you mean one of these\?\n\s+Then pod \{string\} is gone\n/);
    expect(out).to.include('2 scenarios (1 failed, 1 passed)');
    // The misspelt scenario stops before it simulates anything.
    expect(out).to.include('- When I run `kubectl delete pod web`');
  });

  it('offers a snippet without {release} for an undefined step (the release type matches versions only)', async () => {
    const feature = path.join(dir, 'undefined.feature');
    writeFileSync(
      feature,
      [
        'Feature: an undefined step',
        '  Scenario: new words',
        '    Given a sidecar "log" watches pod "web" closely',
        '    And Kubernetes v1.30',
      ].join('\n'),
    );
    const r = await runCucumber({ profile: 'snippets', paths: [feature] });
    expect(r.output).to.include("Given('a sidecar {string} watches pod {string} closely'");
    expect(r.output).to.not.include('{release}');
  });
});

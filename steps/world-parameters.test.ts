import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '..');

/** A scenario that passes only when kubectl runs as v1.34 or later (delete.go PrintObj, #126619). */
const FEATURE = `Feature: a suite run as one release
  Scenario: kubectl names the namespace
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When I run \`kubectl delete pod web --wait=false\`
    Then kubectl prints 'pod "web" deleted from default namespace'
`;

function runAs(kubernetes: string): { status: number | null; out: string } {
  const feature = join(mkdtempSync(join(tmpdir(), 'world-parameters-')), 'release.feature');
  writeFileSync(feature, FEATURE);
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@cucumber/cucumber/bin/cucumber.js'), feature, '--profile', 'summary', '--world-parameters', JSON.stringify({ kubernetes })], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('the cucumber world parameter "kubernetes" runs a whole suite as one release', () => {
  it('1.34 runs kubectl v1.34; v1.33 (the default) prints the old line', () => {
    const as134 = runAs('1.34');
    expect(as134.status, as134.out).to.equal(0);
    const as133 = runAs('v1.33');
    expect(as133.status).to.equal(1);
    expect(as133.out).to.include('pod "web" deleted');
  });

  it('a release outside 1.26–1.35 fails the scenario with one error naming the range', () => {
    const r = runAs('1.25');
    expect(r.status).to.equal(1);
    expect(r.out).to.include('--world-parameters: "kubernetes": Kubernetes "1.25" is not supported: the simulation models releases v1.26 to v1.35');
  });
});

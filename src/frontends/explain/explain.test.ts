import { describe, it } from 'node:test';
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDumpFiles } from '../../planning/restore/dump';
import { explainCommand } from './command';
import { explainDump } from './explain';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');
const explain = (...files: string[]) => explainDump(readDumpFiles(files.map((f) => join(GALLERY, f)))).explanation;

/** Runs the command, collecting what it prints. */
async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
  const code = await explainCommand(args, sink);
  return { code, out };
}

describe('terminating explain (src/frontends/explain/)', () => {
  it('X9 runs forward and explains every pod Terminating at T+0 or deleted on the way; nothing holds a pod that is only not gone yet', () => {
    const e = explain('dependents.yaml');
    expect(e.pods.map((p) => [p.name, p.stuck])).to.deep.equal([
      ['coordinator', true],
      ['coordinator-worker', true],
    ]);
    const nothing = explain('nothing.yaml').pods[0];
    expect([nothing.stuck, nothing.goneAt, nothing.causes.map((c) => c.cause)]).to.deep.equal([
      false,
      'T+0.3s',
      ['nothing'],
    ]);
  });

  it('X10 a finalizer: the controller expected to remove it, and a JSON patch that removes exactly it', () => {
    const [cause] = explain('finalizer.yaml').pods[0].causes;
    expect(cause.detail).to.equal(
      'finalizer reports.example.com/upload, to be removed by a controller of reports.example.com (not part of Kubernetes: nothing in this cluster removes it)',
    );
    expect(cause.remedies[0].command).to.equal(
      `kubectl patch pod report-7d9f -n batch --type=json -p '[{"op":"test","path":"/metadata/finalizers/0","value":"reports.example.com/upload"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
    );
    expect(cause.remedies[0].risk).to.include('skips');
  });

  it('X10 the job-tracking finalizer of a pod whose Job is gone: the Job controller removes it, and the explanation names that request', () => {
    const pod = explain('job-tracking.yaml').pods[0];
    expect([pod.stuck, pod.causes.map((c) => c.cause)]).to.deep.equal([false, ['nothing']]);
    expect(pod.causes[0].detail).to.equal(
      'nothing holds it: job-controller removed finalizer batch.kubernetes.io/job-tracking at T+0s (PATCH pods/nightly-export-29153280-7kqfd), and it is gone at T+0s',
    );
  });

  it('X11 X5 an unreachable node: no kubelet DELETE; the out-of-service taint, the Node deletion and a force delete release it', () => {
    const [cause] = explain('node-unreachable.yaml').pods[0].causes;
    expect(cause.cause).to.equal('node-unreachable');
    expect(cause.next).to.include('gcOrphaned').and.include('node.kubernetes.io/out-of-service');
    expect(cause.remedies.map((r) => r.command)).to.deep.equal([
      'kubectl taint node worker-3 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute',
      'kubectl delete node worker-3',
      'kubectl delete pod db-0 -n prod --grace-period=0 --force',
    ]);
  });

  it('X12 a force delete frees the name while processes may run; for a StatefulSet pod two pods of one identity may run', () => {
    const force = explain('node-unreachable.yaml').pods[0].causes[0].remedies[2];
    expect(force.risk).to.include('frees the name at once').and.include('StatefulSet db then creates a new db-0');
  });

  it('X9 prints text or JSON, writes the report of the run, and exits 1 while a pod is still held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explain-'));
    const text = await run([join(GALLERY, 'finalizer.yaml'), '--report', dir]);
    expect(text.code).to.equal(1);
    expect(text.out)
      .to.include('finalizer: finalizer reports.example.com/upload')
      .and.include(`report: ${join(dir, 'index.html')}`);
    expect(existsSync(join(dir, 'index.html'))).to.equal(true);
    const json = await run(['-o', 'json', '--kubernetes', '1.30', join(GALLERY, 'nothing.yaml')]);
    expect(json.code).to.equal(0);
    expect(JSON.parse(json.out)).to.include({ release: 'v1.30' });
  });

  it('an unreadable object is one error naming the file, the document, the object and the field; bad flags exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explain-'));
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          apiVersion: 'v1',
          kind: 'List',
          items: [
            {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: {
                name: 'web',
                uid: 'u',
                deletionGracePeriodSeconds: 'thirty',
                deletionTimestamp: '2025-06-03T09:00:00Z',
              },
              spec: { containers: [{ name: 'app' }] },
            },
          ],
        },
        null,
        2,
      ),
    );
    let message = '';
    await run([file]).catch((e: Error) => (message = e.message));
    expect(message).to.equal(
      `${file}: document 1, items[0] (Pod "web"), line 11: field metadata.deletionGracePeriodSeconds must be an integer, got "thirty"`,
    );
    let code = 0;
    await run(['--output', 'yaml', file]).catch((e: { exitCode: number }) => (code = e.exitCode));
    expect(code).to.equal(2);
  });

  it('X9 the README section "Why is my pod stuck?" shows what the command prints, as written', async () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const from = readme.indexOf('## Why is my pod stuck?');
    const section = readme.slice(from, readme.indexOf('\n## ', from + 1));
    const [command, ...output] = /```console\n([\s\S]*?)```/.exec(section)![1].trimEnd().split('\n');
    const [, , , , ...files] = command.split(' ');
    expect(command).to.match(/^\$ npx terminating explain /);
    const got = await run(files.map((f) => join(__dirname, '..', '..', '..', f)));
    expect(got.out.trimEnd().split('\n')).to.deep.equal(output);
  });
});

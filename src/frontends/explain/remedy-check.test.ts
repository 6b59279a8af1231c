import { describe, it } from 'node:test';
import { expect } from 'chai';
import { join } from 'node:path';
import { explainDump } from './explain';
import { actionOf } from './remedy-check';
import { readDumpFiles } from '../../planning/restore/dump';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');
const explain = (file: string) =>
  explainDump(readDumpFiles([join(GALLERY, file)]), { checkRemedies: true }).explanation;
const checks = (file: string) =>
  Object.fromEntries(
    explain(file).pods[0].causes.flatMap((c) =>
      c.remedies.map((r) => [
        r.command.split(' ').slice(0, 3).join(' ') + (r.command.includes('taint') ? ' taint' : ''),
        r.checked,
      ]),
    ),
  );

describe('X17 remedies are checked by running them in a fork of the run (src/explain/remedy-check.ts)', () => {
  it('two causes at once: no remedy releases the pod alone, each says what else must be done and in which order', () => {
    const got = checks('finalizer-node-unreachable.yaml');
    expect(got['kubectl patch pod']).to.equal(
      'tried in the run: alone it does not release the pod; then also mark the node out of service (only once worker-3 is really shut down) (node-unreachable): both, in this order, release it',
    );
    expect(got['kubectl taint node taint']).to.equal(
      'tried in the run: alone it does not release the pod; then also remove the finalizer backup.example.com/snapshot (finalizer): both, in this order, release it',
    );
    expect(got['kubectl delete pod']).to.equal(
      'tried in the run: alone it does not release the pod; then also remove the finalizer backup.example.com/snapshot (finalizer): both, in this order, release it',
    );
  });

  it('one cause: each remedy alone releases the pod', () => {
    for (const checked of Object.values(checks('node-unreachable.yaml')))
      expect(checked).to.equal('tried in the run: it releases the pod');
    expect(checks('force-deleted-lost-node.yaml')['kubectl patch pod']).to.equal(
      'tried in the run: it releases the pod',
    );
  });

  it('a remedy that admission refuses says so: the finalizer patch a policy denies, then the binding set to Warn', () => {
    const causes = explain('admission-policy.yaml').pods[0].causes;
    const patch = causes.find((c) => c.cause === 'finalizer')!.remedies[0];
    expect(patch.checked).to.match(
      /^tried in the run: it does not release the pod \(refused: kubectl patch pod nightly-export-29153280-8mzrq -n batch --type=json: pods "nightly-export-29153280-8mzrq" is forbidden: ValidatingAdmissionPolicy 'require-cost-center'/,
    );
    expect(patch.checked).to.match(
      /; what does: let the binding require-cost-center-all only warn .*; delete the binding require-cost-center-all$/,
    );
    const warn = causes.find((c) => c.cause === 'policy')!.remedies.find((r) => r.command.includes('Warn'))!;
    expect(warn.checked).to.equal('tried in the run: it releases the pod');
  });

  it('reads, dry runs, edits and commands on a machine are not tried', () => {
    expect(actionOf("kubectl patch pod a -n b --dry-run=server --type=json -p '[]'")).to.deep.equal({
      skip: 'changes nothing (a read or a dry run)',
    });
    expect(actionOf('kubectl edit validatingadmissionpolicy p')).to.have.property('skip');
    expect(actionOf('ssh worker-1 sudo systemctl restart containerd')).to.deep.equal({
      skip: 'acts on a machine, outside the API',
    });
    expect(actionOf('kubectl delete node worker-3')).to.have.property('run');
  });
});

describe('X17 for a pod the run contradicts (X16), remedies are tried with its top suspect made explicit', () => {
  it('kubernetes/kubernetes#121605: the finalizer patch is refused as the thread saw it; deleting the webhook configuration releases the pod', () => {
    const causes = explain('issue-121605-job-tracking-webhook.yaml').pods[0].causes;
    const under =
      'with the top suspect made explicit (webhook "vault.hashicorp.com" of the objects adds init container "vault-injected" to pods), tried in the run: ';
    const remove = causes
      .find((c) => c.cause === 'webhook')!
      .remedies.find((r) => r.command.startsWith('kubectl delete'))!;
    expect(remove.checked).to.equal(`${under}it releases the pod`);
    const patch = causes
      .find((c) => c.cause === 'finalizer')!
      .remedies.find((r) => r.command.startsWith('kubectl patch'))!;
    expect(patch.checked).to.match(
      /it does not release the pod \(refused: kubectl patch pod cron-job-dashmail-28306992-9dcql -n qa-lk-3900 --type=json: Pod "cron-job-dashmail-28306992-9dcql" is invalid: spec: Forbidden: pod updates may not change fields other than/,
    );
    expect(patch.checked).to.match(/; what does: delete the webhook configuration vault-agent-injector-cfg$/);
  });

  it('kubernetes/kubernetes#123960: with the NFS volume hanging, a force delete releases the pod', () => {
    const force = explain('issue-123960-nfs-unmount.yaml').pods[0].causes[0].remedies.find((r) =>
      r.command.includes('--force'),
    )!;
    expect(force.checked).to.equal(
      'with the top suspect made explicit (volume "data" of pod "homes-0" hangs when unmounted), tried in the run: it releases the pod',
    );
  });
});

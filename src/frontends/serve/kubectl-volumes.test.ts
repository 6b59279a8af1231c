// It spawns the real kubectl against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * Volumes with the real kubectl v1.36 against `terminating serve` (P7, P14): a StorageClass, a
 * claim and a pod applied, the claim provisioned by a CSI driver installed in the served cluster,
 * `get pv,pvc,volumeattachments` with the printers.go columns, a second pod on the other node
 * whose `describe` shows the Multi-Attach FailedAttachVolume Event, and `apply --prune -l` with no
 * allowlist (kubectl's default prune kinds include PersistentVolumeClaims).
 */
let served: ServedCluster;
let env: NodeJS.ProcessEnv;
let kubectl: string;

before(async () => {
  served = await serve({
    port: 0,
    clock: parseClockMode('fast=60'),
    reportDir: mkdtempSync(join(tmpdir(), 'volumes-')),
  });
  // The served cluster has no CSI driver of its own: the test installs one, as an operator would deploy its controller.
  served.cluster.installCsiDriver('ebs.csi.aws.com', { attachMs: 1000, detachMs: 1000 });
  kubectl = await realKubectlPath();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'volumes-home-')),
    KUBECONFIG: served.kubeconfig,
  };
});
after(() => served.close());

function run(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(kubectl, args, { env, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

const MANIFESTS = (withPod2: boolean) => `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ssd, labels: {app: demo}}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, labels: {app: demo}}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ssd
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: db, labels: {app: demo}}
spec:
  nodeName: node-1
  containers: [{name: app, image: postgres:17}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
${
  withPod2
    ? `---
apiVersion: v1
kind: Pod
metadata: {name: db-copy, labels: {app: demo}}
spec:
  nodeName: node-2
  containers: [{name: app, image: postgres:17}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`
    : ''
}`;

describe('P7 P14 P19 volumes with the real kubectl v1.36', () => {
  it('apply, get pv,pvc,volumeattachments, describe pod with a Multi-Attach error, apply --prune -l without an allowlist', async () => {
    const applied = await run(['apply', '-f', '-'], MANIFESTS(true));
    expect(applied, applied.stderr).to.include({ code: 0 });
    expect(applied.stdout).to.equal(
      'storageclass.storage.k8s.io/ssd created\npersistentvolumeclaim/data created\npod/db created\npod/db-copy created\n',
    );
    const ready = await run(['wait', '--for=condition=Ready', 'pod/db', '--timeout=60s']);
    expect(ready, ready.stderr).to.include({ code: 0 });

    const pvc = served.cluster.apiserver.get('persistentvolumeclaims', 'default', 'data');
    const pv = pvc.ok ? pvc.object.spec?.volumeName : undefined;
    expect(pv).to.match(/^pvc-/);
    const got = await run(['get', 'pv,pvc,volumeattachments', '--no-headers']);
    expect(got, got.stderr).to.include({ code: 0 });
    const rows = got.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/));
    expect(rows[0].slice(0, 8)).to.deep.equal([
      `persistentvolume/${pv}`,
      '1Gi',
      'RWO',
      'Delete',
      'Bound',
      'default/data',
      'ssd',
      '<unset>',
    ]);
    expect(rows[1].slice(0, 7)).to.deep.equal([
      'persistentvolumeclaim/data',
      'Bound',
      pv,
      '1Gi',
      'RWO',
      'ssd',
      '<unset>',
    ]);
    expect(rows[2][0]).to.match(/^volumeattachment.storage.k8s.io\/csi-[0-9a-f]{64}$/);
    expect(rows[2].slice(1, 5)).to.deep.equal(['ebs.csi.aws.com', pv, 'node-1', 'true']);

    const described = await run(['describe', 'pod', 'db-copy']);
    expect(described, described.stderr).to.include({ code: 0 });
    expect(described.stdout).to.match(
      new RegExp(
        `Warning\\s+FailedAttachVolume\\s+.*attachdetach-controller\\s+Multi-Attach error for volume "${pv}" Volume is already used by pod\\(s\\) db`,
      ),
    );

    // Without db-copy: apply --prune -l app=demo (no --prune-allowlist) deletes it.
    const pruned = await run(['apply', '-f', '-', '--prune', '-l', 'app=demo'], MANIFESTS(false));
    expect(pruned, pruned.stderr).to.include({ code: 0 });
    expect(pruned.stdout).to.include('pod/db-copy pruned');
  });
});

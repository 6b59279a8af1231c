// It serves a cluster and spawns the example controller: this file runs in a process of its own (scripts/unit-tests.ts).
/**
 * Your controller against real termination: @kubernetes/client-node 1.4 (the library, unchanged)
 * lists, watches and deletes pods of a cluster served in jump mode, and the example controller
 * (examples/finalizer-controller.mjs, run as docs/serve.md says) sees exactly the watch events the
 * session's timeline records for the pod it holds, from its resourceVersion to the DELETED.
 */
import { after, before, describe, it } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { serve, type ServedCluster } from '../src/frontends/serve/serve';

const ROOT = path.resolve(__dirname, '..');
/** Wall-clock bound on any one wait of this test. */
const WAIT_MS = 30_000;

const MANIFESTS = `apiVersion: v1
kind: Node
metadata: {name: node-1}
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  nodeName: node-1
  containers: [{name: app, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: batch, labels: {app: batch}}
spec:
  nodeName: node-1
  containers: [{name: app, image: busybox}]
`;

/** Resolves when `check` holds, testing it on each call of the returned `poke`; rejects after WAIT_MS. */
function waitFor(what: string, check: () => boolean): { done: Promise<void>; poke: () => void } {
  let poke = () => {};
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gave up after ${WAIT_MS} ms waiting for ${what}`)), WAIT_MS);
    poke = () => {
      if (check()) {
        clearTimeout(timer);
        resolve();
      }
    };
  });
  poke();
  return { done, poke };
}

/** The watch events of the session's timeline for `pod`, after revision `from`, as "TYPE pods/NAME rv=N". */
function timelineWatchEvents(served: ServedCluster, pod: string, from: number): string[] {
  return served.cluster.timeline
    .all()
    .filter((e) => e.component === 'watch' && new RegExp(`^(ADDED|MODIFIED|DELETED) pods/${pod} rv=\\d+$`).test(e.text))
    .map((e) => e.text)
    .filter((t) => Number(t.split('rv=')[1]) > from);
}

describe('@kubernetes/client-node 1.4 and a controller written with it, against serve --clock jump', () => {
  let dir: string;
  let served: ServedCluster;
  let controller: ChildProcess | undefined;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'terminating-client-node-'));
    writeFileSync(path.join(dir, 'cluster.yaml'), MANIFESTS);
    served = await serve({
      port: 0,
      manifests: path.join(dir, 'cluster.yaml'),
      clock: { kind: 'jump', quietMs: 50 },
      reportDir: dir,
    });
  });
  after(async () => {
    controller?.kill('SIGKILL');
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists, watches and deletes pods: the watch sees the pod terminate and go, as the timeline has it', async () => {
    const k8s = await import('@kubernetes/client-node');
    const kubeConfig = new k8s.KubeConfig();
    kubeConfig.loadFromFile(served.kubeconfig);
    const api = kubeConfig.makeApiClient(k8s.CoreV1Api);

    const list = await api.listNamespacedPod({ namespace: 'default' });
    expect(list.items.map((p) => p.metadata?.name)).to.deep.equal(['batch', 'web']);
    const from = Number(list.metadata?.resourceVersion);

    const seen: string[] = [];
    const gone = waitFor('the DELETED event of pods/batch', () => seen.at(-1)?.startsWith('DELETED') ?? false);
    const watch = await new k8s.Watch(kubeConfig).watch(
      '/api/v1/namespaces/default/pods',
      { resourceVersion: list.metadata?.resourceVersion, fieldSelector: 'metadata.name=batch' },
      (type: string, pod: { metadata: { name: string; resourceVersion: string } }) => {
        seen.push(`${type} pods/${pod.metadata.name} rv=${pod.metadata.resourceVersion}`);
        gone.poke();
      },
      () => {},
    );
    try {
      const deleted = await api.deleteNamespacedPod({ name: 'batch', namespace: 'default' });
      expect(
        (deleted as { metadata?: { deletionTimestamp?: unknown } }).metadata?.deletionTimestamp,
        'the DELETE answers the pod, stamped',
      ).to.not.equal(undefined);
      await gone.done;
    } finally {
      watch.abort();
    }
    expect(seen[0], 'first the stamp').to.match(/^MODIFIED pods\/batch/);
    expect(seen, 'every watch event of pods/batch the timeline records, in order').to.deep.equal(
      timelineWatchEvents(served, 'batch', from),
    );
  });

  it("the example controller holds the pod with its finalizer, lets it go once terminating, and sees the timeline's watch events", async () => {
    const lines: string[] = [];
    controller = spawn(process.execPath, [path.join(ROOT, 'examples', 'finalizer-controller.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, KUBECONFIG: served.kubeconfig },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const finalizerOn = waitFor('the controller to put its finalizer on pods/web', () =>
      lines.some((l) => /^MODIFIED pods\/web .*finalizers=example\.com\/cleanup$/.test(l)),
    );
    const gone = waitFor('the controller to see pods/web DELETED', () =>
      lines.some((l) => l.startsWith('DELETED pods/web ')),
    );
    let partial = '';
    controller.stdout?.on('data', (d: Buffer) => {
      const parts = (partial + d.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts);
      finalizerOn.poke();
      gone.poke();
    });
    await finalizerOn.done;

    const k8s = await import('@kubernetes/client-node');
    const kubeConfig = new k8s.KubeConfig();
    kubeConfig.loadFromFile(served.kubeconfig);
    await kubeConfig.makeApiClient(k8s.CoreV1Api).deleteNamespacedPod({ name: 'web', namespace: 'default' });
    await gone.done;
    controller.kill('SIGTERM');

    const from = Number(/^watching pods from resourceVersion (\d+);/.exec(lines[0] ?? '')?.[1]);
    expect(from, `the controller says where its watch starts: ${lines[0]}`).to.be.above(0);
    const web = lines.filter((l) => / pods\/web /.test(l));
    expect(
      web.map((l) => l.split(' ').slice(0, 3).join(' ')),
      'the same watch events, in the same order',
    ).to.deep.equal(timelineWatchEvents(served, 'web', from));
    // What it saw: its own finalizer, then the stamp with the finalizer still on, and in the end the
    // DELETED — which only its removal of the finalizer allows. (When that removal is the write
    // that ends the pod, no MODIFIED without the finalizer is ever stored: the DELETED event then
    // carries the last stored state, finalizer included, as etcd3's watcher sends it.)
    expect(web[0]).to.match(/^MODIFIED pods\/web rv=\d+ Running finalizers=example\.com\/cleanup$/);
    expect(web[1]).to.match(/^MODIFIED pods\/web rv=\d+ terminating finalizers=example\.com\/cleanup$/);
    expect(web.at(-1)).to.match(/^DELETED pods\/web /);
  });
});

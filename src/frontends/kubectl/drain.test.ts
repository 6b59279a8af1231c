import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import type { ApiServer } from '../../apiserver/apiserver';
import { Cluster, USER } from '../../cluster/cluster';
import { podManifest } from '../server/testing';
import { KubectlError } from './delete-command';
import { parseKubectlDrain } from './drain-command';
import { deleteOptionsProtobuf, filterPod } from './drain';
import { runKubectl } from './kubectl';

function cluster(): Cluster {
  const c = new Cluster();
  c.addNode('node-1');
  c.apiserver.create(USER, 'pods', 'default', podManifest('web'));
  c.advance(60_000);
  return c;
}

const KUBECTL_1_35 = Release.of(35);

describe('kubectl drain in the built-in kubectl (staging/src/k8s.io/kubectl/pkg/drain)', () => {
  it('V49 the no-controller error by kubectl release: reworded in v1.30, its doubled "cannot delete" gone in v1.36', () => {
    const cmd = parseKubectlDrain('kubectl drain node-1');
    const message = (minor: number) =>
      filterPod(podManifest('web'), cmd, 0, () => undefined, Release.of(minor)).message;
    expect([29, 30, 35, 36].map(message)).to.deep.equal([
      'Pods declare no controller (use --force to override)',
      'cannot delete Pods that declare no controller (use --force to override)',
      'cannot delete Pods that declare no controller (use --force to override)',
      'Pods that declare no controller (use --force to override)',
    ]);
  });

  it('K80 the filters in turn; the last that ran decides', () => {
    const cmd = parseKubectlDrain('kubectl drain node-1');
    const pod = podManifest('web');
    const noDs = () => undefined;
    expect(filterPod(pod, cmd, 0, noDs, KUBECTL_1_35)).to.deep.equal({
      delete: false,
      reason: 'Error',
      message: 'cannot delete Pods that declare no controller (use --force to override)',
    });
    expect(filterPod(pod, parseKubectlDrain('kubectl drain node-1 --force'), 0, noDs, KUBECTL_1_35)).to.deep.include({
      delete: true,
      reason: 'Warning',
      message: 'deleting Pods that declare no controller',
    });
    const withScratch = { ...pod, spec: { ...pod.spec!, volumes: [{ name: 's', emptyDir: {} }] } };
    expect(
      filterPod(withScratch, parseKubectlDrain('kubectl drain node-1 --force'), 0, noDs, KUBECTL_1_35).message,
    ).to.equal('Pods with local storage (use --delete-emptydir-data to override)');
    const ds = {
      ...pod,
      metadata: {
        ...pod.metadata,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true }],
      },
    };
    expect(filterPod(ds, cmd, 0, noDs, KUBECTL_1_35)).to.deep.include({
      delete: false,
      message: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
    });
    expect(
      filterPod(ds, parseKubectlDrain('kubectl drain node-1 --ignore-daemonsets'), 0, noDs, KUBECTL_1_35),
    ).to.deep.include({
      delete: false,
      reason: 'Warning',
      message: 'ignoring DaemonSet-managed Pods',
    });
    const failed = { ...ds, status: { phase: 'Failed' } };
    expect(filterPod(failed, cmd, 0, noDs, KUBECTL_1_35)).to.deep.include({ delete: true, reason: 'Okay' });
    const mirror = { ...pod, metadata: { ...pod.metadata, annotations: { 'kubernetes.io/config.mirror': 'x' } } };
    expect(filterPod(mirror, cmd, 0, noDs, KUBECTL_1_35)).to.deep.include({ delete: false, reason: 'Skip' });
  });

  it('K81 a 429 from the eviction API is printed and retried 5 s later, "evicting pod" again each time', () => {
    const c = cluster();
    const api = c.apiserver as ApiServer & { evict: ApiServer['evict'] };
    const real = api.evict.bind(api);
    let refusals = 2;
    api.evict = (...args) => {
      if (refusals-- > 0)
        return {
          ok: false,
          code: 429,
          requestId: 0,
          status: {
            kind: 'Status',
            status: 'Failure',
            reason: 'TooManyRequests',
            code: 429,
            message: "Cannot evict pod as it would violate the pod's disruption budget.",
          },
        };
      return real(...args);
    };
    const t0 = c.clock.now();
    const r = runKubectl(c, 'kubectl drain node-1 --force');
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stderr.split('\n')).to.deep.equal([
      'Warning: deleting Pods that declare no controller: default/web',
      'error when evicting pods/"web" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.',
      'error when evicting pods/"web" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.',
    ]);
    expect(r.stdout.split('\n').filter((l) => l === 'evicting pod default/web')).to.have.length(3);
    const evictions = r.requests.filter((q) => q.method === 'POST');
    expect(evictions).to.have.length(3);
    const evicted = c.timeline
      .since(t0)
      .filter((e) => e.text.startsWith('CREATE pods/web/eviction'))
      .map((e) => (e.at - t0) / 1000);
    expect(evicted).to.deep.equal([10]);
  });

  it('K81 --timeout: a pod that does not go ends the drain with the wait error and the pending pods', () => {
    const c = new Cluster();
    c.addNode('node-1');
    c.apiserver.create(USER, 'pods', 'default', {
      ...podManifest('held'),
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    });
    c.advance(60_000);
    const t0 = c.clock.now();
    const r = runKubectl(c, 'kubectl drain node-1 --force --timeout=7s');
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.include(
      'There are pending pods in node "node-1" when an error occurred: error when waiting for pod "held" in namespace "default" to terminate: context deadline exceeded\npod/held',
    );
    expect(r.stderr.split('\n').at(-1)).to.equal(
      'error when waiting for pod "held" in namespace "default" to terminate: context deadline exceeded',
    );
    expect(c.clock.now() - t0).to.equal(7000);
    // The poll: at once, then every second until the deadline.
    expect(
      r.requests.filter((q) => q.method === 'GET' && q.path === '/api/v1/namespaces/default/pods/held'),
    ).to.have.length(7);
  });

  it("K82 drain flags and Complete's checks", () => {
    expect(
      parseKubectlDrain('kubectl drain node-1 --grace-period=5 --timeout=1m --pod-selector="b=2, a=1"'),
    ).to.deep.include({ nodes: ['node-1'], gracePeriodSeconds: 5, timeoutMs: 60_000, podSelector: 'a=1,b=2' });
    expect(() => parseKubectlDrain('kubectl drain node-1 -l x=y')).to.throw(
      KubectlError,
      "error: cannot specify both a node name and a --selector option\nSee 'kubectl drain -h' for help and examples",
    );
    expect(() => parseKubectlDrain('kubectl cordon node-1 --force')).to.throw(
      KubectlError,
      "error: unknown flag: --force\nSee 'kubectl cordon --help' for usage.",
    );
    expect(() => parseKubectlDrain('kubectl drain node-1 --pod-selector=a=,')).to.throw(
      KubectlError,
      'error: --pod-selector=<pod_selector> must be a valid label selector',
    );
  });

  it("K81 --disable-eviction sends DeleteOptions in protobuf, as client-go's typed client", () => {
    // What the real kubectl v1.33 sent for `drain --disable-eviction` without --grace-period (drain.differential.test.ts).
    expect(Buffer.from(deleteOptionsProtobuf({}), 'utf8').toString('hex')).to.equal(
      '6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200',
    );
    expect(
      [...Buffer.from(deleteOptionsProtobuf({ gracePeriodSeconds: 5, dryRun: ['All'] }), 'utf8')].slice(-13),
    ).to.deep.equal([0x12, 0x07, 0x08, 0x05, 0x2a, 0x03, 0x41, 0x6c, 0x6c, 0x1a, 0x00, 0x22, 0x00]);
  });
});

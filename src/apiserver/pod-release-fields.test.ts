/**
 * Pod fields dropped while their gate is off (V43, V44) and the pod-deletion-cost annotation's
 * validation (V45), through the apiserver of each release.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../apimachinery/types';
import { Cluster, USER } from '../cluster/cluster';
import { Release } from '../foundation/release';

function create(release: Release, body: Pod) {
  const c = new Cluster({ release });
  return { c, r: c.apiserver.create(USER, 'pods', 'default', body) };
}

const withCost = (cost: string): Pod => ({
  metadata: { name: 'web', annotations: { 'controller.kubernetes.io/pod-deletion-cost': cost } },
  spec: { containers: [{ name: 'app' }] },
});

describe('V45 controller.kubernetes.io/pod-deletion-cost must be a 32-bit integer (ValidatePodSpecificAnnotations)', () => {
  it('V45 "+10", "008", "1.5", "", "2147483648" are 422 Invalid; "-5", "0", "-007", "2147483647" are stored', () => {
    for (const bad of ['+10', '008', '1.5', '', '2147483648', '-', '1e3']) {
      const { r } = create(Release.of(36), withCost(bad));
      expect(r.ok, bad).to.equal(false);
      expect(!r.ok && `${r.code} ${r.status.message}`).to.equal(
        `422 Pod "web" is invalid: metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "${bad}": must be a 32bit integer`,
      );
    }
    for (const good of ['-5', '0', '-007', '2147483647', '-2147483648'])
      expect(create(Release.of(36), withCost(good)).r.ok, good).to.equal(true);
  });

  it('V45 an update may keep an invalid cost the stored pod already had, not introduce one', () => {
    const { c } = create(Release.of(33), withCost('7'));
    const bad = c.apiserver.patch(USER, 'pods', 'default', 'web', 'merge', {
      metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+7' } },
    });
    expect(!bad.ok && bad.code).to.equal(422);
  });
});

describe('V43 lifecycle.stopSignal is dropped while ContainerStopSignals is off (dropContainerStopSignals)', () => {
  const body = (): Pod => ({
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'app', lifecycle: { stopSignal: 'SIGUSR1' } } as never] },
  });
  it('V43 v1.33–v1.36 by default: created without it (and without a lifecycle left empty); with the gate on it is stored', () => {
    for (const minor of [33, 35, 36]) {
      const { r } = create(Release.of(minor), body());
      expect(r.ok && r.object.spec?.containers[0].lifecycle, `v1.${minor}`).to.equal(undefined);
    }
    const { r } = create(Release.of(35, { ContainerStopSignals: true }), body());
    expect(
      r.ok && (r.object.spec?.containers[0].lifecycle as { stopSignal?: string } | undefined)?.stopSignal,
    ).to.equal('SIGUSR1');
  });
});

describe("V44 an init container's restartPolicy is dropped while SidecarContainers is off (dropDisabledFields)", () => {
  const body = (): Pod => ({
    metadata: { name: 'web' },
    spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] },
  });
  it('V44 v1.26–v1.28: stored without it, a plain init container; from v1.29 (β on) kept', () => {
    for (const minor of [26, 27, 28]) {
      const { r } = create(Release.of(minor), body());
      expect(r.ok && r.object.spec?.initContainers?.[0].restartPolicy, `v1.${minor}`).to.equal(undefined);
    }
    expect(create(Release.of(28, { SidecarContainers: true }), body()).r.ok && true).to.equal(true);
    const on = create(Release.of(28, { SidecarContainers: true }), body()).r;
    expect(on.ok && on.object.spec?.initContainers?.[0].restartPolicy).to.equal('Always');
    const v29 = create(Release.of(29), body()).r;
    expect(v29.ok && v29.object.spec?.initContainers?.[0].restartPolicy).to.equal('Always');
  });

  it('V44 the kubelet runs it as a plain init container on v1.28 (it completes before the app starts) and as a sidecar on v1.29 (it keeps running beside the app)', () => {
    const states = (minor: number) => {
      const c = new Cluster({ release: Release.of(minor) });
      c.addNode('node-1');
      c.apiserver.create(USER, 'pods', 'default', {
        metadata: { name: 'web' },
        spec: {
          nodeName: 'node-1',
          initContainers: [{ name: 'proxy', restartPolicy: 'Always' }],
          containers: [{ name: 'app' }],
        },
      });
      c.advance(60_000);
      const got = c.apiserver.get('pods', 'default', 'web');
      const init = got.ok ? got.object.status?.initContainerStatuses?.[0]?.state : undefined;
      return {
        phase: got.ok && got.object.status?.phase,
        proxy: init?.running ? 'running' : init?.terminated ? `terminated ${init.terminated.reason}` : 'waiting',
      };
    };
    expect(states(28)).to.deep.equal({ phase: 'Running', proxy: 'terminated Completed' });
    expect(states(29)).to.deep.equal({ phase: 'Running', proxy: 'running' });
  });
});

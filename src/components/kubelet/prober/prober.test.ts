/**
 * The kubelet's probes (pkg/kubelet/prober: worker.go doProbe, prober_manager.go UpdatePodStatus)
 * on the virtual clock, through a whole cluster: a pod's Ready condition follows its readiness
 * probe, also while it terminates; liveness failures restart the container.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';

import type { Pod } from '../../../apimachinery/types';
import { USER } from '../../../cluster/cluster';
import { Release } from '../../../foundation/release';
import { createPod, newCluster, WARMUP_MS } from '../testing';
import type { ContainerBehaviour } from '../runtime';
import { probeSpec } from './worker';

function readyTransitions(
  pod: () => Pod | undefined,
  c: { advance(ms: number): void; clock: { now(): number } },
  t0: number,
  untilMs: number,
  stepMs = 500,
): [number, string][] {
  const out: [number, string][] = [];
  let last: string | undefined;
  for (let t = 0; t <= untilMs; t += stepMs) {
    const ready = pod()?.status?.conditions?.find((x) => x.type === 'Ready')?.status ?? 'gone';
    if (ready !== last) out.push([(c.clock.now() - t0) / 1000, ready]);
    last = ready;
    c.advance(stepMs);
  }
  return out;
}

function probed(
  probe: Record<string, unknown>,
  behaviour: Partial<ContainerBehaviour> = {},
  kind: 'readinessProbe' | 'livenessProbe' = 'readinessProbe',
) {
  const { c } = newCluster();
  createPod(c, 'web', {
    spec: { containers: [{ name: 'app', [kind]: { httpGet: { path: '/ready', port: 8080 }, ...probe } }] },
    containers: { app: behaviour },
  });
  const t0 = c.clock.now();
  const get = () => {
    const r = c.apiserver.get('pods', 'default', 'web');
    return r.ok ? r.object : undefined;
  };
  return { c, t0, get };
}

describe('probes (pkg/kubelet/prober)', () => {
  it('N10 SetDefaults_Probe: period 10 s, timeout 1 s, success 1, failure 3', () => {
    expect(probeSpec({})).to.deep.equal({
      initialDelaySeconds: 0,
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });

  it('N10 N11 a readiness probe: not Ready until initialDelaySeconds passed and successThreshold probes succeeded (the result starts as Failure)', () => {
    const { c, t0, get } = probed({ periodSeconds: 2, initialDelaySeconds: 3, successThreshold: 2 });
    const seen = readyTransitions(get, c, t0, 12_000);
    // Probes at 0, 2 (before the delay), 4, 6: the second success in a row counts.
    expect(seen[0][1]).to.equal('False');
    expect(seen.find(([, s]) => s === 'True')![0]).to.be.within(6, 7);
  });

  it('N10 during a graceful deletion the readiness probe goes on: a readiness endpoint failing from SIGTERM on makes the pod NotReady after failureThreshold periods, while the process still runs', () => {
    const { c, get } = probed(
      { periodSeconds: 5 },
      { sigterm: { kind: 'exits', afterMs: 25_000 }, servesAfterSigtermMs: 25_000, readinessFailsAtSigterm: true },
    );
    c.advance(WARMUP_MS);
    expect(get()!.status!.conditions!.find((x) => x.type === 'Ready')!.status).to.equal('True');
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'pods', 'default', 'web');
    const seen = readyTransitions(get, c, t0, 30_000);
    const notReadyAt = seen.find(([, s]) => s === 'False')![0];
    // Failures at the probes of about T+5, T+10, T+15: the third one turns the result.
    expect(notReadyAt).to.be.within(10, 16);
    const events = c.timeline
      .since(t0)
      .filter((e) => e.component === 'kubelet' && e.text.startsWith('readiness probe failed'));
    expect(events.map((e) => e.text)).to.deep.equal(['readiness probe failed app pods/web']);
  });

  it('N10 N12 a liveness probe that fails failureThreshold times restarts the container (Killing … will be restarted), which probes again from its start', () => {
    const { c, t0 } = probed({ periodSeconds: 1, failureThreshold: 2 }, { hangsAfterMs: 10_000 }, 'livenessProbe');
    c.advance(30_000);
    const killing = c.timeline.since(t0).filter((e) => e.text.startsWith('Killing pods/web'));
    expect(killing[0].text).to.equal('Killing pods/web: Container app failed liveness probe, will be restarted');
    expect((killing[0].at - t0) / 1000).to.be.within(10, 13);
    const r = c.apiserver.get('pods', 'default', 'web');
    expect(r.ok && r.object.status!.containerStatuses![0].restartCount).to.be.greaterThanOrEqual(1);
  });
});

describe('N11 StopLivenessAndStartup walks the regular containers only (V48)', () => {
  function terminating(minor: number) {
    const probe = { livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1 } };
    const { c } = newCluster(Release.of(minor));
    // Both processes stop answering a second after T+0; the app ignores SIGTERM, so the pod
    // terminates for its whole 30 s grace while the sidecar still runs.
    createPod(c, 'web', {
      spec: {
        initContainers: [{ name: 'proxy', restartPolicy: 'Always', ...probe }],
        containers: [{ name: 'app', ...probe }],
      },
      containers: {
        app: { sigterm: { kind: 'ignores' }, hangsAfterMs: WARMUP_MS + 1000 },
        proxy: { hangsAfterMs: WARMUP_MS + 1000 },
      },
    });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'pods', 'default', 'web', {});
    c.advance(10_000);
    return { c, t0 };
  }

  for (const minor of [29, 35, 36]) {
    it(`V48 v1.${minor}: the sidecar's liveness probe goes on through the termination and fails; the app's was stopped`, () => {
      const { c, t0 } = terminating(minor);
      const failed = (name: string) =>
        c.timeline.since(t0).filter((e) => e.text === `liveness probe failed ${name} pods/web`).length;
      expect([failed('proxy'), failed('app')]).to.deep.equal([1, 0]);
    });
  }
});

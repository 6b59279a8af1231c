import { describe, it } from 'node:test';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Container, Pod } from '../../apimachinery/types';
import { Clock } from '../../foundation/clock';
import { DEFAULT_RELEASE, Release } from '../../foundation/release';
import { Timeline } from '../../foundation/timeline/timeline';
import { KubeRuntimeManager, MINIMUM_GRACE_PERIOD_SECONDS, setTerminationGracePeriod } from './kuberuntime';
import { ContainerRuntime, DEFAULT_BEHAVIOUR, type ContainerBehaviour } from './runtime';
import { PRESTOP } from './testing';

/**
 * One pod `web` whose containers run in a real ContainerRuntime on a fresh clock, killed by the
 * KubeRuntimeManager; `log()` gives the runtime's events as [seconds, text without the pod].
 */
function harness(
  spec: { containers: Container[]; initContainers?: Container[]; terminationGracePeriodSeconds?: number },
  behaviours: Record<string, Partial<ContainerBehaviour>> = {},
  meta: Partial<Pod['metadata']> = {},
  release = DEFAULT_RELEASE,
) {
  const clock = new Clock();
  const start = clock.now();
  const timeline = new Timeline(clock);
  const runtime = new ContainerRuntime(clock, timeline, 'n1', (_uid, c) => ({
    ...DEFAULT_BEHAVIOUR,
    ...behaviours[c],
  }));
  const events: { at: number; container: string; type: string; reason: string; message: string }[] = [];
  const manager = new KubeRuntimeManager(
    clock,
    runtime,
    {
      event: (_p, container, type, reason, message) =>
        events.push({ at: (clock.now() - start) / 1000, container, type, reason, message }),
    },
    release,
  );
  const pod: Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', ...meta },
    spec: { terminationGracePeriodSeconds: 30, ...spec },
  };
  const names = [...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...spec.containers].map(
    (c) => c.name,
  );
  runtime.startPod('u1', 'pods/web', names);
  let doneAt: number | undefined;
  return {
    clock,
    runtime,
    manager,
    events,
    pod,
    /** killPod now with this override; then run the clock for `ms`. */
    kill(override: number | undefined, ms = 120_000) {
      manager.killPod(pod, override, () => (doneAt = (clock.now() - start) / 1000));
      clock.tick(ms);
    },
    get doneAt() {
      return doneAt;
    },
    log: () =>
      timeline
        .all()
        .filter((e) => e.component === 'runtime')
        .map((e) => [(e.at - start) / 1000, e.text.replace(' pods/web', '')] as const),
    when: (text: string) => timeline.all().find((e) => e.component === 'runtime' && e.text.startsWith(text)),
    t: (text: string) => {
      const e = timeline.all().find((x) => x.component === 'runtime' && x.text.startsWith(text));
      return e === undefined ? undefined : (e.at - start) / 1000;
    },
  };
}

const withHook = (name = 'app'): Container => ({ name, lifecycle: PRESTOP });

describe('killPodWithSyncResult (K23)', () => {
  it('K23 every running container is killed at once; the sandbox is stopped after the last one exited, then killPod returns', () => {
    const h = harness(
      { containers: [{ name: 'a' }, { name: 'b' }] },
      { a: { sigterm: { kind: 'exits', afterMs: 1000 } }, b: { sigterm: { kind: 'exits', afterMs: 4000 } } },
    );
    h.kill(30);
    expect(h.log()).to.deep.equal([
      [0, 'SIGTERM a'],
      [0, 'SIGTERM b'],
      [1, 'exited a code=0'],
      [4, 'exited b code=0'],
      [4, 'sandbox stopped'],
    ]);
    expect(h.doneAt).to.equal(4);
  });

  it('K23, R207 a StopContainer call is in flight only until its container exits, also when it dies at SIGTERM (before the call returns)', () => {
    const h = harness(
      { containers: [{ name: 'a' }, { name: 'b' }] },
      { a: { sigterm: { kind: 'dies' } }, b: { sigterm: { kind: 'exits', afterMs: 4000 } } },
    );
    h.manager.killPod(h.pod, 30, () => undefined);
    expect(h.manager.callsInFlight, 'b still runs; a died at its SIGTERM').to.equal(1);
    h.clock.tick(5000);
    // A call kept after its container exited would hold the pod (its closures and timers) for as long as the kubelet runs.
    expect(h.manager.callsInFlight).to.equal(0);
  });

  it('K23 containers that are not running are skipped (NotFound counts as success); with none running only the sandbox is stopped', () => {
    const h = harness({ containers: [{ name: 'a' }] }, { a: { exitsOnItsOwn: 0 } });
    h.kill(30);
    expect(h.log()).to.deep.equal([
      [0, 'exited a code=0'],
      [0, 'sandbox stopped'],
    ]);
    expect(h.events).to.deep.equal([]);
    expect(h.doneAt).to.equal(0);
  });
});

describe('killContainer grace (K24, K27)', () => {
  it('K24 a Normal "Killing" event (Stopping container NAME) is recorded for each container before its hook runs', () => {
    const h = harness({ containers: [withHook()] }, { app: { preStopMs: 5000 } });
    h.kill(30);
    expect(h.events).to.deep.equal([
      { at: 0, container: 'app', type: 'Normal', reason: 'Killing', message: 'Stopping container app' },
    ]);
    expect(h.t('preStop app')).to.equal(0);
  });

  it('K24 the override replaces the pod grace; without one it is deletionGracePeriodSeconds, else the spec, else 2 (setTerminationGracePeriod)', () => {
    const p = (meta: Partial<Pod['metadata']>, grace?: number): Pod => ({
      metadata: meta,
      spec: { containers: [], terminationGracePeriodSeconds: grace },
    });
    expect(setTerminationGracePeriod(p({ deletionGracePeriodSeconds: 7 }, 30))).to.equal(7);
    expect(setTerminationGracePeriod(p({}, 30))).to.equal(30);
    expect(setTerminationGracePeriod(p({}))).to.equal(MINIMUM_GRACE_PERIOD_SECONDS);
    const overridden = harness(
      { containers: [{ name: 'app' }] },
      { app: { sigterm: { kind: 'ignores' } } },
      { deletionGracePeriodSeconds: 20 },
    );
    overridden.kill(5);
    expect(overridden.t('SIGKILL app')).to.equal(5);
    const own = harness(
      { containers: [{ name: 'app' }] },
      { app: { sigterm: { kind: 'ignores' } } },
      { deletionGracePeriodSeconds: 20 },
    );
    own.kill(undefined);
    expect(own.t('SIGKILL app')).to.equal(20);
  });

  it('K27 after hook and ordering the remaining grace is raised to 2 s: with G=1 the container still gets 2 s before SIGKILL', () => {
    const h = harness({ containers: [{ name: 'app' }] }, { app: { sigterm: { kind: 'ignores' } } });
    h.kill(1);
    expect(h.log()).to.deep.equal([
      [0, 'SIGTERM app'],
      [2, 'SIGKILL app'],
      [2, 'exited app code=137'],
      [2, 'sandbox stopped'],
    ]);
  });
});

describe('preStop hooks (K25)', () => {
  it('K25 the hook runs inside the grace: SIGTERM when it returns; a hook that outlives the grace is left running and SIGTERM comes at G', () => {
    const quick = harness({ containers: [withHook()] }, { app: { preStopMs: 10_000, sigterm: { kind: 'ignores' } } });
    quick.kill(30);
    expect([quick.t('preStop app'), quick.t('SIGTERM app'), quick.t('SIGKILL app')]).to.deep.equal([0, 10, 30]);
    const hanging = harness(
      { containers: [withHook()] },
      { app: { preStopMs: Number.POSITIVE_INFINITY, sigterm: { kind: 'exits', afterMs: 1000 } } },
    );
    hanging.kill(30);
    expect([hanging.t('SIGTERM app'), hanging.t('exited app')]).to.deep.equal([30, 31]);
  });

  it('K25 the time the hook took is truncated to whole seconds before it comes off the grace', () => {
    const h = harness({ containers: [withHook()] }, { app: { preStopMs: 9_900, sigterm: { kind: 'ignores' } } });
    h.kill(30);
    // floor(9.9) = 9: 21 s remain after SIGTERM at 9.9.
    expect([h.t('SIGTERM app'), h.t('SIGKILL app')]).to.deep.equal([9.9, 30.9]);
  });

  it('K25 a failing hook records a Warning FailedPreStopHook ("PreStopHook failed") and the kill goes on', () => {
    const h = harness({ containers: [withHook()] }, { app: { preStopMs: 3000, preStopFails: true } });
    h.kill(30);
    expect(h.events.map((e) => [e.at, e.type, e.reason, e.message])).to.deep.equal([
      [0, 'Normal', 'Killing', 'Stopping container app'],
      [3, 'Warning', 'FailedPreStopHook', 'PreStopHook failed'],
    ]);
    expect([h.t('SIGTERM app'), h.t('exited app')]).to.deep.equal([3, 3]);
  });

  it('K25 no hook runs when the grace is 0', () => {
    const h = harness({ containers: [withHook()] }, { app: { preStopMs: 3000 } });
    h.kill(0);
    expect(h.when('preStop')).to.equal(undefined);
    expect(h.t('SIGTERM app')).to.equal(0);
  });
});

describe('sidecar termination order (K26)', () => {
  const spec = {
    initContainers: [
      { name: 'log', restartPolicy: 'Always' },
      { name: 'mesh', restartPolicy: 'Always', lifecycle: PRESTOP },
    ],
    containers: [{ name: 'a' }],
  };

  it("K26 sidecars wait for every regular container and for the sidecars declared after them (reverse order); their own preStop starts with everyone's", () => {
    const h = harness(spec, {
      a: { sigterm: { kind: 'exits', afterMs: 4000 } },
      mesh: { preStopMs: 1000, sigterm: { kind: 'exits', afterMs: 2000 } },
    });
    h.kill(30);
    expect(h.log()).to.deep.equal([
      [0, 'preStop mesh'],
      [0, 'SIGTERM a'],
      [4, 'exited a code=0'],
      [4, 'SIGTERM mesh'],
      [6, 'exited mesh code=0'],
      [6, 'SIGTERM log'],
      [6, 'exited log code=143'],
      [6, 'sandbox stopped'],
    ]);
  });

  it('K26 the wait is bounded by the remaining grace and subtracted (truncated): a sidecar whose turn never comes gets SIGTERM at G and the 2 s floor', () => {
    const h = harness(spec, {
      a: { sigterm: { kind: 'ignores' } },
      mesh: { preStopMs: 1000, sigterm: { kind: 'ignores' } },
      log: { sigterm: { kind: 'ignores' } },
    });
    h.kill(30);
    expect([
      h.t('SIGKILL a'),
      h.t('SIGTERM mesh'),
      h.t('SIGTERM log'),
      h.t('SIGKILL mesh'),
      h.t('SIGKILL log'),
    ]).to.deep.equal([30, 30, 30, 32, 32]);
  });

  it('K26 the time waited for the turn is truncated to whole seconds: a 3.5 s wait leaves 27 s, so SIGKILL comes at 3.5 + 27', () => {
    const h = harness(
      { initContainers: [{ name: 'log', restartPolicy: 'Always' }], containers: [{ name: 'a' }] },
      { a: { sigterm: { kind: 'exits', afterMs: 3500 } }, log: { sigterm: { kind: 'ignores' } } },
    );
    h.kill(30);
    expect([h.t('exited a'), h.t('SIGTERM log'), h.t('SIGKILL log')]).to.deep.equal([3.5, 3.5, 30.5]);
  });

  it('K26 containers that are not running count as already exited, and without sidecars nobody waits', () => {
    const h = harness(spec, { a: { exitsOnItsOwn: 0 }, mesh: { preStopMs: 1000 } });
    h.kill(30);
    // a already exited: mesh goes right after its 1 s hook, log right after mesh.
    expect([h.t('SIGTERM mesh'), h.t('SIGTERM log')]).to.deep.equal([1, 1]);
    const plain = harness(
      { containers: [{ name: 'a' }, withHook('b')] },
      { a: { sigterm: { kind: 'ignores' } }, b: { preStopMs: 2000 } },
    );
    plain.kill(30);
    expect([plain.t('SIGTERM a'), plain.t('SIGTERM b')]).to.deep.equal([0, 2]);
  });
});

describe('timing formula (K28, K29)', () => {
  it('K28 SIGTERM at h = min(P, G); R = max(G − floor(h), 2); exit at h + min(H, R); SIGKILL at h + R iff H ≥ R', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.option(fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constant(Number.POSITIVE_INFINITY)), {
          nil: undefined,
        }),
        fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constant(Number.POSITIVE_INFINITY)),
        (G, P, H) => {
          const sigterm =
            H === Number.POSITIVE_INFINITY ? ({ kind: 'ignores' } as const) : ({ kind: 'exits', afterMs: H } as const);
          const h = harness(
            { containers: [P === undefined ? { name: 'app' } : withHook()] },
            { app: { preStopMs: P ?? 0, sigterm } },
          );
          h.kill(G, 200_000);
          const hook = P === undefined ? 0 : Math.min(P, G * 1000);
          const R = Math.max(G - Math.floor(hook / 1000), 2) * 1000;
          const killed = H >= R;
          expect(h.t('SIGTERM app')).to.equal(hook / 1000);
          expect(h.t('exited app')).to.equal((hook + Math.min(H, R)) / 1000);
          expect(h.t('SIGKILL app')).to.equal(killed ? (hook + R) / 1000 : undefined);
          expect(h.when('exited app')?.text).to.match(killed ? /code=137/ : /code=0/);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('K29 exit codes: 143 for the default SIGTERM disposition, 0 for an app that exits cleanly, 137 after SIGKILL', () => {
    const h = harness(
      { containers: [{ name: 'dies' }, { name: 'clean' }, { name: 'stubborn' }] },
      { clean: { sigterm: { kind: 'exits', afterMs: 0 } }, stubborn: { sigterm: { kind: 'ignores' } } },
    );
    h.kill(30);
    const sandbox = h.runtime.sandbox('u1')!;
    expect([...sandbox.containers.values()].map((c) => [c.name, c.exitCode, c.reason])).to.deep.equal([
      ['dies', 143, 'Error'],
      ['clean', 0, 'Completed'],
      ['stubborn', 137, 'Error'],
    ]);
  });
});

describe('release differences in killContainer (V21, V23, V24)', () => {
  const withHook = { name: 'app', lifecycle: PRESTOP };

  it('V21 K28 a preStop hook of 10 s, app ignoring SIGTERM, grace 30: SIGKILL at 40 before v1.28 (StopContainer got the whole override after the hook), at 30 from v1.28 (#115835)', () => {
    const behaviour = { app: { preStopMs: 10_000, sigterm: { kind: 'ignores' as const } } };
    const old = harness({ containers: [withHook] }, behaviour, { deletionGracePeriodSeconds: 30 }, Release.of(27));
    old.kill(30);
    expect(old.log().filter(([, t]) => /SIG/.test(t))).to.deep.equal([
      [10, 'SIGTERM app'],
      [40, 'SIGKILL app'],
    ]);
    const now = harness({ containers: [withHook] }, behaviour, { deletionGracePeriodSeconds: 30 }, Release.of(28));
    now.kill(30);
    expect(now.log().filter(([, t]) => /SIG/.test(t))).to.deep.equal([
      [10, 'SIGTERM app'],
      [30, 'SIGKILL app'],
    ]);
  });

  it('V21 K27 a 1 s override: StopContainer(1) before v1.28 (no 2 s floor on the override), StopContainer(2) from v1.28', () => {
    const ignores = { app: { sigterm: { kind: 'ignores' as const } } };
    const old = harness({ containers: [{ name: 'app' }] }, ignores, {}, Release.of(27));
    old.kill(1);
    expect(old.when('SIGKILL app')?.at).to.equal(old.clock.now() - 120_000 + 1000);
    const now = harness({ containers: [{ name: 'app' }] }, ignores, {}, Release.of(28));
    now.kill(1);
    expect(now.when('SIGKILL app')?.at).to.equal(now.clock.now() - 120_000 + 2000);
  });

  it('V23 K26 sidecars stop in reverse order only with SidecarContainers (on from v1.29); on v1.28 (alpha, off) every container gets SIGTERM at once', () => {
    const spec = { initContainers: [{ name: 'log', restartPolicy: 'Always' }], containers: [{ name: 'a' }] };
    const behaviour = { a: { sigterm: { kind: 'exits' as const, afterMs: 4000 } } };
    const old = harness(spec, behaviour, {}, Release.of(28));
    old.kill(30);
    expect(old.log().filter(([, t]) => t.startsWith('SIGTERM'))).to.deep.equal([
      [0, 'SIGTERM log'],
      [0, 'SIGTERM a'],
    ]);
    const now = harness(spec, behaviour, {}, Release.of(29));
    now.kill(30);
    expect(now.log().filter(([, t]) => t.startsWith('SIGTERM'))).to.deep.equal([
      [0, 'SIGTERM a'],
      [4, 'SIGTERM log'],
    ]);
  });

  it('V24 K25 a preStop sleep action lasts its seconds with PodLifecycleSleepAction (beta on from v1.30); without the gate the handler runner fails at once (FailedPreStopHook)', () => {
    const sleeper = { name: 'app', lifecycle: { preStop: { sleep: { seconds: 5 } } } };
    const now = harness({ containers: [sleeper] }, {}, {}, Release.of(30));
    now.kill(30);
    expect(now.log().slice(0, 2)).to.deep.equal([
      [0, 'preStop app (sleep 5s)'],
      [5, 'SIGTERM app'],
    ]);
    expect(now.events.filter((e) => e.reason === 'FailedPreStopHook')).to.deep.equal([]);
    const old = harness({ containers: [sleeper] }, {}, {}, Release.of(30, { PodLifecycleSleepAction: false }));
    old.kill(30);
    expect(old.log()[1]).to.deep.equal([0, 'SIGTERM app']);
    expect(old.events.map((e) => [e.at, e.reason])).to.deep.include([0, 'FailedPreStopHook']);
    expect(Release.of(29).enabled('PodLifecycleSleepAction')).to.equal(false);
  });
});

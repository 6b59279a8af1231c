import { describe, it } from 'node:test';
import { expect } from 'chai';
import { EPOCH_MS } from '../../foundation/clock';
import type { ContainerStatus, Pod, PodStatus } from '../../apimachinery/types';
import type { RuntimeContainer, Sandbox } from './runtime';
import { Release } from '../../foundation/release';
import { generateAPIPodStatus, getPhase } from './status';

const NOW = EPOCH_MS + 100_000;

/** A pod with regular containers `names` (and sidecars), restartPolicy as given, API status as given. */
function pod(
  names: string[],
  o: { sidecars?: string[]; inits?: string[]; restartPolicy?: string; status?: PodStatus; deleted?: boolean } = {},
): Pod {
  return {
    metadata: {
      name: 'web',
      uid: 'u1',
      ...(o.deleted ? { deletionTimestamp: '2025-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 } : {}),
    },
    spec: {
      restartPolicy: o.restartPolicy ?? 'Always',
      initContainers: [
        ...(o.inits ?? []).map((name) => ({ name })),
        ...(o.sidecars ?? []).map((name) => ({ name, restartPolicy: 'Always' })),
      ],
      containers: names.map((name) => ({ name })),
    },
    status: o.status ?? { phase: 'Running' },
  };
}

/** A sandbox whose containers are running (`true`), exited with a code (number) or absent (undefined). */
function sandbox(containers: Record<string, true | number>, state: Sandbox['state'] = 'ready'): Sandbox {
  const map = new Map<string, RuntimeContainer>();
  for (const [name, s] of Object.entries(containers)) {
    map.set(
      name,
      s === true
        ? { name, id: `id-${name}`, state: 'running', startedAt: EPOCH_MS }
        : {
            name,
            id: `id-${name}`,
            state: 'exited',
            startedAt: EPOCH_MS,
            finishedAt: NOW,
            exitCode: s,
            reason: s === 0 ? 'Completed' : 'Error',
          },
    );
  }
  return { uid: 'u1', podRef: 'pods/web', state, containers: map, ips: ['10.244.0.2'] };
}

const phaseOf = (p: Pod, sb: Sandbox | undefined, terminal: boolean, cached?: PodStatus) =>
  generateAPIPodStatus(p, sb, terminal, NOW, cached).phase;
const cond = (s: PodStatus, type: string) => s.conditions?.find((c) => c.type === type);
const terminated = (name: string, exitCode: number): ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode } },
});

describe('getPhase (K32)', () => {
  it('K32 at the end (podIsTerminal) all regular containers stopped: Succeeded if every exit code is 0, else Failed — whatever the restartPolicy', () => {
    expect(phaseOf(pod(['a', 'b']), sandbox({ a: 0, b: 0 }, 'notready'), true)).to.equal('Succeeded');
    expect(phaseOf(pod(['a', 'b']), sandbox({ a: 0, b: 143 }, 'notready'), true)).to.equal('Failed');
    expect(phaseOf(pod(['a'], { restartPolicy: 'OnFailure' }), sandbox({ a: 137 }, 'notready'), true)).to.equal(
      'Failed',
    );
  });

  it('K32 sidecars (restartable init containers) are not counted: their 137 never makes the pod Failed', () => {
    expect(phaseOf(pod(['a'], { sidecars: ['log'] }), sandbox({ log: 137, a: 0 }, 'notready'), true)).to.equal(
      'Succeeded',
    );
  });

  it('K32 a pod whose containers never started computes Pending, even at the end (TerminatePod makes it Failed, K34)', () => {
    expect(phaseOf(pod(['a'], { status: { phase: 'Pending' } }), sandbox({}, 'notready'), true)).to.equal('Pending');
  });

  it('K32 before the end the restartPolicy decides: Always stays Running, OnFailure with a failure Running, Never with a failure Failed', () => {
    const s = (p: Pod) => getPhase(p, [terminated('a', 1)], false);
    expect([
      s(pod(['a'])),
      s(pod(['a'], { restartPolicy: 'OnFailure' })),
      s(pod(['a'], { restartPolicy: 'Never' })),
    ]).to.deep.equal(['Running', 'Running', 'Failed']);
    expect(getPhase(pod(['a'], { restartPolicy: 'OnFailure' }), [terminated('a', 0)], false)).to.equal('Succeeded');
  });

  it('K32 once the API or the status manager holds a terminal phase it never moves back', () => {
    expect(phaseOf(pod(['a'], { status: { phase: 'Succeeded' } }), sandbox({ a: true }), false)).to.equal('Succeeded');
    expect(phaseOf(pod(['a']), sandbox({ a: true }), false, { phase: 'Failed' })).to.equal('Failed');
  });
});

describe('generateAPIPodStatus', () => {
  it('a condition that says what the previous one of its type says is that one; its time, or another member order, makes a new one', () => {
    const first = generateAPIPodStatus(pod(['a']), sandbox({ a: true }), false, NOW);
    const again = generateAPIPodStatus(pod(['a']), sandbox({ a: true }), false, NOW + 60_000, first);
    // Same values: the previous objects themselves (the status manager keeps their time anyway).
    for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'])
      expect(cond(again, type), type).to.equal(cond(first, type));
    // The container stopped: Ready and ContainersReady say something else, stamped now.
    const stopped = generateAPIPodStatus(pod(['a']), sandbox({ a: 143 }), false, NOW + 60_000, first);
    expect(cond(stopped, 'Ready')).to.not.equal(cond(first, 'Ready'));
    expect(cond(stopped, 'Ready')?.lastTransitionTime).to.equal('2025-01-01T00:02:40Z');
    expect(cond(stopped, 'PodScheduled')).to.equal(cond(first, 'PodScheduled'));
    // The same values with the members in another order (a dump's): a new condition, in the generated order.
    const dumped = {
      ...first,
      conditions: [{ lastTransitionTime: '2024-06-01T00:00:00Z', status: 'True', type: 'PodScheduled' }],
    };
    const fromDump = generateAPIPodStatus(pod(['a'], { status: dumped }), sandbox({ a: true }), false, NOW);
    expect(Object.keys(cond(fromDump, 'PodScheduled')!)).to.deep.equal(['type', 'status', 'lastTransitionTime']);
  });

  it('K31 while terminating (podIsTerminal=false) with containers running: Running, Ready True', () => {
    const s = generateAPIPodStatus(pod(['a'], { deleted: true }), sandbox({ a: true }), false, NOW);
    expect(s.phase).to.equal('Running');
    expect(cond(s, 'Ready')?.status).to.equal('True');
    expect(s.containerStatuses?.[0]).to.include({ ready: true, started: true, containerID: 'id-a' });
  });

  it('K33 containers stopped: Ready and ContainersReady False; a terminal phase gives them reason PodCompleted or PodFailed (status/generate.go)', () => {
    const stopped = generateAPIPodStatus(pod(['a']), sandbox({ a: 143 }, 'notready'), false, NOW);
    expect([
      stopped.phase,
      cond(stopped, 'Ready')?.reason,
      cond(stopped, 'PodReadyToStartContainers')?.status,
    ]).to.deep.equal(['Running', 'ContainersNotReady', 'False']);
    const failed = generateAPIPodStatus(pod(['a']), sandbox({ a: 143 }, 'notready'), true, NOW);
    expect(
      [cond(failed, 'Ready'), cond(failed, 'ContainersReady')].map((c) => [c?.status, c?.reason, c?.message]),
    ).to.deep.equal([
      ['False', 'PodFailed', undefined],
      ['False', 'PodFailed', undefined],
    ]);
    const done = generateAPIPodStatus(pod(['a']), sandbox({ a: 0 }, 'notready'), true, NOW);
    expect([cond(done, 'Ready')?.reason, cond(done, 'Initialized')?.reason]).to.deep.equal([
      'PodCompleted',
      'PodCompleted',
    ]);
  });

  it('K29 exit codes and reasons come from the runtime: terminated{exitCode, reason, containerID}', () => {
    const s = generateAPIPodStatus(pod(['a', 'b']), sandbox({ a: 137, b: 0 }, 'notready'), true, NOW);
    expect(
      s.containerStatuses?.map((c) => [c.name, c.state?.terminated?.exitCode, c.state?.terminated?.reason]),
    ).to.deep.equal([
      ['a', 137, 'Error'],
      ['b', 0, 'Completed'],
    ]);
  });

  it('K29 a container last seen running that the runtime no longer has: Waiting with lastState 137 ContainerStatusUnknown, counted as stopped', () => {
    const previous: PodStatus = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'a',
          image: '',
          imageID: '',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
        },
      ],
    };
    const s = generateAPIPodStatus(pod(['a'], { deleted: true }), undefined, true, NOW, previous);
    const a = s.containerStatuses?.[0];
    expect(a?.state?.waiting).to.not.equal(undefined);
    expect(a?.lastState?.terminated).to.include({ exitCode: 137, reason: 'ContainerStatusUnknown' });
    expect([s.phase, a?.restartCount]).to.deep.equal(['Failed', 0]);
    // Not being deleted: it counts as a restart.
    expect(
      generateAPIPodStatus(pod(['a']), undefined, false, NOW, previous).containerStatuses?.[0].restartCount,
    ).to.equal(1);
    // A terminated status is kept when the runtime lost the container.
    const kept = generateAPIPodStatus(pod(['a']), undefined, true, NOW, {
      phase: 'Running',
      containerStatuses: [terminated('a', 0)],
    });
    expect([kept.phase, kept.containerStatuses?.[0].state?.terminated?.exitCode]).to.deep.equal(['Succeeded', 0]);
  });

  it('K38 conditions the kubelet does not own are kept from the API; DisruptionTarget comes from the previous status; kubelet conditions are regenerated', () => {
    const api: PodStatus = {
      phase: 'Running',
      conditions: [
        { type: 'example.com/Gate', status: 'True' },
        { type: 'Ready', status: 'True', reason: 'stale' },
      ],
    };
    const cached: PodStatus = {
      phase: 'Running',
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' }],
    };
    const s = generateAPIPodStatus(pod(['a'], { status: api }), sandbox({ a: 1 }, 'notready'), true, NOW, cached);
    expect(s.conditions?.map((c) => c.type)).to.deep.equal([
      'example.com/Gate',
      'DisruptionTarget',
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ]);
    expect(cond(s, 'Ready')?.reason).to.equal('PodFailed');
  });

  it('K32 the phase reason and message are kept only while the phase stays the same', () => {
    const old: PodStatus = { phase: 'Running', reason: 'Why', message: 'because' };
    expect(generateAPIPodStatus(pod(['a']), sandbox({ a: true }), false, NOW, old)).to.include({
      reason: 'Why',
      message: 'because',
    });
    const moved = generateAPIPodStatus(pod(['a']), sandbox({ a: 1 }, 'notready'), true, NOW, old);
    expect([moved.phase, moved.reason, moved.message]).to.deep.equal(['Failed', undefined, undefined]);
  });
});

describe('container statuses (K53)', () => {
  it('K53 convertToAPIContainerStatuses: regular containers sorted by name (SortedContainerStatuses), init containers in spec order (SortStatusesOfInitContainers)', () => {
    const p = pod(['web', 'app', 'metrics'], { sidecars: ['zlog', 'mesh'] });
    const s = generateAPIPodStatus(
      p,
      sandbox({ web: true, app: true, metrics: true, zlog: true, mesh: true }),
      false,
      NOW,
    );
    expect(s.containerStatuses?.map((c) => c.name)).to.deep.equal(['app', 'metrics', 'web']);
    expect(s.initContainerStatuses?.map((c) => c.name)).to.deep.equal(['zlog', 'mesh']);
  });

  it('K53 volumeMounts are listed from the spec (RecursiveReadOnlyMounts, on by default since v1.31): a read-only mount says recursiveReadOnly Disabled; a terminated status kept from before keeps its list', () => {
    const p = pod(['app']);
    p.spec!.containers[0].volumeMounts = [
      { name: 'data', mountPath: '/data' },
      { name: 'cfg', mountPath: '/etc/cfg', readOnly: true },
    ];
    const running = generateAPIPodStatus(p, sandbox({ app: true }), false, NOW);
    expect(running.containerStatuses?.[0].volumeMounts).to.deep.equal([
      { name: 'data', mountPath: '/data' },
      { name: 'cfg', mountPath: '/etc/cfg', readOnly: true, recursiveReadOnly: 'Disabled' },
    ]);
    const stopped = generateAPIPodStatus(p, sandbox({ app: 143 }, 'notready'), true, NOW, running);
    expect(stopped.containerStatuses?.[0].volumeMounts).to.deep.equal(running.containerStatuses?.[0].volumeMounts);
    expect(
      generateAPIPodStatus(pod(['app']), sandbox({ app: true }), false, NOW).containerStatuses?.[0],
    ).to.not.have.property('volumeMounts');
  });
});

describe('release differences in container statuses (V27)', () => {
  it('V27 K53 volumeMounts are listed only with RecursiveReadOnlyMounts (alpha off in v1.30, on from v1.31)', () => {
    const p = pod(['app']);
    p.spec!.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
    const mounts = (volumeMounts: boolean) =>
      generateAPIPodStatus(p, sandbox({ app: true }), false, NOW, undefined, { volumeMounts }).containerStatuses?.[0]
        .volumeMounts;
    expect(mounts(true)).to.deep.equal([{ name: 'data', mountPath: '/data' }]);
    expect(mounts(false)).to.equal(undefined);
    expect([30, 31].map((m) => Release.of(m).enabled('RecursiveReadOnlyMounts'))).to.deep.equal([false, true]);
  });
});

describe('regular init containers in the status (K57)', () => {
  const ready = (s: PodStatus, name: string) =>
    [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])].find((c) => c.name === name);

  it('K57 while an init container runs: Pending; it is started but not ready; the app waits with PodInitializing; Initialized False naming it (status/generate.go GeneratePodInitializedCondition)', () => {
    const s = generateAPIPodStatus(
      pod(['app'], { inits: ['fetch', 'migrate'], status: { phase: 'Pending' } }),
      sandbox({ fetch: 0, migrate: true }),
      false,
      NOW,
    );
    expect(s.phase).to.equal('Pending');
    expect(
      s.initContainerStatuses?.map((c) => [c.name, c.ready, c.started, Object.keys(c.state ?? {})[0]]),
    ).to.deep.equal([
      ['fetch', true, false, 'terminated'],
      ['migrate', false, true, 'running'],
    ]);
    expect(ready(s, 'app')?.state?.waiting?.reason).to.equal('PodInitializing');
    expect(cond(s, 'Initialized')).to.include({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [migrate]',
    });
    // Ready counts regular containers and sidecars only (GenerateContainersReadyCondition).
    expect(cond(s, 'ContainersReady')).to.include({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });
  });

  it('K57 init containers not started yet wait with PodInitializing, like every container of a pod that has init containers (convertToAPIContainerStatuses)', () => {
    const s = generateAPIPodStatus(
      pod(['app'], { inits: ['fetch', 'migrate'], status: { phase: 'Pending' } }),
      sandbox({ fetch: true }),
      false,
      NOW,
    );
    expect(s.initContainerStatuses?.map((c) => c.state?.waiting?.reason ?? 'running')).to.deep.equal([
      'running',
      'PodInitializing',
    ]);
    expect(cond(s, 'Initialized')?.message).to.equal('containers with incomplete status: [fetch migrate]');
  });

  it('K57 every init container exited 0 and the app runs: Running, Initialized True, the init statuses kept terminated/Completed in spec order', () => {
    const s = generateAPIPodStatus(
      pod(['app'], { inits: ['migrate', 'fetch'] }),
      sandbox({ migrate: 0, fetch: 0, app: true }),
      false,
      NOW,
    );
    expect([s.phase, cond(s, 'Initialized')?.status, cond(s, 'Ready')?.status]).to.deep.equal([
      'Running',
      'True',
      'True',
    ]);
    expect(s.initContainerStatuses?.map((c) => [c.name, c.state?.terminated?.reason])).to.deep.equal([
      ['migrate', 'Completed'],
      ['fetch', 'Completed'],
    ]);
  });

  it('K57 getPhase: a failed init container makes the pod Failed with restartPolicy Never, and leaves it Pending otherwise (also while it waits in CrashLoopBackOff)', () => {
    const failed = (restartPolicy: string) =>
      getPhase(pod(['app'], { inits: ['fetch'], restartPolicy }), [terminated('fetch', 1)], false);
    expect(['Never', 'OnFailure', 'Always'].map(failed)).to.deep.equal(['Failed', 'Pending', 'Pending']);
    const crashLooping: ContainerStatus = {
      name: 'fetch',
      image: '',
      imageID: '',
      ready: false,
      restartCount: 2,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1 } },
    };
    expect(getPhase(pod(['app'], { inits: ['fetch'] }), [crashLooping], false)).to.equal('Pending');
    expect(getPhase(pod(['app'], { inits: ['fetch'], restartPolicy: 'Never' }), [crashLooping], false)).to.equal(
      'Failed',
    );
  });

  it('K57 deleted while an init container ran: killed (143) it leaves the pod Pending even with podIsTerminal (TerminatePod then makes it Failed, K34); with restartPolicy Never, Failed at once', () => {
    const p = (restartPolicy: string) =>
      pod(['app'], { inits: ['fetch'], restartPolicy, deleted: true, status: { phase: 'Pending' } });
    expect(phaseOf(p('Always'), sandbox({ fetch: 143 }, 'notready'), true)).to.equal('Pending');
    expect(phaseOf(p('Never'), sandbox({ fetch: 143 }, 'notready'), true)).to.equal('Failed');
  });

  it('K57 a failed init container is neither ready nor started; a crash-loop reason from the last sync shows as its waiting state with the failed run as lastState', () => {
    const reasons = new Map([
      [
        'fetch',
        { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=fetch pod=web_default(u1)' },
      ],
    ]);
    const s = generateAPIPodStatus(
      pod(['app'], { inits: ['fetch'], status: { phase: 'Pending' } }),
      sandbox({ fetch: 1 }),
      false,
      NOW,
      undefined,
      undefined,
      reasons,
    );
    const fetch = s.initContainerStatuses?.[0];
    expect([
      fetch?.ready,
      fetch?.started,
      fetch?.state?.waiting?.reason,
      fetch?.lastState?.terminated?.exitCode,
    ]).to.deep.equal([false, false, 'CrashLoopBackOff', 1]);
    expect(s.phase).to.equal('Pending');
  });
});

describe("kubelet_pods.go convertStatusToAPIStatus / generateAPIPodStatus: the pod's and the host's IPs (K59)", () => {
  const pod: Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'app' }] },
  };
  it('K59 takes podIP and podIPs from a ready sandbox, hostIP and (with PodHostIPs) hostIPs from the node', () => {
    const s = generateAPIPodStatus(pod, sandbox({ app: true }), false, NOW, undefined, {
      volumeMounts: true,
      hostIP: '10.0.0.2',
      podHostIPs: true,
    });
    expect(s).to.deep.include({
      hostIP: '10.0.0.2',
      hostIPs: [{ ip: '10.0.0.2' }],
      podIP: '10.244.0.2',
      podIPs: [{ ip: '10.244.0.2' }],
    });
    const before29 = generateAPIPodStatus(pod, sandbox({ app: true }), false, NOW, undefined, {
      volumeMounts: true,
      hostIP: '10.0.0.2',
      podHostIPs: false,
    });
    expect(before29.hostIPs).to.equal(undefined);
  });
  it('K59 keeps the previous IPs once the sandbox is not ready (it reports none)', () => {
    const old: PodStatus = { podIP: '10.244.0.7', podIPs: [{ ip: '10.244.0.7' }] };
    const s = generateAPIPodStatus(pod, sandbox({ app: 143 }, 'notready'), true, NOW, old);
    expect(s).to.deep.include({ podIP: '10.244.0.7', podIPs: [{ ip: '10.244.0.7' }] });
    expect(generateAPIPodStatus(pod, undefined, false, NOW).podIP, 'no sandbox yet: no IP').to.equal(undefined);
  });
});

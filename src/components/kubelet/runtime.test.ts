import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { ContainerRuntime, DEFAULT_BEHAVIOUR, type ContainerBehaviour } from './runtime';

/** A runtime on a fresh clock; pod `web` (uid u1) runs the given containers. */
function harness(behaviours: Record<string, Partial<ContainerBehaviour>>, containers = Object.keys(behaviours)) {
  const clock = new Clock();
  const start = clock.now();
  const timeline = new Timeline(clock);
  const runtime = new ContainerRuntime(clock, timeline, 'n1', (_uid, c) => ({
    ...DEFAULT_BEHAVIOUR,
    ...behaviours[c],
  }));
  const exits: number[] = [];
  runtime.onContainerExit = () => exits.push((clock.now() - start) / 1000);
  const pending = runtime.startPod('u1', 'pods/web', containers);
  return {
    clock,
    runtime,
    exits,
    pending,
    container: (name: string) => runtime.sandbox('u1')?.containers.get(name),
    log: () => timeline.all().map((e) => [(e.at - start) / 1000, e.text.replace(' pods/web', '')] as const),
    secs: () => (clock.now() - start) / 1000,
  };
}

describe('containers as processes (K29)', () => {
  it('K29 no handler: SIGTERM kills at once with 143 (Error); a handler exits 0 (Completed) after its drain; SIGTERM ignored: SIGKILL at the timeout, 137', () => {
    const h = harness({
      dies: {},
      drains: { sigterm: { kind: 'exits', afterMs: 1500 } },
      stubborn: { sigterm: { kind: 'ignores' } },
    });
    for (const name of ['dies', 'drains', 'stubborn']) h.runtime.stopContainer('u1', name, 2, () => undefined);
    h.clock.tick(10_000);
    expect(h.log()).to.deep.equal([
      [0, 'SIGTERM dies'],
      [0, 'exited dies code=143'],
      [0, 'SIGTERM drains'],
      [0, 'SIGTERM stubborn'],
      [1.5, 'exited drains code=0'],
      [2, 'SIGKILL stubborn'],
      [2, 'exited stubborn code=137'],
    ]);
    expect(['dies', 'drains', 'stubborn'].map((n) => h.container(n)?.reason)).to.deep.equal([
      'Error',
      'Completed',
      'Error',
    ]);
    expect(h.exits).to.deep.equal([0, 1.5, 2]);
  });

  it('K29 a container that ends by itself exits with its own code and the PLEG is told', () => {
    const h = harness({ job: { exitsOnItsOwn: 3 } });
    expect(h.container('job')).to.include({ state: 'exited', exitCode: 3, reason: 'Error' });
    expect(h.exits).to.deep.equal([0]);
  });
});

describe('CRI StopContainer', () => {
  it('K27 StopContainer(timeout) waits the timeout after SIGTERM, then SIGKILL; onExit fires when the process is gone', () => {
    const h = harness({ app: { sigterm: { kind: 'ignores' } } });
    let exitedAt: number | undefined;
    h.runtime.stopContainer('u1', 'app', 7, () => (exitedAt = h.secs()));
    h.clock.tick(6_999);
    expect(h.container('app')?.state).to.equal('running');
    h.clock.tick(1);
    expect(exitedAt).to.equal(7);
  });

  it('K23 StopContainer of a container that already exited or does not exist returns at once (NotFound is success)', () => {
    const h = harness({ app: { exitsOnItsOwn: 0 } });
    const returned: string[] = [];
    h.runtime.stopContainer('u1', 'app', 30, () => returned.push('app'));
    h.runtime.stopContainer('u1', 'ghost', 30, () => returned.push('ghost'));
    expect(returned).to.deep.equal(['app', 'ghost']);
  });

  it('K45 a second StopContainer (a restarted kubelet) sends SIGTERM again and restarts the SIGKILL timer; the process keeps draining from the first signal', () => {
    const h = harness({ app: { sigterm: { kind: 'exits', afterMs: 40_000 } } });
    const cancel = h.runtime.stopContainer('u1', 'app', 60, () => undefined);
    h.clock.tick(20_000);
    cancel();
    h.runtime.stopContainer('u1', 'app', 60, () => undefined);
    h.clock.tick(60_000);
    expect(h.log()).to.deep.equal([
      [0, 'SIGTERM app'],
      [20, 'SIGTERM app'],
      [40, 'exited app code=0'],
    ]);
  });

  it('K45 an abandoned StopContainer (the kubelet died) sends no SIGKILL', () => {
    const h = harness({ app: { sigterm: { kind: 'ignores' } } });
    const cancel = h.runtime.stopContainer('u1', 'app', 2, () => undefined);
    cancel();
    h.clock.tick(60_000);
    expect(h.container('app')?.state).to.equal('running');
  });
});

describe('hooks, pulls and sandboxes', () => {
  it('K25 the preStop hook returns after its duration (with an error if it fails); a hanging one never returns', () => {
    const h = harness({
      ok: { preStopMs: 3000 },
      bad: { preStopMs: 1000, preStopFails: true },
      hangs: { preStopMs: Number.POSITIVE_INFINITY },
    });
    const done: [string, number, string | undefined][] = [];
    for (const name of ['ok', 'bad', 'hangs'])
      h.runtime.execPreStop('u1', name, (err) => done.push([name, h.secs(), err]));
    h.clock.tick(3_600_000);
    expect(done).to.deep.equal([
      ['bad', 1, 'command terminated with exit code 1'],
      ['ok', 3, undefined],
    ]);
  });

  it('S12 a container whose image must be pulled is not created with the sandbox; after the pull StartContainer runs it, a failed pull creates nothing', () => {
    const h = harness({ ready: {}, slow: { pullMs: 20_000 }, broken: { pullMs: 5000, pullFails: true } });
    expect(h.pending).to.deep.equal(['slow', 'broken']);
    expect([h.container('ready')?.state, h.container('slow'), h.container('broken')]).to.deep.equal([
      'running',
      undefined,
      undefined,
    ]);
    const results: [string, number, string | undefined][] = [];
    for (const name of ['slow', 'broken'])
      h.runtime.pullImage('u1', name, (err) => results.push([name, h.secs(), err]));
    h.clock.tick(30_000);
    expect(results).to.deep.equal([
      ['broken', 5, 'ErrImagePull'],
      ['slow', 20, undefined],
    ]);
    h.runtime.startContainer('u1', 'slow');
    expect(h.container('slow')?.state).to.equal('running');
    expect(h.container('broken')).to.equal(undefined);
  });

  it('K41 a stopped sandbox keeps its exited containers until RemovePodSandbox; a pod is "running" while its sandbox is ready or a container runs', () => {
    const h = harness({ app: {} });
    expect(h.runtime.isRunningPod('u1')).to.equal(true);
    h.runtime.stopContainer('u1', 'app', 2, () => undefined);
    expect(h.runtime.isRunningPod('u1')).to.equal(true);
    h.runtime.stopPodSandbox('u1');
    expect([h.runtime.isRunningPod('u1'), h.container('app')?.state]).to.deep.equal([false, 'exited']);
    h.runtime.removePodSandbox('u1');
    expect(h.runtime.allSandboxes()).to.deep.equal([]);
    expect(h.log().map(([, text]) => text)).to.deep.equal([
      'SIGTERM app',
      'exited app code=143',
      'sandbox stopped',
      'sandbox removed',
    ]);
  });
});

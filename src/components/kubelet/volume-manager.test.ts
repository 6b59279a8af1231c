import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { DEFAULT_VOLUME_CONFIG, VolumeManager, type VolumeBehaviour } from './volume-manager';

/** A volume manager on a fresh clock; pod u1 (pods/web) has the given volumes mounted. */
function harness(volumes: Record<string, Partial<VolumeBehaviour> | undefined>) {
  const clock = new Clock();
  const start = clock.now();
  const timeline = new Timeline(clock);
  const vm = new VolumeManager(clock, timeline, 'n1', DEFAULT_VOLUME_CONFIG, (_uid, v) =>
    volumes[v] ? { unmountMs: 100, neverUnmounts: false, ...volumes[v] } : undefined,
  );
  vm.mountPod('u1', 'pods/web', Object.keys(volumes));
  return {
    clock,
    vm,
    secs: () => (clock.now() - start) / 1000,
    log: () => timeline.all().map((e) => [(e.at - start) / 1000, e.text.replace(' pods/web', '')] as const),
  };
}

describe('volume manager', () => {
  it('K39 nothing is unmounted before the pod worker is terminated; then the reconciler starts at its next 100 ms tick and a local volume takes 100 ms', () => {
    const h = harness({ data: undefined, cache: { unmountMs: 400 } });
    h.clock.tick(5000);
    expect(h.log()).to.deep.equal([]);
    h.clock.tick(250);
    h.vm.podTerminated('u1');
    h.clock.tick(5000);
    expect(h.log()).to.deep.equal([
      [5.3, 'unmount data'],
      [5.3, 'unmount cache'],
      [5.4, 'unmounted data'],
      [5.7, 'unmounted cache'],
    ]);
    expect(h.vm.podVolumesExist('u1')).to.equal(false);
  });

  it('K40 WaitForUnmount polls every 300 ms: it returns at the first poll after the last volume is gone', () => {
    const h = harness({ data: { unmountMs: 1000 } });
    h.vm.podTerminated('u1');
    let doneAt: number | undefined;
    h.vm.waitForUnmount('u1', (err) => {
      expect(err).to.equal(undefined);
      doneAt = h.secs();
    });
    h.clock.tick(5000);
    // unmount starts at 0.1, ends at 1.1; polls at 0, 0.3, 0.6, 0.9, 1.2.
    expect(doneAt).to.equal(1.2);
  });

  it('K40 WaitForUnmount gives up after 2m3s naming the volumes still mounted', () => {
    const h = harness({ data: { neverUnmounts: true, unmountMs: 0 }, logs: {} });
    h.vm.podTerminated('u1');
    let result: [number, string | undefined] | undefined;
    h.vm.waitForUnmount('u1', (err) => (result = [h.secs(), err]));
    h.clock.tick(200_000);
    expect(result).to.deep.equal([123, 'timed out waiting for volumes to unmount: unmounted volumes=[data]']);
  });

  it('S7 a failing TearDown is retried with exponential back-off from 0.5 s, doubling, capped at 2m2s', () => {
    const h = harness({ data: { neverUnmounts: true, unmountMs: 0 } });
    h.vm.podTerminated('u1');
    h.clock.tick(600_000);
    const retries = h
      .log()
      .filter(([, t]) => t.startsWith('unmount failed'))
      .map(([, t]) => t.replace('unmount failed data: retry in ', ''));
    expect(retries.slice(0, 11)).to.deep.equal([
      '0.5s',
      '1s',
      '2s',
      '4s',
      '8s',
      '16s',
      '32s',
      '64s',
      '122s',
      '122s',
      '122s',
    ]);
    expect(h.vm.stuckVolumes()).to.have.length(1);
  });

  it('K42 the pod directory is only removed once no volume is mounted', () => {
    const h = harness({ data: { unmountMs: 1000 } });
    expect([h.vm.forget('u1'), h.vm.hasPod('u1')]).to.deep.equal([false, true]);
    h.vm.podTerminated('u1');
    h.clock.tick(5000);
    expect(h.vm.podUIDs()).to.deep.equal(['u1']);
    expect([h.vm.forget('u1'), h.vm.hasPod('u1'), h.vm.podUIDs()]).to.deep.equal([true, false, []]);
  });
});

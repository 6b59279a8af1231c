import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from '../../cluster/cluster';
import { isControllerEnabled, type ControllerDescriptor } from './controller-manager';
import { CONTROLLERS } from './registry';

const d = (name: string, aliases: string[] = []): ControllerDescriptor => ({ name, aliases, start: () => ({}) });

describe('kube-controller-manager --controllers (app/options IsControllerEnabled)', () => {
  it('* turns every controller on; -NAME turns one off; a name or an alias turns one on', () => {
    expect(isControllerEnabled(d('job-controller'), ['*'])).to.equal(true);
    expect(isControllerEnabled(d('job-controller'), ['*', '-job-controller'])).to.equal(false);
    expect(
      isControllerEnabled(d('garbage-collector-controller', ['garbagecollector']), ['-garbagecollector', '*']),
    ).to.equal(false);
    expect(isControllerEnabled(d('job-controller'), ['replicaset-controller'])).to.equal(false);
    expect(isControllerEnabled(d('pod-garbage-collector-controller', ['podgc']), ['podgc'])).to.equal(true);
  });

  it('a cluster runs every registered controller by default, and can leave one out', () => {
    expect([...new Cluster().controllers.keys()]).to.deep.equal(CONTROLLERS.map((c) => c.name));
    const without = new Cluster({ controllers: ['*', '-pod-garbage-collector-controller'] });
    expect(without.controllers.has('pod-garbage-collector-controller')).to.equal(false);
    const running = [...without.controllers.keys()].join(', ');
    expect(() => without.podGC).to.throw(
      `controller "pod-garbage-collector-controller" is not running; running: ${running}`,
    );
    expect(running).to.include('garbage-collector-controller');
  });

  it('names an unknown controller with the known ones', () => {
    expect(() => new Cluster({ controllers: ['*', '-jobs'] })).to.throw(
      '"-jobs" is not a known controller; known: endpoints-controller, endpointslice-controller, garbage-collector-controller',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from '../../cluster/cluster';
import { ControllerManager, isControllerEnabled, type ControllerDescriptor } from './controller-manager';
import { SharedInformerFactory } from '../../client/informer';
import { ApiClient } from '../../client/client';
import { USER } from '../../cluster/cluster';
import { DEFAULT_POD_GC_CONFIG } from './pod-gc';
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

  it('starts a controller with startsOn on the first object it acts on, or when asked for it', () => {
    const started: string[] = [];
    const lazy = (name: string, startsOn: ControllerDescriptor['startsOn']): ControllerDescriptor => ({
      name,
      startsOn,
      start: () => {
        started.push(name);
        return { name };
      },
    });
    const c = new Cluster({ controllers: ['*', '-replicaset-controller', '-deployment-controller'] });
    const manager = new ControllerManager(
      [
        lazy('replicaset-controller', [{ resource: 'replicasets' }]),
        lazy('deployment-controller', [{ resource: 'deployments' }]),
        lazy('job-controller', [{ resource: 'pods', matches: (p) => p.metadata.labels?.job === 'yes' }]),
      ],
      ['*'],
      {
        clock: c.clock,
        timeline: c.timeline,
        api: c.apiserver,
        clientFor: (identity) => new ApiClient(c.apiserver, identity),
        informers: new SharedInformerFactory(c.apiserver),
        release: c.release,
        config: { podGC: DEFAULT_POD_GC_CONFIG },
      },
    );
    expect(started).to.deep.equal([]);
    expect(manager.keys()).to.deep.equal(['replicaset-controller', 'deployment-controller', 'job-controller']);
    c.apiserver.create(USER, 'pods', 'default', { metadata: { name: 'a' }, spec: { containers: [{ name: 'app' }] } });
    c.flush();
    expect(started, 'a pod the job trigger does not match').to.deep.equal([]);
    c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'b', labels: { job: 'yes' } },
      spec: { containers: [{ name: 'app' }] },
    });
    c.flush();
    expect(started).to.deep.equal(['job-controller']);
    expect(manager.get('deployment-controller')).to.deep.equal({ name: 'deployment-controller' });
    expect(started).to.deep.equal(['job-controller', 'deployment-controller']);
    manager.forget('replicaset-controller');
    const rs = c.apiserver.create(USER, 'replicasets', 'default', {
      metadata: { name: 'rs' },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app' }] } },
      },
    } as never);
    expect(rs.ok, 'the ReplicaSet is created').to.equal(true);
    c.flush();
    expect(started, 'a forgotten controller does not start').to.deep.equal(['job-controller', 'deployment-controller']);
  });

  it('names an unknown controller with the known ones', () => {
    expect(() => new Cluster({ controllers: ['*', '-jobs'] })).to.throw(
      '"-jobs" is not a known controller; known: endpoints-controller, endpointslice-controller, garbage-collector-controller',
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { podManifest, USER } from '../../apiserver/testing';
import type { WatchEvent } from '../../apiserver/watch';
import { Cluster } from '../cluster';
import { ClusterPlan } from '../../planning/cluster-plan';
import { ClientView } from './client-view';
import { firstTooFewReady, firstTooMany } from './instants';
import { describeTarget, parseTarget, perturbationStep, type Target } from './perturbation';

describe('perturbation targets and steps (issue 33)', () => {
  it('a target reads as the steps write it and back', () => {
    const texts = [
      'endpointslice controller',
      'disruption controller',
      'kubelet on node "node-1"',
      'kube-proxy on node "node-2"',
      'load balancer of service "web"',
      'client "database-operator"',
      'scheduler',
    ];
    for (const t of texts) expect(describeTarget(parseTarget(t))).to.equal(t);
    expect(parseTarget('endpointslice-controller')).to.deep.equal({
      kind: 'controller',
      name: 'endpointslice-controller',
    });
    expect(parseTarget('podgc controller')).to.deep.equal({
      kind: 'controller',
      name: 'pod-garbage-collector-controller',
    });
    expect(() => parseTarget('flux controller')).to.throw(
      /"flux controller" names no component that can be perturbed: write a controller \(endpoints controller, endpointslice controller, /,
    );
  });

  it('each perturbation is written back as the Given step that declares it', () => {
    const target: Target = { kind: 'controller', name: 'job-controller' };
    expect(perturbationStep({ type: 'late', target, resource: 'jobs', delayMs: 2000 })).to.equal(
      'Given the job controller sees job changes 2s late',
    );
    expect(perturbationStep({ type: 'restart', target, atMs: 1001 })).to.equal(
      'Given the job controller restarts at T+1.001s',
    );
    expect(perturbationStep({ type: 'stale', target, resource: 'pods', staleMs: 500 })).to.equal(
      'Given the job controller reads pod from a cache 0.5s stale',
    );
  });
});

describe("ClientView: one component process's view of the apiserver", () => {
  it('a late watch delivers every event that much later, in order; a killed process gets nothing more and its timers never run', () => {
    const c = new Cluster();
    const view = new ClientView(c.apiserver, c.clock, { late: new Map([['pods', 2000]]), stale: new Map() });
    const seen: string[] = [];
    view.api.watch('pods', undefined, {}, (e: WatchEvent) =>
      seen.push(`${c.clock.now() - c.clock.epoch} ${e.type} ${e.object.metadata.name}`),
    );
    c.apiserver.create(USER, 'pods', 'default', podManifest('a'));
    c.apiserver.create(USER, 'pods', 'default', podManifest('b'));
    c.advance(1999);
    expect(seen).to.deep.equal([]);
    c.advance(1);
    expect(seen).to.deep.equal(['2000 ADDED a', '2000 ADDED b']);
    let fired = false;
    view.clock.after(100, () => (fired = true));
    c.apiserver.create(USER, 'pods', 'default', podManifest('c'));
    c.advance(50);
    view.kill();
    c.advance(5000);
    expect(fired).to.equal(false);
    expect(seen).to.have.length(2);
  });

  it('a stale cache answers GET and LIST with the state of that long ago (NotFound for an object created since)', () => {
    const c = new Cluster();
    c.apiserver.create(USER, 'pods', 'default', podManifest('old'));
    c.advance(5000);
    c.apiserver.create(USER, 'pods', 'default', podManifest('new'));
    const view = new ClientView(c.apiserver, c.clock, { late: new Map(), stale: new Map([['pods', 3000]]) });
    const list = view.api.list('pods', 'default');
    expect(list.ok && list.object.items.map((p) => p.metadata.name)).to.deep.equal(['old']);
    const missing = view.api.get('pods', 'default', 'new');
    expect(missing.ok ? 'found' : `${missing.code} ${missing.status.message}`).to.equal('404 pods "new" not found');
    expect(view.api.get('pods', 'default', 'old').ok).to.equal(true);
    expect(c.apiserver.get('pods', 'default', 'new').ok).to.equal(true);
  });

  it('a controller restarts at T+x: a new instance lists again, said on its lane; restarting a kubelet is refused', () => {
    const plan = new ClusterPlan();
    plan.node('node-1');
    plan.perturb({ type: 'restart', target: { kind: 'controller', name: 'replicaset-controller' }, atMs: 1000 });
    expect(() => plan.perturb({ type: 'restart', target: { kind: 'kubelet', node: 'node-1' }, atMs: 1000 })).to.throw(
      'restarting the kubelet on node "node-1" is not modelled',
    );
    plan.start();
    const before = plan.cluster.controller('replicaset-controller');
    plan.cluster.advance(plan.warmupMs + 1000);
    expect(plan.cluster.controller('replicaset-controller')).to.not.equal(before);
    expect(plan.cluster.timeline.all().map((e) => `${e.component} ${e.text}`)).to.include(
      'replicaset restarted replicaset-controller: work queues, expectations and informer caches lost; listing again',
    );
  });

  it('slow requests: the process runs behind — its clock, its watches and its reads are all that far in the past', () => {
    const c = new Cluster();
    c.apiserver.create(USER, 'pods', 'default', podManifest('old'));
    c.advance(5000);
    const view = new ClientView(c.apiserver, c.clock, { late: new Map(), stale: new Map(), behindMs: 2000 });
    expect(view.clock.now()).to.equal(c.clock.now() - 2000);
    const seen: string[] = [];
    view.api.watch('services', undefined, {}, (e: WatchEvent) =>
      seen.push(`${c.clock.now() - c.clock.epoch} ${e.type} ${e.object.metadata.name}`),
    );
    c.apiserver.create(USER, 'pods', 'default', podManifest('new'));
    const list = view.api.list('pods', 'default');
    expect(list.ok && list.object.items.map((p) => p.metadata.name)).to.deep.equal(['old']);
    c.apiserver.create(USER, 'services', 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    });
    // A timer for its own time X fires at the cluster's X + 2s: the same 2s it is behind.
    let firedAt: number | undefined;
    view.clock.at(view.clock.now() + 1000, () => (firedAt = c.clock.now() - c.clock.epoch));
    c.advance(3000);
    expect(seen).to.deep.equal(['7000 ADDED web']);
    expect(firedAt).to.equal(6000);
  });

  it("slow requests are a controller's only: a kubelet's are refused with a message", () => {
    const plan = new ClusterPlan();
    plan.node('node-1');
    plan.perturb({ type: 'slow', target: { kind: 'controller', name: 'job-controller' }, delayMs: 1000 });
    expect(() => plan.perturb({ type: 'slow', target: { kind: 'kubelet', node: 'node-1' }, delayMs: 1000 })).to.throw(
      'slow requests of the kubelet on node "node-1" are not modelled',
    );
    expect(perturbationStep(plan.declaredPerturbations[0])).to.equal('Given requests of the job controller take 1s');
  });

  it('slow requests of the scheduler: a pod created at T+0 is bound 1s later, by a scheduler that thought it was T+0', () => {
    const boundAt = (slowMs?: number) => {
      const plan = new ClusterPlan();
      plan.node('node-1');
      if (slowMs) plan.perturb({ type: 'slow', target: { kind: 'scheduler' }, delayMs: slowMs });
      plan.start();
      const c = plan.cluster;
      c.advance(plan.warmupMs);
      const t0 = c.clock.now();
      const pending = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'app' }] },
      };
      expect(c.apiserver.create(USER, 'pods', 'default', pending as never).ok).to.equal(true);
      c.advance(5000);
      const binding = c.timeline
        .all()
        .find((e) => e.component === 'apiserver' && e.text.startsWith('CREATE pods/p/binding'));
      return binding && binding.at - t0;
    };
    const fast = boundAt();
    expect(fast).to.be.a('number');
    expect(boundAt(1000)).to.equal(fast! + 1000);
  });

  it('a perturbation naming a node the scenario does not have fails when the plan is built, naming the nodes', () => {
    const plan = new ClusterPlan();
    plan.node('node-1');
    plan.perturb({ type: 'late', target: { kind: 'kubelet', node: 'node-9' }, resource: 'pods', delayMs: 1000 });
    expect(() => plan.start()).to.throw(
      'Given the kubelet on node "node-9" sees pod changes 1s late: unknown node "node-9" (nodes in this scenario: "node-1")',
    );
  });
});

describe('invariants at every instant (etcd history replayed)', () => {
  it('the first instant with too many pods, or too few ready, not only the end state', () => {
    const c = new Cluster();
    const t0 = c.clock.now();
    const labels = { app: 'web' };
    c.apiserver.create(USER, 'pods', 'default', podManifest('a', { metadata: { labels } }));
    c.advance(1000);
    c.apiserver.create(USER, 'pods', 'default', podManifest('b', { metadata: { labels } }));
    c.advance(1000);
    c.apiserver.delete(USER, 'pods', 'default', 'b', { gracePeriodSeconds: 0 });
    expect(firstTooMany(c.apiserver, t0, c.clock.now(), 1, labels)).to.deep.include({ at: t0 + 1000 });
    expect(firstTooMany(c.apiserver, t0, c.clock.now(), 2, labels)).to.equal(undefined);
    expect(firstTooFewReady(c.apiserver, t0, c.clock.now(), 1, labels)).to.deep.equal({
      at: t0,
      message: '0 pods ready, fewer than 1 (pods with the label: a)',
    });
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { deleteOptionsFromRequest, describeDeleteOptions } from './delete-options';
import { StatusError } from '../apimachinery/errors';
import {
  apiCreatePod,
  at,
  CONTROLLER,
  failure,
  KUBELET,
  newSim,
  NS,
  ok,
  podKey,
  replicaSetManifest,
  USER,
  watchPods,
  type PodOverrides,
  type Sim,
} from './testing';
import type { DeleteOptions, Pod, Status } from '../apimachinery/types';
import type { WatchEvent } from './watch';
import { Release } from '../foundation/release';

const X = 'example.com/x';

/** A sim with pod `web` created at T+0 and a watch on all pods opened after the create. */
function watched(o: PodOverrides = {}, release?: Release): { sim: Sim; events: WatchEvent<Pod>[]; pod: Pod } {
  const sim = newSim(release);
  const pod = apiCreatePod(sim, 'web', o);
  const events = watchPods(sim);
  return { sim, events, pod };
}

/** [type, deletionTimestamp, deletionGracePeriodSeconds, finalizers] of each delivered event ('-' = absent). */
function summarize(events: readonly WatchEvent<Pod>[]): Array<[string, string, number | string, string]> {
  return events.map((e) => [
    e.type,
    e.object.metadata.deletionTimestamp ?? '-',
    e.object.metadata.deletionGracePeriodSeconds ?? '-',
    (e.object.metadata.finalizers ?? []).join(','),
  ]);
}

function del(sim: Sim, options: DeleteOptions = {}, name = 'web', who = USER) {
  return sim.api.delete(who, 'pods', NS, name, options);
}

/** The kubelet's final DELETE (status_manager syncPod): grace 0 with a UID precondition. */
function kubeletFinalDelete(sim: Sim, pod: Pod) {
  return del(sim, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } }, pod.metadata.name, KUBELET);
}

function setPhase(sim: Sim, phase: string, name = 'web') {
  return ok(sim.api.patch(KUBELET, 'pods', NS, name, 'merge', { status: { phase } }, { subresource: 'status' }));
}

function removeFinalizers(sim: Sim, name = 'web') {
  return sim.api.patch(CONTROLLER, 'pods', NS, name, 'merge', { metadata: { finalizers: null } });
}

function rv(obj: { metadata?: { resourceVersion?: string } }): number {
  return Number(obj.metadata?.resourceVersion);
}

describe('R1 deleteOptionsFromRequest (handlers/delete.go DeleteResource)', () => {
  it('R1 a non-empty body is the only source: the query string is ignored', () => {
    expect(
      deleteOptionsFromRequest({ gracePeriodSeconds: 5 }, { gracePeriodSeconds: '0', propagationPolicy: 'Orphan' }),
    ).to.deep.equal({ gracePeriodSeconds: 5 });
  });

  it('R1 a body of "{}" is still a non-empty body: the query string is ignored', () => {
    expect(deleteOptionsFromRequest({}, { gracePeriodSeconds: '0' })).to.deep.equal({});
  });

  it('R1 with an empty body the options come from the query string', () => {
    expect(
      deleteOptionsFromRequest(undefined, {
        gracePeriodSeconds: '-1',
        propagationPolicy: 'Foreground',
        dryRun: 'All',
        other: 'ignored',
      }),
    ).to.deep.equal({
      gracePeriodSeconds: -1,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    });
  });

  it('R1 an HTTP request always yields an options object, possibly empty', () => {
    expect(deleteOptionsFromRequest(undefined)).to.deep.equal({});
  });

  it('R1 orphanDependents from the query is false only for "0" or "false" (any case), true otherwise', () => {
    const parse = (v: string) => deleteOptionsFromRequest(undefined, { orphanDependents: v }).orphanDependents;
    expect(['0', 'false', 'FALSE', 'False'].map(parse)).to.deep.equal([false, false, false, false]);
    expect(['1', 'true', 'yes', ''].map(parse)).to.deep.equal([true, true, true, true]);
  });

  it('R1 R51 a query gracePeriodSeconds that is not an integer is 400 BadRequest', () => {
    for (const bad of ['abc', '1.5', '', '3s']) {
      let err: unknown;
      try {
        deleteOptionsFromRequest(undefined, { gracePeriodSeconds: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).to.be.instanceOf(StatusError);
      expect([(err as StatusError).code, (err as StatusError).reason]).to.deep.equal([400, 'BadRequest']);
    }
    expect(deleteOptionsFromRequest(undefined, { gracePeriodSeconds: '+7' })).to.deep.equal({ gracePeriodSeconds: 7 });
  });
});

describe('DELETE handler: validation, codes and bodies', () => {
  it('R2 invalid options are 422 even for a pod that does not exist (validated before storage)', () => {
    const sim = newSim();
    const status = failure(
      del(sim, { orphanDependents: true, propagationPolicy: 'Orphan' }, 'missing'),
      422,
      'Invalid',
    );
    expect(status.message).to.match(/^DeleteOptions\.meta\.k8s\.io "" is invalid: propagationPolicy: Invalid/);
    expect(status.details?.kind).to.equal('DeleteOptions');
  });

  it('R2 a negative grace period is accepted (never validated)', () => {
    const sim = newSim();
    apiCreatePod(sim);
    expect(ok(del(sim, { gracePeriodSeconds: -5 })).metadata.deletionGracePeriodSeconds).to.equal(1);
  });

  it('R4 R48 a missing pod is 404 NotFound, dry run too', () => {
    const sim = newSim();
    expect(failure(del(sim, {}, 'missing'), 404, 'NotFound').message).to.equal('pods "missing" not found');
    failure(del(sim, { dryRun: ['All'] }, 'missing'), 404, 'NotFound');
  });

  it('R49 every successful pod DELETE answers a Pod: pending, deferred and removed alike', () => {
    const sim = newSim();
    apiCreatePod(sim);
    for (const options of [{}, {}, { gracePeriodSeconds: 0 }]) {
      const r = del(sim, options);
      expect([r.code, ok(r).kind, ok(r).metadata.name]).to.deep.equal([200, 'Pod', 'web']);
    }
  });

  it('R50 202 only when orphanDependents=false was explicit and the pod was not removed', () => {
    const sim = newSim();
    apiCreatePod(sim, 'a');
    apiCreatePod(sim, 'b');
    apiCreatePod(sim, 'c');
    expect(del(sim, { orphanDependents: false }, 'a').code, 'deferred').to.equal(202);
    expect(del(sim, { orphanDependents: false }, 'a').code, 'pending').to.equal(202);
    expect(del(sim, { orphanDependents: false, gracePeriodSeconds: 0 }, 'b').code, 'removed').to.equal(200);
    expect(del(sim, { propagationPolicy: 'Foreground' }, 'c').code, 'Foreground').to.equal(200);
    expect(del(sim, { orphanDependents: true }, 'c').code, 'orphanDependents=true').to.equal(200);
  });

  it('R50 a removed ReplicaSet (no ReturnDeletedObject) answers a Success Status naming it by resource', () => {
    const sim = newSim();
    const rs = ok(sim.api.create(USER, 'replicasets', NS, replicaSetManifest('rs')));
    const r = sim.api.delete(USER, 'replicasets', NS, 'rs', {});
    expect([r.code, ok(r)]).to.deep.equal([
      200,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: 'rs', group: 'apps', kind: 'replicasets', uid: rs.metadata.uid },
      },
    ]);
  });

  it('R50 a ReplicaSet held by finalizers answers the object itself (as written)', () => {
    const sim = newSim();
    ok(sim.api.create(USER, 'replicasets', NS, replicaSetManifest('rs', { finalizers: [X] })));
    const body = ok(sim.api.delete(USER, 'replicasets', NS, 'rs', { propagationPolicy: 'Foreground' })) as Status & {
      metadata: { finalizers?: string[] };
    };
    expect(body.kind).to.equal('ReplicaSet');
    expect(body.metadata.finalizers).to.deep.equal([X, 'foregroundDeletion']);
  });

  it('R51 errors carry their HTTP code and reason: 404 NotFound, 409 Conflict, 409 AlreadyExists, 422 Invalid', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { metadata: { finalizers: [X] } });
    failure(del(sim, {}, 'nope'), 404, 'NotFound');
    failure(del(sim, { preconditions: { uid: 'x' } }), 409, 'Conflict');
    failure(
      sim.api.create(USER, 'pods', NS, { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } }),
      409,
      'AlreadyExists',
    );
    failure(del(sim, { propagationPolicy: 'All' }), 422, 'Invalid');
    ok(del(sim, {}));
    failure(
      sim.api.patch(CONTROLLER, 'pods', NS, 'web', 'merge', { metadata: { finalizers: [X, 'example.com/new'] } }),
      422,
      'Invalid',
    );
  });

  it('R30 R42 a PUT whose body carries another uid is a 409 Conflict (storage precondition), not a 422', () => {
    const sim = newSim();
    const pod = apiCreatePod(sim);
    const status = failure(
      sim.api.update(CONTROLLER, 'pods', NS, {
        ...pod,
        metadata: { ...pod.metadata, uid: 'other', labels: { a: 'b' } },
      }),
      409,
      'Conflict',
    );
    expect(status.message).to.contain('Precondition failed: UID in precondition: other');
  });

  it('R34 CREATE over a terminating pod: 409 AlreadyExists prefixed "object is being deleted: "', () => {
    const sim = newSim();
    apiCreatePod(sim);
    ok(del(sim, {}));
    const status = failure(
      sim.api.create(USER, 'pods', NS, {
        metadata: { name: 'web' },
        spec: { nodeName: 'n1', containers: [{ name: 'app' }] },
      }),
      409,
      'AlreadyExists',
    );
    expect(status.message).to.equal('object is being deleted: pods "web" already exists');
  });

  it('R44 a stale kubelet (old UID) gets 409 for the recreated pod, which survives', () => {
    const sim = newSim();
    const old = apiCreatePod(sim);
    ok(del(sim, { gracePeriodSeconds: 0 }));
    apiCreatePod(sim);
    failure(kubeletFinalDelete(sim, old), 409, 'Conflict');
    ok(sim.api.get('pods', NS, 'web'));
  });

  it('R18 a pod past its deletionTimestamp stays stored: nothing is recorded while time passes', () => {
    const sim = newSim();
    apiCreatePod(sim);
    ok(del(sim, { gracePeriodSeconds: 5 }));
    const before = sim.timeline.all().length;
    sim.clock.tick(3600_000);
    expect(sim.timeline.all().length).to.equal(before);
    expect(ok(sim.api.get('pods', NS, 'web')).metadata.deletionTimestamp).to.equal(at(5));
  });

  it('R45 a dry-run DELETE records the request but no etcd write and no watch event', () => {
    const { sim, events } = watched();
    ok(del(sim, { gracePeriodSeconds: 0, dryRun: ['All'] }));
    sim.clock.tick(0);
    expect(events).to.deep.equal([]);
    expect(
      sim.timeline
        .all()
        .filter((e) => e.component !== 'apiserver')
        .map((e) => e.text.split(' ')[0]),
    ).to.deep.equal(['PUT', 'ADDED']);
  });
});

describe('revisions and watch', () => {
  it('R52 one revision counter across resources: each write is the next revision, a deletion too', () => {
    const sim = newSim();
    const start = sim.api.etcd.currentRevision;
    const a = apiCreatePod(sim, 'a');
    const rs = ok(sim.api.create(USER, 'replicasets', NS, replicaSetManifest('rs')));
    const stamped = ok(del(sim, {}, 'a'));
    ok(sim.api.delete(USER, 'replicasets', NS, 'rs', {}));
    expect([rv(a), rv(rs), rv(stamped), sim.api.etcd.currentRevision]).to.deep.equal([
      start + 1,
      start + 2,
      start + 3,
      start + 4,
    ]);
  });

  it('R56 create → ADDED, update → MODIFIED, removal → DELETED; nothing for a no-op or a pending DELETE', () => {
    const sim = newSim();
    const events = watchPods(sim);
    apiCreatePod(sim);
    ok(del(sim, {}));
    ok(del(sim, {}));
    ok(sim.api.patch(USER, 'pods', NS, 'web', 'merge', {}));
    ok(del(sim, { gracePeriodSeconds: 0 }));
    sim.clock.tick(0);
    expect(events.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
  });

  it('R57 DELETED carries the last stored state with the deletion revision, greater than the preceding MODIFIED', () => {
    const { sim, events } = watched();
    ok(del(sim, { gracePeriodSeconds: 0 }));
    sim.clock.tick(0);
    const [modified, deleted] = events;
    expect(rv(deleted.object)).to.equal(rv(modified.object) + 1);
    expect({ ...deleted.object, metadata: { ...deleted.object.metadata, resourceVersion: '' } }).to.deep.equal({
      ...modified.object,
      metadata: { ...modified.object.metadata, resourceVersion: '' },
    });
  });

  it('R57 a watch resumed from an older resourceVersion replays the same DELETED', () => {
    const sim = newSim();
    const pod = apiCreatePod(sim);
    ok(del(sim, { gracePeriodSeconds: 0 }));
    const replay = watchPods(sim, undefined, pod.metadata.resourceVersion);
    sim.clock.tick(0);
    expect(replay.map((e) => [e.type, rv(e.object)])).to.deep.equal([
      ['MODIFIED', rv(pod) + 1],
      ['DELETED', rv(pod) + 2],
    ]);
  });

  it("R58 a filtered watch: the update that makes a pod stop matching is DELETED with the previous state and the update's RV", () => {
    const sim = newSim();
    apiCreatePod(sim);
    const notTerminating = watchPods(sim, (p) => !p.metadata.deletionTimestamp);
    const stamped = ok(del(sim, {}));
    sim.clock.tick(0);
    expect(notTerminating.map((e) => [e.type, rv(e.object), e.object.metadata.deletionTimestamp ?? '-'])).to.deep.equal(
      [['DELETED', rv(stamped), '-']],
    );
  });

  it('R58 a filtered watch: binding makes an unscheduled pod match a node watch, delivered as ADDED', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { spec: { nodeName: undefined } });
    const onN1 = watchPods(sim, (p) => p.spec?.nodeName === 'n1');
    ok(sim.api.bind(USER, NS, 'web', 'n1'));
    sim.clock.tick(0);
    expect(onN1.map((e) => [e.type, e.object.spec?.nodeName])).to.deep.equal([['ADDED', 'n1']]);
  });

  it('a watch from a compacted revision is 410 Expired', () => {
    const sim = newSim();
    apiCreatePod(sim, 'a');
    sim.clock.tick(5 * 60_000);
    apiCreatePod(sim, 'b');
    sim.clock.tick(5 * 60_000);
    const r = sim.api.watch('pods', NS, { resourceVersion: '1' }, () => undefined);
    expect([r.code, r.ok ? '' : r.status.reason]).to.deep.equal([410, 'Expired']);
  });
});

describe('watch fan-out', () => {
  it('one change to many watches is one zero-delay hand-off, delivered in watch order before what the handlers hand off', () => {
    const sim = newSim();
    const seen: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      sim.api.watch('pods', NS, {}, (e) => {
        seen.push(`${name} ${e.type} ${e.object.metadata.name}`);
        if (name === 'a' && e.type === 'ADDED') sim.clock.after(0, () => seen.push('after a'));
      });
    }
    let handOffs = 0;
    const after = sim.clock.after.bind(sim.clock);
    sim.clock.after = (ms, fn, o) => {
      handOffs += 1;
      return after(ms, fn, o);
    };
    apiCreatePod(sim, 'x');
    expect(handOffs).to.equal(1);
    sim.clock.tick(0);
    expect(seen).to.deep.equal(['a ADDED x', 'b ADDED x', 'c ADDED x', 'after a']);
  });

  it('hand-offs queued back to back each deliver their own change, also after a handler threw (its change goes no further)', () => {
    const sim = newSim();
    const seen: string[] = [];
    for (const name of ['a', 'b']) {
      sim.api.watch('pods', NS, {}, (e) => {
        if (name === 'a' && e.object.metadata.name === 'x') throw new Error('handler a fails on x');
        seen.push(`${name} ${e.object.metadata.name}`);
        // A write from a handler queues its hand-off behind the ones already waiting.
        if (name === 'b' && e.object.metadata.name === 'y') apiCreatePod(sim, 'z');
      });
    }
    apiCreatePod(sim, 'x');
    apiCreatePod(sim, 'y');
    expect(() => sim.clock.tick(0)).to.throw('handler a fails on x');
    sim.clock.tick(0);
    expect(seen).to.deep.equal(['a y', 'b y', 'a z', 'b z']);
  });
});

describe('R59 canonical watch sequences', () => {
  it('R59 R26 graceful, no finalizers: MODIFIED(t0+30, 30) … status MODIFIED … kubelet MODIFIED(now, 0) → DELETED', () => {
    const { sim, events, pod } = watched();
    sim.clock.tick(2000);
    ok(del(sim, {}));
    sim.clock.tick(1000);
    setPhase(sim, 'Failed');
    sim.clock.tick(1000);
    ok(kubeletFinalDelete(sim, pod));
    sim.clock.tick(0);
    expect(summarize(events)).to.deep.equal([
      ['MODIFIED', at(32), 30, ''],
      ['MODIFIED', at(32), 30, ''],
      ['MODIFIED', at(4), 0, ''],
      ['DELETED', at(4), 0, ''],
    ]);
    expect(events.map((e) => e.object.metadata.generation)).to.deep.equal([2, 2, 2, 2]);
    expect(events.map((e) => e.object.status?.phase)).to.deep.equal(['Pending', 'Failed', 'Failed', 'Failed']);
  });

  it("R26 V1 the kubelet's final DELETE (g=0, UID precondition) is a shortening: v1.33 stamps the time it is sent (kubernetes#122646), dGP 0, then removal", () => {
    const { sim, events, pod } = watched();
    sim.clock.tick(3000);
    ok(del(sim, {}));
    sim.clock.tick(20_000);
    const r = kubeletFinalDelete(sim, pod);
    sim.clock.tick(0);
    expect([r.code, ok(r).metadata.deletionTimestamp, ok(r).metadata.deletionGracePeriodSeconds]).to.deep.equal([
      200,
      at(23),
      0,
    ]);
    expect(summarize(events.slice(1))).to.deep.equal([
      ['MODIFIED', at(23), 0, ''],
      ['DELETED', at(23), 0, ''],
    ]);
    expect(events[1].object.metadata.generation, 'no second generation bump').to.equal(2);
  });

  it("R26 V1 V2 up to v1.32 the kubelet's final DELETE moves dT back to the first request's time; pods have no generation", () => {
    const { sim, events, pod } = watched({}, Release.of(32));
    sim.clock.tick(3000);
    ok(del(sim, {}));
    sim.clock.tick(20_000);
    ok(kubeletFinalDelete(sim, pod));
    sim.clock.tick(0);
    expect(summarize(events.slice(1))).to.deep.equal([
      ['MODIFIED', at(3), 0, ''],
      ['DELETED', at(3), 0, ''],
    ]);
    expect(
      events.map((e) => e.object.metadata.generation),
      'pkg/registry/core/pod/strategy.go: generation only from v1.33',
    ).to.deep.equal([undefined, undefined, undefined]);
  });

  const immediate: Array<[string, PodOverrides, DeleteOptions, (sim: Sim) => void]> = [
    ['g=0', {}, { gracePeriodSeconds: 0 }, () => undefined],
    ['unscheduled', { spec: { nodeName: undefined } }, {}, () => undefined],
    ['terminal phase', {}, {}, (sim) => setPhase(sim, 'Succeeded')],
    ['TGPS=0', { spec: { terminationGracePeriodSeconds: 0 } }, {}, () => undefined],
  ];
  for (const [label, overrides, options, prepare] of immediate) {
    it(`R59 R16 ${label}, no finalizers: MODIFIED(dT = now, dGP 0, gen + 1) → DELETED`, () => {
      const { sim, events } = watched(overrides);
      prepare(sim);
      sim.clock.tick(0);
      events.length = 0;
      sim.clock.tick(4000);
      ok(del(sim, options));
      sim.clock.tick(0);
      expect(summarize(events)).to.deep.equal([
        ['MODIFIED', at(4), 0, ''],
        ['DELETED', at(4), 0, ''],
      ]);
      expect(events.map((e) => e.object.metadata.generation)).to.deep.equal([2, 2]);
    });
  }

  it('R59 R30 custom finalizer: MODIFIED(stamped) … kubelet MODIFIED(dGP 0) … finalizer removed → DELETED still listing it', () => {
    const { sim, events, pod } = watched({ metadata: { finalizers: [X] } });
    ok(del(sim, {}));
    sim.clock.tick(5000);
    ok(kubeletFinalDelete(sim, pod));
    sim.clock.tick(5000);
    const r = removeFinalizers(sim);
    sim.clock.tick(0);
    expect(summarize(events)).to.deep.equal([
      ['MODIFIED', at(30), 30, X],
      ['MODIFIED', at(5), 0, X],
      ['DELETED', at(5), 0, X],
    ]);
    expect([r.code, ok(r).metadata.finalizers]).to.deep.equal([200, undefined]);
    failure(sim.api.get('pods', NS, 'web'), 404, 'NotFound');
  });

  it('R59 R29 finalizer removed while dGP > 0: MODIFIED(F=[]) … kubelet MODIFIED(dGP 0) → DELETED', () => {
    const { sim, events, pod } = watched({ metadata: { finalizers: [X] } });
    ok(del(sim, {}));
    ok(removeFinalizers(sim));
    sim.clock.tick(3000);
    ok(kubeletFinalDelete(sim, pod));
    sim.clock.tick(0);
    expect(summarize(events)).to.deep.equal([
      ['MODIFIED', at(30), 30, X],
      ['MODIFIED', at(30), 30, ''],
      ['MODIFIED', at(3), 0, ''],
      ['DELETED', at(3), 0, ''],
    ]);
  });

  it('R59 R61 DeleteCollection: per pod the same sequence as a single DELETE', () => {
    const sim = newSim();
    apiCreatePod(sim, 'a');
    apiCreatePod(sim, 'b', { spec: { nodeName: undefined } });
    const events = watchPods(sim);
    ok(sim.api.deleteCollection(USER, 'pods', NS, {}));
    sim.clock.tick(0);
    expect(events.map((e) => [e.object.metadata.name, ...summarize([e])[0]])).to.deep.equal([
      ['a', 'MODIFIED', at(30), 30, ''],
      ['b', 'MODIFIED', at(0), 0, ''],
      ['b', 'DELETED', at(0), 0, ''],
    ]);
  });
});

describe('LIST at a past revision (resourceVersionMatch=Exact, continue)', () => {
  const names = (page: { items: Pod[] }) => page.items.map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`);

  it('reads the range as it was, whatever was created, changed, deleted or re-created since', () => {
    const sim = newSim();
    for (const n of ['d', 'b', 'e', 'c']) apiCreatePod(sim, n);
    const then = ok(sim.api.list('pods', NS));
    ok(sim.api.delete(USER, 'pods', NS, 'b', { gracePeriodSeconds: 0 }));
    ok(del(sim, {}, 'c'));
    apiCreatePod(sim, 'a');
    ok(sim.api.delete(USER, 'pods', NS, 'd', { gracePeriodSeconds: 0 }));
    apiCreatePod(sim, 'd');
    const page = ok(
      sim.api.listPage('pods', NS, { resourceVersion: then.resourceVersion, resourceVersionMatch: 'Exact' }),
    );
    expect(names(page)).to.deep.equal(names(then));
    expect(page.items).to.deep.equal(then.items);
  });

  it('undoes only the changes made since that revision: pages of a long history do not replay it from the start', () => {
    const sim = newSim();
    for (let i = 0; i < 50; i++) apiCreatePod(sim, `pod-${String(i).padStart(2, '0')}`);
    for (let i = 0; i < 50; i++) ok(del(sim, {}, `pod-${String(i).padStart(2, '0')}`));
    const first = ok(sim.api.listPage('pods', NS, { limit: '10' }));
    ok(del(sim, { gracePeriodSeconds: 0 }, 'pod-00'));
    let reads = 0;
    const change = sim.api.etcd.change.bind(sim.api.etcd);
    sim.api.etcd.change = (r: number) => {
      reads += 1;
      return change(r);
    };
    sim.api.etcd.fullHistory = () => expect.fail('a past range read replayed the whole history');
    const second = ok(sim.api.listPage('pods', NS, { limit: '10', continue: first.continue }));
    expect(names(second)).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => `pod-${10 + i}@${rv(first.items[0]) + 10 + i}`),
    );
    // Two writes since the first page (the stamp, then the removal of pod-00).
    expect(reads).to.equal(2);
  });
});

describe('R60 pods/binding', () => {
  it('R60 binding a pod that is being deleted is 409 Conflict', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { spec: { nodeName: undefined }, metadata: { finalizers: [X] } });
    ok(del(sim, {}));
    const status = failure(sim.api.bind(USER, NS, 'web', 'n1'), 409, 'Conflict');
    expect(status.message).to.equal(
      'Operation cannot be fulfilled on pods/binding "web": pod web is being deleted, cannot be assigned to a host',
    );
    expect(ok(sim.api.get('pods', NS, 'web')).spec?.nodeName).to.equal(undefined);
  });

  it('R60 an unscheduled pod without finalizers is gone after its DELETE, so binding it is 404', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { spec: { nodeName: undefined } });
    ok(del(sim, {}));
    failure(sim.api.bind(USER, NS, 'web', 'n1'), 404, 'NotFound');
  });

  it('binding sets spec.nodeName once; a second binding is 409', () => {
    const sim = newSim();
    apiCreatePod(sim, 'web', { spec: { nodeName: undefined } });
    expect(ok(sim.api.bind(USER, NS, 'web', 'n1')).spec?.nodeName).to.equal('n1');
    failure(sim.api.bind(USER, NS, 'web', 'n2'), 409, 'Conflict');
  });
});

describe('R61 DeleteCollection through the handler', () => {
  it('R61 answers 200 with the items as listed before deletion; per-pod grace; only matching pods', () => {
    const sim = newSim();
    apiCreatePod(sim, 'a', { metadata: { labels: { app: 'x' } } });
    apiCreatePod(sim, 'b', { metadata: { labels: { app: 'x' } }, spec: { terminationGracePeriodSeconds: 5 } });
    apiCreatePod(sim, 'other');
    const r = sim.api.deleteCollection(USER, 'pods', NS, {}, (p) => p.metadata.labels?.app === 'x');
    expect([r.code, ok(r).map((p) => [p.metadata.name, p.metadata.deletionTimestamp ?? '-'])]).to.deep.equal([
      200,
      [
        ['a', '-'],
        ['b', '-'],
      ],
    ]);
    expect(ok(sim.api.get('pods', NS, 'b')).metadata.deletionGracePeriodSeconds).to.equal(5);
    expect(ok(sim.api.get('pods', NS, 'other')).metadata.deletionTimestamp).to.equal(undefined);
  });

  it('R61 invalid options are 422', () => {
    failure(newSim().api.deleteCollection(USER, 'pods', NS, { dryRun: ['Nope'] }), 422, 'Invalid');
  });
});

describe('timeline and request records', () => {
  it('DELETE is recorded with its options in canonical order, the actor and the outcome', () => {
    const sim = newSim();
    const pod = apiCreatePod(sim);
    del(
      sim,
      {
        dryRun: ['All'],
        preconditions: { resourceVersion: '9', uid: pod.metadata.uid },
        propagationPolicy: 'Background',
        gracePeriodSeconds: 0,
      },
      'web',
      KUBELET,
    );
    const e = sim.timeline
      .all()
      .filter((x) => x.component === 'apiserver')
      .at(-1)!;
    expect(e.text).to.equal(
      `DELETE pods/web gracePeriodSeconds=0 propagationPolicy=Background preconditions.uid=${pod.metadata.uid} preconditions.resourceVersion=9 dryRun=All`,
    );
    expect([e.actor, e.outcome]).to.deep.equal(['n1', '409 Conflict']);
    expect(describeDeleteOptions({})).to.equal('');
  });

  it('a graceful-0 DELETE appears as apiserver DELETE, etcd PUT, watch MODIFIED, etcd DELETE, watch DELETED', () => {
    const sim = newSim();
    apiCreatePod(sim);
    const from = sim.timeline.all().length;
    ok(del(sim, { gracePeriodSeconds: 0 }));
    expect(
      sim.timeline
        .all()
        .slice(from)
        .map((e) => `${e.component} ${e.text.replace(/ (rev|rv)=\d+$/, '')}`),
    ).to.deep.equal([
      'apiserver DELETE pods/web gracePeriodSeconds=0',
      `etcd PUT ${podKey('web')}`,
      'watch MODIFIED pods/web',
      `etcd DELETE ${podKey('web')}`,
      'watch DELETED pods/web',
    ]);
  });

  it('request records know the revision before each request and the object at any revision', () => {
    const sim = newSim();
    apiCreatePod(sim);
    ok(del(sim, { gracePeriodSeconds: 0 }));
    const req = sim.api.lastRequest!;
    expect([req.verb, req.name, req.response?.code]).to.deep.equal(['DELETE', 'web', 200]);
    expect(sim.api.objectAt(podKey('web'), req.revisionBefore)?.metadata.deletionTimestamp).to.equal(undefined);
    expect(sim.api.objectAt(podKey('web'), req.revisionBefore + 1)?.metadata.deletionTimestamp).to.equal(at(0));
    expect(sim.api.objectAt(podKey('web'), req.revisionBefore + 2)).to.equal(undefined);
  });
});

describe('determinism', () => {
  /** One scenario's worth of requests, watches and clock ticks. */
  function script(sim: Sim): string {
    const seen: string[] = [];
    sim.api.watch('pods', NS, {}, (e) =>
      seen.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`),
    );
    const web = apiCreatePod(sim, 'web', { metadata: { finalizers: [X] } });
    apiCreatePod(sim, 'db');
    apiCreatePod(sim, 'pending', { spec: { nodeName: undefined } });
    sim.clock.tick(1500);
    del(sim, { propagationPolicy: 'Foreground' });
    sim.api.deleteCollection(USER, 'pods', NS, { gracePeriodSeconds: 10 }, (p) => p.metadata.name !== 'web');
    sim.clock.tick(2000);
    setPhase(sim, 'Failed');
    kubeletFinalDelete(sim, web);
    removeFinalizers(sim);
    sim.clock.tick(0);
    return seen.join('\n');
  }

  it('two fresh clusters fed the same requests give byte-identical timelines (and uids, and watch streams)', () => {
    const a = newSim();
    const b = newSim();
    const seenA = script(a);
    const seenB = script(b);
    expect(seenA).to.equal(seenB);
    expect(JSON.stringify(a.timeline.all())).to.equal(JSON.stringify(b.timeline.all()));
    expect(a.timeline.all().length).to.be.greaterThan(20);
  });
});

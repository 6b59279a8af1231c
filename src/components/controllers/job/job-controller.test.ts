/**
 * The job controller (pkg/controller/job/job_controller.go syncJob, tracking_utils.go,
 * pod_failure_policy.go, backoff_utils.go) in a whole cluster: pods are bound by the test
 * (bindNewPods), their containers exit as each test says.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Job, JobSpec, Pod } from '../../../apimachinery/types';
import { JOB_TRACKING_FINALIZER } from '../../../apiserver/workload-strategy';
import { Cluster, USER } from '../../../cluster/cluster';
import type { ContainerBehaviour } from '../../kubelet/runtime';
import { Release } from '../../../foundation/release';
import { bindNewPods, eventsOf, podsNow } from '../workload-testing';
import { getFinishedTime, getRemainingTime, newBackoffRecord } from './backoff';
import { matchPodFailurePolicy } from './pod-failure-policy';

const NODE = 'node-1';

function cluster(
  o: {
    release?: Release;
    controllers?: string[];
    behaviour?: (pod: Pod, index: number) => Partial<ContainerBehaviour> | undefined;
  } = {},
): Cluster {
  const c = new Cluster({ release: o.release, controllers: o.controllers });
  c.addNode(NODE);
  let created = 0;
  bindNewPods(c, NODE, (pod) => o.behaviour?.(pod, created++));
  c.advance(10_000);
  return c;
}

function createJob(c: Cluster, name: string, spec: Partial<JobSpec> = {}): Job {
  const r = c.apiserver.create(USER, 'jobs', 'default', {
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app' }] } }, ...spec } as JobSpec,
  });
  if (!r.ok) expect.fail(`job ${name}: ${r.status.message}`);
  return r.object;
}

function job(c: Cluster, name: string): Job {
  const r = c.apiserver.get('jobs', 'default', name);
  if (!r.ok) expect.fail(`job ${name} is gone`);
  return r.object;
}

const conditions = (j: Job): string[] =>
  (j.status?.conditions ?? [])
    .filter((x) => x.status === 'True')
    .map((x) => (x.reason ? `${x.type}:${x.reason}` : x.type));

describe('job controller (pkg/controller/job)', () => {
  it('W40 manageJob creates the pod with generateName, a controller reference and the job-tracking finalizer; the apiserver defaults the Job and its selector labels (strategy.go)', () => {
    const c = cluster();
    const created = createJob(c, 'pi');
    expect(created.spec).to.include({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    expect(created.spec?.selector?.matchLabels).to.deep.equal({
      'batch.kubernetes.io/controller-uid': created.metadata.uid,
    });
    c.advance(100);
    const [pod] = podsNow(c);
    expect(pod.metadata.name).to.match(/^pi-[a-z0-9]{5}$/);
    expect(pod.metadata.finalizers).to.deep.equal([JOB_TRACKING_FINALIZER]);
    expect(pod.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'pi',
        uid: created.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.metadata.labels).to.include({ 'batch.kubernetes.io/job-name': 'pi', 'job-name': 'pi' });
    expect(job(c, 'pi').status).to.include({ active: 1 });
  });

  it('W41 a succeeded pod is counted in uncountedTerminatedPods, loses its finalizer, then counts as succeeded; SuccessCriteriaMet then Complete (v1.31+)', () => {
    const c = cluster({ behaviour: () => ({ exitsOnItsOwn: 0, runsForMs: 5000 }) });
    createJob(c, 'pi');
    c.advance(30_000);
    const j = job(c, 'pi');
    expect(j.status).to.include({ succeeded: 1, active: 0 });
    expect(conditions(j)).to.deep.equal(['SuccessCriteriaMet', 'Complete']);
    expect(j.status?.completionTime).to.be.a('string');
    const [pod] = podsNow(c);
    expect(pod.status?.phase).to.equal('Succeeded');
    expect(pod.metadata.finalizers ?? []).to.deep.equal([]);
    const writes = c.timeline
      .since(0)
      .filter((e) => e.component === 'apiserver' && e.actor === 'job-controller')
      .map((e) => e.text);
    const uncounted = writes.indexOf('UPDATE jobs/pi/status');
    const unfinalize = writes.findIndex((t) => t.startsWith(`PATCH pods/${pod.metadata.name}`));
    expect(uncounted).to.be.greaterThan(-1);
    expect(unfinalize).to.be.greaterThan(uncounted);
  });

  it('W41 before v1.31 Complete is set directly, without SuccessCriteriaMet (delayTerminalCondition, kubernetes#125510)', () => {
    const c = cluster({ release: Release.of(30), behaviour: () => ({ exitsOnItsOwn: 0, runsForMs: 5000 }) });
    createJob(c, 'pi');
    c.advance(30_000);
    expect(conditions(job(c, 'pi'))).to.deep.equal(['Complete']);
  });

  it('W42 a failed pod is replaced after the pod failure back-off (10 s, then 20 s); past backoffLimit the Job fails with BackoffLimitExceeded', () => {
    const c = cluster({ behaviour: () => ({ exitsOnItsOwn: 1, runsForMs: 1000 }) });
    createJob(c, 'pi', { backoffLimit: 1 });
    c.advance(120_000);
    const j = job(c, 'pi');
    expect(j.status).to.include({ failed: 2, active: 0 });
    expect(conditions(j)).to.deep.equal(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded']);
    expect(podsNow(c)).to.have.length(2);
    expect(eventsOf(c, 'job').filter((t) => /^jobs\/pi waits \d+s of pod failure back-off/.test(t))).to.not.deep.equal(
      [],
    );
  });

  it('W42 getRemainingTime doubles from 10 s and stops at the 10-minute cap; a success resets the count (backoff_utils.go)', () => {
    expect(getRemainingTime({ failuresAfterLastSuccess: 1, lastFailureTime: 0 }, 4000)).to.equal(6000);
    expect(getRemainingTime({ failuresAfterLastSuccess: 3, lastFailureTime: 0 }, 0)).to.equal(40_000);
    expect(getRemainingTime({ failuresAfterLastSuccess: 12, lastFailureTime: 0 }, 0)).to.equal(600_000);
    const pod = (phase: string, finishedAt: string): Pod => ({
      metadata: { name: 'p' },
      status: {
        phase,
        containerStatuses: [
          {
            name: 'app',
            image: '',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 1, finishedAt } },
          },
        ],
      },
    });
    expect(
      newBackoffRecord(
        { failuresAfterLastSuccess: 4, lastFailureTime: 0 },
        [pod('Succeeded', '1970-01-01T00:01:00Z')],
        [],
      ),
    ).to.deep.equal({ failuresAfterLastSuccess: 0 });
  });

  it('W42 getFinishedTime reads regular containers only, nothing while one runs, then Ready=False, the deletion, the creation time', () => {
    const terminated = (name: string, finishedAt: string) => ({
      name,
      image: '',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode: 0, finishedAt } },
    });
    const running = { name: 'app', image: '', imageID: '', ready: true, restartCount: 0, state: { running: {} } };
    const base: Pod = { metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' } };
    const at = (iso: string) => Date.parse(iso);
    expect(
      getFinishedTime({
        ...base,
        status: {
          containerStatuses: [terminated('a', '2026-01-01T00:00:30Z'), terminated('b', '2026-01-01T00:00:40Z')],
        },
      }),
    ).to.equal(at('2026-01-01T00:00:40Z'));
    // A finished init container says nothing while the regular one runs: the deletion decides.
    expect(
      getFinishedTime({
        metadata: { ...base.metadata, deletionTimestamp: '2026-01-01T00:02:30Z', deletionGracePeriodSeconds: 30 },
        status: {
          initContainerStatuses: [terminated('init', '2026-01-01T00:00:05Z')],
          containerStatuses: [running],
        },
      }),
    ).to.equal(at('2026-01-01T00:02:00Z'));
    expect(
      getFinishedTime({
        ...base,
        status: {
          containerStatuses: [running],
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:01:00Z' }],
        },
      }),
    ).to.equal(at('2026-01-01T00:01:00Z'));
    expect(getFinishedTime({ ...base, status: { containerStatuses: [running] } })).to.equal(at('2026-01-01T00:00:00Z'));
  });

  it('W42 a deleted Job pod whose init container finished long ago is replaced after the full 10 s back-off', () => {
    // The app takes 20 s to stop: while it runs, the pod's finish time is its deletion (T+0), not the init container's end.
    const c = cluster({ behaviour: () => ({ sigterm: { kind: 'exits', afterMs: 20_000, exitCode: 0 } }) });
    createJob(c, 'pi', {
      template: { spec: { restartPolicy: 'Never', initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] } },
    });
    c.advance(60_000);
    const [first] = podsNow(c);
    expect(first.status?.initContainerStatuses?.[0]?.state?.terminated).to.not.equal(undefined);
    const t0 = c.clock.now();
    c.apiserver.delete(USER, 'pods', 'default', first.metadata.name!);
    const replaced = () => podsNow(c).some((p) => p.metadata.name !== first.metadata.name);
    c.advance(9_000);
    expect(replaced(), 'replaced before the back-off').to.equal(false);
    c.advance(2_000);
    expect(replaced(), 'replaced once the back-off passed').to.equal(true);
    expect(c.clock.now() - t0).to.equal(11_000);
  });

  it('W43 activeDeadlineSeconds: the active pods are deleted (finalizers kept, counted as failed), then Failed DeadlineExceeded once none terminates', () => {
    const c = cluster({ behaviour: () => ({ sigterm: { kind: 'exits', afterMs: 5000, exitCode: 0 } }) });
    createJob(c, 'sleepy', { activeDeadlineSeconds: 30 });
    c.advance(29_000);
    expect(conditions(job(c, 'sleepy'))).to.deep.equal([]);
    c.advance(2000);
    expect(podsNow(c)[0].metadata.deletionTimestamp).to.be.a('string');
    expect(conditions(job(c, 'sleepy'))).to.deep.equal(['FailureTarget:DeadlineExceeded']);
    c.advance(20_000);
    const j = job(c, 'sleepy');
    expect(conditions(j)).to.deep.equal(['FailureTarget:DeadlineExceeded', 'Failed:DeadlineExceeded']);
    expect(j.status).to.include({ failed: 1, active: 0, terminating: 0 });
    expect(podsNow(c)).to.deep.equal([]);
  });

  it('W44 podFailurePolicy: Ignore on DisruptionTarget does not count an evicted pod; FailJob on an exit code fails the Job at once (matchPodFailurePolicy)', () => {
    const policy = {
      rules: [
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        { action: 'FailJob', onExitCodes: { containerName: 'app', operator: 'In', values: [42] } },
      ],
    };
    const evicted: Pod = {
      metadata: { name: 'a', namespace: 'default' },
      status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    };
    expect(matchPodFailurePolicy(policy, evicted)).to.deep.equal({ countFailed: false, action: 'Ignore' });
    const crashed: Pod = {
      metadata: { name: 'b', namespace: 'default' },
      status: {
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'app',
            image: '',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 42 } },
          },
        ],
      },
    };
    expect(matchPodFailurePolicy(policy, crashed).failJobMessage).to.equal(
      'Container app for pod default/b failed with exit code 42 matching FailJob rule at index 1',
    );

    const c = cluster({ behaviour: (_p, i) => (i === 0 ? undefined : { exitsOnItsOwn: 42, runsForMs: 1000 }) });
    createJob(c, 'pfp', { backoffLimit: 0, podFailurePolicy: policy });
    c.advance(2000);
    const first = podsNow(c)[0];
    c.apiserver.evict(USER, 'default', first.metadata.name!, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: first.metadata.name },
    });
    c.advance(60_000);
    const j = job(c, 'pfp');
    expect(j.status?.failed ?? 0).to.equal(1);
    expect(conditions(j)).to.deep.equal(['FailureTarget:PodFailurePolicy', 'Failed:PodFailurePolicy']);
  });

  it('W45 podReplacementPolicy: TerminatingOrFailed replaces a deleted pod at once, Failed only once it has failed (status.terminating)', () => {
    for (const [policy, replacedBeforeGone] of [
      ['TerminatingOrFailed', true],
      ['Failed', false],
    ] as const) {
      const c = cluster({ behaviour: () => ({ sigterm: { kind: 'exits', afterMs: 20_000, exitCode: 1 } }) });
      createJob(c, 'web', { podReplacementPolicy: policy });
      c.advance(2000);
      const first = podsNow(c)[0].metadata.name!;
      c.apiserver.delete(USER, 'pods', 'default', first, {});
      // The deleted pod counts as a failure at once (TerminatingOrFailed) or once Failed: the back-off (10 s) applies either way.
      c.advance(12_000);
      expect(podsNow(c).length, policy).to.equal(replacedBeforeGone ? 2 : 1);
      expect(job(c, 'web').status?.terminating, policy).to.equal(1);
      c.advance(30_000);
      expect(podsNow(c).filter((p) => !p.metadata.deletionTimestamp).length, policy).to.equal(1);
    }
  });

  it('W46 with the job controller off, a finished pod keeps its job-tracking finalizer: deleted, it stays Terminating', () => {
    const c = cluster({ controllers: ['*', '-job-controller'] });
    const j = createJob(c, 'pi');
    const pod = c.apiserver.create(USER, 'pods', 'default', {
      metadata: {
        name: 'pi-manual',
        finalizers: [JOB_TRACKING_FINALIZER],
        labels: { 'batch.kubernetes.io/controller-uid': j.metadata.uid! },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: j.metadata.uid!, controller: true }],
      },
      spec: { restartPolicy: 'Never', containers: [{ name: 'app' }] },
    });
    expect(pod.ok).to.equal(true);
    c.advance(5000);
    c.apiserver.delete(USER, 'pods', 'default', 'pi-manual', {});
    c.advance(120_000);
    const [left] = podsNow(c);
    expect(left.metadata.finalizers).to.deep.equal([JOB_TRACKING_FINALIZER]);
    expect(left.status?.phase).to.equal('Failed');
  });

  it('W47 deleting a Job: batch/v1 orphans by default (the pods keep running and lose their finalizer); Background deletes them', () => {
    for (const policy of [undefined, 'Background'] as const) {
      const c = cluster();
      createJob(c, 'pi');
      c.advance(2000);
      c.apiserver.delete(USER, 'jobs', 'default', 'pi', policy ? { propagationPolicy: policy } : {});
      c.advance(60_000);
      const pods = podsNow(c);
      if (policy) expect(pods, 'Background').to.deep.equal([]);
      else {
        expect(pods).to.have.length(1);
        expect(pods[0].metadata.ownerReferences ?? []).to.deep.equal([]);
        expect(pods[0].metadata.finalizers ?? []).to.deep.equal([]);
        expect(pods[0].status?.phase).to.equal('Running');
      }
    }
  });

  it('W47 Foreground: the Job waits with foregroundDeletion while the collector deletes its pods and the job controller unfinalizes them', () => {
    const c = cluster({ behaviour: () => ({ sigterm: { kind: 'exits', afterMs: 10_000 } }) });
    createJob(c, 'pi');
    c.advance(2000);
    c.apiserver.delete(USER, 'jobs', 'default', 'pi', { propagationPolicy: 'Foreground' });
    c.advance(5000);
    expect(job(c, 'pi').metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    expect(podsNow(c)[0].metadata.deletionTimestamp).to.be.a('string');
    expect(podsNow(c)[0].metadata.finalizers ?? []).to.deep.equal([]);
    c.advance(30_000);
    expect(podsNow(c)).to.deep.equal([]);
    expect(c.apiserver.get('jobs', 'default', 'pi').ok).to.equal(false);
  });

  it('W48 R130 the apiserver refuses a Job whose template restarts Always (ValidateJob)', () => {
    const c = new Cluster();
    const r = c.apiserver.create(USER, 'jobs', 'default', {
      metadata: { name: 'bad' },
      spec: { template: { spec: { containers: [{ name: 'app' }] } } },
    });
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.status.message).to.contain('spec.template.spec.restartPolicy: Unsupported value: "Always"');
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../foundation/release';
import { podStatusStrategy, podStrategy, podStrategyFor, setPodDefaults } from './pod-strategy';
import type { DeleteOptions, Pod, PodSpec } from '../apimachinery/types';

/** A stored pod (no defaults applied unless the spec names them): scheduled to n1, Running. */
function pod(spec: Partial<PodSpec> = {}, phase = 'Running'): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', generation: 1 },
    spec: { nodeName: 'n1', containers: [{ name: 'app' }], ...spec },
    status: { phase },
  };
}

/** podStrategy.CheckGracefulDelete: the period it writes back into the options, and its answer. */
function grace(p: Pod, options: DeleteOptions = {}): { graceful: boolean; period: number | undefined } {
  const graceful = podStrategy.checkGracefulDelete!(p, options);
  return { graceful, period: options.gracePeriodSeconds };
}

describe('podStrategy.CheckGracefulDelete (§B: grace for a pod not yet terminating)', () => {
  it('R6 a grace period in the request wins over terminationGracePeriodSeconds', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }), { gracePeriodSeconds: 5 }).period).to.equal(5);
  });

  it('R6 a requested grace period may exceed terminationGracePeriodSeconds (no upper cap)', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }), { gracePeriodSeconds: 90 }).period).to.equal(90);
  });

  it('R6 without a requested grace period the spec grace is used', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 45 })).period).to.equal(45);
  });

  it('R6 a requested 0 is kept although the spec says 30', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }), { gracePeriodSeconds: 0 }).period).to.equal(0);
  });

  it('R6 nil spec grace and no requested grace give 0', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: undefined })).period).to.equal(0);
  });

  it('R6 pods created through the API get terminationGracePeriodSeconds 30 (SetDefaults_PodSpec)', () => {
    const p: Pod = { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } };
    setPodDefaults(p);
    expect(p.spec!.terminationGracePeriodSeconds).to.equal(30);
  });

  it('R7 an unscheduled pod gets 0, overriding both the request and the spec', () => {
    expect(
      grace(pod({ nodeName: undefined, terminationGracePeriodSeconds: 30 }), { gracePeriodSeconds: 10 }).period,
    ).to.equal(0);
    expect(grace(pod({ nodeName: '', terminationGracePeriodSeconds: 30 })).period).to.equal(0);
  });

  for (const phase of ['Succeeded', 'Failed']) {
    it(`R8 a ${phase} pod gets 0, overriding the request`, () => {
      expect(grace(pod({ terminationGracePeriodSeconds: 30 }, phase), { gracePeriodSeconds: 10 }).period).to.equal(0);
    });
  }

  it('R8 Pending and Running pods keep their grace', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }, 'Pending')).period).to.equal(30);
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }, 'Running')).period).to.equal(30);
  });

  it('R9 a negative spec grace on a scheduled, running pod becomes 1', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: -5 })).period).to.equal(1);
  });

  it('R9 the negative clamp comes last: negative spec grace on an unscheduled pod gives 0', () => {
    expect(grace(pod({ nodeName: undefined, terminationGracePeriodSeconds: -5 })).period).to.equal(0);
  });

  it('R9 the negative clamp comes last: negative spec grace on a Succeeded pod gives 0', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: -5 }, 'Succeeded')).period).to.equal(0);
  });

  it('R9 a negative requested grace reaching the strategy is clamped to 1 as well', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 30 }), { gracePeriodSeconds: -3 }).period).to.equal(1);
  });

  it('R10 the computed period is written back into the options, and a pod is always graceful, even at 0', () => {
    const options: DeleteOptions = {};
    expect(
      podStrategy.checkGracefulDelete!(pod({ nodeName: undefined, terminationGracePeriodSeconds: 30 }), options),
    ).to.equal(true);
    expect(options).to.deep.equal({ gracePeriodSeconds: 0 });
  });

  it('R11 a pod whose spec grace is 0 gets 0 from a DELETE that names no grace', () => {
    expect(grace(pod({ terminationGracePeriodSeconds: 0 }))).to.deep.equal({ graceful: true, period: 0 });
  });
});

describe('podStrategy create and update', () => {
  it('K58 a regular init container may not have lifecycle hooks (validateInitContainers); a sidecar may', () => {
    const withHook = (restartPolicy?: string): Pod => ({
      metadata: { name: 'web' },
      spec: {
        initContainers: [
          {
            name: 'setup',
            ...(restartPolicy ? { restartPolicy } : {}),
            lifecycle: { preStop: { exec: { command: ['true'] } } },
          },
        ],
        containers: [{ name: 'app' }],
      },
    });
    expect(podStrategy.validate(withHook())).to.deep.equal([
      {
        field: 'spec.initContainers[0].lifecycle',
        type: 'Forbidden',
        detail: 'may not be set for init containers without restartPolicy=Always',
      },
    ]);
    expect(podStrategy.validate(withHook('Always'))).to.deep.equal([]);
  });

  it('R12 V2 pods created through the API start at generation 1 (v1.33), whatever the client sent', () => {
    const p: Pod = { metadata: { name: 'web', generation: 7 }, spec: { containers: [{ name: 'app' }] } };
    podStrategy.prepareForCreate(p, 0);
    expect(p.metadata.generation).to.equal(1);
  });

  it('V2 up to v1.32 the pod strategy sets no generation and a spec change bumps none (kubernetes#130181 added them in v1.33)', () => {
    const v132 = podStrategyFor(Release.of(32));
    const p: Pod = { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } };
    v132.prepareForCreate(p, 0);
    expect(p.metadata.generation).to.equal(undefined);
    const old = pod({ terminationGracePeriodSeconds: 30 });
    delete old.metadata.generation;
    const specChange = pod({ terminationGracePeriodSeconds: 30, activeDeadlineSeconds: 10 });
    delete specChange.metadata.generation;
    v132.prepareForUpdate(specChange, old);
    expect(specChange.metadata.generation).to.equal(undefined);
  });

  it('prepareForCreate sets phase Pending when the client sends no status', () => {
    const p: Pod = { metadata: { name: 'web' }, spec: { containers: [{ name: 'app' }] } };
    podStrategy.prepareForCreate(p, 0);
    expect(p.status?.phase).to.equal('Pending');
  });

  it('updatePodGeneration: a spec change bumps the generation, a metadata change does not', () => {
    const old = pod({ terminationGracePeriodSeconds: 30 });
    const specChange = pod({ terminationGracePeriodSeconds: 30, activeDeadlineSeconds: 10 });
    podStrategy.prepareForUpdate(specChange, old);
    expect(specChange.metadata.generation).to.equal(2);
    const labelChange = pod({ terminationGracePeriodSeconds: 30 });
    labelChange.metadata.labels = { a: 'b' };
    podStrategy.prepareForUpdate(labelChange, old);
    expect(labelChange.metadata.generation).to.equal(1);
  });

  it('podStrategy.PrepareForUpdate keeps the stored status (status changes go through pods/status)', () => {
    const next = pod({}, 'Succeeded');
    podStrategy.prepareForUpdate(next, pod({}, 'Running'));
    expect(next.status?.phase).to.equal('Running');
  });

  it('R32 the pods/status strategy discards a submitted deletionTimestamp and keeps the stored spec', () => {
    const next = pod({ nodeName: 'elsewhere' }, 'Failed');
    next.metadata.deletionTimestamp = '2025-01-01T00:00:05Z';
    podStatusStrategy.prepareForUpdate(next, pod());
    expect(next.metadata.deletionTimestamp).to.equal(undefined);
    expect(next.spec?.nodeName).to.equal('n1');
    expect(next.status?.phase).to.equal('Failed');
  });

  it('pod validation rejects duplicate container names', () => {
    const errs = podStrategy.validate(pod({ containers: [{ name: 'app' }, { name: 'app' }] }));
    expect(errs.map((e) => e.detail)).to.deep.equal(['Duplicate value']);
  });
});

describe('V8 — dropPodLifecycleSleepAction: a sleep handler is dropped while PodLifecycleSleepAction is off (before v1.30)', () => {
  const withHooks = (): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      containers: [
        { name: 'app', image: 'nginx', lifecycle: { preStop: { sleep: { seconds: 5 } } } },
        {
          name: 'log',
          image: 'fluentd',
          lifecycle: { preStop: { sleep: { seconds: 5 }, exec: { command: ['drain'] } } },
        },
      ],
    },
  });

  it('v1.29: the sleep-only preStop is removed, a preStop with another handler keeps it; no error', () => {
    const pod = withHooks();
    podStrategyFor(Release.of(29)).prepareForCreate(pod, 0);
    expect(pod.spec!.containers.map((c) => c.lifecycle)).to.deep.equal([
      {},
      { preStop: { exec: { command: ['drain'] } } },
    ]);
    expect(podStrategyFor(Release.of(29)).validate(pod)).to.deep.equal([]);
  });

  it('v1.30 (beta on), and v1.29 with the gate enabled: the sleep action is kept', () => {
    for (const release of [Release.of(30), Release.of(29, { PodLifecycleSleepAction: true })]) {
      const pod = withHooks();
      podStrategyFor(release).prepareForCreate(pod, 0);
      expect(pod.spec!.containers[0].lifecycle).to.deep.equal({ preStop: { sleep: { seconds: 5 } } });
    }
  });

  it('v1.29: an update keeps a sleep action the stored pod already has (podLifecycleSleepActionInUse)', () => {
    const old = withHooks();
    const next = withHooks();
    podStrategyFor(Release.of(29)).prepareForUpdate(next, old);
    expect(next.spec!.containers[0].lifecycle).to.deep.equal({ preStop: { sleep: { seconds: 5 } } });
  });
});

describe("V11 — validateSleepAction: a sleep handler's seconds within the grace period; 0 only with PodLifecycleSleepActionAllowZero", () => {
  const created = (release: Release, seconds: number, extra: Partial<Pod['spec']> = {}): Pod => {
    const p: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', lifecycle: { preStop: { sleep: { seconds } } } }], ...extra },
    };
    podStrategyFor(release).prepareForCreate(p, 0);
    return p;
  };
  const problems = (release: Release, seconds: number, extra: Partial<Pod['spec']> = {}) =>
    podStrategyFor(release)
      .validate(created(release, seconds, extra))
      .map((e) => `${e.field}: ${e.value}: ${e.detail}`);
  const OLD = 'must be greater than 0 and less than terminationGracePeriodSeconds (30)';
  const NAMED = `${OLD}. Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`;
  const ZERO_OK = 'must be non-negative and less than terminationGracePeriodSeconds (30)';

  it('v1.30–v1.31: 1 … grace accepted (equal too); 0 and more than the grace refused with the first wording', () => {
    expect(problems(Release.of(30), 30)).to.deep.equal([]);
    expect(problems(Release.of(30), 1)).to.deep.equal([]);
    expect(problems(Release.of(30), 31)).to.deep.equal([`spec.containers[0].lifecycle.preStop.sleep: 31: ${OLD}`]);
    expect(problems(Release.of(31), 0)).to.deep.equal([`spec.containers[0].lifecycle.preStop.sleep: 0: ${OLD}`]);
  });

  it('v1.32 (AllowZero alpha, off): the refusal names the gate (#127094); enabling it accepts 0', () => {
    expect(problems(Release.of(32), 0)).to.deep.equal([`spec.containers[0].lifecycle.preStop.sleep: 0: ${NAMED}`]);
    expect(problems(Release.of(32), 60)).to.deep.equal([`spec.containers[0].lifecycle.preStop.sleep: 60: ${NAMED}`]);
    expect(problems(Release.of(32, { PodLifecycleSleepActionAllowZero: true }), 0)).to.deep.equal([]);
  });

  it('v1.33 (β on) and v1.34 (GA): 0 accepted; negative or over the grace refused with the non-negative wording', () => {
    expect(problems(Release.of(33), 0)).to.deep.equal([]);
    expect(problems(Release.of(34), 0)).to.deep.equal([]);
    expect(problems(Release.of(34), -1)).to.deep.equal([`spec.containers[0].lifecycle.preStop.sleep: -1: ${ZERO_OK}`]);
    expect(problems(Release.of(33, { PodLifecycleSleepActionAllowZero: false }), 0)).to.deep.equal([
      `spec.containers[0].lifecycle.preStop.sleep: 0: ${NAMED}`,
    ]);
  });

  it("the grace is the pod's own; postStart and restartable init containers are checked too", () => {
    expect(problems(Release.of(33), 45, { terminationGracePeriodSeconds: 60 })).to.deep.equal([]);
    const p: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: {
        terminationGracePeriodSeconds: 10,
        initContainers: [
          { name: 'proxy', restartPolicy: 'Always', lifecycle: { preStop: { sleep: { seconds: 11 } } } },
        ],
        containers: [
          { name: 'app', lifecycle: { postStart: { sleep: { seconds: 12 } }, preStop: { sleep: { seconds: 13 } } } },
        ],
      },
    };
    podStrategyFor(Release.of(33)).prepareForCreate(p, 0);
    expect(
      podStrategyFor(Release.of(33))
        .validate(p)
        .map((e) => e.field),
    ).to.deep.equal([
      'spec.containers[0].lifecycle.postStart.sleep',
      'spec.containers[0].lifecycle.preStop.sleep',
      'spec.initContainers[0].lifecycle.preStop.sleep',
    ]);
  });

  it('v1.29 with PodLifecycleSleepAction off: the handler is dropped before validation, so nothing is refused', () => {
    expect(problems(Release.of(29), 60)).to.deep.equal([]);
    expect(problems(Release.of(29, { PodLifecycleSleepAction: true }), 60)).to.deep.equal([
      `spec.containers[0].lifecycle.preStop.sleep: 60: ${OLD}`,
    ]);
  });
});

describe('activeDeadlineSeconds validation (validation.go ValidatePodSpec, ValidatePodUpdate)', () => {
  const messages = (errs: { field: string; type: string; value?: unknown; detail?: string }[]) =>
    errs.map((e) => `${e.field}: ${e.type}: ${JSON.stringify(e.value)}: ${e.detail}`);

  it('K70 on create it is between 1 and 2147483647', () => {
    expect(messages(podStrategy.validate!(pod({ activeDeadlineSeconds: 0 })))).to.deep.equal([
      'spec.activeDeadlineSeconds: Invalid: 0: must be between 1 and 2147483647, inclusive',
    ]);
    expect(podStrategy.validate!(pod({ activeDeadlineSeconds: 1 }))).to.deep.equal([]);
  });

  it('K70 an update may set or lower it, never raise or remove it', () => {
    expect(podStrategy.validateUpdate!(pod({ activeDeadlineSeconds: 10 }), pod())).to.deep.equal([]);
    expect(
      podStrategy.validateUpdate!(pod({ activeDeadlineSeconds: 5 }), pod({ activeDeadlineSeconds: 10 })),
    ).to.deep.equal([]);
    expect(
      messages(podStrategy.validateUpdate!(pod({ activeDeadlineSeconds: 20 }), pod({ activeDeadlineSeconds: 10 }))),
    ).to.deep.equal(['spec.activeDeadlineSeconds: Invalid: 20: must be less than or equal to previous value']);
    expect(messages(podStrategy.validateUpdate!(pod(), pod({ activeDeadlineSeconds: 10 })))).to.deep.equal([
      'spec.activeDeadlineSeconds: Invalid: null: must not update from a positive integer to nil value',
    ]);
  });
});

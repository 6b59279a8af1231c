import { describe, it } from 'node:test';
import { expect } from 'chai';
import { join } from 'node:path';
import { KUBECTL } from '../../cluster/cluster';
import { ClusterPlan } from '../../planning/cluster-plan';
import { Release } from '../../foundation/release';
import { readDumpFiles, type Dump } from '../../planning/restore/dump';
import { explainDump } from './explain';

const GALLERY = join(__dirname, '..', '..', '..', 'examples', 'stuck');
const dumpOf = (file: string): Dump => readDumpFiles([join(GALLERY, file)]);
const POD = 'nightly-export-29153280-8mzrq';

/** The gallery's webhook dump with matchConditions on its webhook. */
function webhookDump(conditions: { name: string; expression: string }[]): Dump {
  const dump = dumpOf('webhook.yaml');
  const config = dump.objects.find((o) => o.kind === 'ValidatingWebhookConfiguration')!;
  (config.obj.webhooks as Record<string, unknown>[])[0].matchConditions = conditions;
  return dump;
}

describe('X13 explain: admission that denies the UPDATE releasing a pod (src/frontends/explain/admission.ts)', () => {
  it('a ValidatingAdmissionPolicy that denies the finalizer removal: policy, binding, validation and upstream message, and the remedies', () => {
    const pod = explainDump(dumpOf('admission-policy.yaml')).explanation.pods[0];
    expect([pod.stuck, pod.causes.map((c) => c.cause)]).to.deep.equal([true, ['finalizer', 'policy']]);
    const policy = pod.causes[1];
    expect(policy.detail).to.equal(
      `ValidatingAdmissionPolicy require-cost-center (binding require-cost-center-all, validationActions Deny) denies the UPDATE that removes finalizer batch.kubernetes.io/job-tracking: pods "${POD}" is forbidden: ValidatingAdmissionPolicy 'require-cost-center' with binding 'require-cost-center-all' denied request: every pod needs a cost-center label`,
    );
    // The Job controller tried during the run, and kept being denied (reason Invalid: 422).
    expect(policy.next).to.match(
      /^the removal is refused with 422 \(tried as job-controller, a dry run\); during the run it was denied \d+ times;/,
    );
    expect(policy.remedies[0].action).to.include(
      "its validation has(object.metadata.labels) && 'cost-center' in object.metadata.labels",
    );
    expect(policy.remedies.map((r) => r.command)).to.deep.equal([
      'kubectl edit validatingadmissionpolicy require-cost-center',
      `kubectl patch validatingadmissionpolicybinding require-cost-center-all --type=merge -p '{"spec":{"validationActions":["Warn"]}}'`,
      'kubectl delete validatingadmissionpolicybinding require-cost-center-all',
    ]);
  });

  it('each remedy releases the pod when applied to the resumed cluster: the suggested matchCondition, Warn, deleting the binding', () => {
    const remedies: [string, (run: ReturnType<typeof explainDump>) => { ok: boolean }][] = [
      [
        'matchCondition',
        (r) =>
          r.plan.cluster.apiserver.patch(
            KUBECTL,
            'validatingadmissionpolicies',
            undefined,
            'require-cost-center',
            'merge',
            {
              spec: {
                matchConditions: [{ name: 'not-deleting', expression: '!has(object.metadata.deletionTimestamp)' }],
              },
            },
          ),
      ],
      [
        'Warn',
        (r) =>
          r.plan.cluster.apiserver.patch(
            KUBECTL,
            'validatingadmissionpolicybindings',
            undefined,
            'require-cost-center-all',
            'merge',
            { spec: { validationActions: ['Warn'] } },
          ),
      ],
      [
        'delete',
        (r) =>
          r.plan.cluster.apiserver.delete(
            KUBECTL,
            'validatingadmissionpolicybindings',
            undefined,
            'require-cost-center-all',
          ),
      ],
    ];
    for (const [what, apply] of remedies) {
      const run = explainDump(dumpOf('admission-policy.yaml'), { horizonMs: 60_000 });
      expect(apply(run).ok, what).to.equal(true);
      const cluster = run.plan.cluster;
      const gone = () => !cluster.apiserver.get('pods', 'batch', POD).ok;
      cluster.runUntil(gone, cluster.clock.now() + 10 * 60_000);
      expect(gone(), what).to.equal(true);
    }
  });

  it('before 1.30 (no admissionregistration.k8s.io/v1 policies) the policy is left out as not modelled, and the Job controller releases the pod', () => {
    const e = explainDump(dumpOf('admission-policy.yaml'), { release: Release.of(29) }).explanation;
    expect(
      e.assumptions.some((a) => a.startsWith('ValidatingAdmissionPolicy require-cost-center is not modelled')),
    ).to.equal(true);
    expect(e.pods[0].causes.map((c) => c.cause)).to.deep.equal(['nothing']);
  });

  it('the release decides when the cluster is built: a release given after the objects leaves the policies out too', () => {
    const plan = new ClusterPlan(Release.of(33));
    plan.objects(dumpOf('admission-policy.yaml'));
    plan.kubernetes(29);
    plan.start();
    expect(plan.restoredObjects!.unmodelled.map((o) => o.kind)).to.deep.equal([
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(plan.cluster.apiserver.policies.has()).to.equal(false);
  });

  it("a webhook's matchConditions, evaluated on the finalizer removal as its holder sends it: the false condition is named, and then the webhook holds nothing", () => {
    const skipped = explainDump(
      webhookDump([{ name: 'not-terminating', expression: '!has(object.metadata.deletionTimestamp)' }]),
    ).explanation.pods[0].causes;
    expect(skipped.map((c) => c.cause)).to.deep.equal(['finalizer', 'webhook']);
    expect(skipped[1].detail).to.equal(
      'ValidatingWebhookConfiguration policy.example.com intercepts UPDATE of pods, but not this one; for the UPDATE kubectl sends to remove finalizer mail.example.com/flush: webhook pods.policy.example.com is not called: its matchCondition not-terminating (!has(object.metadata.deletionTimestamp)) is false for it',
    );
    expect(skipped[1].remedies).to.deep.equal([]);

    const called = explainDump(
      webhookDump([
        { name: 'by-kubectl', expression: "request.userInfo.username == 'kubectl'" },
        { name: 'pods', expression: "object.kind == 'Pod'" },
      ]),
    ).explanation.pods[0].causes[1];
    expect(called.detail).to.include(
      'webhook pods.policy.example.com is called: its matchConditions by-kubectl, pods all hold for it',
    );
    expect(called.remedies[0].command).to.include('--dry-run=server');

    const erring = explainDump(webhookDump([{ name: 'label', expression: "object.metadata.labels['team'] == 'mail'" }]))
      .explanation.pods[0].causes[1];
    expect(erring.detail).to.include(
      "its matchConditions fail to evaluate (expression 'object.metadata.labels['team'] == 'mail'' resulted in error: no such key: team) and, with failurePolicy Fail, the UPDATE fails without calling it",
    );
  });
});

import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DEFAULT_RELEASE, Release } from '../../foundation/release';
import { apiCreatePod, failure, newSim, NS, ok, USER, type Sim } from '../testing';
import type { ValidatingWebhookConfiguration } from '../../apimachinery/types';
import type { AdmissionReview, WebhookOutcome } from './caller';
import { validateWebhooks, type Webhook } from './configuration';
import type { MatchCondition } from './match-conditions';

const NOT_KUBELET: MatchCondition = {
  name: 'not-kubelet',
  expression: "request.userInfo.username != 'system:node:node-1'",
};

const hook = (matchConditions: MatchCondition[], o: Partial<Webhook> = {}): Webhook => ({
  name: 'guard.example.com',
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  clientConfig: { url: 'https://127.0.0.1:9443/validate' },
  rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  matchConditions,
  ...o,
});
const config = (h: Webhook, name = 'guard'): ValidatingWebhookConfiguration => ({ metadata: { name }, webhooks: [h] });
const messages = (conditions: MatchCondition[], release = DEFAULT_RELEASE) =>
  validateWebhooks(config(hook(conditions)), false, release).map((e) => `${e.field}: ${e.type}: ${e.detail}`);

/** A sim with one validating webhook that denies what it is asked, and the reviews it got. */
function denying(h: Webhook, release = DEFAULT_RELEASE): { sim: Sim; calls: AdmissionReview[] } {
  const sim = newSim(release);
  const calls: AdmissionReview[] = [];
  sim.api.webhookCaller = {
    call: (_hook, review): WebhookOutcome => {
      calls.push(review);
      return {
        response: {
          uid: review.request.uid,
          allowed: false,
          status: { code: 403, reason: 'Forbidden', message: 'updates are frozen' },
        },
      };
    },
  };
  apiCreatePod(sim, 'web');
  ok(sim.api.create(USER, 'validatingwebhookconfigurations', undefined, config(h)));
  return { sim, calls };
}
const label = (sim: Sim, client = USER) =>
  sim.api.patch(client, 'pods', NS, 'web', 'merge', { metadata: { labels: { touched: 'yes' } } });
const texts = (sim: Sim) => sim.timeline.all().map((e) => e.text);

describe('webhook matchConditions (R208; validation.go validateMatchConditions, matchconditions/matcher.go)', () => {
  it("validates at most 64 conditions, qualified unique names, expressions that compile to bool, in upstream's words", () => {
    expect(messages([NOT_KUBELET])).to.deep.equal([]);
    expect(
      messages([
        { name: 'a b', expression: 'true' },
        { name: 'x', expression: '' },
        { name: 'x', expression: 'object.metadata.name' },
        { name: '', expression: 'request.nope' },
      ]),
    ).to.deep.equal([
      "webhooks[0].matchConditions[0].name: Invalid: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'webhooks[0].matchConditions[1].expression: Required value: ',
      'webhooks[0].matchConditions[2].expression: Invalid: must evaluate to bool but got dyn',
      'webhooks[0].matchConditions[2].name: Duplicate value: ',
      "webhooks[0].matchConditions[3].expression: Invalid: compilation failed: ERROR: <input>:1:9: undefined field 'nope'\n | request.nope\n | ........^",
      'webhooks[0].matchConditions[3].name: Required value: ',
    ]);
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(messages(many)).to.deep.equal(['webhooks[0].matchConditions: Too many: must have at most 64 items']);
  });

  it('a 422 names the field as kube-apiserver does', () => {
    const sim = newSim();
    const status = failure(
      sim.api.create(
        USER,
        'validatingwebhookconfigurations',
        undefined,
        config(
          hook([
            { name: 'x', expression: "object.metadata.name == 'web'" },
            { name: 'x', expression: 'true' },
          ]),
        ),
      ),
      422,
      'Invalid',
    );
    expect(status.message).to.equal(
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io "guard" is invalid: webhooks[0].matchConditions[1].name: Duplicate value: "x"',
    );
  });

  it('all true: the webhook is called; one false: it is skipped, an event says which condition', () => {
    const { sim, calls } = denying(hook([{ name: 'always', expression: 'true' }, NOT_KUBELET]));
    expect(failure(label(sim), 403, 'Forbidden').message).to.equal(
      'admission webhook "guard.example.com" denied the request: updates are frozen',
    );
    expect(calls).to.have.length(1);
    ok(label(sim, { name: 'system:node:node-1', component: 'kubelet' }));
    expect(calls).to.have.length(1);
    expect(texts(sim)).to.include(
      'webhook guard.example.com skipped UPDATE pods/web: matchCondition "not-kubelet" is false',
    );
  });

  it('a false condition skips the webhook even when another errs; an error with no false condition is a 403 under Fail and a skip under Ignore', () => {
    const erring = { name: 'erring', expression: "object.spec.priorityClassName == 'critical'" };
    const skipped = denying(hook([erring, { name: 'never', expression: 'false' }]));
    ok(label(skipped.sim));
    expect(skipped.calls).to.have.length(0);

    const failing = denying(hook([erring, { name: 'always', expression: 'true' }]));
    const status = failure(label(failing.sim), 403, 'Forbidden');
    expect(status.message).to.equal(
      "pods \"web\" is forbidden: expression 'object.spec.priorityClassName == 'critical'' resulted in error: no such key: priorityClassName",
    );
    expect(failing.calls).to.have.length(0);

    const ignoring = denying(hook([erring], { failurePolicy: 'Ignore' }));
    ok(label(ignoring.sim));
    expect(ignoring.calls).to.have.length(0);
    expect(texts(ignoring.sim)).to.include(
      "webhook guard.example.com skipped UPDATE pods/web: expression 'object.spec.priorityClassName == 'critical'' resulted in error: no such key: priorityClassName (failurePolicy Ignore)",
    );
  });

  it('sees object, oldObject, request and the authorizer; a DELETE has a null object', () => {
    const { sim, calls } = denying(
      hook(
        [
          {
            name: 'finalizer-removal',
            expression:
              "request.operation == 'DELETE' ? object == null && oldObject.metadata.name == 'web' : has(oldObject.metadata.labels) == false && authorizer.requestResource.check('update').allowed()",
          },
        ],
        {
          rules: [{ operations: ['UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        },
      ),
    );
    failure(label(sim), 403, 'Forbidden');
    failure(sim.api.delete(USER, 'pods', NS, 'web'), 403, 'Forbidden');
    expect(calls.map((c) => c.request.operation)).to.deep.equal(['UPDATE', 'DELETE']);
  });

  it('before 1.28 (the gate off; 1.26 has no field) conditions are dropped on write, and the webhook is called for everything', () => {
    const { sim, calls } = denying(hook([NOT_KUBELET]), Release.of(27));
    expect(
      ok(sim.api.get('validatingwebhookconfigurations', undefined, 'guard')).webhooks![0].matchConditions,
    ).to.deep.equal([]);
    failure(label(sim, { name: 'system:node:node-1', component: 'kubelet' }), 403, 'Forbidden');
    expect(calls).to.have.length(1);
    // With the gate on, 1.27 takes conditions; namespaceObject is a variable only from 1.28.
    const alpha = Release.of(27, { AdmissionWebhookMatchConditions: true });
    expect(messages([{ name: 'ns', expression: 'namespaceObject == null' }], alpha)).to.deep.equal([
      "webhooks[0].matchConditions[0].expression: Invalid: compilation failed: ERROR: <input>:1:1: undeclared reference to 'namespaceObject' (in container '')\n | namespaceObject == null\n | ^",
    ]);
    expect(messages([{ name: 'ns', expression: 'namespaceObject == null' }], Release.of(28))).to.deep.equal([]);
  });

  it("a mutating webhook's conditions see the object as the webhooks before it left it", () => {
    const sim = newSim();
    const called: string[] = [];
    sim.api.webhookCaller = {
      call: (h, review): WebhookOutcome => {
        called.push(h.name);
        if (h.name !== 'labeller.example.com') return { response: { uid: review.request.uid, allowed: true } };
        const patch = Buffer.from(
          JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { injected: 'yes' } }]),
        ).toString('base64');
        return { response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch } };
      },
    };
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
    const mutatingHook = (name: string, matchConditions: MatchCondition[]) => ({
      ...hook(matchConditions, { name, rules }),
      reinvocationPolicy: 'Never',
    });
    ok(
      sim.api.create(USER, 'mutatingwebhookconfigurations', undefined, {
        metadata: { name: 'a-labeller' },
        webhooks: [mutatingHook('labeller.example.com', [])],
      }),
    );
    ok(
      sim.api.create(USER, 'mutatingwebhookconfigurations', undefined, {
        metadata: { name: 'b-follower' },
        webhooks: [
          mutatingHook('follower.example.com', [
            { name: 'injected', expression: "'injected' in object.metadata.?labels.orValue({})" },
          ]),
        ],
      }),
    );
    apiCreatePod(sim, 'web');
    expect(called).to.deep.equal(['labeller.example.com', 'follower.example.com']);
  });
});

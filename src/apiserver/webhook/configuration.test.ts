import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DEFAULT_RELEASE } from '../../foundation/release';
import { failure, newSim, ok, USER } from '../testing';
import type { ValidatingWebhookConfiguration } from '../../apimachinery/types';
import { defaultWebhooks, validateWebhooks, type Webhook } from './configuration';

const hook = (o: Partial<Webhook> = {}): Webhook => ({
  name: 'guard.example.com',
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  clientConfig: { url: 'https://127.0.0.1:8443/validate' },
  rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...o,
});
const config = (...webhooks: Webhook[]): ValidatingWebhookConfiguration => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'guard' },
  webhooks,
});
const messages = (...webhooks: Webhook[]) =>
  validateWebhooks(config(...webhooks), false, DEFAULT_RELEASE).map((e) => `${e.field}: ${e.type}: ${e.detail}`);

describe('webhook configurations: defaults and validation (R201; admissionregistration v1 defaults.go, validation.go)', () => {
  it('defaults failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeoutSeconds 10, scope *, port 443, reinvocationPolicy Never for mutating webhooks', () => {
    const c = config(hook({ clientConfig: { service: { namespace: 'default', name: 'guard' } } }));
    defaultWebhooks(c, true);
    const h = c.webhooks![0] as Webhook;
    expect(h).to.include({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
    });
    expect(h.namespaceSelector).to.deep.equal({});
    expect(h.rules![0].scope).to.equal('*');
    expect(h.clientConfig!.service!.port).to.equal(443);
  });

  it('accepts a complete webhook', () => {
    expect(messages(hook())).to.deep.equal([]);
  });

  it('names each missing or unsupported field as upstream does', () => {
    expect(
      messages(
        hook({
          name: 'guard',
          sideEffects: 'Some',
          timeoutSeconds: 31,
          failurePolicy: 'Maybe',
          admissionReviewVersions: ['v2'],
        }),
      ),
    ).to.deep.equal([
      'webhooks[0].name: Invalid: should be a domain with at least three segments separated by dots',
      'webhooks[0].admissionReviewVersions: Invalid: must include at least one of v1, v1beta1',
      'webhooks[0].failurePolicy: Unsupported value: supported values: "Fail", "Ignore"',
      'webhooks[0].sideEffects: Unsupported value: supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid: the timeout value must be between 1 and 30 seconds',
    ]);
    expect(messages(hook({ clientConfig: { url: 'http://127.0.0.1/x' } }))).to.deep.equal([
      "webhooks[0].clientConfig.url: Invalid: 'https' is the only allowed URL scheme",
    ]);
    expect(messages(hook({ clientConfig: {} }))).to.deep.equal([
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(
      messages(hook({ rules: [{ operations: ['PATCH'], apiGroups: [], apiVersions: ['v1'], resources: ['pods'] }] })),
    ).to.deep.equal([
      'webhooks[0].rules[0].operations[0]: Unsupported value: supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].rules[0].apiGroups: Required value: ',
    ]);
  });

  it('the apiserver stores a configuration with its defaults and answers a bad one with 422 Invalid', () => {
    const sim = newSim();
    const created = ok(sim.api.create(USER, 'validatingwebhookconfigurations', undefined, config(hook())));
    expect(created.webhooks![0]).to.include({ failurePolicy: 'Fail', timeoutSeconds: 10 });
    const bad = failure(
      sim.api.create(USER, 'validatingwebhookconfigurations', undefined, {
        ...config(hook({ sideEffects: undefined })),
        metadata: { name: 'bad' },
      }),
      422,
      'Invalid',
    );
    expect(bad.message).to.equal(
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    );
  });
});

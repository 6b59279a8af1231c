import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Webhook } from './configuration';
import { ruleMatches, shouldCallHook, type AdmissionAttributes } from './matching';

const attrs = (o: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'UPDATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespaced: true,
  namespace: 'default',
  name: 'web',
  dryRun: false,
  ...o,
});
const rule = (resources: string[], operations = ['UPDATE'], scope?: string) => ({
  operations,
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
  ...(scope ? { scope } : {}),
});

describe('webhook rules and selectors (R202; rules/rules.go, namespace and object matchers)', () => {
  it('matches resources and subresources as rules.go does', () => {
    expect(ruleMatches(rule(['pods']), attrs())).to.equal(true);
    expect(ruleMatches(rule(['pods']), attrs({ subresource: 'status' }))).to.equal(false);
    expect(ruleMatches(rule(['pods/status']), attrs({ subresource: 'status' }))).to.equal(true);
    expect(ruleMatches(rule(['pods/*']), attrs({ subresource: 'eviction' }))).to.equal(true);
    expect(ruleMatches(rule(['pods/*']), attrs())).to.equal(true);
    expect(ruleMatches(rule(['*']), attrs({ resource: 'nodes' }))).to.equal(true);
    expect(ruleMatches(rule(['*/*']), attrs({ subresource: 'status' }))).to.equal(true);
    expect(ruleMatches(rule(['*/status']), attrs({ subresource: 'status' }))).to.equal(true);
  });

  it('matches operations (* is every one) and scope', () => {
    expect(ruleMatches(rule(['pods'], ['CREATE']), attrs())).to.equal(false);
    expect(ruleMatches(rule(['pods'], ['*']), attrs({ operation: 'DELETE' }))).to.equal(true);
    expect(ruleMatches(rule(['*'], ['*'], 'Cluster'), attrs())).to.equal(false);
    expect(ruleMatches(rule(['*'], ['*'], 'Namespaced'), attrs({ resource: 'nodes', namespaced: false }))).to.equal(
      false,
    );
  });

  it('namespaceSelector reads the namespace labels (cluster-scoped objects always match); objectSelector the new or old object', () => {
    const hook: Webhook = {
      name: 'a.b.c',
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      clientConfig: {},
      rules: [rule(['*'])],
      namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      objectSelector: { matchLabels: { app: 'web' } },
    };
    const labelled = { metadata: { labels: { app: 'web' } } };
    const prod = () => ({ env: 'prod' });
    expect(shouldCallHook(hook, attrs(), labelled, undefined, prod)).to.equal(true);
    expect(shouldCallHook(hook, attrs(), labelled, undefined, () => ({ env: 'dev' }))).to.equal(false);
    expect(
      shouldCallHook(
        hook,
        attrs({ resource: 'nodes', namespaced: false, namespace: undefined }),
        labelled,
        undefined,
        () => undefined,
      ),
    ).to.equal(true);
    expect(shouldCallHook(hook, attrs(), { metadata: {} }, labelled, prod)).to.equal(true);
    expect(shouldCallHook(hook, attrs({ operation: 'DELETE' }), undefined, { metadata: {} }, prod)).to.equal(false);
  });
});

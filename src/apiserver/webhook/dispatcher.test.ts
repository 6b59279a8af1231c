import { describe, it } from 'node:test';
import { expect } from 'chai';
import { apiCreatePod, failure, newSim, NS, ok, USER, type Sim } from '../testing';
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../apimachinery/types';
import { WebhookCallPending, type AdmissionReview, type AdmissionResponse, type WebhookOutcome } from './caller';
import type { Webhook } from './configuration';

type Server = (review: AdmissionReview) => WebhookOutcome;

/** A sim whose webhooks are answered by `servers` (by webhook name), with the reviews they got. */
function withWebhooks(servers: Record<string, Server>): {
  sim: Sim;
  reviews: { hook: string; review: AdmissionReview }[];
} {
  const sim = newSim();
  const reviews: { hook: string; review: AdmissionReview }[] = [];
  sim.api.webhookCaller = {
    call: (hook, review) => {
      reviews.push({ hook: hook.name, review });
      return servers[hook.name](review);
    },
  };
  return { sim, reviews };
}

const hook = (name: string, o: Partial<Webhook> = {}): Webhook => ({
  name,
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  clientConfig: { url: 'https://127.0.0.1:9443/hook' },
  rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...o,
});

function validating(sim: Sim, name: string, ...webhooks: Webhook[]): void {
  const c: ValidatingWebhookConfiguration = { metadata: { name }, webhooks };
  ok(sim.api.create(USER, 'validatingwebhookconfigurations', undefined, c));
}

function mutating(sim: Sim, name: string, ...webhooks: Webhook[]): void {
  const c: MutatingWebhookConfiguration = { metadata: { name }, webhooks };
  ok(sim.api.create(USER, 'mutatingwebhookconfigurations', undefined, c));
}

const allow = (r: AdmissionReview): WebhookOutcome => ({ response: { uid: r.request.uid, allowed: true } });
const patch =
  (ops: object[]) =>
  (r: AdmissionReview): WebhookOutcome => ({
    response: {
      uid: r.request.uid,
      allowed: true,
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
    },
  });
const respond =
  (response: Partial<AdmissionResponse>) =>
  (r: AdmissionReview): WebhookOutcome => ({ response: { uid: r.request.uid, ...response } });

describe('webhook admission in the request path (R203, R204, R205; mutating/dispatcher.go, validating/dispatcher.go)', () => {
  it("sends an AdmissionReview v1 with the old and new object, options and user; a denial is upstream's text with the webhook's code and reason", () => {
    const { sim, reviews } = withWebhooks({
      'deny.example.com': respond({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no' } }),
    });
    apiCreatePod(sim, 'web', { metadata: { finalizers: ['example.com/x'] } });
    validating(
      sim,
      'deny',
      hook('deny.example.com', {
        rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      }),
    );
    const status = failure(
      sim.api.patch(USER, 'pods', NS, 'web', 'json', [{ op: 'remove', path: '/metadata/finalizers/0' }]),
      403,
      'Forbidden',
    );
    expect(status.message).to.equal('admission webhook "deny.example.com" denied the request: no');
    const { request } = reviews[0].review;
    expect(request).to.include({ operation: 'UPDATE', name: 'web', namespace: NS, dryRun: false });
    expect(request.kind).to.deep.equal({ group: '', version: 'v1', kind: 'Pod' });
    expect(request.resource).to.deep.equal({ group: '', version: 'v1', resource: 'pods' });
    expect(request.oldObject?.metadata.finalizers).to.deep.equal(['example.com/x']);
    expect(request.object?.metadata.finalizers).to.deep.equal([]);
    expect(request.options).to.deep.equal({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
    expect(request.userInfo).to.deep.equal({ username: 'user' });
    expect(sim.timeline.all().map((e) => e.text)).to.include('webhook deny.example.com denied UPDATE pods/web: no');
  });

  it('a denial without a message or code is a 400 "without explanation"; a subresource is judged only by rules naming it', () => {
    const { sim, reviews } = withWebhooks({ 'deny.example.com': respond({ allowed: false }) });
    apiCreatePod(sim);
    validating(sim, 'deny', hook('deny.example.com'));
    const status = failure(
      sim.api.patch(USER, 'pods', NS, 'web', 'merge', { metadata: { labels: { a: 'b' } } }),
      400,
      '',
    );
    expect(status.message).to.equal('admission webhook "deny.example.com" denied the request without explanation');
    ok(sim.api.patch(USER, 'pods', NS, 'web', 'merge', { status: { message: 'x' } }, { subresource: 'status' }));
    expect(reviews).to.have.length(1);
  });

  it('DELETE: validating webhooks see the object being deleted as oldObject, with the DeleteOptions', () => {
    const { sim, reviews } = withWebhooks({
      'deny.example.com': respond({ allowed: false, status: { message: 'keep it' } }),
    });
    apiCreatePod(sim);
    validating(sim, 'deny', hook('deny.example.com'));
    failure(sim.api.delete(USER, 'pods', NS, 'web', { gracePeriodSeconds: 5 }), 400, '');
    const { request } = reviews[0].review;
    expect(request.operation).to.equal('DELETE');
    expect(request.object).to.equal(null);
    expect(request.oldObject?.metadata.name).to.equal('web');
    expect(request.options).to.deep.equal({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 5,
    });
  });

  it('failurePolicy: Fail answers 500 InternalError naming the webhook; Ignore lets the request on', () => {
    const down: Server = () => ({
      callError: 'Post "https://127.0.0.1:9443/hook?timeout=10s": dial tcp 127.0.0.1:9443: connect: connection refused',
    });
    const { sim } = withWebhooks({ 'fail.example.com': down, 'ignore.example.com': down });
    validating(sim, 'ignore', hook('ignore.example.com', { failurePolicy: 'Ignore' }));
    apiCreatePod(sim, 'a');
    validating(sim, 'fail', hook('fail.example.com'));
    const status = failure(
      sim.api.create(USER, 'pods', NS, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
      500,
      'InternalError',
    );
    expect(status.message).to.equal(
      'Internal error occurred: failed calling webhook "fail.example.com": failed to call webhook: Post "https://127.0.0.1:9443/hook?timeout=10s": dial tcp 127.0.0.1:9443: connect: connection refused',
    );
    expect(status.details?.causes).to.deep.equal([
      { message: status.message.replace('Internal error occurred: ', '') },
    ]);
  });

  it('an answer for another uid, or a validating webhook returning a patch, is an invalid response', () => {
    const { sim } = withWebhooks({ 'uid.example.com': () => ({ response: { uid: 'other', allowed: true } }) });
    validating(sim, 'uid', hook('uid.example.com'));
    const status = failure(
      sim.api.create(USER, 'pods', NS, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
      500,
      'InternalError',
    );
    expect(status.message).to.match(
      /^Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "other"$/,
    );
  });

  it('mutating webhooks patch the object in configuration order before the strategy; IfNeeded reinvokes one that ran before a later change', () => {
    const { sim, reviews } = withWebhooks({
      'a.example.com': (r) =>
        r.request.object?.metadata.labels?.b
          ? allow(r)
          : patch([{ op: 'add', path: '/metadata/labels', value: { a: 'yes' } }])(r),
      'b.example.com': patch([{ op: 'add', path: '/metadata/labels/b', value: 'yes' }]),
    });
    mutating(
      sim,
      'b',
      hook('b.example.com', {
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      }),
    );
    mutating(
      sim,
      'a',
      hook('a.example.com', {
        reinvocationPolicy: 'IfNeeded',
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      }),
    );
    const pod = apiCreatePod(sim);
    expect(pod.metadata.labels).to.deep.equal({ a: 'yes', b: 'yes' });
    expect(reviews.map((r) => r.hook)).to.deep.equal(['a.example.com', 'b.example.com', 'a.example.com']);
    expect(reviews[0].review.request.object?.metadata.uid).to.equal(undefined);
    expect(
      sim.timeline
        .all()
        .filter((e) => e.component === 'admission')
        .map((e) => e.text),
    ).to.deep.equal([
      'webhook a.example.com patched CREATE pods/web: 1 operation',
      'webhook b.example.com patched CREATE pods/web: 1 operation',
      'webhook a.example.com allowed CREATE pods/web',
    ]);
  });

  it('a caller without its answer yet (WebhookCallPending) stops the request before storage, leaving no trace', () => {
    const sim = newSim();
    apiCreatePod(sim);
    validating(sim, 'v', hook('v.example.com'));
    let answer: WebhookOutcome | undefined;
    sim.api.webhookCaller = {
      call: (h, review) => {
        if (!answer) throw new WebhookCallPending(h, review);
        return { response: { uid: review.request.uid, allowed: true } };
      },
    };
    const before = {
      events: sim.timeline.recorded,
      revision: sim.api.etcd.currentRevision,
      last: sim.api.lastRequest?.id,
    };
    expect(() => sim.api.patch(USER, 'pods', NS, 'web', 'merge', { metadata: { labels: { a: 'b' } } })).to.throw(
      WebhookCallPending,
    );
    expect({
      events: sim.timeline.recorded,
      revision: sim.api.etcd.currentRevision,
      last: sim.api.lastRequest?.id,
    }).to.deep.equal(before);
    expect(sim.timeline.all()).to.have.length(before.events);
    answer = { response: {} };
    ok(sim.api.patch(USER, 'pods', NS, 'web', 'merge', { metadata: { labels: { a: 'b' } } }));
    expect(sim.api.lastRequest?.id).to.equal(before.last! + 1);
  });
});

describe('webhook admission of evictions (R203)', () => {
  it('CREATE pods/eviction: the webhook sees the policy/v1 Eviction on the pods resource and can refuse it before the pod is touched', () => {
    const { sim, reviews } = withWebhooks({
      'pdb.example.com': respond({
        allowed: false,
        status: { code: 429, reason: 'TooManyRequests', message: 'budget exhausted' },
      }),
    });
    apiCreatePod(sim);
    validating(
      sim,
      'pdb',
      hook('pdb.example.com', {
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }],
      }),
    );
    const revision = sim.api.etcd.currentRevision;
    const status = failure(
      sim.api.evict(USER, NS, 'web', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web' } }),
      429,
      'TooManyRequests',
    );
    expect(status.message).to.equal('admission webhook "pdb.example.com" denied the request: budget exhausted');
    expect(sim.api.etcd.currentRevision).to.equal(revision);
    const { request } = reviews[0].review;
    expect(request.kind).to.deep.equal({ group: 'policy', version: 'v1', kind: 'Eviction' });
    expect(request.resource).to.deep.equal({ group: '', version: 'v1', resource: 'pods' });
    expect(request.subResource).to.equal('eviction');
    expect(request.object?.kind).to.equal('Eviction');
  });
});

/**
 * R203 — where the scheme's defaults are applied relative to admission: the request decoder
 * defaults the body (create.go / update.go decode through the versioning codec, patch.go
 * applyPatchToObject defaults the patched object), so mutating admission already sees a defaulted
 * object; the mutating webhook dispatcher (callAttrMutatingHook) and the MutatingAdmissionPolicy
 * dispatcher (dispatchOne) default every object they patched again.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Deployment, MutatingWebhookConfiguration, Pod, Service } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { apiCreatePod, newSim, NS, ok, USER, type Sim } from '../testing';
import type { AdmissionReview, WebhookOutcome } from './caller';

type Server = (review: AdmissionReview) => WebhookOutcome;

function withWebhook(
  server: Server,
  resources = ['pods'],
  apiGroups = [''],
  release?: Release,
): { sim: Sim; reviews: AdmissionReview[] } {
  const sim = newSim(release);
  const reviews: AdmissionReview[] = [];
  sim.api.webhookCaller = {
    call: (_hook, review) => {
      // As sent over the wire: the apiserver goes on preparing its object in place.
      reviews.push(structuredClone(review));
      return server(review);
    },
  };
  const c: MutatingWebhookConfiguration = {
    metadata: { name: 'inject' },
    webhooks: [
      {
        name: 'inject.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        clientConfig: { url: 'https://127.0.0.1:9443/hook' },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups, apiVersions: ['v1'], resources }],
      },
    ],
  };
  ok(sim.api.create(USER, 'mutatingwebhookconfigurations', undefined, c));
  return { sim, reviews };
}

const allow: Server = (r) => ({ response: { uid: r.request.uid, allowed: true } });
const patch =
  (ops: object[]): Server =>
  (r) => ({
    response: {
      uid: r.request.uid,
      allowed: true,
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
    },
  });

describe('R203 defaults before and after mutating admission (versioning codec, mutating/dispatcher.go)', () => {
  it("a CREATE's AdmissionReview carries the pod as decoded: SetDefaults_PodSpec and SetDefaults_Container applied", () => {
    const { sim, reviews } = withWebhook(allow);
    apiCreatePod(sim, 'web', {
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
    });
    const pod = reviews[0].request.object as Pod;
    // What a real webhook receives for a bare pod: the defaults kube-apiserver's decoder fills in.
    expect(pod.spec).to.deep.include({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      securityContext: {},
      enableServiceLinks: true,
    });
    expect(pod.spec?.containers[0]).to.deep.include({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    // …but nothing BeforeCreate or the strategy adds: no uid, no status, no creation time.
    expect(pod.metadata.uid).to.equal(undefined);
    expect(pod.metadata.creationTimestamp).to.equal(undefined);
    expect(pod.status).to.equal(undefined);
  });

  it('a field a webhook patch removes is defaulted again before it is stored', () => {
    const { sim } = withWebhook(
      patch([
        { op: 'remove', path: '/spec/terminationGracePeriodSeconds' },
        { op: 'remove', path: '/spec/containers/0/imagePullPolicy' },
      ]),
    );
    const pod = apiCreatePod(sim, 'web', { spec: { containers: [{ name: 'app', image: 'nginx' }] } });
    expect(pod.spec?.terminationGracePeriodSeconds).to.equal(30);
    // SetDefaults_Container: an image without a tag pulls Always.
    expect(pod.spec?.containers[0].imagePullPolicy).to.equal('Always');
  });

  it('a container a webhook injects is defaulted before the next webhook and the validation see it', () => {
    const { sim } = withWebhook(
      patch([
        {
          op: 'add',
          path: '/spec/containers/-',
          value: { name: 'proxy', image: 'envoy:v1', ports: [{ containerPort: 15001 }] },
        },
      ]),
    );
    const pod = apiCreatePod(sim, 'web');
    expect(pod.spec?.containers[1]).to.deep.include({
      name: 'proxy',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 15001, protocol: 'TCP' }],
    });
  });

  it('PATCH and PUT: the webhook sees the patched or sent object defaulted (patch.go applyPatchToObject, update.go)', () => {
    const { sim, reviews } = withWebhook(allow, ['deployments'], ['apps']);
    const d: Deployment = {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } },
      },
    };
    ok(sim.api.create(USER, 'deployments', NS, d));
    const created = reviews[0].request.object as Deployment;
    expect(created.spec).to.deep.include({ replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
    expect(created.spec?.strategy).to.deep.equal({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(created.spec?.template.spec?.terminationGracePeriodSeconds).to.equal(30);
    // A merge patch that replaces the containers: the new container is defaulted before admission.
    ok(
      sim.api.patch(USER, 'deployments', NS, 'web', 'merge', {
        spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } },
      }),
    );
    const patched = reviews[1].request.object as Deployment;
    expect(reviews[1].request.operation).to.equal('UPDATE');
    expect(patched.spec?.template.spec?.containers[0]).to.deep.include({
      image: 'nginx:2',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
    });
    // A PUT without the strategy: the body is decoded with its defaults.
    const current = ok(sim.api.get('deployments', NS, 'web')) as Deployment;
    const { strategy: _s, ...spec } = current.spec!;
    ok(sim.api.update(USER, 'deployments', NS, { ...current, spec } as Deployment));
    expect((reviews[2].request.object as Deployment).spec?.strategy?.type).to.equal('RollingUpdate');
  });

  it("a Service's webhook sees SetDefaults_Service: type, session affinity, each port's protocol and targetPort", () => {
    const { sim, reviews } = withWebhook(allow, ['services']);
    const svc: Service = { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };
    ok(sim.api.create(USER, 'services', NS, svc));
    const seen = reviews[0].request.object as Service;
    expect(seen.spec).to.deep.include({ type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' });
    expect(seen.spec?.ports?.[0]).to.deep.include({ port: 80, protocol: 'TCP', targetPort: 80 });
  });

  it('a MutatingAdmissionPolicy patch that removes a default is defaulted again (policy/mutating dispatcher.go)', () => {
    const sim = newSim(Release.of(36));
    ok(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'strip' },
        spec: {
          matchConstraints: {
            resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          },
          // The object it sees is defaulted: its condition reads the default dnsPolicy.
          matchConditions: [{ name: 'defaulted', expression: 'object.spec.dnsPolicy == "ClusterFirst"' }],
          mutations: [
            {
              patchType: 'JSONPatch',
              jsonPatch: {
                expression:
                  '[JSONPatch{op: "remove", path: "/spec/schedulerName"}, JSONPatch{op: "add", path: "/metadata/labels", value: {"seen": string(object.spec.terminationGracePeriodSeconds)}}]',
              },
            },
          ],
        },
      } as never),
    );
    ok(
      sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, {
        metadata: { name: 'strip-binding' },
        spec: { policyName: 'strip' },
      } as never),
    );
    const pod = apiCreatePod(sim, 'web');
    expect(pod.metadata.labels).to.deep.equal({ seen: '30' });
    expect(pod.spec?.schedulerName).to.equal('default-scheduler');
  });
});

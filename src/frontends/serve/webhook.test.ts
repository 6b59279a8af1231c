// It spawns the real kubectl against a served cluster and runs an HTTPS webhook server: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { USER } from '../../cluster/cluster';
import { realKubectlPath } from '../kubectl/real-kubectl';
import { testCertificates } from '../server/test-certificates';
import { formatTimeline } from '../../foundation/timeline/text';
import { parseClockMode } from './clock-driver';
import { serve, type ServedCluster } from './serve';

/**
 * Admission webhooks (and ValidatingAdmissionPolicies) in `serve`, judged by the real kubectl v1.36: a webhook server written here
 * (node:https, a CA made with node:crypto) that protects the finalizer of pod `held`, reached
 * through a Service reference (resolved to the loopback address, its certificate checked against
 * the caBundle for `pod-guard.default.svc`); and a webhook whose server is down.
 */
const FINALIZER = 'example.com/hold';
let served: ServedCluster;
let webhook: Server;
let webhookPort: number;
let kubectl: string;
const reviews: { operation: string; name: string; uid: string; dryRun: boolean; options: { kind?: string } | null }[] =
  [];
const certs = testCertificates(['pod-guard.default.svc']);

before(async () => {
  webhook = createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const r = review.request;
      if (req.url?.startsWith('/slow')) return; // never answers: the apiserver's deadline ends the call
      if (req.url?.startsWith('/mutate')) {
        const patch = Buffer.from(
          JSON.stringify([{ op: 'add', path: '/metadata/labels/guarded', value: 'yes' }]),
        ).toString('base64');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: { uid: r.uid, allowed: true, patchType: 'JSONPatch', patch },
          }),
        );
        return;
      }
      reviews.push({ operation: r.operation, name: r.name, uid: r.uid, dryRun: r.dryRun, options: r.options });
      const had = (r.oldObject?.metadata?.finalizers ?? []).includes(FINALIZER);
      const has = (r.object?.metadata?.finalizers ?? []).includes(FINALIZER);
      const response =
        had && !has
          ? {
              uid: r.uid,
              allowed: false,
              status: { code: 403, reason: 'Forbidden', message: `finalizer ${FINALIZER} is protected` },
            }
          : { uid: r.uid, allowed: true };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((done) => webhook.listen(0, '127.0.0.1', done));
  webhookPort = (webhook.address() as AddressInfo).port;
  served = await serve({
    port: 0,
    clock: parseClockMode('jump'),
    reportDir: mkdtempSync(join(tmpdir(), 'webhook-test-')),
  });
  kubectl = await realKubectlPath();
});
after(async () => {
  await served?.close();
  webhook?.close();
});

/** One HOME for the file: kubectl's discovery and OpenAPI cache (per server address) is reused from one run to the next. */
const home = mkdtempSync(join(tmpdir(), 'webhook-home-'));

function run(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: served.kubeconfig };
  return new Promise((resolve) => {
    const child = execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

function configuration(
  name: string,
  clientConfig: object,
  o: { kind?: string; operations?: string[]; timeoutSeconds?: number; matchConditions?: object[] } = {},
): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: o.kind ?? 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: `${name}.example.com`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        timeoutSeconds: o.timeoutSeconds ?? 5,
        clientConfig,
        rules: [{ operations: o.operations ?? ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        ...(o.matchConditions ? { matchConditions: o.matchConditions } : {}),
      },
    ],
  });
}

const service = (path: string) => ({
  service: { namespace: 'default', name: 'pod-guard', port: webhookPort, path },
  caBundle: Buffer.from(certs.caPem).toString('base64'),
});

/**
 * Setup and teardown the test is not about: a webhook configuration made or removed through the
 * API directly, as a controller would, instead of a kubectl run of its own (each costs a kubectl
 * start-up). What kubectl is asked to do and prints stays the subject of every test.
 */
function configure(body: string): void {
  const object = JSON.parse(body) as { kind: string; metadata: { name: string } };
  const created = served.cluster.apiserver.create(USER, resourceOf(object.kind), undefined, object as never);
  if (!created.ok) throw new Error(`${object.kind} ${object.metadata.name}: ${created.status.message}`);
}

function unconfigure(kind: string, name: string): void {
  const deleted = served.cluster.apiserver.delete(USER, resourceOf(kind), undefined, name);
  if (!deleted.ok) throw new Error(`${kind} ${name}: ${deleted.status.message}`);
}

const resourceOf = (kind: string) =>
  kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';

const removeFinalizer = [
  'patch',
  'pod',
  'held',
  '--type=json',
  '-p',
  '[{"op":"remove","path":"/metadata/finalizers/0"}]',
];

describe('admission webhooks over HTTPS against the served cluster, with the real kubectl v1.36 (R201, R204, R206, R208, R209, R210)', () => {
  it("a webhook denies the finalizer removal: kubectl prints upstream's denial and the pod keeps its finalizer", async () => {
    const caBundle = Buffer.from(certs.caPem).toString('base64');
    const created = await run(
      ['create', '-f', '-'],
      configuration('pod-guard', {
        service: { namespace: 'default', name: 'pod-guard', port: webhookPort, path: '/validate' },
        caBundle,
      }),
    );
    expect(created.stdout.trim(), created.stderr).to.equal(
      'validatingwebhookconfiguration.admissionregistration.k8s.io/pod-guard created',
    );
    const listed = await run(['get', 'validatingwebhookconfigurations']);
    expect(listed.stdout).to.match(/^NAME\s+WEBHOOKS\s+AGE\npod-guard\s+1\s+\S+\n$/);

    const patched = await run(removeFinalizer);
    expect(patched.code).to.equal(1);
    expect(patched.stderr.trim()).to.equal(
      `Error from server (Forbidden): admission webhook "pod-guard.example.com" denied the request: finalizer ${FINALIZER} is protected`,
    );
    const pod = served.cluster.apiserver.get('pods', 'default', 'held');
    expect(pod.ok && pod.object.metadata.finalizers).to.deep.equal([FINALIZER]);
    const review = reviews.at(-1)!;
    expect(review).to.include({ operation: 'UPDATE', name: 'held', dryRun: false });
    expect(review.options?.kind).to.equal('UpdateOptions');
    expect(formatTimeline(served.cluster.timeline.since(served.t0), served.t0)).to.include(
      `webhook pod-guard.example.com denied UPDATE pods/held: finalizer ${FINALIZER} is protected`,
    );

    // Another update of the pod passes the same webhook.
    const labelled = await run(['label', 'pod', 'held', 'team=a']);
    expect(labelled.stdout.trim(), labelled.stderr).to.equal('pod/held labeled');
  });

  it("a failurePolicy Fail webhook that is down blocks the update with upstream's message; deleting its configuration releases it", async () => {
    unconfigure('ValidatingWebhookConfiguration', 'pod-guard');
    // A port nothing listens on: the webhook server is down.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const downPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    configure(configuration('down', { url: `https://127.0.0.1:${downPort}/validate` }));

    const patched = await run(removeFinalizer);
    expect(patched.code).to.equal(1);
    expect(patched.stderr.trim()).to.equal(
      `Error from server (InternalError): Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:${downPort}/validate?timeout=5s": dial tcp 127.0.0.1:${downPort}: connect: connection refused`,
    );
    unconfigure('ValidatingWebhookConfiguration', 'down');
    const released = await run(removeFinalizer);
    expect(released.stdout.trim(), released.stderr).to.equal('pod/held patched');
  });

  it("a mutating webhook's JSONPatch labels the pod kubectl creates; a webhook slower than timeoutSeconds fails with context deadline exceeded", async () => {
    configure(
      configuration('labeller', service('/mutate'), { kind: 'MutatingWebhookConfiguration', operations: ['CREATE'] }),
    );
    const pod = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'mutated', labels: { app: 'mutated' } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] },
    });
    const created = await run(['create', '-f', '-', '-o', 'jsonpath={.metadata.labels.guarded}'], pod);
    expect(created.stdout, created.stderr).to.equal('yes');
    expect(formatTimeline(served.cluster.timeline.since(served.t0), served.t0)).to.include(
      'webhook labeller.example.com patched CREATE pods/mutated: 1 operation',
    );
    unconfigure('MutatingWebhookConfiguration', 'labeller');

    configure(configuration('slow', service('/slow'), { timeoutSeconds: 1 }));
    const patched = await run(['label', 'pod', 'mutated', 'slow=yes']);
    expect(patched.stderr.trim()).to.equal(
      `Error from server (InternalError): Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://pod-guard.default.svc:${webhookPort}/slow?timeout=1s": context deadline exceeded`,
    );
    unconfigure('ValidatingWebhookConfiguration', 'slow');
  });

  it('matchConditions: kubectl prints the CEL validation error; a false condition skips the webhook and the finalizer removal passes', async () => {
    const bad = await run(
      ['create', '-f', '-'],
      configuration('bad-cel', service('/validate'), {
        matchConditions: [{ name: 'labelled', expression: 'object.metadata.labels' }],
      }),
    );
    expect(bad.stderr.trim()).to.equal(
      'The ValidatingWebhookConfiguration "bad-cel" is invalid: webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.labels": must evaluate to bool but got dyn',
    );
    const skipGuard = { name: 'not-skip-guard', expression: "!('skip-guard' in object.metadata.?labels.orValue({}))" };
    configure(configuration('cel-guard', service('/validate'), { matchConditions: [skipGuard] }));
    const held = await run([
      'patch',
      'pod',
      'held',
      '--type=json',
      '-p',
      JSON.stringify([
        { op: 'add', path: '/metadata/finalizers', value: [FINALIZER] },
        { op: 'add', path: '/metadata/labels/skip-guard', value: 'yes' },
      ]),
    ]);
    expect(held.stdout.trim(), held.stderr).to.equal('pod/held patched');
    const released = await run(removeFinalizer);
    expect(released.stdout.trim(), released.stderr).to.equal('pod/held patched');
    expect(formatTimeline(served.cluster.timeline.since(served.t0), served.t0)).to.include(
      'webhook cel-guard.example.com skipped UPDATE pods/held: matchCondition "not-skip-guard" is false',
    );
  });

  it("a ValidatingAdmissionPolicy denies a label with upstream's text, another binding's Warn reaches kubectl as a warning; kubectl lists both kinds", async () => {
    const rules = {
      resourceRules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    };
    const policy = (name: string, expression: string, message: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: { matchConstraints: rules, validations: [{ expression, message }] },
    });
    const binding = (name: string, validationActions: string[]) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: name, validationActions },
    });
    const documents = [
      policy('no-frozen', "!('frozen' in object.metadata.?labels.orValue({}))", 'frozen pods may not be changed'),
      binding('no-frozen', ['Deny']),
      policy(
        'deprecated-label',
        "!('deprecated' in object.metadata.?labels.orValue({}))",
        'the deprecated label is going away',
      ),
      binding('deprecated-label', ['Warn']),
    ];
    const created = await run(['create', '-f', '-'], documents.map((d) => JSON.stringify(d)).join('\n---\n'));
    expect(created.stdout.trim().split('\n'), created.stderr).to.deep.equal([
      'validatingadmissionpolicy.admissionregistration.k8s.io/no-frozen created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/no-frozen created',
      'validatingadmissionpolicy.admissionregistration.k8s.io/deprecated-label created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/deprecated-label created',
    ]);
    const denied = await run(['label', 'pod', 'held', 'frozen=yes']);
    expect(denied.code).to.equal(1);
    expect(denied.stderr.trim()).to.equal(
      `The pods "held" is invalid: : ValidatingAdmissionPolicy 'no-frozen' with binding 'no-frozen' denied request: frozen pods may not be changed`,
    );
    const warned = await run(['label', 'pod', 'held', 'deprecated=yes']);
    expect(warned.stdout.trim()).to.equal('pod/held labeled');
    expect(warned.stderr.trim()).to.equal(
      "Warning: Validation failed for ValidatingAdmissionPolicy 'deprecated-label' with binding 'deprecated-label': the deprecated label is going away",
    );
    const listed = await run(['get', 'validatingadmissionpolicies,validatingadmissionpolicybindings']);
    expect(listed.stdout).to.match(
      /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nvalidatingadmissionpolicy.admissionregistration.k8s.io\/deprecated-label\s+1\s+<unset>\s+\S+\n/,
    );
    expect(listed.stdout).to.match(
      /NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nvalidatingadmissionpolicybinding.admissionregistration.k8s.io\/deprecated-label\s+deprecated-label\s+<unset>\s+\S+\n/,
    );
  });
  it('a ValidatingAdmissionPolicy whose limit comes from a ConfigMap (paramKind, paramRef): kubectl is denied above it, and once the ConfigMap is gone', async () => {
    const documents = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'replica-limit', namespace: 'default' },
        data: { maxReplicas: '3' },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'replica-limit' },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: {
            resourceRules: [
              {
                operations: ['CREATE', 'UPDATE'],
                apiGroups: ['apps'],
                apiVersions: ['v1'],
                resources: ['deployments'],
              },
            ],
          },
          validations: [
            {
              expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
              messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'",
            },
          ],
          auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'replica-limit' },
        spec: {
          policyName: 'replica-limit',
          validationActions: ['Deny'],
          paramRef: { name: 'replica-limit', parameterNotFoundAction: 'Deny' },
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'capped', namespace: 'default' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'capped' } },
          template: {
            metadata: { labels: { app: 'capped' } },
            spec: { containers: [{ name: 'app', image: 'nginx' }] },
          },
        },
      },
    ];
    const created = await run(['create', '-f', '-'], documents.map((d) => JSON.stringify(d)).join('\n---\n'));
    expect(created.stdout.trim().split('\n'), created.stderr).to.deep.equal([
      'configmap/replica-limit created',
      'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit created',
      'deployment.apps/capped created',
    ]);
    const denied = await run(['patch', 'deployment', 'capped', '-p', '{"spec":{"replicas":5}}']);
    expect(denied.stderr.trim()).to.equal(
      `The deployments "capped" is invalid: : ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: at most 3 replicas`,
    );
    const listed = await run([
      'get',
      'validatingadmissionpolicy/replica-limit',
      'validatingadmissionpolicybinding/replica-limit',
    ]);
    expect(listed.stdout).to.match(/replica-limit\s+1\s+v1\/ConfigMap\s+\S+\n/);
    expect(listed.stdout).to.match(/replica-limit\s+replica-limit\s+\*\/replica-limit\s+\S+\n/);
    expect(served.cluster.apiserver.delete(USER, 'configmaps', 'default', 'replica-limit').ok).to.equal(true);
    const missing = await run(['patch', 'deployment', 'capped', '-p', '{"spec":{"replicas":1}}']);
    expect(missing.stderr.trim()).to.equal(
      "The deployments \"capped\" is invalid: : ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    expect(formatTimeline(served.cluster.timeline.since(served.t0), served.t0)).to.include(
      'policy replica-limit audit annotation CREATE deployments/capped: replica-limit/replicas=2',
    );
  });
});
